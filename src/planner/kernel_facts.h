// What the kernel's perf drivers fix about counters, in our own words (docs/planner.md, "The
// kernel's rules"): Intel's fixed counters and topdown events, AMD's counter numbers, the PMUs
// that read free-running counters, and a vendor JSON `Counter` field read as masks.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "pmucat/planner.h"

PMUCAT_BEGIN_NAMESPACE
namespace planner_detail {

enum class CpuVendor : std::uint8_t { intel, amd, arm, other };

// The vendor of a perf CPU identifier (`GenuineIntel-6-8F-8`, `AuthenticAMD-25-11`, an arm64
// MIDR `0x00000000410fd0c0`).
CpuVendor cpu_vendor_of(std::string_view cpuid);

// An Arm PMUv3 core PMU by its name (armv8_pmuv3_0, armv8_cortex_a76, armv9_...).
bool is_arm_pmuv3(std::string_view pmu);

// PMUs whose events read free-running counters or need no counter (msr, power, cstate_core,
// uncore_iio_free_running_0, the software PMUs).
bool is_counterless_pmu(std::string_view pmu);

// The counter numbers the driver itself fixes for a PMU instance, when it does: AMD Zen's core
// PMU (6 generic) and L3 (6), DF (4 before PerfMonV2); an Arm PMUv3's cycle counter (generic
// count unknown). nullopt when the driver asks the CPU (Intel core, hybrid, AMD UMC).
std::optional<CounterSet> kernel_counter_set(CpuVendor vendor, std::string_view pmu, bool core);

// Topdown metric slots of an Intel core PMU with `fixed` fixed counters on model directory
// `model` (`sapphirerapids`): 8 on Sapphire Rapids and later, 4 on Ice Lake and Tiger Lake, 0
// without the slots fixed counter.
std::uint32_t intel_topdown_metrics(std::string_view model, std::uint32_t fixed);

// The Intel core PMU's own rule for an event select + umask (`config & 0xffff`), when the
// kernel has one: the fixed-counter events and pseudo-encodings, slots, the topdown metrics.
std::optional<EventConstraint> intel_core_constraint(std::uint16_t event_umask);

// Arm PMUv3's rule: CPU_CYCLES (0x11) takes the cycle counter (fixed 0 here) when free, else a
// generic counter.
std::optional<EventConstraint> arm_pmuv3_constraint(std::uint16_t event);

// A vendor JSON `Counter` field as masks: "0,1,2,3" -> generic 0-3, "Fixed counter 1" -> fixed 1,
// "FIXED" -> fixed 0; nullopt when unreadable or empty.
std::optional<EventConstraint> constraint_from_counter_field(std::string_view counter);

// The constraint of an event nothing narrows: every generic counter.
EventConstraint any_generic_counter(std::string origin);

}  // namespace planner_detail
PMUCAT_END_NAMESPACE
