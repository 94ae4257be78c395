// write_events_perf_data: encoded events become a perf.data that perf 6.1 opens cleanly, with
// their names, ids and PMU mappings.
#include <gtest/gtest.h>

#include "pmucat/catalog.h"
#include "pmucat/encode.h"
#include "pmucat/perfdata.h"
#include "pmucat/perfdata_events.h"
#include "pmucat/perfdata_features.h"
#include "support/files.h"
#include "support/scratch_dir.h"
#include "support/tools.h"

PMUCAT_BEGIN_NAMESPACE
namespace {

// A sysfs-like tree with one dynamic PMU (type 42) and the software PMU.
Catalog fake_catalog(const testing::ScratchDir& dir) {
  const auto root = dir / "devices";
  testing::write_text(root / "fakepmu/type", "42\n");
  testing::write_text(root / "fakepmu/format/event", "config:0-7\n");
  testing::write_text(root / "fakepmu/format/umask", "config:8-15\n");
  testing::write_text(root / "fakepmu/format/ldlat", "config1:0-15\n");
  testing::write_text(root / "fakepmu/events/foo", "event=0x3c,umask=0x1\n");
  testing::write_text(root / "software/type", "1\n");
  auto catalog = Catalog::open(root);
  EXPECT_TRUE(catalog);
  return std::move(*catalog);
}

class EventsFile : public ::testing::Test {
 protected:
  std::vector<EncodedEvent> encode_ok(const Catalog& catalog, const std::string& spec) {
    auto events = encode(catalog, spec);
    EXPECT_TRUE(events) << (events ? "" : events.error().message);
    return events ? *events : std::vector<EncodedEvent>{};
  }
  testing::ScratchDir dir_;
};

TEST_F(EventsFile, ModelHasIdsNamesAndMappings) {
  const Catalog catalog = fake_catalog(dir_);
  const auto events = encode_ok(catalog, "fakepmu/event=0x3c,umask=0x1/u,fakepmu/foo,ldlat=3/");
  ASSERT_EQ(events.size(), 2u);
  const auto path = dir_ / "ev.data";
  ASSERT_FALSE(write_events_perf_data(path, events, catalog));
  const auto data = read_perf_data(path);
  ASSERT_TRUE(data) << data.error().message;
  ASSERT_EQ(data->events.size(), 2u);
  for (std::size_t i = 0; i < 2; ++i) {
    const Attr& a = data->events[i].attr;
    EXPECT_EQ(a.type, 42u);
    EXPECT_EQ(a.size, kAttrSizeVer7);
    EXPECT_TRUE(a.sample_type & sample::identifier);
    EXPECT_TRUE(a.sample_id_all);
    EXPECT_EQ(data->events[i].ids, std::vector<std::uint64_t>{i + 1});
    EXPECT_EQ(a.config, events[i].attr.config);
    EXPECT_FALSE(data->events[i].name.empty());
  }
  EXPECT_EQ(data->events[0].attr.config[0], 0x13cu);
  EXPECT_EQ(data->events[1].attr.config[1], 3u);
  const auto pmus = decode_pmu_mappings(data->features.at(feature::pmu_mappings));
  ASSERT_TRUE(pmus);
  EXPECT_NE(std::find(pmus->begin(), pmus->end(), PmuMapping{42, "fakepmu"}), pmus->end());
  EXPECT_TRUE(data->features.count(feature::hostname));
  EXPECT_TRUE(data->features.count(feature::nrcpus));
  EXPECT_TRUE(check_perf_data(testing::read_bytes(path), "ev.data").size() <= 1);  // "no samples"
}

TEST_F(EventsFile, SingleEventKeepsItsAttr) {
  const Catalog catalog = fake_catalog(dir_);
  const auto events = encode_ok(catalog, "fakepmu/foo/");
  ASSERT_EQ(events.size(), 1u);
  ASSERT_FALSE(write_events_perf_data(dir_ / "one.data", events, catalog));
  const auto data = read_perf_data(dir_ / "one.data");
  ASSERT_TRUE(data);
  Attr expected = events[0].attr;
  expected.size = kAttrSizeVer7;
  expected.sample_type |= sample::ip | sample::tid | sample::time | sample::period;
  expected.sample_id_all = true;
  EXPECT_EQ(data->events[0].attr, expected);
}

TEST_F(EventsFile, Config3NeedsAVer8Reader) {
  const Catalog catalog = fake_catalog(dir_);
  auto events = encode_ok(catalog, "fakepmu/foo/");
  ASSERT_EQ(events.size(), 1u);
  events[0].attr.config[3] = 1;
  const auto error = write_events_perf_data(dir_ / "c3.data", events, catalog);
  ASSERT_TRUE(error);
  EXPECT_NE(error->message.find("config3"), std::string::npos);
  EXPECT_FALSE(std::filesystem::exists(dir_ / "c3.data"));
  EventsFileOptions ver8;
  ver8.writer.attr_size = kAttrSizeVer8;
  EXPECT_FALSE(write_events_perf_data(dir_ / "c3.data", events, catalog, ver8));
}

TEST_F(EventsFile, PerfOpensItWithNothingOnStderr) {
  if (!testing::have_perf()) GTEST_SKIP() << "perf is not installed";
  const Catalog catalog = fake_catalog(dir_);
  const auto events = encode_ok(catalog, "fakepmu/event=0x3c,umask=0x1/u,fakepmu/foo/");
  for (std::uint32_t samples : {0u, 3u}) {
    for (auto mode : {PerfDataMode::file, PerfDataMode::pipe}) {
      EventsFileOptions options;
      options.samples_per_event = samples;
      options.writer.mode = mode;
      options.cmdline = {"pmuencode", "-o", "ev.data"};
      const auto path = dir_ / "ev.data";
      ASSERT_FALSE(write_events_perf_data(path, events, catalog, options));
      std::vector<std::string> tools = {"report --header-only", "script"};
      if (mode == PerfDataMode::file) tools.push_back("evlist -v");
      if (samples > 0) tools.push_back("report --stdio");
      for (const auto& tool : tools) {
        const auto r = testing::run_command("perf " + tool + " -i '" + path.string() + "'");
        EXPECT_EQ(r.status, 0) << tool << " samples=" << samples;
        EXPECT_EQ(r.err, "") << tool << " samples=" << samples;
        if (tool == "evlist -v") {
          EXPECT_NE(
              r.out.find(events[0].perf_string.empty() ? events[0].spec : events[0].perf_string),
              std::string::npos)
              << r.out;
          EXPECT_NE(r.out.find("type: 42"), std::string::npos) << r.out;
        }
        if (tool == "report --header-only") {
          EXPECT_NE(r.out.find("fakepmu = 42"), std::string::npos) << r.out;
        }
        if (tool == "script" && samples > 0) {
          EXPECT_NE(r.out.find("pmucat"), std::string::npos) << r.out;
        }
      }
    }
  }
}

TEST_F(EventsFile, GroupsGetGroupDescAndLeaderBits) {
  const Catalog catalog = fake_catalog(dir_);
  const auto events = encode_ok(
      catalog, "fakepmu/event=1/,top{fakepmu/event=2/,fakepmu/foo/}:u,{fakepmu/event=3/}");
  ASSERT_EQ(events.size(), 4u);
  const auto path = dir_ / "groups.data";
  ASSERT_FALSE(write_events_perf_data(path, events, catalog));
  const auto data = read_perf_data(path);
  ASSERT_TRUE(data) << data.error().message;
  // A one-member group is no group for perf (it writes only groups of two or more).
  const auto groups = decode_group_desc(data->features.at(feature::group_desc));
  ASSERT_TRUE(groups);
  EXPECT_EQ(*groups, (std::vector<GroupDesc>{{"top", 1, 2}}));
  EXPECT_TRUE(data->events[1].attr.disabled);
  EXPECT_TRUE(data->events[1].attr.enable_on_exec);
  EXPECT_FALSE(data->events[2].attr.disabled);
  EXPECT_FALSE(data->events[2].attr.enable_on_exec);
  EXPECT_TRUE(data->events[2].attr.exclude_kernel);  // the group's `u`
}

TEST_F(EventsFile, SampleReadGroupsReadEveryMember) {
  const Catalog catalog = fake_catalog(dir_);
  const auto events = encode_ok(catalog, "{fakepmu/event=2/,fakepmu/event=3/}:S");
  ASSERT_FALSE(write_events_perf_data(dir_ / "s.data", events, catalog));
  const auto data = read_perf_data(dir_ / "s.data");
  ASSERT_TRUE(data);
  for (const auto& e : data->events) {
    EXPECT_EQ(e.attr.read_format & (read_fmt::group | read_fmt::id),
              read_fmt::group | read_fmt::id);
  }
}

TEST_F(EventsFile, PerfSeesTheGroups) {
  if (!testing::have_perf()) GTEST_SKIP() << "perf is not installed";
  const Catalog catalog = fake_catalog(dir_);
  const auto events =
      encode_ok(catalog,
                "fakepmu/event=1/,top{fakepmu/event=2/,fakepmu/foo/}:u,{fakepmu/event=3/,fakepmu/"
                "event=4/}:S");
  const auto path = dir_ / "groups.data";
  ASSERT_FALSE(write_events_perf_data(path, events, catalog));
  const auto evlist = testing::run_command("perf evlist -g -i '" + path.string() + "'");
  EXPECT_EQ(evlist.status, 0);
  EXPECT_EQ(evlist.err, "");
  EXPECT_NE(evlist.out.find("top{fakepmu/event=2/,fakepmu/foo/}"), std::string::npos) << evlist.out;
  EXPECT_NE(evlist.out.find("{fakepmu/event=3/,fakepmu/event=4/}"), std::string::npos)
      << evlist.out;
  const auto header =
      testing::run_command("perf report --group --header-only -i '" + path.string() + "'");
  EXPECT_EQ(header.status, 0);
  EXPECT_NE(header.out.find("# group: top{fakepmu/event=2/,fakepmu/foo/}"), std::string::npos)
      << header.out;
  const auto report =
      testing::run_command("perf report --group --stdio -i '" + path.string() + "'");
  EXPECT_EQ(report.status, 0);
  EXPECT_EQ(report.err, "");
  EXPECT_NE(report.out.find("of events 'top { fakepmu/event=2/, fakepmu/foo/ }'"),
            std::string::npos)
      << report.out;
}

}  // namespace
PMUCAT_END_NAMESPACE
