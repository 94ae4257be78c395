#include "encode/special_terms.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <limits>
#include <string>

#include "pmucat/diagnostic_ids.h"

PMUCAT_BEGIN_NAMESPACE
namespace encode_detail {
namespace {

struct SpecialInfo {
  std::string_view name;
  Special special;
  // The release change that brought the term; nullopt: perf 6.1 has it.
  std::optional<Behaviour> since = std::nullopt;
};

// In the order perf prints them in its "valid terms" help line.
constexpr std::array<SpecialInfo, 26> kSpecials{{
    {"config", Special::config},
    {"config1", Special::config1},
    {"config2", Special::config2},
    {"config3", Special::config3, Behaviour::config3},
    {"config4", Special::config4, Behaviour::config4},
    {"name", Special::name},
    {"period", Special::period},
    {"freq", Special::freq},
    {"branch_type", Special::branch_type},
    {"time", Special::time},
    {"call-graph", Special::call_graph},
    {"stack-size", Special::stack_size},
    {"no-inherit", Special::no_inherit},
    {"inherit", Special::inherit},
    {"max-stack", Special::max_stack},
    {"nr", Special::nr},
    {"overwrite", Special::overwrite},
    {"no-overwrite", Special::no_overwrite},
    {"percore", Special::percore},
    {"aux-output", Special::aux_output},
    {"aux-sample-size", Special::aux_sample_size},
    {"metric-id", Special::metric_id},
    {"aux-action", Special::aux_action, Behaviour::aux_action_term},
    {"cpu", Special::cpu, Behaviour::cpu_term},
    {"ratio-to-prev", Special::ratio_to_prev, Behaviour::ratio_to_prev_term},
    {"@", Special::driver_config},
}};

bool in_semantics(const SpecialInfo& info, Profile semantics) {
  return !info.since || semantics.has(*info.since);
}

enum class ValueType : std::uint8_t { number, zero_or_one, string, number_or_string, any };

ValueType value_type(Special special) {
  switch (special) {
    case Special::time:
    case Special::percore:
      return ValueType::zero_or_one;
    case Special::call_graph:
    case Special::branch_type:
    case Special::name:
    case Special::metric_id:
    case Special::ratio_to_prev:
    case Special::aux_action:
      return ValueType::string;
    case Special::cpu:
      return ValueType::number_or_string;
    case Special::driver_config:
      return ValueType::any;
    default:
      return ValueType::number;
  }
}

bool is_numeric(const TermView& term) {
  return term.kind == TermValueKind::number || term.kind == TermValueKind::none;
}

struct BranchName {
  std::string_view name;
  std::uint64_t bits;
};

// perf 6.1's branch filter names (parse_branch_str).
constexpr std::array<BranchName, 16> kBranchNames{{
    {"u", branch::user},
    {"k", branch::kernel},
    {"hv", branch::hv},
    {"any", branch::any},
    {"any_call", branch::any_call},
    {"any_ret", branch::any_return},
    {"ind_call", branch::ind_call},
    {"abort_tx", branch::abort_tx},
    {"in_tx", branch::in_tx},
    {"no_tx", branch::no_tx},
    {"cond", branch::cond},
    {"ind_jmp", branch::ind_jump},
    {"call", branch::call},
    {"save_type", branch::type_save},
    {"stack", branch::call_stack},
    {"priv", branch::priv_save},
}};

std::optional<SpecialError> apply_branch_type(const TermView& term, Attr& attr) {
  if (term.text == "no") return std::nullopt;
  std::uint64_t bits = 0;
  std::string_view rest = term.text;
  while (true) {
    const std::size_t comma = rest.find(',');
    const std::string_view name = rest.substr(0, comma);
    bool found = false;
    for (const BranchName& entry : kBranchNames) {
      if (entry.name == name) {
        bits |= entry.bits;
        found = true;
      }
    }
    if (!found) {
      return SpecialError{DiagId::term_branch_type, fmt::format("unknown branch type '{}'", name)};
    }
    if (comma == std::string_view::npos) break;
    rest.remove_prefix(comma + 1);
  }
  constexpr std::uint64_t privilege = branch::user | branch::kernel | branch::hv;
  if ((bits & ~privilege) == 0) bits |= branch::any;  // only levels given: any branch
  attr.branch_sample_type = bits;
  attr.sample_type |= sample::branch_stack;
  return std::nullopt;
}

std::optional<SpecialError> check_call_graph(std::string_view mode) {
  if (mode == "fp" || mode == "dwarf" || mode == "lbr" || mode == "no") return std::nullopt;
  return SpecialError{
      DiagId::term_call_graph,
      fmt::format("unknown call-graph mode '{}' (expected fp, dwarf, lbr or no)", mode)};
}

// perf 7.3's `cpu=` string: a PMU's name (its CPUs) or a CPU list (`0-3,8`). The PMU is looked
// up where the event is opened; here a name is taken as one when it is shaped like a PMU name.
std::optional<SpecialError> check_cpu(std::string_view text) {
  const bool cpu_list = !text.empty() && std::all_of(text.begin(), text.end(), [](char c) {
    return (c >= '0' && c <= '9') || c == '-' || c == ',';
  });
  const bool pmu_name =
      !text.empty() && std::isalpha(static_cast<unsigned char>(text.front())) != 0 &&
      std::all_of(text.begin(), text.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_' || c == '-' || c == '.';
      });
  if (cpu_list || pmu_name) return std::nullopt;
  return SpecialError{DiagId::term_type, "not a valid PMU or CPU number"};
}

// perf 7.3 reads the ratio with strtod: it must be a positive number that a double holds.
std::optional<SpecialError> check_ratio(std::string_view text) {
  const std::string value(text);
  errno = 0;
  const double ratio = std::strtod(value.c_str(), nullptr);
  if (ratio <= 0) return SpecialError{DiagId::term_type, "zero or negative"};
  if (errno == ERANGE) return SpecialError{DiagId::term_too_big, "too big"};
  return std::nullopt;
}

// perf 7.3's actions: start-paused (on the AUX area event), pause and resume (on another event
// of its group). perf record checks them where it sets up the AUX area events, so perf stat
// refuses the term before its value is looked at.
std::optional<SpecialError> check_aux_action(std::string_view text) {
  if (text == "start-paused" || text == "pause" || text == "resume") return std::nullopt;
  return SpecialError{
      DiagId::term_type,
      fmt::format("bad aux-action '{}' (expected start-paused, pause or resume)", text)};
}

}  // namespace

namespace {

// Whether a name can be special at all, by its first byte: most terms are format fields
// (event, umask, ldlat, ...) and are turned away here, before any string compare.
bool may_be_special(char first) {
  switch (first) {
    case 'a':
    case 'b':
    case 'c':
    case 'f':
    case 'i':
    case 'm':
    case 'n':
    case 'o':
    case 'p':
    case 'r':
    case 's':
    case 't':
      return true;
    default:
      return false;
  }
}

}  // namespace

std::optional<Special> find_special(std::string_view name, Profile semantics) {
  if (name.starts_with('@')) return Special::driver_config;
  if (name.empty() || !may_be_special(name.front())) return std::nullopt;
  for (const SpecialInfo& info : kSpecials) {
    if (info.name == name) {
      if (!in_semantics(info, semantics)) return std::nullopt;
      return info.special;
    }
  }
  return std::nullopt;
}

std::optional<Special> find_any_special(std::string_view name) {
  return find_special(name, Profile::perf(kNewestPerfRelease));
}

std::optional<unsigned> config_word_of(Special special) {
  switch (special) {
    case Special::config:
      return 0;
    case Special::config1:
      return 1;
    case Special::config2:
      return 2;
    case Special::config3:
      return 3;
    case Special::config4:
      return 4;
    default:
      return std::nullopt;
  }
}

bool usable_in_stat(Special special) {
  return config_word_of(special).has_value() || special == Special::name ||
         special == Special::metric_id || special == Special::period ||
         special == Special::percore || special == Special::cpu;
}

std::vector<std::string> special_term_names(Tool tool, Profile semantics) {
  std::vector<std::string> names;
  for (const SpecialInfo& info : kSpecials) {
    if (info.special == Special::driver_config) continue;
    if (!in_semantics(info, semantics)) continue;
    if (tool == Tool::stat && !usable_in_stat(info.special)) continue;
    names.emplace_back(info.name);
  }
  return names;
}

std::optional<SpecialError> check_special(Special special, const TermView& term) {
  switch (value_type(special)) {
    case ValueType::number:
      if (!is_numeric(term)) return SpecialError{DiagId::term_type, "expected numeric value"};
      break;
    case ValueType::zero_or_one:
      if (!is_numeric(term)) return SpecialError{DiagId::term_type, "expected numeric value"};
      if (term.value > 1) return SpecialError{DiagId::term_type, "expected 0 or 1"};
      break;
    case ValueType::string:
      if (term.kind != TermValueKind::string) {
        return SpecialError{DiagId::term_type, "expected string value",
                            term.kind != TermValueKind::none};
      }
      break;
    case ValueType::number_or_string:
      if (term.kind == TermValueKind::param) {
        return SpecialError{DiagId::term_type, "expected numeric or string value"};
      }
      break;
    case ValueType::any:
      break;
  }
  if (special == Special::aux_sample_size &&
      term.value > std::numeric_limits<std::uint32_t>::max()) {
    return SpecialError{DiagId::term_too_big,
                        "value too big for 'aux-sample-size' (maximum 0xffffffff = 4294967295)"};
  }
  if (special == Special::max_stack && term.value > std::numeric_limits<std::uint16_t>::max()) {
    return SpecialError{DiagId::term_too_big,
                        "value too big for 'max-stack' (maximum 0xffff = 65535)"};
  }
  if (special == Special::stack_size && term.value > std::numeric_limits<std::uint32_t>::max()) {
    return SpecialError{DiagId::term_too_big,
                        "value too big for 'stack-size' (maximum 0xffffffff = 4294967295)"};
  }
  if (special == Special::call_graph) return check_call_graph(term.text);
  if (special == Special::cpu && term.kind == TermValueKind::string) return check_cpu(term.text);
  if (special == Special::ratio_to_prev) return check_ratio(term.text);
  return std::nullopt;
}

std::optional<SpecialError> apply_special(Special special, const TermView& term, Tool tool,
                                          Attr& attr, EventSettings* settings,
                                          CallchainRequest& callchain) {
  const bool record = tool == Tool::record;
  switch (special) {
    case Special::name:
      if (settings != nullptr) settings->name = std::string(term.text);
      break;
    case Special::metric_id:
      if (settings != nullptr) settings->metric_id = std::string(term.text);
      break;
    case Special::percore:
      if (settings != nullptr) settings->percore = term.value;
      break;
    case Special::nr:
      if (settings != nullptr) settings->nr = term.value;
      break;
    case Special::driver_config: {
      if (settings == nullptr) break;
      // Kept without the '@', as `name` or `name=value`.
      std::string text(term.name.substr(1));
      // Appended piece by piece: `"=" + std::string&&` trips GCC 12's bogus -Wrestrict at -O3
      // (https://gcc.gnu.org/bugzilla/show_bug.cgi?id=105329), which breaks the Release build.
      if (term.kind != TermValueKind::none) {
        text += '=';
        text += print_term_value(term.to_term());
      }
      settings->driver_config.push_back(std::move(text));
      break;
    }
    case Special::call_graph:
      if (settings != nullptr) settings->call_graph = std::string(term.text);
      callchain.mode = term.text;
      break;
    case Special::stack_size:
      callchain.stack_size = term.value;
      break;
    case Special::max_stack:
      callchain.max_stack = term.value;
      break;
    case Special::branch_type:
      if (settings != nullptr) settings->branch_type = std::string(term.text);
      if (record) return apply_branch_type(term, attr);
      break;
    case Special::period:
      if (!record) break;  // perf stat counts; it keeps no sampling period in the attr
      attr.sample_period = term.value;
      attr.sample_freq = 0;
      attr.freq = false;
      attr.sample_type &= ~sample::period;
      break;
    case Special::freq:
      attr.sample_freq = term.value;
      attr.sample_period = 0;
      attr.freq = true;
      attr.sample_type |= sample::period;
      break;
    case Special::time:
      if (term.value != 0) {
        attr.sample_type |= sample::time;
      } else {
        attr.sample_type &= ~sample::time;
      }
      break;
    case Special::inherit:
      attr.inherit = term.value != 0;
      break;
    case Special::no_inherit:
      attr.inherit = term.value == 0;
      break;
    case Special::overwrite:
      attr.write_backward = term.value != 0;
      break;
    case Special::no_overwrite:
      attr.write_backward = term.value == 0;
      break;
    case Special::aux_output:
      attr.aux_output = term.value != 0;
      break;
    case Special::aux_sample_size:
      attr.aux_sample_size = static_cast<std::uint32_t>(term.value);
      break;
    case Special::cpu:
      break;  // where the event is opened, not its attr: kept in EventSettings::special_terms
    case Special::aux_action:
      if (auto problem = check_aux_action(term.text)) return problem;
      [[fallthrough]];
    case Special::ratio_to_prev:
      // perf 7.3 changes the attrs of the event's group (the previous member's period and the
      // x86 acr_mask; the aux_action bits and a regrouping round the AUX area event), which
      // pmucat does not encode yet: refused rather than encoded without them.
      return SpecialError{DiagId::term_not_modelled,
                          fmt::format("'{}' changes its group's attrs in a way pmucat does not "
                                      "encode yet",
                                      term.name),
                          false};
    case Special::config:
    case Special::config1:
    case Special::config2:
    case Special::config3:
    case Special::config4:
      break;  // the caller assigns config words
  }
  return std::nullopt;
}

void apply_callchain(const CallchainRequest& callchain, Attr& attr) {
  // max-stack alone asks for frame-pointer call chains, as in perf.
  const std::string_view mode = callchain.mode.value_or(callchain.max_stack ? "fp" : "no");
  if (mode == "no") return;
  attr.sample_type |= sample::callchain;
  if (callchain.max_stack) attr.sample_max_stack = static_cast<std::uint16_t>(*callchain.max_stack);
  if (mode == "dwarf") {
    constexpr std::uint64_t kX86_64UserRegs = 0xff0fff;  // perf's PERF_REGS_MASK on x86-64
    constexpr std::uint64_t kDefaultStackDump = 8192;
    const std::uint64_t size = callchain.stack_size.value_or(kDefaultStackDump);
    attr.sample_type |= sample::regs_user | sample::stack_user | sample::addr | sample::data_src;
    attr.sample_regs_user = kX86_64UserRegs;
    attr.sample_stack_user = static_cast<std::uint32_t>((size + 7) / 8 * 8);
    attr.exclude_callchain_user = true;
    attr.mmap_data = true;
  } else if (mode == "lbr") {
    attr.sample_type |= sample::branch_stack;
    attr.branch_sample_type |=
        branch::user | branch::call_stack | branch::no_flags | branch::no_cycles | branch::hw_index;
  }
}

}  // namespace encode_detail
PMUCAT_END_NAMESPACE

PMUCAT_BEGIN_NAMESPACE

bool is_special_term(std::string_view name) {
  return encode_detail::find_any_special(name).has_value();
}

PMUCAT_END_NAMESPACE
