#include "planner/rotation.h"

#include <map>

#include "planner/assign.h"
#include "pmucat/version.h"

PMUCAT_BEGIN_NAMESPACE
namespace planner_detail {
namespace {

struct Tick {
  std::vector<bool> pinned_on;
  std::vector<bool> flexible_on;                // by flexible group index
  std::vector<std::vector<CounterSlot>> slots;  // pinned then flexible, by index
  std::size_t first_on_position = SIZE_MAX;     // position in `order` of the first group on
  bool left_out = false;
};

// Adds `group` to the events already on if the whole set still gets counters.
bool try_add(const CounterSet& counters, ConstraintList& on, const ConstraintList& group,
             std::vector<CounterSlot>& slots) {
  ConstraintList candidate = on;
  candidate.insert(candidate.end(), group.begin(), group.end());
  auto assigned = assign_counters(counters, candidate);
  if (!assigned) return false;
  on = std::move(candidate);
  slots = std::move(*assigned);
  return true;
}

Tick run_tick(const CounterSet& counters, std::span<const ConstraintList> pinned,
              std::span<const ConstraintList> flexible, const std::vector<std::uint32_t>& order) {
  Tick tick;
  tick.pinned_on.assign(pinned.size(), false);
  tick.flexible_on.assign(flexible.size(), false);
  tick.slots.assign(pinned.size() + flexible.size(), {});
  ConstraintList on;
  std::vector<CounterSlot> all_slots;
  // Which groups own which stretch of `on`, to hand each its counters at the end.
  std::vector<std::pair<std::size_t, std::size_t>> owners;  // (slot index, first event in `on`)
  for (std::size_t p = 0; p < pinned.size(); ++p) {
    const std::size_t begin = on.size();
    if (try_add(counters, on, pinned[p], all_slots)) {
      tick.pinned_on[p] = true;
      owners.emplace_back(p, begin);
    }
  }
  for (std::size_t position = 0; position < order.size(); ++position) {
    const std::uint32_t g = order[position];
    const std::size_t begin = on.size();
    // After the first group that fails, the kernel tries no later flexible group this tick.
    if (!try_add(counters, on, flexible[g], all_slots)) {
      tick.left_out = true;
      break;
    }
    tick.flexible_on[g] = true;
    owners.emplace_back(pinned.size() + g, begin);
    if (tick.first_on_position == SIZE_MAX) tick.first_on_position = position;
  }
  for (const auto& [slot_index, begin] : owners) {
    const std::size_t size = slot_index < pinned.size()
                                 ? pinned[slot_index].size()
                                 : flexible[slot_index - pinned.size()].size();
    tick.slots[slot_index].assign(all_slots.begin() + static_cast<std::ptrdiff_t>(begin),
                                  all_slots.begin() + static_cast<std::ptrdiff_t>(begin + size));
  }
  return tick;
}

}  // namespace

RotationResult simulate_rotation(const CounterSet& counters, std::span<const ConstraintList> pinned,
                                 std::span<const ConstraintList> flexible,
                                 std::uint32_t tick_budget) {
  RotationResult result;
  std::vector<std::uint32_t> order(flexible.size());
  for (std::uint32_t i = 0; i < order.size(); ++i) order[i] = i;
  std::map<std::vector<std::uint32_t>, std::uint32_t> seen;  // list order -> first tick with it
  std::vector<std::vector<bool>> history;
  std::uint32_t cycle_begin = 0;
  bool found = false;
  for (std::uint32_t t = 0; t < tick_budget; ++t) {
    if (auto [it, inserted] = seen.emplace(order, t); !inserted) {
      cycle_begin = it->second;
      found = true;
      break;
    }
    Tick tick = run_tick(counters, pinned, flexible, order);
    if (t == 0) {
      result.pinned_on = tick.pinned_on;
      result.first_tick = std::move(tick.slots);
    }
    history.push_back(std::move(tick.flexible_on));
    if (!tick.left_out) {
      // Nothing waits: the kernel does not rotate, and this tick repeats for ever.
      cycle_begin = t;
      found = true;
      break;
    }
    result.rotates = true;
    // The first flexible group that went on moves to the tail; if none went on, the head does.
    const std::size_t victim = tick.first_on_position == SIZE_MAX ? 0 : tick.first_on_position;
    const std::uint32_t moved = order[victim];
    order.erase(order.begin() + static_cast<std::ptrdiff_t>(victim));
    order.push_back(moved);
  }
  if (!result.rotates) {
    result.fraction.assign(flexible.size(), 1.0);
    result.ticks = 1;
    return result;
  }
  result.exact = found;
  const std::size_t end = history.size();
  const std::size_t begin = found ? cycle_begin : 0;
  result.ticks = static_cast<std::uint32_t>(end - begin);
  result.fraction.assign(flexible.size(), 0.0);
  for (std::size_t t = begin; t < end; ++t) {
    for (std::size_t g = 0; g < flexible.size(); ++g) {
      if (history[t][g]) result.fraction[g] += 1.0;
    }
  }
  for (double& f : result.fraction) f /= static_cast<double>(end - begin);
  return result;
}

}  // namespace planner_detail
PMUCAT_END_NAMESPACE
