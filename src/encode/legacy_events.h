// perf's built-in hardware and software event names (`cycles`, `cache-misses`, `cpu-clock`).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "pmucat/attr.h"
#include "pmucat/builtin_events.h"
#include "pmucat/perf_profile.h"

PMUCAT_BEGIN_NAMESPACE
namespace encode_detail {

struct LegacyEvent {
  PerfType type = PerfType::hardware;
  std::uint64_t config = 0;
};

// The legacy event a bare name denotes (exact, case-sensitive as in perf's lexer): a hardware or
// software event (`cycles`, `cs`), or a hardware cache event (`L1-dcache-load-misses`,
// `LLC-prefetches`, `dTLB-loads`: PERF_TYPE_HW_CACHE, config type | op << 8 | result << 16).
std::optional<LegacyEvent> find_legacy_event(std::string_view name);

// The same as perf 6.12 (and pmucat semantics) read it: a cache name is any that perf 6.12's
// lexer words cover whole (`branches-loads`), decoded by its longest-spelling rule.
std::optional<LegacyEvent> find_legacy_event_612(std::string_view name);
// The same as perf 7.3 reads it: the built-in names are table events (linux 7.3's
// legacy-hardware, software and legacy-cache tables), matched in any case. A cache name is a
// cache type's spelling, then optionally an operation the type supports, then optionally a
// result (`L1-dcache-load-misses`, `l1d`, `dtlb-miss`; not `l1d-refs-load`, which 6.12's lexer
// took), as linux 7.3's build generates the table (1,216 names).
std::optional<LegacyEvent> find_legacy_event_73(std::string_view name);
// Whether perf 7.3's lexer reads a bare `name` as a modifier string (modifier letters alone, at
// most 17), so that it is no event name there: the cache spelling `bpu` ("Unrecognized input"),
// which as a term (`cpu/bpu/`) is the event.
bool lexed_as_modifiers_73(std::string_view name);
// Every name of that cache table, in one spelling each (for tests and listings).
std::vector<std::string> legacy_cache_names_73();
// The built-in event `name` names as `lexer` reads it.
inline std::optional<LegacyEvent> find_legacy_event(std::string_view name, Lexer lexer) {
  switch (lexer) {
    case Lexer::of_6_1:
      return find_legacy_event(name);
    case Lexer::of_6_12:
      return find_legacy_event_612(name);
  }
  return std::nullopt;
}

// The event `name` names on perf 7.3's tool PMU (kToolPmuType, builtin_events.h), in any case,
// with its number (tool.json's ConfigCode) as config: duration_time 1 ... target_cpu 14. `slots`
// (arm64's, 10) is left out, as the x86-64 perf the tools imitate skips it; a core PMU's sysfs
// `slots` event is then found instead.
std::optional<LegacyEvent> find_tool_pmu_event(std::string_view name);

// A hardware, software or tool event as perf 6.1's tables have it: perf's name, the alias it
// lists after `OR` ("" for none), and the attr both spellings encode to.
struct LegacySymbol {
  std::string_view name;
  std::string_view alias;
  BuiltinKind kind;
  LegacyEvent event;
  std::string_view description;
};

// The hardware, software and tool events, in perf's enum order (hardware, software, tool).
std::span<const LegacySymbol> legacy_symbols();

// A hardware cache event under the name perf lists it by.
struct CacheEventName {
  std::string name;
  LegacyEvent event;
  std::string description;
};

// Every cache type with every operation it supports, access count then misses
// (`L1-dcache-loads`, `L1-dcache-load-misses`, ...), in PERF_COUNT_HW_CACHE_* order.
std::vector<CacheEventName> cache_event_names();

// Every legacy name, for suggestions: the hardware and software names, and each cache event
// under perf's own name for it (`L1-dcache-loads`, `L1-dcache-load-misses`, ...).
std::vector<std::string> legacy_event_names();

// Why perf's lexer would not read `name`, the text before a group's `{`, as the one name token
// a group name must be (perf's group grammar takes nothing else): a byte its `name` rule lacks
// (perf 6.1: no digit first, no '-'), or a whole name an earlier rule takes on a tie (`cycles`,
// `u`, `12`, `rab`, 6.12's `L1-dcache`). nullopt when it is a name, and for the empty name.
// perf 6.1 also refuses the words of its PMUs' event names (`topdown` of `topdown-retiring`);
// that check is not made here (docs/perf-compat.md). Without `builtin_tokens` (perf 7.3, whose
// built-in names are table events, not lexer tokens) the built-in and cache names are names.
struct GroupNameProblem {
  std::size_t offset = 0;  // of the fault within `name`
  std::size_t length = 0;
  std::string message;
};
std::optional<GroupNameProblem> group_name_problem(std::string_view name, Lexer lexer,
                                                   bool builtin_tokens = true);

}  // namespace encode_detail
PMUCAT_END_NAMESPACE
