#include "planner/regroup.h"

#include <algorithm>
#include <bit>

#include "planner/assign.h"
#include "pmucat/version.h"

PMUCAT_BEGIN_NAMESPACE
namespace planner_detail {
namespace {

ConstraintList constraints_of(std::span<const PlanEvent> events,
                              std::span<const std::size_t> indices) {
  ConstraintList list;
  list.reserve(indices.size());
  for (std::size_t i : indices) list.push_back(&events[i].constraint);
  return list;
}

std::size_t counters_needed(std::span<const PlanEvent> events, std::span<const std::size_t> unit) {
  return static_cast<std::size_t>(std::count_if(unit.begin(), unit.end(), [&](std::size_t i) {
    return events[i].constraint.need != CounterNeed::none;
  }));
}

bool leads_metrics(std::span<const PlanEvent> events, std::span<const std::size_t> unit) {
  return !unit.empty() && events[unit.front()].constraint.slots;
}

// The fewest counters any event of the unit may take.
int choices(const CounterSet& counters, std::span<const PlanEvent> events,
            std::span<const std::size_t> unit) {
  int fewest = 64;
  for (std::size_t i : unit) {
    if (events[i].constraint.need == CounterNeed::none) continue;
    fewest = std::min(fewest, constraint_weight(counters, events[i].constraint));
  }
  return fewest;
}

// Every partition into groups needs at least ceil(|S| / |A|) groups for any counter set A and
// the events S that may only use counters of A: each group gives S at most |A| counters.
std::size_t lower_bound(const CounterSet& counters, std::span<const PlanEvent> events,
                        std::span<const std::vector<std::size_t>> units) {
  std::vector<std::uint64_t> allowed;
  for (const auto& unit : units) {
    for (std::size_t i : unit) {
      if (events[i].constraint.need != CounterNeed::none) {
        allowed.push_back(allowed_counters(counters, events[i].constraint));
      }
    }
  }
  std::size_t bound = units.empty() ? 0 : 1;
  std::vector<std::uint64_t> candidates = allowed;
  std::uint64_t all = 0;
  for (std::uint64_t a : allowed) all |= a;
  candidates.push_back(all);
  std::sort(candidates.begin(), candidates.end());
  candidates.erase(std::unique(candidates.begin(), candidates.end()), candidates.end());
  for (std::uint64_t set : candidates) {
    const auto size = static_cast<std::size_t>(std::popcount(set));
    if (size == 0) continue;
    const auto inside = static_cast<std::size_t>(std::count_if(
        allowed.begin(), allowed.end(), [&](std::uint64_t a) { return (a & ~set) == 0; }));
    bound = std::max(bound, (inside + size - 1) / size);
  }
  return bound;
}

}  // namespace

std::uint64_t allowed_counters(const CounterSet& counters, const EventConstraint& constraint) {
  switch (constraint.need) {
    case CounterNeed::none:
      return 0;
    case CounterNeed::topdown_metric:
      return constraint.metric < counters.metrics ? std::uint64_t{1} << (48 + constraint.metric)
                                                  : 0;
    case CounterNeed::counter:
      break;
  }
  return std::uint64_t{usable_generic(counters, constraint)} |
         (std::uint64_t{usable_fixed(counters, constraint)} << 32);
}

bool group_fits(const CounterSet& counters, std::span<const ConstraintList> pinned,
                const ConstraintList& events) {
  if (!assign_counters(counters, events)) return false;
  const std::vector<ConstraintList> flexible{events};
  const RotationResult tick = simulate_rotation(counters, pinned, flexible, 1);
  return !tick.first_tick[pinned.size()].empty() || events.empty();
}

Packing pack_units(const CounterSet& counters, std::span<const ConstraintList> pinned,
                   std::span<const PlanEvent> events,
                   std::span<const std::vector<std::size_t>> units) {
  // Largest units first (the classic first-fit-decreasing order); among equals a slots-led unit
  // first, so that it leads the group it opens, then the most constrained.
  std::vector<std::size_t> order(units.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    const std::size_t na = counters_needed(events, units[a]);
    const std::size_t nb = counters_needed(events, units[b]);
    if (na != nb) return na > nb;
    const bool la = leads_metrics(events, units[a]);
    const bool lb = leads_metrics(events, units[b]);
    if (la != lb) return la;
    // Then the units with the fewest choices, which the later ones can work around.
    return choices(counters, events, units[a]) < choices(counters, events, units[b]);
  });
  Packing packing;
  for (std::size_t u : order) {
    const auto& unit = units[u];
    bool placed = false;
    for (auto& group : packing.groups) {
      // Metric events need the slots event as leader: a slots-led unit goes in front.
      std::vector<std::size_t> candidate;
      if (leads_metrics(events, unit)) {
        if (leads_metrics(events, group)) continue;
        candidate = unit;
        candidate.insert(candidate.end(), group.begin(), group.end());
      } else {
        candidate = group;
        candidate.insert(candidate.end(), unit.begin(), unit.end());
      }
      if (group_fits(counters, pinned, constraints_of(events, candidate))) {
        group = std::move(candidate);
        placed = true;
        break;
      }
    }
    if (!placed) packing.groups.push_back(unit);
  }
  packing.lower_bound = lower_bound(counters, events, units);
  return packing;
}

}  // namespace planner_detail
PMUCAT_END_NAMESPACE
