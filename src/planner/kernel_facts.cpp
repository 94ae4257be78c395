#include "planner/kernel_facts.h"

#include <fmt/format.h>

#include <charconv>

#include "pmucat/version.h"

PMUCAT_BEGIN_NAMESPACE
namespace planner_detail {
namespace {

bool starts_with(std::string_view text, std::string_view prefix) {
  return text.substr(0, prefix.size()) == prefix;
}

std::string_view trim(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  return text;
}

std::optional<std::uint32_t> number(std::string_view text) {
  text = trim(text);
  std::uint32_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc{} || end != text.data() + text.size()) return std::nullopt;
  return value;
}

EventConstraint fixed_only(std::uint32_t index, std::string origin) {
  EventConstraint c;
  c.fixed_mask = std::uint32_t{1} << index;
  c.origin = std::move(origin);
  return c;
}

}  // namespace

bool is_arm_pmuv3(std::string_view pmu) {
  return starts_with(pmu, "armv8_") || starts_with(pmu, "armv9_");
}

CpuVendor cpu_vendor_of(std::string_view cpuid) {
  if (starts_with(cpuid, "GenuineIntel")) return CpuVendor::intel;
  if (starts_with(cpuid, "AuthenticAMD") || starts_with(cpuid, "HygonGenuine")) {
    return CpuVendor::amd;
  }
  if (starts_with(cpuid, "0x")) return CpuVendor::arm;  // an arm64 MIDR
  return CpuVendor::other;
}

bool is_counterless_pmu(std::string_view pmu) {
  return pmu == "software" || pmu == "tracepoint" || pmu == "breakpoint" || pmu == "kprobe" ||
         pmu == "uprobe" || pmu == "msr" || pmu == "power" || pmu == "tool" ||
         starts_with(pmu, "cstate_") || pmu.find("_free_running") != std::string_view::npos;
}

std::optional<CounterSet> kernel_counter_set(CpuVendor vendor, std::string_view pmu, bool core) {
  CounterSet set;
  set.pmu = std::string(pmu);
  set.source = CounterSource::kernel;
  if (vendor == CpuVendor::amd && core) {
    set.generic = 6;
    set.origin = "arch/x86/events/amd/core.c: 6 core counters on Zen (family 17h+)";
    return set;
  }
  if (vendor == CpuVendor::amd && starts_with(pmu, "amd_l3")) {
    set.generic = 6;
    set.origin = "arch/x86/events/amd/uncore.c: 6 L3 counters on family 17h+";
    return set;
  }
  if (vendor == CpuVendor::amd && starts_with(pmu, "amd_df")) {
    set.generic = 4;
    set.origin =
        "arch/x86/events/amd/uncore.c: 4 DF counters (PerfMonV2 parts may report more in CPUID)";
    return set;
  }
  if ((vendor == CpuVendor::arm && core) || is_arm_pmuv3(pmu)) {
    set.fixed = 1;
    set.source = CounterSource::unknown;
    set.origin = fmt::format(
        "Arm PMUv3: a cycle counter and PMCR_EL0.N generic counters; N is not in "
        "sysfs: give --counters {}=N+1",
        pmu);
    return set;
  }
  return std::nullopt;
}

std::uint32_t intel_topdown_metrics(std::string_view model, std::uint32_t fixed) {
  if (fixed < 4) return 0;
  if (model == "icelake" || model == "icelakex" || model == "tigerlake" || model == "rocketlake") {
    return 4;
  }
  return 8;
}

std::optional<EventConstraint> intel_core_constraint(std::uint16_t event_umask) {
  const std::uint8_t event = event_umask & 0xff;
  const std::uint8_t umask = event_umask >> 8;
  if (event_umask == 0x00c0) {
    EventConstraint c = any_generic_counter("INST_RETIRED.ANY: fixed counter 0 or any generic");
    c.fixed_mask = 1;
    return c;
  }
  if (event_umask == 0x003c) {
    EventConstraint c =
        any_generic_counter("CPU_CLK_UNHALTED.THREAD: fixed counter 1 or any generic");
    c.fixed_mask = 2;
    return c;
  }
  if (event != 0) return std::nullopt;
  if (umask == 0x04) {
    EventConstraint c = fixed_only(3, "TOPDOWN.SLOTS: fixed counter 3 only");
    c.slots = true;
    return c;
  }
  if (umask >= 0x80 && umask <= 0x87) {
    EventConstraint c;
    c.need = CounterNeed::topdown_metric;
    c.metric = static_cast<std::uint8_t>(umask - 0x80);
    c.origin = fmt::format("topdown metric {} (PERF_METRICS), led by slots", umask - 0x80);
    return c;
  }
  // Event select 0 is a pseudo-encoding of fixed counter umask-1: it exists on no generic one.
  if (umask >= 1 && umask <= 16) {
    return fixed_only(umask - 1u, fmt::format("pseudo-encoding 0x{:04x}: fixed counter {} only",
                                              event_umask, umask - 1));
  }
  return std::nullopt;
}

std::optional<EventConstraint> constraint_from_counter_field(std::string_view counter) {
  counter = trim(counter);
  if (counter.empty()) return std::nullopt;
  const std::string origin = fmt::format("vendor Counter \"{}\"", counter);
  if (counter == "FIXED" || counter == "Fixed") return fixed_only(0, origin);
  if (starts_with(counter, "Fixed counter ")) {
    const auto index = number(counter.substr(14));
    if (!index || *index >= 16) return std::nullopt;
    return fixed_only(*index, origin);
  }
  EventConstraint c;
  c.origin = origin;
  while (!counter.empty()) {
    const auto comma = counter.find(',');
    const auto index = number(counter.substr(0, comma));
    if (!index || *index >= 32) return std::nullopt;
    c.generic_mask |= std::uint32_t{1} << *index;
    if (comma == std::string_view::npos) break;
    counter.remove_prefix(comma + 1);
  }
  return c;
}

std::optional<EventConstraint> arm_pmuv3_constraint(std::uint16_t event) {
  if (event != 0x11) return std::nullopt;
  EventConstraint c = any_generic_counter("CPU_CYCLES: the cycle counter or any generic");
  c.fixed_mask = 1;
  return c;
}

EventConstraint any_generic_counter(std::string origin) {
  EventConstraint c;
  c.generic_mask = ~std::uint32_t{0};
  c.origin = std::move(origin);
  return c;
}

}  // namespace planner_detail
PMUCAT_END_NAMESPACE
