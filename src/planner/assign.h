// The x86 kernel's counter assignment for one set of events on one PMU instance (the slow path of
// its scheduler: every event placed again from scratch). Pure; docs/planner.md.
#pragma once

#include <optional>
#include <span>
#include <vector>

#include "pmucat/planner.h"

PMUCAT_BEGIN_NAMESPACE
namespace planner_detail {

// The constraint's allowed counters, narrowed to the counters `counters` has.
std::uint32_t usable_generic(const CounterSet& counters, const EventConstraint& constraint);
std::uint32_t usable_fixed(const CounterSet& counters, const EventConstraint& constraint);
// The kernel's weight: how many counters (metric slots count as one) the event may take.
int constraint_weight(const CounterSet& counters, const EventConstraint& constraint);

// The counter of each event (same order), or nullopt when the greedy leaves one without a
// counter. Events that need no counter get CounterKind::none and are not scheduled.
std::optional<std::vector<CounterSlot>> assign_counters(
    const CounterSet& counters, std::span<const EventConstraint* const> events);

}  // namespace planner_detail
PMUCAT_END_NAMESPACE
