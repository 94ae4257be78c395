// apply_tool_defaults(): the attrs perf 6.1's stat and record open, field by field, for lone
// events, lists and groups (leader and member). The expected values are what the real perf 6.1
// printed (`perf-oracle.sh -a [-r]`); tests/differential/tool_attrs_differential_test.cpp checks
// the same against perf on generated specs.
#include "pmucat/tool_defaults.h"

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "pmucat/encode.h"
#include "sample_tree.h"

PMUCAT_BEGIN_NAMESPACE
namespace {

std::vector<EncodedEvent> full(const std::string& spec, Tool tool,
                               std::optional<std::size_t> group_leader = std::nullopt) {
  static const Catalog catalog = testing::extended_catalog();
  auto events =
      encode(catalog, spec, EncodeOptions{Profile::perf(PerfRelease::v6_1), tool, {}, {}});
  EXPECT_TRUE(events.has_value()) << spec << ": " << events.error().message;
  if (!events) return {};
  // The groups helper fills group_leader from `{...}`; here it is set by hand.
  if (group_leader) {
    for (EncodedEvent& event : *events) event.group_leader = group_leader;
  }
  apply_tool_defaults(*events, tool, Profile::perf(PerfRelease::v6_1));
  return *events;
}

constexpr std::uint64_t kRecordSample = sample::ip | sample::tid | sample::time | sample::period;

void expect_tracking(const Attr& attr, bool tracking) {
  EXPECT_EQ(attr.mmap, tracking);
  EXPECT_EQ(attr.mmap2, tracking);
  EXPECT_EQ(attr.comm, tracking);
  EXPECT_EQ(attr.comm_exec, tracking);
  EXPECT_EQ(attr.task, tracking);
  EXPECT_EQ(attr.ksymbol, tracking);
  EXPECT_EQ(attr.bpf_event, tracking);
}

TEST(ToolDefaultsStat, LoneEventCountsWithTimesFromExec) {
  const auto events = full("cpu/event=0x3c/", Tool::stat);
  ASSERT_EQ(events.size(), 1U);
  const Attr& attr = events[0].attr;
  EXPECT_EQ(attr.sample_type, sample::identifier);
  EXPECT_EQ(attr.read_format, read_fmt::total_time_enabled | read_fmt::total_time_running);
  EXPECT_TRUE(attr.disabled);
  EXPECT_TRUE(attr.enable_on_exec);
  EXPECT_TRUE(attr.inherit);
  EXPECT_TRUE(attr.exclude_guest);
  EXPECT_FALSE(attr.freq);
  EXPECT_EQ(attr.sample_period, 0U);
  EXPECT_FALSE(attr.sample_id_all);
  expect_tracking(attr, false);
}

TEST(ToolDefaultsStat, PeriodTermStaysOutOfTheAttr) {
  const auto events = full("cpu/event=0x3c,period=1000/", Tool::stat);
  ASSERT_EQ(events.size(), 1U);
  EXPECT_EQ(events[0].attr.sample_period, 0U);
  EXPECT_EQ(events[0].attr.sample_type, sample::identifier);
}

TEST(ToolDefaultsStat, EveryListEventIsItsOwnLeader) {
  const auto events = full("cpu/event=0x3c/,cpu/event=0xc0/u", Tool::stat);
  ASSERT_EQ(events.size(), 2U);
  for (const EncodedEvent& event : events) {
    EXPECT_TRUE(event.attr.disabled);
    EXPECT_TRUE(event.attr.enable_on_exec);
    EXPECT_EQ(event.attr.read_format, read_fmt::total_time_enabled | read_fmt::total_time_running);
    EXPECT_EQ(event.attr.sample_type, sample::identifier);
  }
  EXPECT_TRUE(events[1].attr.exclude_kernel);
}

TEST(ToolDefaultsStat, GroupLeaderAndMember) {
  const auto events = full("cpu/event=0x3c/,cpu/event=0xc0/", Tool::stat, 0);
  ASSERT_EQ(events.size(), 2U);
  constexpr std::uint64_t kGroupRead =
      read_fmt::total_time_enabled | read_fmt::total_time_running | read_fmt::id | read_fmt::group;
  EXPECT_EQ(events[0].attr.read_format, kGroupRead);
  EXPECT_EQ(events[1].attr.read_format, kGroupRead);
  EXPECT_TRUE(events[0].attr.disabled);
  EXPECT_TRUE(events[0].attr.enable_on_exec);
  EXPECT_FALSE(events[1].attr.disabled);
  EXPECT_FALSE(events[1].attr.enable_on_exec);
  EXPECT_TRUE(events[1].attr.inherit);
  EXPECT_EQ(events[1].attr.sample_type, sample::identifier);
}

TEST(ToolDefaultsStat, OneEventGroupReadsLikeALoneEvent) {
  const auto events = full("cpu/event=0x3c/", Tool::stat, 0);
  ASSERT_EQ(events.size(), 1U);
  EXPECT_EQ(events[0].attr.read_format,
            read_fmt::total_time_enabled | read_fmt::total_time_running);
}

TEST(ToolDefaultsRecord, LoneEventSamplesAt4000HzAndTracks) {
  const auto events = full("cpu/event=0x3c/", Tool::record);
  ASSERT_EQ(events.size(), 1U);
  const Attr& attr = events[0].attr;
  EXPECT_EQ(attr.sample_type, kRecordSample);
  EXPECT_TRUE(attr.freq);
  EXPECT_EQ(attr.sample_freq, 4000U);
  EXPECT_EQ(attr.sample_period, 0U);
  EXPECT_EQ(attr.read_format, read_fmt::id | read_fmt::lost);
  EXPECT_TRUE(attr.disabled);
  EXPECT_TRUE(attr.enable_on_exec);
  EXPECT_TRUE(attr.inherit);
  EXPECT_TRUE(attr.sample_id_all);
  EXPECT_TRUE(attr.exclude_guest);
  expect_tracking(attr, true);
}

TEST(ToolDefaultsRecord, PeriodTermTurnsFrequencyOff) {
  const auto events = full("cpu/event=0x3c,period=1000/", Tool::record);
  ASSERT_EQ(events.size(), 1U);
  EXPECT_EQ(events[0].attr.sample_type, sample::ip | sample::tid | sample::time);
  EXPECT_FALSE(events[0].attr.freq);
  EXPECT_EQ(events[0].attr.sample_period, 1000U);
  EXPECT_EQ(events[0].attr.sample_freq, 0U);
}

TEST(ToolDefaultsRecord, FreqAndTimeTermsWinOverTheDefaults) {
  const auto events = full("cpu/event=0x3c,freq=100,time=0/", Tool::record);
  ASSERT_EQ(events.size(), 1U);
  EXPECT_EQ(events[0].attr.sample_type, sample::ip | sample::tid | sample::period);
  EXPECT_TRUE(events[0].attr.freq);
  EXPECT_EQ(events[0].attr.sample_freq, 100U);
}

TEST(ToolDefaultsRecord, InheritAndOverwriteTermsWinOverTheDefaults) {
  const auto events = full("cpu/event=0x3c,no-inherit,overwrite/", Tool::record);
  ASSERT_EQ(events.size(), 1U);
  EXPECT_FALSE(events[0].attr.inherit);
  EXPECT_TRUE(events[0].attr.write_backward);
  const auto plain = full("cpu/event=0x3c/", Tool::record);
  EXPECT_FALSE(plain[0].attr.write_backward);
}

TEST(ToolDefaultsRecord, CallGraphTermsStayOverTheDefaults) {
  const auto events = full("cpu/event=0x3c,call-graph=dwarf/", Tool::record);
  ASSERT_EQ(events.size(), 1U);
  EXPECT_EQ(events[0].attr.sample_type, kRecordSample | sample::callchain | sample::regs_user |
                                            sample::stack_user | sample::addr | sample::data_src);
  EXPECT_EQ(events[0].attr.sample_stack_user, 8192U);
}

TEST(ToolDefaultsRecord, ListMembersDoNotTrackAndGetSampleIds) {
  const auto events = full("cpu/event=0x3c/,cpu/event=0xc0/", Tool::record);
  ASSERT_EQ(events.size(), 2U);
  for (const EncodedEvent& event : events) {
    EXPECT_EQ(event.attr.sample_type, kRecordSample | sample::id);
    EXPECT_EQ(event.attr.read_format, read_fmt::id | read_fmt::lost);
    EXPECT_TRUE(event.attr.disabled);
    EXPECT_TRUE(event.attr.enable_on_exec);
  }
  expect_tracking(events[0].attr, true);
  expect_tracking(events[1].attr, false);
}

TEST(ToolDefaultsRecord, DifferentSampleTypesUseIdentifier) {
  const auto events = full("cpu/event=0x3c,period=1000/,cpu/event=0xc0/", Tool::record);
  ASSERT_EQ(events.size(), 2U);
  EXPECT_EQ(events[0].attr.sample_type,
            sample::ip | sample::tid | sample::time | sample::identifier);
  EXPECT_EQ(events[1].attr.sample_type, kRecordSample | sample::identifier);
}

TEST(ToolDefaultsRecord, GroupMemberIsEnabledByItsLeader) {
  const auto events = full("cpu/event=0x3c/,cpu/event=0xc0/", Tool::record, 0);
  ASSERT_EQ(events.size(), 2U);
  EXPECT_TRUE(events[0].attr.disabled);
  EXPECT_TRUE(events[0].attr.enable_on_exec);
  EXPECT_FALSE(events[1].attr.disabled);
  EXPECT_FALSE(events[1].attr.enable_on_exec);
  EXPECT_TRUE(events[1].attr.freq);
  EXPECT_EQ(events[1].attr.sample_freq, 4000U);
  EXPECT_EQ(events[1].attr.read_format, read_fmt::id | read_fmt::lost);
  EXPECT_EQ(events[1].attr.sample_type, kRecordSample | sample::id);
  expect_tracking(events[1].attr, false);
}

TEST(ToolDefaultsRecord, SampleReadGroupMembersFollowTheLeader) {
  // `{a,b}:S`: the group modifier reaches both events.
  const auto events = full("cpu/event=0x3c/S,cpu/event=0xc0/S", Tool::record, 0);
  ASSERT_EQ(events.size(), 2U);
  const std::uint64_t sample_type = kRecordSample | sample::read | sample::id;
  const std::uint64_t read_format = read_fmt::id | read_fmt::group | read_fmt::lost;
  EXPECT_EQ(events[0].attr.sample_type, sample_type);
  EXPECT_EQ(events[0].attr.read_format, read_format);
  EXPECT_FALSE(events[0].attr.inherit);
  EXPECT_TRUE(events[0].attr.freq);
  EXPECT_EQ(events[1].attr.sample_type, sample_type);
  EXPECT_EQ(events[1].attr.read_format, read_format);
  EXPECT_FALSE(events[1].attr.inherit);
  EXPECT_FALSE(events[1].attr.freq);
  EXPECT_EQ(events[1].attr.sample_freq, 0U);
  EXPECT_EQ(events[1].attr.sample_period, 0U);
  EXPECT_FALSE(events[1].attr.disabled);
}

// perf 7.2 and 7.3 leave a sample-read group inheritable (`{cpu-clock,task-clock}:S` opened with
// inherit 1 by perf 7.3.4, ToolAttrsDiff); perf 6.12 and 6.1 clear it.
TEST(ToolDefaultsRecord, Perf72SampleReadGroupsInherit) {
  static const Catalog catalog = testing::extended_catalog();
  for (const auto& [semantics, inherit] :
       {std::pair{Profile::perf(PerfRelease::v7_3), true},
        std::pair{Profile::perf(PerfRelease::v6_12), false}, std::pair{Profile{}, true}}) {
    auto events = encode(catalog, "{cpu/event=0x3c/,cpu/event=0xc0/}:S",
                         EncodeOptions{semantics, Tool::record, {}, {}});
    ASSERT_TRUE(events.has_value());
    apply_tool_defaults(*events, Tool::record, semantics);
    ASSERT_EQ(events->size(), 2u);
    for (const EncodedEvent& event : *events) {
      EXPECT_EQ(event.attr.inherit, inherit) << semantics.name();
      EXPECT_TRUE(event.attr.read_format & read_fmt::group) << semantics.name();
    }
  }
}

TEST(ToolDefaultsRecord, SampleReadMemberKeepsItsOwnPeriod) {
  const auto events = full("cpu/event=0x3c/S,cpu/event=0xc0,period=500/S", Tool::record, 0);
  ASSERT_EQ(events.size(), 2U);
  EXPECT_EQ(events[1].attr.sample_period, 500U);
  EXPECT_EQ(events[1].attr.sample_type, events[0].attr.sample_type);
}

TEST(ToolDefaultsRecord, MaxPreciseStartsAtThree) {
  EXPECT_EQ(full("cpu/event=0x3c/P", Tool::record)[0].attr.precise_ip, 3);
  EXPECT_EQ(full("cs:P", Tool::record)[0].attr.precise_ip, 3);
  EXPECT_EQ(full("cpu/event=0x3c/P", Tool::stat)[0].attr.precise_ip, 0);
  EXPECT_EQ(full("cpu/event=0x3c/pp", Tool::record)[0].attr.precise_ip, 2);
}

TEST(ToolDefaultsRecord, LoneSampleReadEventHasNoGroupFormat) {
  const auto events = full("cpu/event=0x3c/S", Tool::record);
  ASSERT_EQ(events.size(), 1U);
  EXPECT_EQ(events[0].attr.read_format, read_fmt::id | read_fmt::lost);
  EXPECT_TRUE(events[0].attr.inherit);
  EXPECT_EQ(events[0].attr.sample_type, kRecordSample | sample::read | sample::id);
}

// exclude_guest: perf 6.1 sets it when the spec has no modifier, in both semantics; newer perf
// (35c8d21371e9, 6.12) no longer does (docs/perf-compat.md, "Newer perf changes").
TEST(ToolDefaults, ExcludeGuestFollowsPerf61InBothSemantics) {
  static const Catalog catalog = testing::extended_catalog();
  for (const Profile semantics : {Profile::perf(PerfRelease::v6_1), Profile::pmucat()}) {
    auto plain = encode(catalog, "cpu/event=0x3c/", EncodeOptions{semantics, Tool::stat, {}, {}});
    ASSERT_TRUE(plain.has_value());
    EXPECT_TRUE((*plain)[0].attr.exclude_guest);
    auto host = encode(catalog, "cpu/event=0x3c/G", EncodeOptions{semantics, Tool::stat, {}, {}});
    ASSERT_TRUE(host.has_value());
    EXPECT_FALSE((*host)[0].attr.exclude_guest);
    apply_tool_defaults(*plain, Tool::record);
    EXPECT_TRUE((*plain)[0].attr.exclude_guest);  // the tools add nothing to it
  }
}

// The canonical string never holds a term the target command rejects: perf stat rejects the
// sampling terms (so pmucat does, under Tool::stat), and keeps `period`.
TEST(ToolDefaults, StatPerfStringHasNoSamplingTerms) {
  static const Catalog catalog = testing::extended_catalog();
  for (const char* term : {"freq=100", "time=1", "call-graph=fp", "inherit=0", "no-inherit",
                           "overwrite", "max-stack=4", "branch_type=any", "aux-output"}) {
    const std::string spec = std::string("cpu/event=0x3c,") + term + "/";
    EXPECT_FALSE(encode(catalog, spec, EncodeOptions{Profile::pmucat(), Tool::stat, {}, {}}))
        << spec;
    auto record = encode(catalog, spec, EncodeOptions{Profile::pmucat(), Tool::record, {}, {}});
    ASSERT_TRUE(record.has_value()) << spec;
    const std::string name = std::string(term).substr(0, std::string(term).find('='));
    EXPECT_NE((*record)[0].perf_string.find(name), std::string::npos) << (*record)[0].perf_string;
  }
  auto stat = encode(catalog, "cpu/event=0x3c,period=1000/u",
                     EncodeOptions{Profile::pmucat(), Tool::stat, {}, {}});
  ASSERT_TRUE(stat.has_value());
  EXPECT_EQ((*stat)[0].perf_string, "cpu/event=0x3c,period=0x3e8/u");
}

// perf 7.3.4's record sets build_id on its tracking (first) event, as it does mmap2
// (`perf-oracle.sh -r -a` on intel-spr: `cycles` has `build_id=1`); perf 6.1 and 6.12 never, nor
// pmucat's own semantics (behaviour record_sets_build_id, which follows the 6.12 base).
TEST(ToolDefaults, Perf73RecordSetsBuildIdOnTheTrackingEvent) {
  static const Catalog catalog = testing::extended_catalog();
  for (const auto& [semantics, build_id] :
       {std::pair{Profile::perf(PerfRelease::v7_3), true},
        std::pair{Profile::perf(PerfRelease::v6_12), false}, std::pair{Profile{}, true}}) {
    auto events =
        encode(catalog, "cpu-clock,task-clock", EncodeOptions{semantics, Tool::record, {}, {}});
    ASSERT_TRUE(events.has_value());
    apply_tool_defaults(*events, Tool::record, semantics);
    ASSERT_EQ(events->size(), 2u);
    EXPECT_EQ((*events)[0].attr.build_id, build_id);
    EXPECT_TRUE((*events)[0].attr.mmap2);
    EXPECT_FALSE((*events)[1].attr.build_id);
  }
  // perf stat opens no tracking event.
  auto stat = encode(catalog, "cpu-clock",
                     EncodeOptions{Profile::perf(PerfRelease::v7_3), Tool::stat, {}, {}});
  ASSERT_TRUE(stat.has_value());
  apply_tool_defaults(*stat, Tool::stat, Profile::perf(PerfRelease::v7_3));
  EXPECT_FALSE((*stat)[0].attr.build_id);
}

}  // namespace
PMUCAT_END_NAMESPACE
