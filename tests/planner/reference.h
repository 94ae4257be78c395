// An independent reference of the kernel's x86 counter scheduling, for the planner's tests: the
// same rules as docs/planner.md states them, written again as a direct simulation with its own
// data structures (counters by name, a deque of groups, string states), sharing no code with
// src/planner.
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "pmucat/planner.h"

namespace planner_reference {

struct PmuVerdict {
  bool fits = false;
  // Per opened group, in open order (pinned groups first, then flexible ones): its events and
  // the ticks it was on / the ticks of the cycle.
  std::vector<std::vector<std::size_t>> opened;
  std::vector<double> running;
  std::size_t never = 0;  // groups that cannot open, or never get on
};

struct Verdict {
  bool fits = false;
  std::map<std::string, PmuVerdict> pmus;  // PMUs with known counts
};

// Whether `events` (indices into input.events, all on `counters`) get counters as one set.
bool reference_schedules(const pmucat::PlanInput& input, const pmucat::CounterSet& counters,
                         const std::vector<std::size_t>& events);

// Whether `group` opens as a group: a metric event needs slots as leader, and the group alone
// gets counters.
bool reference_opens(const pmucat::PlanInput& input, const pmucat::CounterSet& counters,
                     const std::vector<std::size_t>& group);

// Whether `group` goes on after the pinned groups of its PMU (as one flexible group at the head).
bool reference_fits_beside_pinned(const pmucat::PlanInput& input,
                                  const pmucat::CounterSet& counters,
                                  const std::vector<std::size_t>& group);

Verdict reference_plan(const pmucat::PlanInput& input);

}  // namespace planner_reference
