// build_plan_input() on the intel-spr fixture tree with the repository's own vendor JSON model
// (fixtures/pmu-events, `demolake` for GenuineIntel-6-8F; no kernel tables needed): the kernel's
// fixed-counter rules for legacy events, vendor Counter fields (by alias and for a raw event),
// the watchdog, uncore instances and their groups, perf 6.12's topdown group, --counters.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "pmucat/catalog.h"
#include "pmucat/encode.h"
#include "pmucat/planner.h"
#include "support/command.h"

PMUCAT_BEGIN_NAMESPACE
namespace {

Catalog fixture_catalog() {
  VendorOptions vendor;
  vendor.events_dir = pmucat::testing::source_dir() + "/fixtures/pmu-events/arch";
  vendor.cpuid = "GenuineIntel-6-8F-8";
  vendor.rules = PerfRelease::v6_12;
  auto catalog = Catalog::open(pmucat::testing::source_dir() + "/fixtures/sysfs/intel-spr", vendor);
  EXPECT_TRUE(catalog);
  return std::move(*catalog);
}

PlanInput build(const Catalog& catalog, std::string_view specs, bool watchdog,
                std::vector<CounterOverride> counters = {{"cpu", 8, 4}}) {
  EncodeOptions options;
  options.tool = Tool::stat;
  auto events = encode(catalog, specs, options);
  EXPECT_TRUE(events) << specs;
  return build_plan_input(catalog, *events,
                          PlanBuildOptions{.nmi_watchdog = watchdog, .counters = counters});
}

const PlanEvent& named(const PlanInput& input, std::string_view name) {
  const auto found = std::find_if(input.events.begin(), input.events.end(),
                                  [&](const PlanEvent& e) { return e.name == name; });
  EXPECT_NE(found, input.events.end()) << name;
  return *found;
}

TEST(PlanInputFromCatalog, LegacyEventsGetTheKernelsFixedCounterRules) {
  const Catalog catalog = fixture_catalog();
  const PlanInput input = build(catalog, "cycles,instructions,ref-cycles,task-clock", false);
  ASSERT_EQ(input.events.size(), 4u);
  EXPECT_EQ(input.events[0].constraint.fixed_mask, 0b10u);
  EXPECT_EQ(input.events[0].constraint.generic_mask, ~0u);
  EXPECT_EQ(input.events[1].constraint.fixed_mask, 0b1u);
  EXPECT_EQ(input.events[2].constraint.fixed_mask, 0b100u);
  EXPECT_EQ(input.events[2].constraint.generic_mask, 0u);
  EXPECT_EQ(input.events[3].constraint.need, CounterNeed::none);
  ASSERT_EQ(input.counters.size(), 1u);
  EXPECT_EQ(input.counters[0].pmu, "cpu");
  EXPECT_EQ(input.counters[0].source, CounterSource::user);
  EXPECT_EQ(input.counters[0].metrics, 8u);  // 4 fixed counters: slots, so topdown metrics
  EXPECT_EQ(input.groups.size(), 4u);
}

// perf 7.2's tool events are attrs of the tool PMU (type 0xfffffffe) that perf reads itself: no
// counter (the six `duration_time` of plain `perf stat`'s metric lists took generic counters).
TEST(PlanInputFromCatalog, ToolPmuEventsTakeNoCounter) {
  const Catalog catalog = fixture_catalog();
  EncodeOptions options;
  options.tool = Tool::stat;
  options.semantics = Profile::perf(PerfRelease::v7_3);
  auto events = encode(catalog, "duration_time,cycles", options);
  ASSERT_TRUE(events) << events.error().message;
  ASSERT_EQ(events->size(), 2u);
  ASSERT_EQ((*events)[0].attr.type, 0xfffffffeu);
  const PlanInput input = build_plan_input(
      catalog, *events, PlanBuildOptions{.nmi_watchdog = false, .counters = {{"cpu", 8, 4}}});
  EXPECT_EQ(input.events[0].constraint.need, CounterNeed::none);
  EXPECT_NE(input.events[1].constraint.need, CounterNeed::none);
}

TEST(PlanInputFromCatalog, VendorCounterFieldsNarrowTheGenericCounters) {
  const Catalog catalog = fixture_catalog();
  // By the JSON event's name, and for the same event select and umask written raw.
  const PlanInput input = build(catalog, "l1d.replacement,cpu/event=0x51,umask=0x1/", false);
  ASSERT_EQ(input.events.size(), 2u);
  for (const PlanEvent& event : input.events) {
    EXPECT_EQ(event.constraint.generic_mask, 0x0fu) << event.name;
    EXPECT_NE(event.constraint.origin.find("0,1,2,3"), std::string::npos) << event.name;
  }
}

TEST(PlanInputFromCatalog, TheWatchdogIsAPinnedCyclesOnTheCorePmu) {
  const Catalog catalog = fixture_catalog();
  const PlanInput input = build(catalog, "instructions", true);
  ASSERT_EQ(input.groups.size(), 2u);
  const PlanGroup& watchdog = input.groups[0];
  EXPECT_TRUE(watchdog.pinned);
  const PlanEvent& cycles = input.events[watchdog.events.front()];
  EXPECT_EQ(cycles.pmu, "cpu");
  EXPECT_EQ(cycles.constraint.fixed_mask, 0b10u);
  EXPECT_TRUE(cycles.perf_string.empty());  // not the user's: never pasted back
}

TEST(PlanInputFromCatalog, EachUncoreInstanceGetsItsCountersAndItsCopyOfTheGroup) {
  const Catalog catalog = fixture_catalog();
  const PlanInput input = build(catalog, "{uncore_cha/event=0x1/,uncore_cha/event=0x2/}", false,
                                {{"uncore_cha", 4, 0}});
  ASSERT_EQ(input.counters.size(), 4u);
  for (const CounterSet& set : input.counters) {
    EXPECT_EQ(set.generic, 4u);
    EXPECT_EQ(set.source, CounterSource::user);
  }
  ASSERT_EQ(input.groups.size(), 4u);  // one group per box
  for (const PlanGroup& group : input.groups) {
    ASSERT_EQ(group.events.size(), 2u);
    EXPECT_EQ(input.events[group.events[0]].pmu, input.events[group.events[1]].pmu);
  }
  const Plan plan = plan_counters(input);
  EXPECT_TRUE(plan.fits);
}

TEST(PlanInputFromCatalog, UngroupedTopdownEventsBecomeOneSlotsLedGroupAsPerf612Makes) {
  const Catalog catalog = fixture_catalog();
  const PlanInput input =
      build(catalog, "topdown-retiring,l1d.replacement,slots,topdown-fe-bound", false);
  ASSERT_EQ(input.groups.size(), 2u);
  const PlanGroup& topdown = input.groups[0];
  ASSERT_EQ(topdown.events.size(), 3u);
  EXPECT_EQ(input.events[topdown.events[0]].name, "slots");
  EXPECT_TRUE(input.events[topdown.events[0]].constraint.slots);
  EXPECT_EQ(input.events[topdown.events[1]].name, "topdown-retiring");
  EXPECT_EQ(input.events[topdown.events[1]].constraint.need, CounterNeed::topdown_metric);
  EXPECT_EQ(input.events[topdown.events[2]].constraint.metric, 2);
  EXPECT_TRUE(plan_counters(input).fits);
  EXPECT_EQ(named(input, "l1d.replacement").constraint.generic_mask, 0x0fu);
}

TEST(PlanInputFromCatalog, UnknownCountsWithoutCounterJsonOrOverride) {
  const Catalog catalog = fixture_catalog();
  const PlanInput input = build(catalog, "cycles", false, {});
  ASSERT_EQ(input.counters.size(), 1u);
  EXPECT_EQ(input.counters[0].source, CounterSource::unknown);
  EXPECT_NE(input.counters[0].origin.find("--counters cpu="), std::string::npos);
  EXPECT_FALSE(plan_counters(input).all_known);
}

// The regrouping speaks the user's specs: each event's spec stands for that attr alone, with its
// group's modifiers, and names the PMU instance where the spec reached several.
TEST(PlanInputFromCatalog, EachEventKeepsTheSpecTheUserWrote) {
  const Catalog catalog = fixture_catalog();
  const PlanInput input = build(catalog,
                                "{l1d.replacement,cpu/event=0x25,umask=0x1f/}:uW,cycles:k,r1d1,"
                                "uncore_cha/event=0x1/,task-clock",
                                false);
  std::vector<std::string> specs;
  for (const PlanEvent& event : input.events) specs.push_back(event.spec);
  EXPECT_EQ(specs, (std::vector<std::string>{"l1d.replacement:u", "cpu/event=0x25,umask=0x1f/u",
                                             "cycles:k", "r1d1", "uncore_cha_0/event=0x1/",
                                             "uncore_cha_1/event=0x1/", "uncore_cha_2/event=0x1/",
                                             "uncore_cha_3/event=0x1/", "task-clock"}));
  // The encodings stay beside them.
  EXPECT_EQ(input.events[0].perf_string.find("l1d"), std::string::npos);
  const Plan plan = plan_counters(input);
  EXPECT_NE(plan.regrouping.events.find("l1d.replacement:u"), std::string::npos)
      << plan.regrouping.events;
  EXPECT_NE(plan.regrouping.perf_events.find("cpu/event=0x51"), std::string::npos)
      << plan.regrouping.perf_events;
}

std::vector<Attr> attrs_of(const Catalog& catalog, const std::string& list) {
  EncodeOptions options;
  options.tool = Tool::stat;
  auto events = encode(catalog, list, options);
  EXPECT_TRUE(events) << list << ": " << (events ? "" : render(events.error()));
  std::vector<Attr> attrs;
  if (events) {
    for (const EncodedEvent& event : *events) attrs.push_back(event.attr);
  }
  return attrs;
}

// The line in the user's specs pastes back as the same attrs as the line of encodings, for
// plain specs, group modifiers, uncore instances, bare terms and perf's -M form `EVENT/terms/`.
TEST(PlanInputFromCatalog, TheUsersSpecsMeanTheSameAttrsAsTheEncodings) {
  const Catalog catalog = fixture_catalog();
  for (const char* specs :
       {"{l1d.replacement,cpu/event=0x25,umask=0x1f/}:uW,cycles:k,r1d1,uncore_cha/event=0x1/",
        "{cycles,instructions}:D,{l1d.replacement,r1d1}:u,instructions:u",
        "unc_cha_tor_inserts.ia_miss,{cycles,instructions}:k",
        "UNC_CHA_TOR_INSERTS.IA_MISS/metric-id=UNC_CHA_TOR_INSERTS.IA_MISS/,task-clock"}) {
    const Plan plan = plan_counters(build(catalog, specs, true));
    ASSERT_FALSE(plan.regrouping.events.empty()) << specs;
    EXPECT_NE(plan.regrouping.events, plan.regrouping.perf_events) << specs;
    auto by_spec = attrs_of(catalog, plan.regrouping.events);
    auto by_encoding = attrs_of(catalog, plan.regrouping.perf_events);
    EXPECT_EQ(by_spec, by_encoding) << specs << "\n"
                                    << plan.regrouping.events << "\n"
                                    << plan.regrouping.perf_events;
  }
}

TEST(PlanInputFromCatalog, PinnedGroupsAreKeptAndCounted) {
  const Catalog catalog = fixture_catalog();
  const Plan alone = plan_counters(build(catalog, "{cycles,instructions}:D", true));
  EXPECT_TRUE(alone.regrouping.groups.empty());
  EXPECT_EQ(alone.regrouping.pinned_kept, 1u);  // the watchdog's is not the user's
  EXPECT_EQ(alone.regrouping.events, "{cycles:D,instructions:D}");
  const Plan beside = plan_counters(build(catalog, "{cycles,instructions}:D,r1d1", false));
  EXPECT_EQ(beside.regrouping.pinned_kept, 1u);
  EXPECT_EQ(beside.regrouping.groups.size(), 1u);
  EXPECT_EQ(beside.regrouping.events, "{cycles:D,instructions:D},r1d1");
}

}  // namespace
PMUCAT_END_NAMESPACE
