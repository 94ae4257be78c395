// The planner against the independent reference (reference.cpp) on random counter sets, event
// constraints and groups: the same verdict and running fractions; and the regrouping always
// fits (each group on one PMU, opens alone and beside the pinned groups, every event once).
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <set>

#include "pmucat/planner.h"
#include "reference.h"

PMUCAT_BEGIN_NAMESPACE
namespace {

rc::Gen<CounterSet> gen_counters(std::string pmu) {
  return rc::gen::apply(
      [pmu](std::uint32_t generic, std::uint32_t fixed, bool metrics, bool known) {
        CounterSet set;
        set.pmu = pmu;
        set.generic = generic;
        set.fixed = fixed;
        set.metrics = metrics && fixed >= 4 ? 8 : 0;
        set.source = known ? CounterSource::user : CounterSource::unknown;
        return set;
      },
      rc::gen::inRange<std::uint32_t>(0, 9), rc::gen::inRange<std::uint32_t>(0, 5),
      rc::gen::arbitrary<bool>(), rc::gen::weightedElement<bool>({{9, true}, {1, false}}));
}

rc::Gen<EventConstraint> gen_constraint() {
  return rc::gen::apply(
      [](int kind, std::uint32_t generic, std::uint32_t fixed, std::uint8_t metric) {
        EventConstraint c;
        switch (kind) {
          case 0:  // any generic, maybe a fixed counter too
            c.generic_mask = ~0u;
            c.fixed_mask = fixed & 0x3;
            break;
          case 1:  // a vendor Counter list
            c.generic_mask = generic;
            break;
          case 2:  // fixed only (pseudo-encodings, REF_CYCLES)
            c.fixed_mask = fixed;
            break;
          case 3:
            c.need = CounterNeed::topdown_metric;
            c.metric = metric;
            break;
          case 4:
            c.fixed_mask = 1u << 3;
            c.slots = true;
            break;
          default:
            c.need = CounterNeed::none;
            break;
        }
        return c;
      },
      rc::gen::weightedElement<int>({{5, 0}, {5, 1}, {1, 2}, {2, 3}, {1, 4}, {1, 5}}),
      rc::gen::inRange<std::uint32_t>(1, 256), rc::gen::inRange<std::uint32_t>(1, 16),
      rc::gen::inRange<std::uint8_t>(0, 8));
}

PlanInput gen_input() {
  PlanInput input;
  const int pmus = *rc::gen::inRange(1, 3);
  for (int p = 0; p < pmus; ++p) {
    input.counters.push_back(*gen_counters(p == 0 ? "cpu" : "uncore_cha_" + std::to_string(p)));
  }
  const int events = *rc::gen::inRange(1, 16);
  for (int e = 0; e < events; ++e) {
    PlanEvent event;
    event.name = "e" + std::to_string(e);
    event.perf_string = event.name;
    event.constraint = *gen_constraint();
    // Mostly one PMU per test, so that groups rarely span two.
    event.pmu = input
                    .counters[*rc::gen::weightedElement<std::size_t>(
                        {{6, 0}, {1, input.counters.size() - 1}})]
                    .pmu;
    input.events.push_back(std::move(event));
  }
  std::size_t e = 0;
  while (e < input.events.size()) {
    const auto size =
        std::min<std::size_t>(*rc::gen::inRange<std::size_t>(1, 6), input.events.size() - e);
    PlanGroup group;
    for (std::size_t k = 0; k < size; ++k) group.events.push_back(e++);
    group.user_group = size > 1;
    group.weak = *rc::gen::arbitrary<bool>();
    group.pinned = input.groups.empty() && *rc::gen::weightedElement<bool>({{1, true}, {4, false}});
    input.groups.push_back(std::move(group));
  }
  return input;
}

RC_GTEST_PROP(PlannerProperties, SameVerdictAndFractionsAsTheReference, ()) {
  const PlanInput input = gen_input();
  const Plan plan = plan_counters(input);
  const auto reference = planner_reference::reference_plan(input);
  RC_ASSERT(plan.fits == reference.fits);
  for (const PmuPlan& pmu : plan.pmus) {
    if (!pmu.counts_known) continue;
    const auto& expected = reference.pmus.at(pmu.counters.pmu);
    RC_ASSERT(pmu.fits == expected.fits);
    RC_ASSERT(pmu.never.size() == expected.never);
    RC_ASSERT(pmu.runs.size() == expected.opened.size());
    for (std::size_t k = 0; k < pmu.runs.size(); ++k) {
      RC_ASSERT(pmu.runs[k].events == expected.opened[k]);
      RC_ASSERT(std::abs(pmu.runs[k].fraction - expected.running[k]) < 1e-12);
    }
  }
}

RC_GTEST_PROP(PlannerProperties, TheRegroupingFitsAndPlacesEveryEventOnce, ()) {
  const PlanInput input = gen_input();
  const Plan plan = plan_counters(input);
  std::multiset<std::size_t> placed;
  for (const auto& group : plan.regrouping.groups) {
    RC_ASSERT(!group.empty());
    std::set<std::string> pmus;
    for (std::size_t e : group) {
      placed.insert(e);
      if (input.events[e].constraint.need != CounterNeed::none) pmus.insert(input.events[e].pmu);
    }
    RC_ASSERT(pmus.size() == 1u);
    const auto set = std::find_if(input.counters.begin(), input.counters.end(),
                                  [&](const CounterSet& c) { return c.pmu == *pmus.begin(); });
    RC_ASSERT(set != input.counters.end());
    RC_ASSERT(planner_reference::reference_opens(input, *set, group));
    RC_ASSERT(planner_reference::reference_fits_beside_pinned(input, *set, group));
  }
  for (std::size_t e : plan.regrouping.ungrouped) placed.insert(e);
  for (std::size_t e : plan.regrouping.left_out) placed.insert(e);
  // Pinned groups are kept as they are, outside the regrouping; every other event is placed once.
  std::multiset<std::size_t> expected;
  for (const PlanGroup& group : input.groups) {
    if (!group.pinned) expected.insert(group.events.begin(), group.events.end());
  }
  RC_ASSERT(placed == expected);
  RC_ASSERT(plan.regrouping.groups.size() >= plan.regrouping.lower_bound);
}

}  // namespace
PMUCAT_END_NAMESPACE
