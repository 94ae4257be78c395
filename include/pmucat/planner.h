// The counter planner: will these events fit the PMU counters at once, and if not, what the
// kernel's multiplexing makes of them. Two layers: a pure model of the kernel's scheduler (counter
// sets, per-event constraints, groups -> assignment, rotation, a regrouping), and the step that
// builds its input from encoded events and the catalog (vendor `Counter` fields, counter.json,
// the kernel's fixed-counter and topdown rules). See docs/planner.md.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "pmucat/catalog.h"
#include "pmucat/encode.h"
#include "pmucat/expected.h"
#include "pmucat/version.h"

PMUCAT_BEGIN_NAMESPACE

// Where a PMU instance's counter numbers come from.
enum class CounterSource : std::uint8_t {
  unknown,       // nothing says: the PMU is not planned until --counters gives the numbers
  user,          // --counters PMU=GENERIC[+FIXED]
  counter_json,  // the model's counter.json (linux 6.12's x86 tables)
  kernel,        // a fact of the kernel's driver (AMD Zen core and L3, Arm's cycle counter)
};
std::string_view to_string(CounterSource source);

// The counters of one PMU instance (`cpu`, `cpu_core`, `uncore_cha_3`): each instance has its own.
struct CounterSet {
  std::string pmu;            // the PMU instance's name
  std::uint32_t generic = 0;  // general-purpose counters, at most 32
  std::uint32_t fixed = 0;    // fixed-function counters, at most 16
  std::uint32_t metrics = 0;  // Intel topdown metric slots (PERF_METRICS): 8, or 0 when none
  CounterSource source = CounterSource::unknown;  // unknown: the numbers above mean nothing
  std::string origin;  // where the numbers were read, for a person ("counter.json Unit core")
  friend bool operator==(const CounterSet&, const CounterSet&) = default;
};

// What kind of hardware an event occupies.
enum class CounterNeed : std::uint8_t {
  counter,         // a generic or fixed counter allowed by the masks
  topdown_metric,  // Intel's topdown metric `metric`: no counter, one metric slot, slots leader
  none,            // nothing (software, tracepoint and tool events; free-running PMUs)
};

// One event's counter constraint.
struct EventConstraint {
  CounterNeed need = CounterNeed::counter;
  std::uint32_t generic_mask = 0;  // bit i: generic counter i is allowed
  std::uint32_t fixed_mask = 0;    // bit i: fixed counter i is allowed
  std::uint8_t metric = 0;         // topdown metric index (umask - 0x80), need topdown_metric only
  bool slots = false;              // the topdown `slots` event, the leader metric events need
  std::string origin;              // why these masks, for a person ("vendor Counter \"0,1,2,3\"")
  friend bool operator==(const EventConstraint&, const EventConstraint&) = default;
};

// One event (one attr) to schedule.
struct PlanEvent {
  std::string name;         // what a person calls it (the alias, or the spec)
  std::string pmu;          // PMU instance whose counters it takes
  std::string perf_string;  // the spec `perf stat -e` takes for this attr
  EventConstraint constraint;
  // The spec as the user wrote it, standing for this attr alone: with its group's modifiers (but
  // `W`), and naming the PMU instance when the spec reached several (`uncore_cha/event=0x1/` ->
  // `uncore_cha_0/event=0x1/`); perf_string when no written form says it. Last, so that
  // brace-initialised events keep their meaning (empty: the regrouping writes perf_string).
  std::string spec = {};
  friend bool operator==(const PlanEvent&, const PlanEvent&) = default;
};

// A group the kernel schedules as one: all its events on at once, or none. Ungrouped events are
// singleton groups.
struct PlanGroup {
  std::vector<std::size_t> events;  // indices into PlanInput::events, leader first
  bool pinned = false;              // scheduled before every flexible group, never rotated
  bool weak = false;                // `{...}:W`: perf stat reopens it ungrouped if it cannot open
  bool user_group = false;          // written as `{...}` (false: a single ungrouped event)
  friend bool operator==(const PlanGroup&, const PlanGroup&) = default;
};

struct PlanInput {
  std::vector<CounterSet> counters;  // one per PMU instance the events use
  std::vector<PlanEvent> events;
  std::vector<PlanGroup> groups;  // in the order perf opens them; each event in exactly one
  friend bool operator==(const PlanInput&, const PlanInput&) = default;
};

// A counter an event was given.
enum class CounterKind : std::uint8_t { generic, fixed, metric, none };
std::string_view to_string(CounterKind kind);
struct CounterSlot {
  CounterKind kind = CounterKind::none;
  std::uint32_t index = 0;  // counter index within its kind
  friend bool operator==(const CounterSlot&, const CounterSlot&) = default;
};

// A group the kernel cannot put on.
struct GroupProblem {
  std::size_t group = 0;  // index into PlanInput::groups
  // Which events compete for which counters, or which rule the group breaks; one line.
  std::string reason;
  // What perf stat does about it ("perf_event_open fails with EINVAL", "reopened ungrouped").
  std::string consequence;
  // perf stat recovers: a weak group reopened as its events (which then multiplex).
  bool reopened_ungrouped = false;
  friend bool operator==(const GroupProblem&, const GroupProblem&) = default;
};

// One group's share of the time under multiplexing.
struct GroupRun {
  std::size_t group = 0;  // index into PlanInput::groups
  // The events scheduled together: the group's, or one of them when a weak group that cannot
  // open was split (perf stat reopens its events one by one).
  std::vector<std::size_t> events;
  bool pinned = false;
  double fraction = 0;  // time enabled and running / time enabled: perf stat's `(50.00%)`
  friend bool operator==(const GroupRun&, const GroupRun&) = default;
};

// The plan of one PMU instance.
struct PmuPlan {
  CounterSet counters;
  bool counts_known = false;  // false: nothing below was computed (give --counters)
  // Every group of this PMU (pinned and flexible) is on at the same time.
  bool fits = false;
  // Per event of this PMU (index into PlanInput::events), the counter it has when every group is
  // scheduled from the start of the list in one tick (the first tick); kind none when its group
  // is not on in that tick.
  std::vector<std::pair<std::size_t, CounterSlot>> assignment;
  std::vector<GroupProblem> never;   // groups that can never be on (alone, or beside pinned ones)
  std::vector<GroupRun> runs;        // every flexible and pinned group that is opened, list order
  std::uint32_t rotation_ticks = 0;  // ticks until the rotation repeats; 1 when it fits
  bool rotation_exact = true;        // false: the cycle was not found within the tick budget
  friend bool operator==(const PmuPlan&, const PmuPlan&) = default;
};

// A proposed event list: the fewest groups that each fit (beside the pinned events).
struct Regrouping {
  std::vector<std::vector<std::size_t>> groups;  // event indices, leader first; one PMU each
  // Events on no counter, or on a PMU whose counts are unknown: listed ungrouped as given.
  std::vector<std::size_t> ungrouped;
  std::vector<std::size_t> left_out;  // events that fit in no group (each also in a problem)
  std::size_t lower_bound = 0;        // no partition into groups that fit has fewer groups
  bool proven_fewest = false;         // groups.size() == lower_bound
  std::string perf_events;            // the `perf stat -e` argument as encodings, pastes back
  // The same argument in the specs the user wrote (PlanEvent::spec): what a person reads.
  std::string events;
  // Pinned groups are kept as written, outside `groups`: how many the argument starts with (the
  // NMI watchdog's, which perf does not open, is not one).
  std::size_t pinned_kept = 0;
  friend bool operator==(const Regrouping&, const Regrouping&) = default;
};

struct Plan {
  std::vector<PmuPlan> pmus;  // in the order of PlanInput::counters
  // Groups that need no counter (software, tool events): always on.
  std::vector<std::size_t> counterless_groups;
  std::vector<GroupProblem> problems;  // problems not tied to one PMU (a group over two PMUs)
  bool fits = false;       // every PMU with known counts fits and no group has a problem
  bool all_known = false;  // every PMU the events use has known counts
  Regrouping regrouping;
  friend bool operator==(const Plan&, const Plan&) = default;
};

// The pure model: the kernel's scheduling of `input` (docs/planner.md, "The kernel's rules").
Plan plan_counters(const PlanInput& input);

// Per event of the first `count` of PlanInput::events: the share of the time `plan` predicts it
// counts (its group's GroupRun::fraction); nullopt for an event on a PMU whose counts are not
// known, or on no counter. What a counting session compares its measured fractions with.
std::vector<std::optional<double>> predicted_fractions(const Plan& plan, std::size_t count);

// --counters PMU=GENERIC[+FIXED]: counts for a PMU instance or every instance of a prefix
// (`uncore_cha` for uncore_cha_0, uncore_cha_1, ...).
struct CounterOverride {
  std::string pmu;
  std::uint32_t generic = 0;
  std::uint32_t fixed = 0;
  friend bool operator==(const CounterOverride&, const CounterOverride&) = default;
};
// Errors: plan-counters-syntax, located in `text`.
Expected<CounterOverride> parse_counter_override(std::string_view text);

struct PlanBuildOptions {
  bool nmi_watchdog = false;  // /proc/sys/kernel/nmi_watchdog is 1: a pinned cycles per core PMU
  std::vector<CounterOverride> counters;  // --counters, winning over every other source
};

// Builds the model's input from encoded events (encode() or encode_metrics(), in order, with
// their group leaders) and the catalog: counter sets per PMU instance, each event's constraint,
// groups (uncore groups split per box instance, as perf opens them), the watchdog's pinned event.
// PlanInput::events[i] is events[i] for every i < events.size(); the watchdogs' events follow.
PlanInput build_plan_input(const Catalog& catalog, std::span<const EncodedEvent> events,
                           const PlanBuildOptions& options = {});

PMUCAT_END_NAMESPACE
