#include "encode/legacy_events.h"

#include <algorithm>
#include <array>

namespace pmucat::encode_detail {
namespace {

struct Named {
  std::string_view name;
  LegacyEvent event;
};

constexpr LegacyEvent hw(std::uint64_t config) {
  return {PerfType::hardware, config};
}
constexpr LegacyEvent sw(std::uint64_t config) {
  return {PerfType::software, config};
}

// PERF_COUNT_HW_* and PERF_COUNT_SW_* with the spellings perf 6.1 accepts. perf's tool events
// (duration_time, user_time, system_time: counted by perf itself) are a software dummy event
// in the attr perf builds (type 1, config 9).
constexpr std::array<Named, 32> kLegacy{{
    {"cpu-cycles", hw(0)},
    {"cycles", hw(0)},
    {"instructions", hw(1)},
    {"cache-references", hw(2)},
    {"cache-misses", hw(3)},
    {"branch-instructions", hw(4)},
    {"branches", hw(4)},
    {"branch-misses", hw(5)},
    {"bus-cycles", hw(6)},
    {"stalled-cycles-frontend", hw(7)},
    {"idle-cycles-frontend", hw(7)},
    {"stalled-cycles-backend", hw(8)},
    {"idle-cycles-backend", hw(8)},
    {"ref-cycles", hw(9)},
    {"cpu-clock", sw(0)},
    {"task-clock", sw(1)},
    {"page-faults", sw(2)},
    {"faults", sw(2)},
    {"context-switches", sw(3)},
    {"cs", sw(3)},
    {"cpu-migrations", sw(4)},
    {"migrations", sw(4)},
    {"minor-faults", sw(5)},
    {"major-faults", sw(6)},
    {"alignment-faults", sw(7)},
    {"emulation-faults", sw(8)},
    {"dummy", sw(9)},
    {"bpf-output", sw(10)},
    {"cgroup-switches", sw(11)},
    {"duration_time", sw(9)},
    {"user_time", sw(9)},
    {"system_time", sw(9)},
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
  for (const Named& entry : kLegacy) {
    if (text.starts_with(entry.name)) longest = std::max(longest, entry.name.size());
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

}  // namespace

std::optional<LegacyEvent> find_legacy_event(std::string_view name) {
  for (const Named& entry : kLegacy) {
    if (entry.name == name) return entry.event;
  }
  return find_cache_event(name);
}

std::vector<std::string> legacy_event_names() {
  std::vector<std::string> names;
  for (const Named& entry : kLegacy) names.emplace_back(entry.name);
  // The cache events under the names perf gives them (`L1-dcache-loads`, then
  // `L1-dcache-load-misses`): each type with each operation it supports.
  for (unsigned type = 0; type < kCacheTypes.size(); ++type) {
    for (unsigned op = 0; op < kCacheOps.size(); ++op) {
      if ((kCacheOpsValid[type] & (1u << op)) == 0) continue;
      const std::string prefix = std::string(kCacheTypes[type][0]) + "-";
      names.push_back(prefix + std::string(kCacheOps[op][1]));
      names.push_back(prefix + std::string(kCacheOps[op][0]) + "-" +
                      std::string(kCacheResults[1][0]));
    }
  }
  return names;
}

}  // namespace pmucat::encode_detail
