// Packing the groups of one PMU instance into the fewest groups that each fit, and the lower
// bound that proves a packing has the fewest. Pure; docs/planner.md.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include "planner/rotation.h"
#include "pmucat/planner.h"

PMUCAT_BEGIN_NAMESPACE
namespace planner_detail {

// The counters an event may take, as the kernel numbers them: generic counters at bits 0-31,
// fixed at 32-47, topdown metric slots at 48-55.
std::uint64_t allowed_counters(const CounterSet& counters, const EventConstraint& constraint);

// Whether `events` (as one group) goes on alone and after the pinned groups.
bool group_fits(const CounterSet& counters, std::span<const ConstraintList> pinned,
                const ConstraintList& events);

struct Packing {
  std::vector<std::vector<std::size_t>> groups;  // event indices, leader first
  std::size_t lower_bound = 0;
};

// Packs `units` (event indices that must stay together, each fitting on its own) first-fit, most
// counters first. `events` are PlanInput::events.
Packing pack_units(const CounterSet& counters, std::span<const ConstraintList> pinned,
                   std::span<const PlanEvent> events,
                   std::span<const std::vector<std::size_t>> units);

}  // namespace planner_detail
PMUCAT_END_NAMESPACE
