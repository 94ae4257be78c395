#include "encode/legacy_events.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <span>

#include "parser/char_class.h"
#include "parser/spec_diagnostics.h"
#include "pmucat/version.h"

PMUCAT_BEGIN_NAMESPACE
namespace encode_detail {
namespace {

using char_class::ascii_iequal;

constexpr LegacyEvent hw(std::uint64_t config) {
  return {PerfType::hardware, config};
}
constexpr LegacyEvent sw(std::uint64_t config) {
  return {PerfType::software, config};
}

using enum BuiltinKind;

// PERF_COUNT_HW_* and PERF_COUNT_SW_* in perf 6.1's enum order, each with perf's name and the
// alias it lists after `OR`, then perf's tool events (duration_time, user_time, system_time:
// counted by perf itself), which are a software dummy event in the attr perf builds (type 1,
// config 9). Both spellings are accepted by perf's lexer; the descriptions are pmucat's.
constexpr std::array<LegacySymbol, 25> kSymbols{{
    {"cpu-cycles", "cycles", hardware, hw(0), "CPU cycles (the core clock, which may vary)"},
    {"instructions", "", hardware, hw(1), "Retired instructions"},
    {"cache-references", "", hardware, hw(2), "Cache accesses (usually the last-level cache's)"},
    {"cache-misses", "", hardware, hw(3), "Cache misses (usually the last-level cache's)"},
    {"branch-instructions", "branches", hardware, hw(4), "Retired branch instructions"},
    {"branch-misses", "", hardware, hw(5), "Mispredicted branch instructions"},
    {"bus-cycles", "", hardware, hw(6), "Bus cycles"},
    {"stalled-cycles-frontend", "idle-cycles-frontend", hardware, hw(7),
     "Cycles the front end issued no instructions"},
    {"stalled-cycles-backend", "idle-cycles-backend", hardware, hw(8),
     "Cycles stalled in the back end"},
    {"ref-cycles", "", hardware, hw(9), "Reference cycles, at a constant rate"},
    {"cpu-clock", "", software, sw(0), "A per-CPU high-resolution timer, in nanoseconds"},
    {"task-clock", "", software, sw(1), "Time the task ran on a CPU, in nanoseconds"},
    {"page-faults", "faults", software, sw(2), "Page faults"},
    {"context-switches", "cs", software, sw(3), "Context switches"},
    {"cpu-migrations", "migrations", software, sw(4), "Moves of the task to another CPU"},
    {"minor-faults", "", software, sw(5), "Page faults served without I/O"},
    {"major-faults", "", software, sw(6), "Page faults that needed I/O"},
    {"alignment-faults", "", software, sw(7), "Unaligned accesses the kernel fixed up"},
    {"emulation-faults", "", software, sw(8), "Instructions the kernel emulated"},
    {"dummy", "", software, sw(9), "Counts nothing: carries sideband records (mmap, comm) alone"},
    {"bpf-output", "", software, sw(10), "Output of BPF programs (bpf_perf_event_output)"},
    {"cgroup-switches", "", software, sw(11), "Context switches to a task of another cgroup"},
    {"duration_time", "", tool, sw(9), "Wall-clock time of the run, measured by perf"},
    {"user_time", "", tool, sw(9), "User-mode CPU time of the command, measured by perf"},
    {"system_time", "", tool, sw(9), "Kernel-mode CPU time of the command, measured by perf"},
}};

// The cache names perf 6.1's lexer knows (case-sensitive), in PERF_COUNT_HW_CACHE_* order: the
// first spelling of each is perf's own.
constexpr std::array<std::array<std::string_view, 5>, 7> kCacheTypes{{
    {"L1-dcache", "l1-d", "l1d", "L1-data"},
    {"L1-icache", "l1-i", "l1i", "L1-instruction"},
    {"LLC", "L2"},
    {"dTLB", "d-tlb", "Data-TLB"},
    {"iTLB", "i-tlb", "Instruction-TLB"},
    {"branch", "branches", "bpu", "btb", "bpc"},
    {"node"},
}};
constexpr std::array<std::array<std::string_view, 4>, 3> kCacheOps{{
    {"load", "loads", "read"},
    {"store", "stores", "write"},
    {"prefetch", "prefetches", "speculative-read", "speculative-load"},
}};
constexpr std::array<std::array<std::string_view, 4>, 2> kCacheResults{{
    {"refs", "Reference", "ops", "access"},
    {"misses", "miss"},
}};
// Which operations each cache type supports (bit per PERF_COUNT_HW_CACHE_OP_*): L1I read and
// prefetch, ITLB and BPU read only, the others all three.
constexpr std::array<unsigned, 7> kCacheOpsValid{7, 5, 7, 7, 1, 1, 7};

// What the built-in names (kSymbols) and the cache types' spellings (kCacheTypes) start with:
// most names a spec holds (PMU names such as `cpu`, `uncore_imc_0`) are told apart by a lookup
// here instead of a walk of every table (perf's lexer is case-sensitive).
// Per first byte, a bit for each length (below 32) a built-in name with that byte has.
constexpr std::array<std::uint32_t, 256> symbol_shapes() {
  std::array<std::uint32_t, 256> table{};
  for (std::size_t i = 0; i < kSymbols.size(); ++i) {
    for (std::string_view name : {kSymbols[i].name, kSymbols[i].alias}) {
      if (!name.empty()) table[static_cast<unsigned char>(name.front())] |= 1u << name.size();
    }
  }
  return table;
}
constexpr std::array<std::uint32_t, 256> kSymbolShapes = symbol_shapes();
static_assert(std::all_of(kSymbols.begin(), kSymbols.end(), [](const LegacySymbol& symbol) {
  return symbol.name.size() < 32 && symbol.alias.size() < 32;
}));
// GCC 12 cannot read kCacheTypes in a constant expression: its spellings' first bytes, checked
// against the table by CacheEvents.EveryTypeSpellingIsFound (tests/encode/grammar_forms_test.cpp).
constexpr std::string_view kCacheFirstBytes = "LlDdIibn";

// The length of the longest of `names` that `text` starts with (case-sensitive: the lexer's).
template <class Names>
std::size_t longest_prefix(std::string_view text, const Names& names) {
  std::size_t longest = 0;
  for (std::string_view candidate : names) {
    if (!candidate.empty() && text.starts_with(candidate)) {
      longest = std::max(longest, candidate.size());
    }
  }
  return longest;
}

// The longest built-in symbol name `text` starts with: these lexer rules come first, so they win
// a tie (`branches` is never a cache type).
std::size_t symbol_prefix(std::string_view text) {
  std::size_t longest = 0;
  for (const LegacySymbol& entry : kSymbols) {
    for (std::string_view name : {entry.name, entry.alias}) {
      if (!name.empty() && text.starts_with(name)) longest = std::max(longest, name.size());
    }
  }
  return longest;
}

// The lexer's `name` rule, [a-zA-Z_*?\[\]][a-zA-Z0-9_*?.\[\]!]*, which comes after the cache
// rules (so it takes a token only when longer).
std::size_t name_rule_prefix(std::string_view text) {
  auto first = [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '*' || c == '?' ||
           c == '[' || c == ']';
  };
  auto rest = [&](char c) { return first(c) || (c >= '0' && c <= '9') || c == '.' || c == '!'; };
  if (text.empty() || !first(text[0])) return 0;
  std::size_t length = 1;
  while (length < text.size() && rest(text[length])) ++length;
  return length;
}

// One token as the lexer cuts it at the start of `text`, when it is one of `names`: the names'
// longest match must beat the symbol rules before them and not lose to the `name` rule after.
template <class Table>
std::size_t cache_token(std::string_view text, const Table& table) {
  std::size_t length = 0;
  for (const auto& spellings : table) length = std::max(length, longest_prefix(text, spellings));
  if (length == 0 || symbol_prefix(text) >= length || name_rule_prefix(text) > length) return 0;
  return length;
}

// perf's parse_aliases(): the first row with a spelling `token` starts with, ignoring case.
template <class Table>
std::optional<unsigned> alias_row(std::string_view token, const Table& table) {
  auto starts_with_ignoring_case = [](std::string_view text, std::string_view prefix) {
    if (text.size() < prefix.size()) return false;
    for (std::size_t i = 0; i < prefix.size(); ++i) {
      auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c + 32) : c; };
      if (lower(text[i]) != lower(prefix[i])) return false;
    }
    return true;
  };
  for (unsigned row = 0; row < table.size(); ++row) {
    for (std::string_view spelling : table[row]) {
      if (!spelling.empty() && starts_with_ignoring_case(token, spelling)) return row;
    }
  }
  return std::nullopt;
}

// A hardware cache event name as perf 6.1 reads it: its lexer's tokens TYPE[-OPRES[-OPRES]]
// (all case-sensitive), then parse_events_add_cache(): the first op/result word that names an
// operation sets it (an operation the type lacks rejects the name), one that names a result
// sets that, any other is ignored; the operation defaults to read, the result to access.
std::optional<LegacyEvent> find_cache_event(std::string_view name) {
  std::vector<std::string_view> tokens;
  const std::size_t type_length = cache_token(name, kCacheTypes);
  if (type_length == 0) return std::nullopt;
  tokens.push_back(name.substr(0, type_length));
  std::string_view rest = name.substr(type_length);
  while (!rest.empty()) {
    if (tokens.size() == 3 || rest.front() != '-') return std::nullopt;
    rest.remove_prefix(1);
    std::size_t length = std::max(cache_token(rest, kCacheOps), cache_token(rest, kCacheResults));
    if (length == 0) return std::nullopt;
    tokens.push_back(rest.substr(0, length));
    rest.remove_prefix(length);
  }
  const std::optional<unsigned> type = alias_row(tokens[0], kCacheTypes);
  if (!type) return std::nullopt;
  std::optional<unsigned> op;
  std::optional<unsigned> result;
  for (std::size_t i = 1; i < tokens.size(); ++i) {
    if (!op) {
      op = alias_row(tokens[i], kCacheOps);
      if (op) {
        if ((kCacheOpsValid[*type] & (1u << *op)) == 0) return std::nullopt;
        continue;
      }
    }
    if (!result) result = alias_row(tokens[i], kCacheResults);
  }
  const std::uint64_t config =
      *type | (std::uint64_t{op.value_or(0)} << 8) | (std::uint64_t{result.value_or(0)} << 16);
  return LegacyEvent{PerfType::hw_cache, config};
}

// perf 6.12's lexer words for a cache event, TYPE[-OPRES[-OPRES]] (its lc_type and
// lc_op_result): a name is a cache event only when these cover it whole.
constexpr std::array<std::string_view, 22> kLexerCacheTypes{
    "L1-dcache", "l1-d",     "l1d",  "L1-data", "L1-icache", "l1-i", "l1i",   "L1-instruction",
    "LLC",       "L2",       "dTLB", "d-tlb",   "Data-TLB",  "iTLB", "i-tlb", "Instruction-TLB",
    "branch",    "branches", "bpu",  "btb",     "bpc",       "node"};
constexpr std::array<std::string_view, 16> kLexerCacheOpResults{"load",
                                                                "loads",
                                                                "read",
                                                                "store",
                                                                "stores",
                                                                "write",
                                                                "prefetch",
                                                                "prefetches",
                                                                "speculative-read",
                                                                "speculative-load",
                                                                "refs",
                                                                "Reference",
                                                                "ops",
                                                                "access",
                                                                "misses",
                                                                "miss"};

static_assert(std::all_of(kLexerCacheTypes.begin(), kLexerCacheTypes.end(),
                          [](std::string_view type) {
                            return kCacheFirstBytes.find(type.front()) != std::string_view::npos;
                          }),
              "find_legacy() turns away names whose first byte no cache type has");

// Whether `rest` is (-OPRES){0,left}, trying every word (the words contain '-', so a greedy
// cut could miss a match).
bool lexer_op_results(std::string_view rest, int left) {
  if (rest.empty()) return true;
  if (left == 0 || rest.front() != '-') return false;
  rest.remove_prefix(1);
  for (std::string_view word : kLexerCacheOpResults) {
    if (rest.starts_with(word) && lexer_op_results(rest.substr(word.size()), left - 1)) {
      return true;
    }
  }
  return false;
}

bool lexer_cache_name_612(std::string_view name) {
  for (std::string_view type : kLexerCacheTypes) {
    if (name.starts_with(type) && lexer_op_results(name.substr(type.size()), 2)) return true;
  }
  return false;
}

// perf 6.12's parse_aliases(): the longest spelling (of any row) `text` starts with, ignoring
// case; the first row wins a tie. Sets `length` to the spelling's length.
template <class Table>
std::optional<unsigned> longest_alias_row(std::string_view text, const Table& table,
                                          std::size_t& length) {
  auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c + 32) : c; };
  std::optional<unsigned> found;
  length = 0;
  for (unsigned row = 0; row < table.size(); ++row) {
    for (std::string_view spelling : table[row]) {
      if (spelling.empty() || spelling.size() <= length || text.size() < spelling.size()) continue;
      bool same = true;
      for (std::size_t i = 0; i < spelling.size() && same; ++i) {
        same = lower(text[i]) == lower(spelling[i]);
      }
      if (same) {
        found = row;
        length = spelling.size();
      }
    }
  }
  return found;
}

// perf 6.12's parse_events__decode_legacy_cache(): the type, then up to two words, each an
// operation (one the type lacks rejects the name) or else a result; each word is the longest
// spelling the text starts with, and one character after it is skipped. The operation defaults
// to read, the result to access.
std::optional<LegacyEvent> find_cache_event_612(std::string_view name) {
  if (!lexer_cache_name_612(name)) return std::nullopt;
  std::size_t length = 0;
  const std::optional<unsigned> type = longest_alias_row(name, kCacheTypes, length);
  if (!type) return std::nullopt;
  // perf walks a C string: past its end by one means done.
  auto advance = [&](std::string_view text, std::size_t by) {
    return by >= text.size() ? std::string_view{} : text.substr(by);
  };
  std::string_view rest = advance(name, length + 1);
  std::optional<unsigned> op;
  std::optional<unsigned> result;
  if (!rest.empty()) {
    op = longest_alias_row(rest, kCacheOps, length);
    if (op) {
      if ((kCacheOpsValid[*type] & (1u << *op)) == 0) return std::nullopt;
      rest = advance(rest, length + 1);
    } else {
      result = longest_alias_row(rest, kCacheResults, length);
      if (result) rest = advance(rest, length + 1);
    }
  }
  if (!rest.empty()) {
    if (!op) {
      op = longest_alias_row(rest, kCacheOps, length);
      if (op && (kCacheOpsValid[*type] & (1u << *op)) == 0) return std::nullopt;
    } else if (!result) {
      result = longest_alias_row(rest, kCacheResults, length);
    }
  }
  const std::uint64_t config =
      *type | (std::uint64_t{op.value_or(0)} << 8) | (std::uint64_t{result.value_or(0)} << 16);
  return LegacyEvent{PerfType::hw_cache, config};
}

// A built-in hardware or software name (both perfs' lexers have the same ones); the shape
// table turns most other names away without a comparison.
std::optional<LegacyEvent> find_symbol(std::string_view name) {
  if (name.size() >= 32 ||
      (kSymbolShapes[static_cast<unsigned char>(name.front())] & (1u << name.size())) == 0) {
    return std::nullopt;
  }
  for (const LegacySymbol& entry : kSymbols) {
    if (entry.name == name || entry.alias == name) return entry.event;
  }
  return std::nullopt;
}

// Every cache type spelling of either perf starts with one of kCacheFirstBytes.
template <class FindCache>
std::optional<LegacyEvent> find_legacy(std::string_view name, FindCache&& find_cache) {
  if (name.empty()) return std::nullopt;
  if (auto symbol = find_symbol(name)) return symbol;
  if (kCacheFirstBytes.find(name.front()) == std::string_view::npos) return std::nullopt;
  return find_cache(name);
}

bool all_of_chars(std::string_view text, std::string_view allowed) {
  return !text.empty() && text.find_first_not_of(allowed) == std::string_view::npos;
}
constexpr std::string_view kDigits = "0123456789";
constexpr std::string_view kHexDigits = "0123456789abcdefABCDEF";

// perf's lexer rules that come before its `name` rule and so take a whole group name away from
// it on a tie: built-in events, cache words, numbers, raw events and modifier strings.
std::string_view earlier_token(std::string_view name, Lexer lexer, bool builtin_tokens) {
  // perf 6.1's lexer: no '-' in a name, longer numbers, raw events and modifier strings.
  const bool short_tokens = lexer == Lexer::of_6_1;
  for (const LegacySymbol& symbol : builtin_tokens ? kSymbols : std::span<const LegacySymbol>{}) {
    if (name == symbol.name || (!symbol.alias.empty() && name == symbol.alias)) {
      return "a built-in event";
    }
  }
  if (!builtin_tokens) {
    // The built-in names are no tokens: they are looked up as events after lexing.
  } else if (short_tokens) {
    // 6.1's `name` has no '-', so only single cache words can tie with it.
    for (const auto& words : {std::span<const std::string_view>(kLexerCacheTypes),
                              std::span<const std::string_view>(kLexerCacheOpResults)}) {
      if (std::find(words.begin(), words.end(), name) != words.end()) return "a cache event word";
    }
  } else if (lexer_cache_name_612(name)) {
    return "a cache event";
  }
  if (all_of_chars(name, kDigits)) return "a number";
  if (name.size() > 2 && name.starts_with("0x") && all_of_chars(name.substr(2), kHexDigits) &&
      (short_tokens || name.size() <= 18)) {
    return "a number";
  }
  if (name.size() > 1 && name.front() == 'r' && all_of_chars(name.substr(1), kHexDigits) &&
      (short_tokens || name.size() <= 17)) {
    return "a raw event";
  }
  if (all_of_chars(name, short_tokens ? "ukhpPGHSDIWeb" : "ukhpPGHSDIWebR") &&
      (short_tokens || name.size() <= 16)) {
    return "a modifier string";
  }
  return {};
}

// tool.json of linux 7.3, in ConfigCode order.
constexpr std::array<std::string_view, 14> kToolPmuEvents = {
    "duration_time", "user_time",       "system_time", "has_pmem",     "num_cores",
    "num_cpus",      "num_cpus_online", "num_dies",    "num_packages", "slots",
    "smt_on",        "system_tsc_freq", "core_wide",   "target_cpu",
};

}  // namespace

}  // namespace encode_detail

std::span<const std::string_view> tool_pmu_event_names() {
  return encode_detail::kToolPmuEvents;
}

namespace encode_detail {

std::optional<LegacyEvent> find_tool_pmu_event(std::string_view name) {
  for (std::size_t i = 0; i < kToolPmuEvents.size(); ++i) {
    if (kToolPmuEvents[i] == "slots") continue;
    if (ascii_iequal(kToolPmuEvents[i], name)) {
      return LegacyEvent{static_cast<PerfType>(kToolPmuType), i + 1};
    }
  }
  return std::nullopt;
}

namespace {

// perf 7.3's table names match in any case (ASCII).
bool starts_any_case(std::string_view text, std::string_view prefix) {
  return text.size() >= prefix.size() && ascii_iequal(text.substr(0, prefix.size()), prefix);
}

// `-RESULT` whole, in any case: the result's index.
std::optional<unsigned> cache_result_73(std::string_view rest) {
  if (rest.size() < 2 || rest.front() != '-') return std::nullopt;
  rest.remove_prefix(1);
  for (unsigned result = 0; result < kCacheResults.size(); ++result) {
    for (std::string_view word : kCacheResults[result]) {
      if (!word.empty() && ascii_iequal(rest, word)) return result;
    }
  }
  return std::nullopt;
}

// linux 7.3's legacy-cache table: TYPE[-OP][-RESULT], OP among those TYPE supports; without an
// operation it is a read, without a result an access.
std::optional<LegacyEvent> find_cache_event_73(std::string_view name) {
  for (unsigned type = 0; type < kCacheTypes.size(); ++type) {
    for (std::string_view spelling : kCacheTypes[type]) {
      if (spelling.empty() || !starts_any_case(name, spelling)) continue;
      const std::string_view rest = name.substr(spelling.size());
      auto code = [&](unsigned op, unsigned result) {
        return LegacyEvent{PerfType::hw_cache, type | (op << 8) | (result << 16)};
      };
      if (rest.empty()) return code(0, 0);
      if (auto result = cache_result_73(rest)) return code(0, *result);
      if (rest.front() != '-') continue;
      for (unsigned op = 0; op < kCacheOps.size(); ++op) {
        if ((kCacheOpsValid[type] & (1U << op)) == 0) continue;
        for (std::string_view word : kCacheOps[op]) {
          if (word.empty() || !starts_any_case(rest.substr(1), word)) continue;
          const std::string_view after = rest.substr(1 + word.size());
          if (after.empty()) return code(op, 0);
          if (auto result = cache_result_73(after)) return code(op, *result);
        }
      }
    }
  }
  return std::nullopt;
}

}  // namespace

bool lexed_as_modifiers_73(std::string_view name) {
  return name.size() <= 17 && all_of_chars(name, "ukhpPGHSDIWebRX");
}

std::optional<LegacyEvent> find_legacy_event_73(std::string_view name) {
  for (const LegacySymbol& symbol : kSymbols) {
    if (symbol.kind == BuiltinKind::tool) continue;  // the tool PMU's own table
    if (ascii_iequal(name, symbol.name) ||
        (!symbol.alias.empty() && ascii_iequal(name, symbol.alias))) {
      return symbol.event;
    }
  }
  return find_cache_event_73(name);
}

std::vector<std::string> legacy_cache_names_73() {
  std::vector<std::string> names;
  for (unsigned type = 0; type < kCacheTypes.size(); ++type) {
    for (std::string_view spelling : kCacheTypes[type]) {
      if (spelling.empty()) continue;
      std::vector<std::string> stems = {std::string(spelling)};
      for (unsigned op = 0; op < kCacheOps.size(); ++op) {
        if ((kCacheOpsValid[type] & (1U << op)) == 0) continue;
        for (std::string_view word : kCacheOps[op]) {
          if (!word.empty()) stems.push_back(fmt::format("{}-{}", spelling, word));
        }
      }
      for (const std::string& stem : stems) {
        names.push_back(stem);
        for (const auto& results : kCacheResults) {
          for (std::string_view word : results) {
            if (!word.empty()) names.push_back(fmt::format("{}-{}", stem, word));
          }
        }
      }
    }
  }
  // The hardware names `branches` and `branch-misses` are the hardware events, not cache ones.
  std::erase_if(
      names, [](const std::string& name) { return name == "branches" || name == "branch-misses"; });
  return names;
}

std::optional<LegacyEvent> find_legacy_event_612(std::string_view name) {
  return find_legacy(name, find_cache_event_612);
}

std::optional<LegacyEvent> find_legacy_event(std::string_view name) {
  return find_legacy(name, find_cache_event);
}

std::span<const LegacySymbol> legacy_symbols() {
  return kSymbols;
}

std::vector<CacheEventName> cache_event_names() {
  constexpr std::array<std::string_view, 7> kTypeText{
      "L1 data cache",   "L1 instruction cache", "Last-level cache",      "Data TLB",
      "Instruction TLB", "Branch predictor",     "Local NUMA node memory"};
  constexpr std::array<std::string_view, 3> kOpText{"load", "store", "prefetch"};
  auto describe = [](std::string_view type, std::string_view op, std::string_view result) {
    std::string text;
    text.reserve(type.size() + op.size() + result.size() + 2);
    text.append(type).append(" ").append(op).append(" ").append(result);
    return text;
  };
  std::vector<CacheEventName> names;
  names.reserve(32);
  // Each type with each operation it supports, as perf names them: the access count
  // `TYPE-OPs` (`L1-dcache-loads`), then the misses `TYPE-OP-misses`.
  for (unsigned type = 0; type < kCacheTypes.size(); ++type) {
    for (unsigned op = 0; op < kCacheOps.size(); ++op) {
      if ((kCacheOpsValid[type] & (1u << op)) == 0) continue;
      const std::string prefix = std::string(kCacheTypes[type][0]) + "-";
      const std::uint64_t config = type | (std::uint64_t{op} << 8);
      names.push_back({prefix + std::string(kCacheOps[op][1]),
                       {PerfType::hw_cache, config},
                       describe(kTypeText[type], kOpText[op], "accesses")});
      names.push_back(
          {prefix + std::string(kCacheOps[op][0]) + "-" + std::string(kCacheResults[1][0]),
           {PerfType::hw_cache, config | (std::uint64_t{1} << 16)},
           describe(kTypeText[type], kOpText[op], "misses")});
    }
  }
  return names;
}

std::vector<std::string> legacy_event_names() {
  std::vector<std::string> names;
  for (const LegacySymbol& entry : kSymbols) {
    names.emplace_back(entry.name);
    if (!entry.alias.empty()) names.emplace_back(entry.alias);
  }
  for (CacheEventName& cache : cache_event_names()) names.push_back(std::move(cache.name));
  return names;
}

}  // namespace encode_detail
PMUCAT_END_NAMESPACE

PMUCAT_BEGIN_NAMESPACE
namespace encode_detail {

std::optional<GroupNameProblem> group_name_problem(std::string_view name, Lexer lexer,
                                                   bool builtin_tokens) {
  if (name.empty()) return std::nullopt;
  // perf 6.1's `name` rule: no digit first, no '-'.
  const bool plain_name = lexer == Lexer::of_6_1;
  auto first = [&](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '*' || c == '?' ||
           c == '[' || c == ']' || (!plain_name && c >= '0' && c <= '9');
  };
  auto rest = [&](char c) {
    return first(c) || (c >= '0' && c <= '9') || c == '.' || c == '!' || (!plain_name && c == '-');
  };
  for (std::size_t i = 0; i < name.size(); ++i) {
    if (!(i == 0 ? first(name[i]) : rest(name[i]))) {
      return GroupNameProblem{
          i, 1, fmt::format("unexpected {} in group name", spec_detail::describe_byte(name[i]))};
    }
  }
  const std::string_view token = earlier_token(name, lexer, builtin_tokens);
  if (token.empty()) return std::nullopt;
  return GroupNameProblem{
      0, name.size(),
      fmt::format("'{}' cannot name a group: perf's lexer reads it as {}", name, token)};
}

}  // namespace encode_detail
PMUCAT_END_NAMESPACE
