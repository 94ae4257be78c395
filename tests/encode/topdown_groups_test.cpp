// perf 7.3's `slots` event and regrouping of Intel topdown events (Behaviour::topdown_adds_slots).
// Every expected list below is what perf 7.3.4 opened for the spec on fixtures/sysfs/intel-spr
// (`perf stat -vv -e SPEC true`, the tree bind-mounted over /sys/bus/event_source/devices, as
// tests/differential does): the attrs in perf's order, each with its group leader's position.
#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "pmucat/catalog.h"
#include "pmucat/encode.h"

using namespace pmucat;

namespace {

struct Opened {
  std::uint32_t type;
  std::uint64_t config;
  std::optional<std::size_t> leader;  // nullopt: outside any group
  bool exclude_kernel = false;
  bool exclude_user = false;
};

struct Case {
  const char* spec;
  std::vector<Opened> perf73;
};

Catalog sapphire_rapids() {
  auto catalog = Catalog::open(std::string(PMUCAT_SOURCE_DIR) + "/fixtures/sysfs/intel-spr");
  EXPECT_TRUE(catalog.has_value());
  return std::move(*catalog);
}

EncodeOptions options_of(PerfRelease release) {
  EncodeOptions options;
  options.semantics = Profile::perf(release);
  return options;
}

constexpr std::uint64_t kSlots = 0x400, kRetiring = 0x8000, kFeBound = 0x8200, kHeavyOps = 0x8400;
constexpr std::uint32_t kCore = 4;

const std::vector<Case>& perf73_cases() {
  static const std::vector<Case> cases = {
      // A group of topdown events: slots joins it and leads it.
      {"{topdown-retiring,topdown-fe-bound}",
       {{kCore, kSlots, 0}, {kCore, kRetiring, 0}, {kCore, kFeBound, 0}}},
      // ... also a group led by another event, which follows slots.
      {"{cycles,topdown-retiring}", {{kCore, kSlots, 0}, {0, 0, 0}, {kCore, kRetiring, 0}}},
      // Ungrouped topdown events are put in one group with slots, where the first of them was.
      {"topdown-retiring,topdown-fe-bound",
       {{kCore, kSlots, 0}, {kCore, kRetiring, 0}, {kCore, kFeBound, 0}}},
      {"topdown-retiring,cycles,topdown-fe-bound",
       {{kCore, kSlots, 0}, {kCore, kRetiring, 0}, {kCore, kFeBound, 0}, {0, 0, std::nullopt}}},
      {"cycles,topdown-retiring",
       {{0, 0, std::nullopt}, {kCore, kSlots, 1}, {kCore, kRetiring, 1}}},
      {"msr/tsc/,topdown-retiring",
       {{9, 0, std::nullopt}, {kCore, kSlots, 1}, {kCore, kRetiring, 1}}},
      // A topdown event outside the group of the first one is grouped with slots first.
      {"{cycles,topdown-retiring},topdown-fe-bound",
       {{kCore, kSlots, 0}, {kCore, kFeBound, 0}, {0, 0, 2}, {kCore, kRetiring, 2}}},
      // Two weak groups of metrics: the topdown events leave theirs for slots' group.
      {"{topdown-retiring,cycles}:W,{topdown-fe-bound,instructions}:W",
       {{kCore, kSlots, 0},
        {kCore, kRetiring, 0},
        {kCore, kFeBound, 0},
        {0, 0, std::nullopt},
        {kCore, 0xc0, std::nullopt}}},
      // slots copies the first topdown event's modifiers, as the group's.
      {"topdown-retiring:u,topdown-fe-bound:k",
       {{kCore, kSlots, 0, true}, {kCore, kRetiring, 0, true}, {kCore, kFeBound, 0, false, true}}},
      {"{topdown-retiring,topdown-fe-bound}:u",
       {{kCore, kSlots, 0, true}, {kCore, kRetiring, 0, true}, {kCore, kFeBound, 0, true}}},
      // A topdown event is told by its config, whatever its spelling: other terms, a raw code,
      // bits above the low 32 (in_tx) keep it one; a counter mask (cmask, bit 24) does not.
      {"cpu/topdown-retiring,name=x/", {{kCore, kSlots, 0}, {kCore, kRetiring, 0}}},
      {"cpu/event=0,umask=0x80/", {{kCore, kSlots, 0}, {kCore, kRetiring, 0}}},
      {"r8000", {{kCore, kSlots, 0}, {kCore, kRetiring, 0}}},
      {"cpu/topdown-heavy-ops,in_tx=1/",
       {{kCore, kSlots, 0}, {kCore, kHeavyOps | (std::uint64_t{1} << 32), 0}}},
      {"cpu/topdown-retiring,cmask=1/", {{kCore, 0x1008000, std::nullopt}}},
      // A slots event written anywhere: none is added; slots moves to the front of its group.
      {"{topdown-retiring,slots}", {{kCore, kSlots, 0}, {kCore, kRetiring, 0}}},
      {"{cycles,slots}", {{kCore, kSlots, 0}, {0, 0, 0}}},
      // `X` (do not regroup) keeps an event where and as it was written; slots then stays alone
      // when the only topdown event keeps its place.
      {"topdown-retiring:X", {{kCore, kSlots, std::nullopt}, {kCore, kRetiring, std::nullopt}}},
      {"topdown-retiring,cycles:X,topdown-fe-bound",
       {{kCore, kSlots, 0}, {kCore, kRetiring, 0}, {kCore, kFeBound, 0}, {0, 0, std::nullopt}}},
      {"{cycles,topdown-retiring}:X",
       {{kCore, kSlots, std::nullopt}, {0, 0, 1}, {kCore, kRetiring, 1}}},
      {"cycles:X,topdown-retiring",
       {{0, 0, std::nullopt}, {kCore, kSlots, 1}, {kCore, kRetiring, 1}}},
  };
  return cases;
}

}  // namespace

TEST(TopdownGroups, Perf73OpensWhatPerf73Opened) {
  const Catalog catalog = sapphire_rapids();
  for (const Case& c : perf73_cases()) {
    auto encoded = encode(catalog, c.spec, options_of(PerfRelease::v7_3));
    ASSERT_TRUE(encoded.has_value()) << c.spec << ": " << encoded.error().message;
    ASSERT_EQ(encoded->size(), c.perf73.size()) << c.spec;
    for (std::size_t i = 0; i < c.perf73.size(); ++i) {
      const EncodedEvent& got = (*encoded)[i];
      const Opened& want = c.perf73[i];
      SCOPED_TRACE(std::string(c.spec) + " attr #" + std::to_string(i));
      EXPECT_EQ(got.attr.type, want.type);
      EXPECT_EQ(got.attr.config[0], want.config);
      EXPECT_EQ(got.group_leader, want.leader);
      EXPECT_EQ(got.attr.exclude_kernel, want.exclude_kernel);
      EXPECT_EQ(got.attr.exclude_user, want.exclude_user);
    }
  }
}

// perf 7.3.4 opens `topdown-retiring:X,topdown-fe-bound` as {slots, topdown-fe-bound} and
// topdown-retiring alone; it printed the lone event last, pmucat lists it where its sort puts it
// (between the two), so only the groups are compared.
TEST(TopdownGroups, Perf73KeepsAnXEventOutOfTheForcedGroup) {
  const Catalog catalog = sapphire_rapids();
  auto encoded =
      encode(catalog, "topdown-retiring:X,topdown-fe-bound", options_of(PerfRelease::v7_3));
  ASSERT_TRUE(encoded.has_value()) << encoded.error().message;
  ASSERT_EQ(encoded->size(), 3u);
  std::optional<std::size_t> slots, retiring, fe_bound;
  for (std::size_t i = 0; i < encoded->size(); ++i) {
    const std::uint64_t config = (*encoded)[i].attr.config[0];
    (config == kSlots ? slots : config == kRetiring ? retiring : fe_bound) = i;
  }
  ASSERT_TRUE(slots && retiring && fe_bound);
  EXPECT_EQ((*encoded)[*slots].group_leader, slots);
  EXPECT_EQ((*encoded)[*fe_bound].group_leader, slots);
  EXPECT_FALSE((*encoded)[*retiring].group_leader.has_value());
  EXPECT_TRUE((*encoded)[*retiring].settings.no_regroup);
}

// The added slots is the first topdown event's attr but for its config: the period term and
// modifiers carry over; it prints as the PMU's slots event with those modifiers, and is named
// `slots`, with no metric-id of the event it was copied from.
TEST(TopdownGroups, AddedSlotsCopiesTheFirstTopdownEvent) {
  const Catalog catalog = sapphire_rapids();
  auto encoded = encode(catalog, "cpu/topdown-retiring,period=1000,metric-id=r/u",
                        options_of(PerfRelease::v7_3));
  ASSERT_TRUE(encoded.has_value()) << encoded.error().message;
  ASSERT_EQ(encoded->size(), 2u);
  const EncodedEvent& slots = (*encoded)[0];
  EXPECT_EQ(slots.attr.config[0], kSlots);
  EXPECT_EQ(slots.attr.sample_period, 1000u);
  EXPECT_TRUE(slots.attr.exclude_kernel);
  EXPECT_EQ(slots.spec, "slots");
  EXPECT_EQ(slots.perf_string, "cpu/umask=0x4/u");
  EXPECT_FALSE(slots.settings.metric_id.has_value());
  EXPECT_EQ((*encoded)[1].settings.metric_id, "r");
}

// perf 6.12 adds no slots (each of these opens as written); a tree whose core PMU has no slots
// event (no topdown metrics) is left alone by perf 7.3 as well.
TEST(TopdownGroups, OnlyPerf73AndOnlyWithASlotsEvent) {
  const Catalog catalog = sapphire_rapids();
  for (const char* spec :
       {"topdown-retiring", "{topdown-retiring,topdown-fe-bound}", "cycles,topdown-retiring"}) {
    auto older = encode(catalog, spec, options_of(PerfRelease::v6_12));
    ASSERT_TRUE(older.has_value()) << spec;
    for (const EncodedEvent& e : *older) EXPECT_NE(e.attr.config[0], kSlots) << spec;
  }
  auto written = encode(catalog, "{cycles,slots}", options_of(PerfRelease::v6_12));
  ASSERT_TRUE(written.has_value());
  ASSERT_EQ(written->size(), 2u);
  EXPECT_EQ((*written)[0].attr.type, 0u);  // as written: perf 6.12's regrouping is not modelled

  // Clearwater Forest's core PMU has no slots event: perf 7.3.4 opens `r8000` alone there.
  auto no_slots = Catalog::open(std::string(PMUCAT_SOURCE_DIR) + "/fixtures/sysfs/intel-cwf");
  ASSERT_TRUE(no_slots.has_value());
  ASSERT_EQ(no_slots->core_pmu()->find_event("slots"), nullptr);
  auto plain = encode(*no_slots, "r8000", options_of(PerfRelease::v7_3));
  ASSERT_TRUE(plain.has_value());
  ASSERT_EQ(plain->size(), 1u);
  EXPECT_EQ((*plain)[0].attr.config[0], kRetiring);
}

// Encoder::encode_one writes one attr: a lone topdown metric event is two under perf 7.3 (its
// slots leader), so it is refused there as any spec of several attrs is; perf 6.12 opens one.
TEST(TopdownGroups, EncodeOneRefusesWhatPerf73OpensWithSlots) {
  const Catalog catalog = sapphire_rapids();
  Attr attr;
  Encoder perf73(catalog, options_of(PerfRelease::v7_3));
  auto refused = perf73.encode_one("topdown-retiring", attr);
  ASSERT_FALSE(refused.has_value());
  EXPECT_EQ(refused.error().id, "encode-several-attrs");
  EXPECT_TRUE(perf73.encode_one("cycles", attr).has_value());
  EXPECT_TRUE(perf73.encode_one("slots", attr).has_value());
  Encoder perf612(catalog, options_of(PerfRelease::v6_12));
  ASSERT_TRUE(perf612.encode_one("topdown-retiring", attr).has_value());
  EXPECT_EQ(attr.config[0], kRetiring);
}

// perf 7.3 warns "events were regrouped to match PMUs" when it reorders or regroups a list (or
// adds slots); pmucat says so too, once, on the first event, and not for a list it opens as
// written.
TEST(TopdownGroups, RegroupingIsWarnedOnce) {
  const Catalog catalog = sapphire_rapids();
  auto regrouped = encode(catalog, "cycles,topdown-retiring", options_of(PerfRelease::v7_3));
  ASSERT_TRUE(regrouped.has_value());
  ASSERT_EQ(regrouped->front().warnings.size(), 1u);
  EXPECT_EQ(regrouped->front().warnings[0].id, "events-regrouped");
  for (std::size_t i = 1; i < regrouped->size(); ++i) {
    EXPECT_TRUE((*regrouped)[i].warnings.empty());
  }
  for (const char* written : {"{slots,topdown-retiring}", "cycles"}) {
    auto as_written = encode(catalog, written, options_of(PerfRelease::v7_3));
    ASSERT_TRUE(as_written.has_value()) << written;
    for (const EncodedEvent& e : *as_written) EXPECT_TRUE(e.warnings.empty()) << written;
  }
}
