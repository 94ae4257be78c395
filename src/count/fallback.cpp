// The ladder profilers climb down when an event does not open (--fallback): a lower precise_ip,
// a vendor event's built-in equivalent, cycles to cpu-clock. Each rung is data here, and each
// substitution is named in the value's `substituted` grade.
#include "count/fallback.h"

#include <fmt/core.h>

#include <array>
#include <string_view>

#include "parser/char_class.h"

PMUCAT_BEGIN_NAMESPACE
namespace count_detail {
namespace {

// Vendor events (lower-cased EventName) and the perf built-in event that counts the same thing
// on the core PMU: the generic events the kernel maps to these very encodings.
struct Equivalent {
  std::string_view vendor;
  std::string_view builtin;
  std::uint64_t config;  // PERF_TYPE_HARDWARE's number
};
constexpr std::array kBuiltinEquivalents = {
    Equivalent{"inst_retired.any", "instructions", 1},
    Equivalent{"inst_retired.any_p", "instructions", 1},
    Equivalent{"cpu_clk_unhalted.thread", "cycles", 0},
    Equivalent{"cpu_clk_unhalted.core", "cycles", 0},
    Equivalent{"cpu_clk_unhalted.thread_p", "cycles", 0},
    Equivalent{"cpu_clk_unhalted.ref_tsc", "ref-cycles", 9},
    Equivalent{"br_inst_retired.all_branches", "branches", 4},
    Equivalent{"br_misp_retired.all_branches", "branch-misses", 5},
    Equivalent{"ex_ret_instr", "instructions", 1},
    Equivalent{"ls_not_halted_cyc", "cycles", 0},
    Equivalent{"inst_retired", "instructions", 1},
    Equivalent{"cpu_cycles", "cycles", 0},
};

constexpr std::uint64_t kCpuCycles = 0;  // PERF_COUNT_HW_CPU_CYCLES
constexpr std::uint64_t kCpuClock = 0;   // PERF_COUNT_SW_CPU_CLOCK

// Whether `attr` (the last try for `event`) counts cycles: the built-in event (its config's low
// half: a hybrid PMU's type may sit above it), or a PMU's own `cycles` event. A software attr
// never is, so cpu-clock itself is the ladder's bottom.
bool is_cycles(const CountEvent& event, const Attr& attr) {
  if (attr.type == static_cast<std::uint32_t>(PerfType::hardware)) {
    return (attr.config[0] & 0xffffffffULL) == kCpuCycles;
  }
  if (attr.type == static_cast<std::uint32_t>(PerfType::software)) return false;
  const std::string name = char_class::ascii_lower(event.encoded.event);
  return name == "cycles" || name == "cpu-cycles";
}

}  // namespace

std::optional<Fallback> next_fallback(const CountEvent& event, const Attr& tried) {
  if (tried.precise_ip > 0) {
    Fallback step{tried, {}, {}};
    step.attr.precise_ip = tried.precise_ip - 1;
    step.description = fmt::format("precise_ip {} -> {}", tried.precise_ip, step.attr.precise_ip);
    return step;
  }
  const bool hardware = tried.type == static_cast<std::uint32_t>(PerfType::hardware);
  if (!hardware && tried.type != static_cast<std::uint32_t>(PerfType::software)) {
    const std::string name = char_class::ascii_lower(event.encoded.event);
    for (const Equivalent& equivalent : kBuiltinEquivalents) {
      if (equivalent.vendor != name) continue;
      Fallback step{tried, {}, std::string(equivalent.builtin)};
      step.attr.type = static_cast<std::uint32_t>(PerfType::hardware);
      step.attr.config = {};
      step.attr.config[0] = equivalent.config;
      step.description = fmt::format("{} -> {}", event.encoded.event, equivalent.builtin);
      return step;
    }
  }
  if (is_cycles(event, tried)) {
    Fallback step{tried, {}, "cpu-clock"};
    step.attr.type = static_cast<std::uint32_t>(PerfType::software);
    step.attr.config = {};
    step.attr.config[0] = kCpuClock;
    step.description = "cycles -> cpu-clock (no hardware counter: the CPU time instead)";
    return step;
  }
  return std::nullopt;
}

}  // namespace count_detail
PMUCAT_END_NAMESPACE
