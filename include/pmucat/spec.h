// perf's event-spec syntax: comma-separated `pmu/terms/modifiers`, bare event names with
// `:modifiers`, bare `term[=value],...` lists (for a PMU given separately), `rHEX` raw events.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "pmucat/diagnostic.h"
#include "pmucat/expected.h"
#include "pmucat/terms.h"
#include "pmucat/version.h"

PMUCAT_BEGIN_NAMESPACE

// The privilege/precision/scheduling modifiers after `pmu/.../` or `name:`.
struct Modifiers {
  bool user = false, kernel = false, hypervisor = false;  // u k h: keep only these levels
  std::uint8_t precise = 0;                               // p, pp, ppp
  bool max_precise = false;                               // P
  bool guest_only = false, host_only = false;             // G, H
  bool sample_read = false;                               // S
  bool pinned = false;                                    // D
  bool exclude_idle = false;                              // I
  bool weak_group = false;                                // W
  bool exclusive = false;                                 // e
  bool bpf_counter = false;                               // b
  bool retire_latency = false;                            // R (perf 6.12 on): not counted
  bool no_regroup = false;                                // X (perf 7.3 on): keep as written
  std::string text;                                       // as written, canonical order kept
  friend bool operator==(const Modifiers&, const Modifiers&) = default;
};

// Parses a modifier string (the part after the closing '/' or the ':'). `base_offset` locates
// errors inside the whole spec, whose text is `spec` (for carets).
Expected<Modifiers> parse_modifiers(std::string_view text, std::string_view spec,
                                    std::uint32_t base_offset);

// The modifiers as a string perf 6.1 accepts, in a fixed order (`ukhGHpppPSDIWeb`); empty when
// none is set.
std::string canonical_modifiers(const Modifiers& modifiers);

enum class SpecForm : std::uint8_t {
  pmu_terms,   // `cpu/event=0x3c,umask=0x1/u`
  event_name,  // `cache-misses:u`, `PM_PB_CYC`: an event name on every PMU that has it
  terms_only,  // `event=0x423,inv,cmask=0x3`: terms for a PMU chosen by the caller
  raw,         // `r1a3`, `r0x1a3:u`: config of the core PMU
  breakpoint,  // `mem:0x1000/8:rw:u`: a hardware breakpoint (PERF_TYPE_BREAKPOINT)
  tracepoint,  // `sched:sched_switch`, `sched:*`: tracepoints by id from tracefs
  numeric,     // `4:0x3c`, `1:3/period=1/u`: an attr type and config given as numbers
};

// perf_event_attr::bp_type bits (HW_BREAKPOINT_R, _W, _X).
namespace breakpoint_access {
inline constexpr std::uint8_t read = 1, write = 2, execute = 4;
}

struct EventSpec {
  SpecForm form = SpecForm::pmu_terms;
  std::string text;          // this event's slice of the list, as written
  std::uint32_t offset = 0;  // byte offset of `text` in the whole list
  std::string pmu;           // pmu_terms: the PMU name or pattern as written
  std::uint32_t pmu_offset = 0;
  std::string name;              // event_name: the name; raw: the name as written (`read` is both a
                                 // raw value and possibly an event name, see docs/perf-compat.md)
  std::uint64_t raw_config = 0;  // raw: the value; numeric: the config
  std::uint64_t numeric_type = 0;  // numeric: the type as written (perf keeps its low 32 bits)
  TermList terms;                  // pmu_terms / terms_only (offsets index the whole list)
  Modifiers modifiers;
  // breakpoint: the address, the length (perf's default when not written or 0: sizeof(long) for
  // `x` alone, else 4) and the access bits (`rw` when not written).
  std::uint64_t bp_addr = 0;
  std::uint64_t bp_len = 0;
  std::uint8_t bp_type = 0;
  // tracepoint: the system (`sched`, `sys-name`) and event, each possibly a glob; `terms` holds
  // its `/.../` terms.
  std::string tp_system;
  std::string tp_event;
  // The event group (`{a,b}:mods`, `name{a,b}`) this event is a member of: an index into
  // SpecList::groups; nullopt outside any group.
  std::optional<std::uint32_t> group;
  friend bool operator==(const EventSpec&, const EventSpec&) = default;
};

// One `[name]{...}[:mods]` of a list. Its members are the events whose `group` is its index, in
// list order; the first is the leader.
struct SpecGroup {
  std::string name;            // `name{...}`; empty when unnamed
  Modifiers modifiers;         // after `}:`; applied to every member as perf does (see encode.h)
  bool has_modifiers = false;  // a `:mods` followed the `}`
  std::uint32_t offset = 0;    // the group's text in the whole list: from its name (or `{`) through
  std::uint32_t length = 0;    // its modifiers (or `}`)
  friend bool operator==(const SpecGroup&, const SpecGroup&) = default;
};

struct SpecList {
  std::vector<EventSpec> events;
  std::vector<SpecGroup> groups;
  friend bool operator==(const SpecList&, const SpecList&) = default;
};

// Splits and parses a comma-separated list. Commas inside `pmu/.../` and quotes do not split.
// A list of bare terms (`event=0x1,umask=2`) is one terms_only spec. Terms are lexed as pmucat's
// own semantics lex them (the newest perf's rules: `cpu=0-1` is one value), so every spec an
// encode() in any semantics takes parses. Errors point into `text`, named "<spec>".
Expected<std::vector<EventSpec>> parse_spec_list(std::string_view text);

// parse_spec_list() with the groups the events' `group` indices refer to. Braces group the
// events inside them; nested, unbalanced or empty groups are located errors.
Expected<SpecList> parse_spec_groups(std::string_view text);

PMUCAT_END_NAMESPACE
