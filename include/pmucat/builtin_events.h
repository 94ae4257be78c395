// perf's built-in events for listing: the hardware, software, tool and hardware-cache events
// `perf list hw sw cache` (perf 6.1) shows, from the same table the encoder resolves these names
// with (so a listed name always encodes, and to the type/config shown here).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "pmucat/attr.h"
#include "pmucat/catalog.h"
#include "pmucat/version.h"

PMUCAT_BEGIN_NAMESPACE

// perf list's sections, in the order perf 6.1 prints them.
enum class BuiltinKind : std::uint8_t { hardware, software, tool, hw_cache };

struct BuiltinEvent {
  BuiltinKind kind = BuiltinKind::hardware;
  std::string name;                    // perf's name for it (`cpu-cycles`, `L1-dcache-load-misses`)
  std::vector<std::string> aliases;    // the spellings perf lists after `OR` (`cycles`)
  std::string description;             // one line, pmucat's own words
  PerfType type = PerfType::hardware;  // the attr perf 6.1 builds for the name
  std::uint64_t config = 0;
};

// perf 7.3's tool PMU: the type of its attrs, which perf never hands to the kernel (it measures
// them itself: duration_time, user_time, system_time; the others are the host's numbers).
inline constexpr std::uint32_t kToolPmuType = 0xfffffffeU;
// Its events' names in number order (config 1 is index 0: duration_time), `slots` included.
std::span<const std::string_view> tool_pmu_event_names();

// Every built-in event in perf 6.1's `perf list` order: hardware, then software (each sorted by
// the listed text, `name OR alias`, byte-wise), then the tool events (perf's own order), then the
// hardware cache events (each type with each operation it supports, `-loads` and `-load-misses`,
// sorted byte-wise). Tool events encode as perf's attr for them, a software dummy event.
std::vector<BuiltinEvent> builtin_events();

// perf list's selector for the kind (`hw`, `sw`, `tool`, `cache`); `tool` is pmucat's (perf 6.1
// lists tool events under `sw`).
std::string_view to_string(BuiltinKind kind);

// The tag perf list prints after the name: `Hardware event`, `Software event`, `Tool event`,
// `Hardware cache event`.
std::string_view builtin_kind_tag(BuiltinKind kind);

// The PMUs that count the kind's events on a tree. perf 6.1 lists a hardware or cache event when
// opening it succeeds, which a captured tree cannot answer; pmucat's rule: hardware and cache
// events need a core PMU (`cpu`, else every PMU with a `cpus` file: `cpu_core` and `cpu_atom` on a
// hybrid machine, the Arm core PMUs), and are available when there is one. Software and tool
// events need no PMU (the result is empty) and are always available.
std::vector<const Pmu*> builtin_kind_pmus(const Catalog& catalog, BuiltinKind kind);

// Whether the kind's events are available on the tree, by the rule above.
bool builtin_kind_available(BuiltinKind kind, std::span<const Pmu* const> kind_pmus);

PMUCAT_END_NAMESPACE
