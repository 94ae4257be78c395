// The planner's model on hand-made cases: the kernel's assignment (fixed counters first, fewest
// choices first), groups that never fit and why, the pinned watchdog, topdown slots and metrics,
// uncore instances, rotation fractions; and --counters parsing.
#include "pmucat/planner.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

PMUCAT_BEGIN_NAMESPACE
namespace {

CounterSet counters(std::string pmu, std::uint32_t generic, std::uint32_t fixed,
                    std::uint32_t metrics = 0) {
  return CounterSet{std::move(pmu), generic, fixed, metrics, CounterSource::user, "test"};
}

EventConstraint generic(std::uint32_t mask) {
  EventConstraint c;
  c.generic_mask = mask;
  return c;
}

EventConstraint fixed_or_generic(std::uint32_t fixed_mask) {
  EventConstraint c = generic(~0u);
  c.fixed_mask = fixed_mask;
  return c;
}

EventConstraint fixed_only(std::uint32_t fixed_mask) {
  EventConstraint c;
  c.fixed_mask = fixed_mask;
  return c;
}

EventConstraint metric(std::uint8_t index) {
  EventConstraint c;
  c.need = CounterNeed::topdown_metric;
  c.metric = index;
  return c;
}

EventConstraint slots() {
  EventConstraint c = fixed_only(1u << 3);
  c.slots = true;
  return c;
}

EventConstraint no_counter() {
  EventConstraint c;
  c.need = CounterNeed::none;
  return c;
}

// A small builder: events on one PMU by default, groups by index lists.
struct Input {
  PlanInput input;
  std::size_t event(std::string name, EventConstraint c, std::string pmu = "cpu") {
    input.events.push_back(PlanEvent{name, std::move(pmu), name, std::move(c)});
    return input.events.size() - 1;
  }
  void group(std::vector<std::size_t> events, bool pinned = false, bool weak = false) {
    const bool user = events.size() > 1;
    input.groups.push_back(PlanGroup{std::move(events), pinned, weak, user});
  }
  // Every event not in a group yet, alone.
  void singletons() {
    std::vector<bool> grouped(input.events.size());
    for (const auto& g : input.groups) {
      for (std::size_t e : g.events) grouped[e] = true;
    }
    for (std::size_t e = 0; e < input.events.size(); ++e) {
      if (!grouped[e]) group({e});
    }
  }
};

CounterSlot slot_of(const PmuPlan& pmu, std::size_t event) {
  for (const auto& [e, slot] : pmu.assignment) {
    if (e == event) return slot;
  }
  return {};
}

TEST(Planner, FixedCountersFirstThenTheLowestFreeGeneric) {
  Input in;
  in.input.counters = {counters("cpu", 8, 4)};
  const auto cycles = in.event("cycles", fixed_or_generic(1u << 1));
  const auto instructions = in.event("instructions", fixed_or_generic(1u << 0));
  const auto ref = in.event("ref-cycles", fixed_only(1u << 2));
  const auto other = in.event("other", generic(0xff));
  const auto cycles2 = in.event("cycles again", fixed_or_generic(1u << 1));
  in.singletons();
  const Plan plan = plan_counters(in.input);
  ASSERT_EQ(plan.pmus.size(), 1u);
  const PmuPlan& pmu = plan.pmus[0];
  EXPECT_TRUE(plan.fits);
  EXPECT_EQ(slot_of(pmu, cycles), (CounterSlot{CounterKind::fixed, 1}));
  EXPECT_EQ(slot_of(pmu, instructions), (CounterSlot{CounterKind::fixed, 0}));
  EXPECT_EQ(slot_of(pmu, ref), (CounterSlot{CounterKind::fixed, 2}));
  // The second cycles finds fixed 1 taken: the first free generic counter.
  EXPECT_EQ(slot_of(pmu, other), (CounterSlot{CounterKind::generic, 0}));
  EXPECT_EQ(slot_of(pmu, cycles2), (CounterSlot{CounterKind::generic, 1}));
  EXPECT_EQ(pmu.rotation_ticks, 1u);
}

TEST(Planner, FewestChoicesChooseFirstWhateverTheListOrder) {
  Input in;
  in.input.counters = {counters("cpu", 4, 0)};
  const auto wide = in.event("wide", generic(0b0011));
  const auto narrow = in.event("narrow", generic(0b0001));
  in.group({wide, narrow});
  const Plan plan = plan_counters(in.input);
  EXPECT_TRUE(plan.fits);
  EXPECT_EQ(slot_of(plan.pmus[0], narrow), (CounterSlot{CounterKind::generic, 0}));
  EXPECT_EQ(slot_of(plan.pmus[0], wide), (CounterSlot{CounterKind::generic, 1}));
}

TEST(Planner, AGroupThatNeverFitsSaysWhichEventsCompete) {
  Input in;
  in.input.counters = {counters("cpu", 8, 4)};
  std::vector<std::size_t> group;
  for (int i = 0; i < 5; ++i) group.push_back(in.event("low" + std::to_string(i), generic(0xf)));
  in.group(group);
  const Plan plan = plan_counters(in.input);
  EXPECT_FALSE(plan.fits);
  ASSERT_EQ(plan.pmus[0].never.size(), 1u);
  EXPECT_EQ(plan.pmus[0].never[0].reason,
            "5 events compete for 4 counters (generic 0-3): low0, low1, low2, low3, low4");
  EXPECT_NE(plan.pmus[0].never[0].consequence.find("EINVAL"), std::string::npos);
  // The regrouping splits it into groups that fit: two, which the bound proves fewest.
  EXPECT_EQ(plan.regrouping.groups.size(), 2u);
  EXPECT_TRUE(plan.regrouping.proven_fewest);
  EXPECT_TRUE(plan.regrouping.left_out.empty());
}

TEST(Planner, AWeakGroupThatCannotOpenIsReopenedUngrouped) {
  Input in;
  in.input.counters = {counters("cpu", 2, 0)};
  const auto a = in.event("a", generic(0b11));
  const auto b = in.event("b", generic(0b11));
  const auto c = in.event("c", generic(0b11));
  in.group({a, b, c}, false, true);
  const Plan plan = plan_counters(in.input);
  ASSERT_EQ(plan.pmus[0].never.size(), 1u);
  EXPECT_NE(plan.pmus[0].never[0].consequence.find("ungrouped"), std::string::npos);
  ASSERT_EQ(plan.pmus[0].runs.size(), 3u);  // each event alone, rotating
  for (const GroupRun& run : plan.pmus[0].runs) EXPECT_NEAR(run.fraction, 2.0 / 3.0, 1e-12);
}

TEST(Planner, ThePinnedWatchdogTakesFixedOneAndCyclesMovesToAGenericCounter) {
  Input in;
  in.input.counters = {counters("cpu", 8, 4)};
  const auto watchdog = in.event("nmi_watchdog:cycles", fixed_or_generic(1u << 1));
  in.input.events[watchdog].perf_string.clear();
  in.group({watchdog}, true);
  std::vector<std::size_t> group{in.event("cycles", fixed_or_generic(1u << 1))};
  for (int i = 0; i < 8; ++i) group.push_back(in.event("g" + std::to_string(i), generic(0xff)));
  in.group(group);
  const Plan plan = plan_counters(in.input);
  // Alone the group fits (cycles on fixed 1); beside the watchdog it needs 9 generic counters.
  ASSERT_EQ(plan.pmus[0].never.size(), 1u);
  EXPECT_NE(plan.pmus[0].never[0].reason.find("never beside the pinned events"), std::string::npos);
  EXPECT_EQ(plan.pmus[0].runs[0].fraction, 1.0);
  EXPECT_EQ(plan.pmus[0].runs[1].fraction, 0.0);
  // The watchdog is not the user's: it is not in the pasted string.
  EXPECT_EQ(plan.regrouping.perf_events.find("nmi_watchdog"), std::string::npos);
  EXPECT_EQ(plan.regrouping.groups.size(), 2u);
}

TEST(Planner, TopdownMetricsTakeMetricSlotsBehindASlotsLeader) {
  Input in;
  in.input.counters = {counters("cpu", 8, 4, 8)};
  const auto s = in.event("slots", slots());
  const auto retiring = in.event("topdown-retiring", metric(0));
  const auto be = in.event("topdown-be-bound", metric(3));
  in.group({s, retiring, be});
  const auto lonely = in.event("topdown-fe-bound", metric(2));
  in.group({lonely});
  const Plan plan = plan_counters(in.input);
  EXPECT_EQ(slot_of(plan.pmus[0], s), (CounterSlot{CounterKind::fixed, 3}));
  EXPECT_EQ(slot_of(plan.pmus[0], retiring), (CounterSlot{CounterKind::metric, 0}));
  EXPECT_EQ(slot_of(plan.pmus[0], be), (CounterSlot{CounterKind::metric, 3}));
  ASSERT_EQ(plan.pmus[0].never.size(), 1u);
  EXPECT_EQ(plan.pmus[0].never[0].group, 1u);
  EXPECT_NE(plan.pmus[0].never[0].reason.find("slots event as its group leader"),
            std::string::npos);
  EXPECT_EQ(plan.regrouping.left_out, std::vector<std::size_t>{lonely});
}

TEST(Planner, TwoSlotsGroupsRotate) {
  Input in;
  in.input.counters = {counters("cpu", 8, 4, 8)};
  for (int i = 0; i < 2; ++i) {
    const auto s = in.event("slots", slots());
    const auto m = in.event("topdown-retiring", metric(0));
    in.group({s, m});
  }
  const Plan plan = plan_counters(in.input);
  EXPECT_FALSE(plan.fits);
  ASSERT_EQ(plan.pmus[0].runs.size(), 2u);
  EXPECT_EQ(plan.pmus[0].runs[0].fraction, 0.5);
  EXPECT_EQ(plan.pmus[0].runs[1].fraction, 0.5);
  EXPECT_EQ(plan.regrouping.groups.size(), 2u);
  EXPECT_TRUE(plan.regrouping.proven_fewest);
}

TEST(Planner, EachUncoreBoxHasItsOwnCounters) {
  Input in;
  in.input.counters = {counters("uncore_cha_0", 4, 0), counters("uncore_cha_1", 4, 0)};
  for (int box = 0; box < 2; ++box) {
    for (int i = 0; i < 4; ++i)
      in.event("e" + std::to_string(i), generic(0xf), "uncore_cha_" + std::to_string(box));
  }
  in.singletons();
  const Plan plan = plan_counters(in.input);
  EXPECT_TRUE(plan.fits);
  ASSERT_EQ(plan.pmus.size(), 2u);
  EXPECT_TRUE(plan.pmus[1].fits);
  EXPECT_EQ(plan.regrouping.groups.size(), 2u);
}

TEST(Planner, RotationFractionsMatchPerfStatsPercentages) {
  Input in;
  in.input.counters = {counters("cpu", 4, 0)};
  for (int i = 0; i < 5; ++i) in.event("e" + std::to_string(i), generic(0xf));
  in.singletons();
  const Plan five = plan_counters(in.input);
  EXPECT_FALSE(five.fits);
  EXPECT_EQ(five.pmus[0].rotation_ticks, 5u);
  for (const GroupRun& run : five.pmus[0].runs) EXPECT_NEAR(run.fraction, 0.8, 1e-12);

  Input pairs;
  pairs.input.counters = {counters("cpu", 4, 0)};
  for (int g = 0; g < 2; ++g) {
    std::vector<std::size_t> group;
    for (int i = 0; i < 3; ++i) group.push_back(pairs.event("e", generic(0xf)));
    pairs.group(group);
  }
  const Plan two = plan_counters(pairs.input);
  for (const GroupRun& run : two.pmus[0].runs) EXPECT_EQ(run.fraction, 0.5);
}

// What a counting session compares its measured shares with: per event, its group's fraction;
// none for an event on a PMU whose counts are not known, or on no counter.
TEST(Planner, PredictedFractionsPerEvent) {
  Input in;
  in.input.counters = {counters("cpu", 4, 0)};
  for (int i = 0; i < 5; ++i) in.event("e" + std::to_string(i), generic(0xf));
  in.event("task-clock", no_counter(), "software");
  in.singletons();
  const auto five = predicted_fractions(plan_counters(in.input), 6);
  ASSERT_EQ(five.size(), 6u);
  for (int i = 0; i < 5; ++i) EXPECT_NEAR(five[i].value_or(-1), 0.8, 1e-12) << i;
  EXPECT_FALSE(five[5].has_value());

  Input unknown;
  CounterSet arm = counters("armv8_pmuv3_0", 0, 1);
  arm.source = CounterSource::unknown;
  unknown.input.counters = {arm};
  unknown.event("cycles", fixed_or_generic(1), "armv8_pmuv3_0");
  unknown.singletons();
  EXPECT_FALSE(predicted_fractions(plan_counters(unknown.input), 1)[0].has_value());
}

TEST(Planner, GroupsThatDoNotFitTogetherTakeTurns) {
  // The first flexible group that went on moves to the tail each tick.
  Input in;
  in.input.counters = {counters("cpu", 2, 0)};
  const auto a = in.event("a", generic(0b11));
  const auto b = in.event("b", generic(0b11));
  in.group({a, b});
  const auto c = in.event("c", generic(0b11));
  in.group({c});
  const Plan plan = plan_counters(in.input);
  ASSERT_EQ(plan.pmus[0].runs.size(), 2u);
  EXPECT_EQ(plan.pmus[0].runs[0].fraction, 0.5);
  EXPECT_EQ(plan.pmus[0].runs[1].fraction, 0.5);
}

TEST(Planner, UnknownCountsAreSaidAndNotPlanned) {
  Input in;
  CounterSet arm = counters("armv8_pmuv3_0", 0, 1);
  arm.source = CounterSource::unknown;
  in.input.counters = {arm};
  in.event("cycles", fixed_or_generic(1), "armv8_pmuv3_0");
  in.event("task-clock", no_counter(), "software");
  in.singletons();
  const Plan plan = plan_counters(in.input);
  EXPECT_FALSE(plan.all_known);
  EXPECT_FALSE(plan.pmus[0].counts_known);
  EXPECT_EQ(plan.counterless_groups, std::vector<std::size_t>{1});
  EXPECT_EQ(plan.regrouping.perf_events, "cycles,task-clock");
}

TEST(Planner, AGroupOverTwoPmusCannotOpen) {
  Input in;
  in.input.counters = {counters("cpu", 4, 0), counters("uncore_cha_0", 4, 0)};
  const auto a = in.event("a", generic(0xf));
  const auto b = in.event("b", generic(0xf), "uncore_cha_0");
  in.group({a, b});
  const Plan plan = plan_counters(in.input);
  EXPECT_FALSE(plan.fits);
  ASSERT_EQ(plan.problems.size(), 1u);
  EXPECT_EQ(plan.problems[0].reason, "its events need counters of cpu and uncore_cha_0");
}

TEST(CounterOverride, Parses) {
  EXPECT_EQ(*parse_counter_override("cpu=8+4"), (CounterOverride{"cpu", 8, 4}));
  EXPECT_EQ(*parse_counter_override("uncore_cha=4"), (CounterOverride{"uncore_cha", 4, 0}));
  for (const char* bad : {"cpu", "=4", "cpu=", "cpu=x", "cpu=33", "cpu=4+17", "cpu=4+"}) {
    auto parsed = parse_counter_override(bad);
    ASSERT_FALSE(parsed) << bad;
    EXPECT_EQ(parsed.error().id, "plan-counters-syntax");
  }
}

}  // namespace
PMUCAT_END_NAMESPACE
