#include "planner/assign.h"

#include <bit>

#include "pmucat/version.h"

PMUCAT_BEGIN_NAMESPACE
namespace planner_detail {
namespace {

std::uint32_t low_bits(std::uint32_t count) {
  return count >= 32 ? ~std::uint32_t{0} : (std::uint32_t{1} << count) - 1;
}

// One event's turn: fixed counters first (and, on Intel, the metric slots, which the kernel
// numbers after them), then the lowest free generic counter.
std::optional<CounterSlot> take_counter(const CounterSet& counters,
                                        const EventConstraint& constraint,
                                        std::uint32_t& used_fixed, std::uint32_t& used_generic,
                                        std::uint32_t& used_metrics) {
  if (constraint.need == CounterNeed::topdown_metric) {
    if (constraint.metric >= counters.metrics) return std::nullopt;
    const std::uint32_t bit = std::uint32_t{1} << constraint.metric;
    if ((used_metrics & bit) != 0) return std::nullopt;
    used_metrics |= bit;
    return CounterSlot{CounterKind::metric, constraint.metric};
  }
  const std::uint32_t free_fixed = usable_fixed(counters, constraint) & ~used_fixed;
  if (free_fixed != 0) {
    const auto index = static_cast<std::uint32_t>(std::countr_zero(free_fixed));
    used_fixed |= std::uint32_t{1} << index;
    return CounterSlot{CounterKind::fixed, index};
  }
  const std::uint32_t free_generic = usable_generic(counters, constraint) & ~used_generic;
  if (free_generic != 0) {
    const auto index = static_cast<std::uint32_t>(std::countr_zero(free_generic));
    used_generic |= std::uint32_t{1} << index;
    return CounterSlot{CounterKind::generic, index};
  }
  return std::nullopt;
}

}  // namespace

std::uint32_t usable_generic(const CounterSet& counters, const EventConstraint& constraint) {
  return constraint.generic_mask & low_bits(counters.generic);
}

std::uint32_t usable_fixed(const CounterSet& counters, const EventConstraint& constraint) {
  return constraint.fixed_mask & low_bits(counters.fixed);
}

int constraint_weight(const CounterSet& counters, const EventConstraint& constraint) {
  if (constraint.need == CounterNeed::topdown_metric) {
    return constraint.metric < counters.metrics ? 1 : 0;
  }
  return std::popcount(usable_generic(counters, constraint)) +
         std::popcount(usable_fixed(counters, constraint));
}

std::optional<std::vector<CounterSlot>> assign_counters(
    const CounterSet& counters, std::span<const EventConstraint* const> events) {
  std::vector<CounterSlot> slots(events.size());
  int lightest = 64;
  int heaviest = 0;
  for (const EventConstraint* event : events) {
    if (event->need == CounterNeed::none) continue;
    const int weight = constraint_weight(counters, *event);
    lightest = std::min(lightest, weight);
    heaviest = std::max(heaviest, weight);
  }
  std::uint32_t used_fixed = 0;
  std::uint32_t used_generic = 0;
  std::uint32_t used_metrics = 0;
  // The most constrained events choose first; events of one weight in list order.
  for (int weight = lightest; weight <= heaviest; ++weight) {
    for (std::size_t i = 0; i < events.size(); ++i) {
      const EventConstraint& event = *events[i];
      if (event.need == CounterNeed::none || constraint_weight(counters, event) != weight) continue;
      auto slot = take_counter(counters, event, used_fixed, used_generic, used_metrics);
      if (!slot) return std::nullopt;
      slots[i] = *slot;
    }
  }
  return slots;
}

}  // namespace planner_detail
PMUCAT_END_NAMESPACE
