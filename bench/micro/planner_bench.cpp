// The counter planner: planning 100 events on a Sapphire-Rapids-shaped core PMU (8
// generic + 4 fixed counters, 8 topdown metric slots, the watchdog pinned), as singletons and as
// groups of four. The pure model only (plan_counters); no catalog, so no tables are needed.
#include <benchmark/benchmark.h>
#include <pmucat/planner.h>

#include <string>

namespace {

// 100 events: every other one on generic counters 0-3 only (as many vendor Counter fields say),
// the rest on any of the 8, every tenth one able to use fixed counter 0 or 1 too.
pmucat::PlanInput hundred_events(std::size_t group_size) {
  pmucat::PlanInput input;
  input.counters.push_back(
      pmucat::CounterSet{"cpu", 8, 4, 8, pmucat::CounterSource::user, "bench"});
  pmucat::PlanEvent watchdog{"nmi_watchdog:cycles", "cpu", "", {}};
  watchdog.constraint.generic_mask = 0xff;
  watchdog.constraint.fixed_mask = 0b10;
  input.events.push_back(watchdog);
  input.groups.push_back(pmucat::PlanGroup{{0}, true, false, false});
  for (std::size_t i = 0; i < 100; ++i) {
    std::string name = "e";
    name += std::to_string(i);
    pmucat::PlanEvent event{name, "cpu", name, {}};
    event.constraint.generic_mask = i % 2 == 0 ? 0x0f : 0xff;
    if (i % 10 == 0) event.constraint.fixed_mask = i % 20 == 0 ? 0b01 : 0b10;
    input.events.push_back(std::move(event));
  }
  for (std::size_t first = 1; first < input.events.size(); first += group_size) {
    pmucat::PlanGroup group;
    for (std::size_t e = first; e < first + group_size && e < input.events.size(); ++e) {
      group.events.push_back(e);
    }
    group.user_group = group.events.size() > 1;
    group.weak = true;
    input.groups.push_back(std::move(group));
  }
  return input;
}

void planner_100_singletons(benchmark::State& state) {
  const pmucat::PlanInput input = hundred_events(1);
  for (auto _ : state) {
    pmucat::Plan plan = pmucat::plan_counters(input);
    benchmark::DoNotOptimize(plan);
  }
}
BENCHMARK(planner_100_singletons)->Unit(benchmark::kMicrosecond);

void planner_100_in_groups_of_4(benchmark::State& state) {
  const pmucat::PlanInput input = hundred_events(4);
  for (auto _ : state) {
    pmucat::Plan plan = pmucat::plan_counters(input);
    benchmark::DoNotOptimize(plan);
  }
}
BENCHMARK(planner_100_in_groups_of_4)->Unit(benchmark::kMicrosecond);

}  // namespace
