// The kernel's multiplexing of one PMU instance, simulated tick by tick: pinned groups first,
// then the flexible list until the first group that does not go on, then the rotation of the
// first flexible group that went on to the tail. Pure; docs/planner.md.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "pmucat/planner.h"

PMUCAT_BEGIN_NAMESPACE
namespace planner_detail {

// The constraints of one group's events, leader first.
using ConstraintList = std::vector<const EventConstraint*>;

struct RotationResult {
  std::vector<bool> pinned_on;   // per pinned group: on (it is on in every tick or none)
  std::vector<double> fraction;  // per flexible group (input order): share of ticks on
  // Per pinned group then per flexible group (input order): its events' counters in the first
  // tick; empty when the group is not on then.
  std::vector<std::vector<CounterSlot>> first_tick;
  std::uint32_t ticks = 1;  // length of the repeating cycle (1: no rotation)
  bool exact = true;        // false: no repeat within the budget; fractions over the ticks run
  bool rotates = false;     // some flexible group was left out in some tick
};

RotationResult simulate_rotation(const CounterSet& counters, std::span<const ConstraintList> pinned,
                                 std::span<const ConstraintList> flexible,
                                 std::uint32_t tick_budget = 4096);

}  // namespace planner_detail
PMUCAT_END_NAMESPACE
