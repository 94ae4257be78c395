// --live on this machine: real events open, a fake PMU's events fail with their errno.
#include <gtest/gtest.h>

#include <cerrno>
#include <filesystem>
#include <string_view>

#include "pmucat/catalog.h"
#include "pmucat/check.h"

PMUCAT_BEGIN_NAMESPACE
namespace check {
namespace {

namespace fs = std::filesystem;

const GroupResult* live_group(const Report& report, std::string_view pmu) {
  for (const PmuReport& entry : report.pmus) {
    if (entry.name != pmu) continue;
    for (const GroupResult& group : entry.groups) {
      if (group.group == Group::live) return &group;
    }
  }
  return nullptr;
}

TEST(CheckLive, LiveGroupIsSkippedWithoutTheOption) {
  fs::current_path(PMUCAT_SOURCE_DIR);
  auto catalog = Catalog::open("fixtures/sysfs/live-fake/devices");
  ASSERT_TRUE(catalog.has_value());
  Report report = run(*catalog, {});
  const GroupResult* live = live_group(report, "fakepmu");
  ASSERT_NE(live, nullptr);
  EXPECT_FALSE(live->applicable);
  EXPECT_TRUE(live->findings.empty());
}

TEST(CheckLive, FakePmuEventsFailWithTheirErrno) {
  fs::current_path(PMUCAT_SOURCE_DIR);
  auto catalog = Catalog::open("fixtures/sysfs/live-fake/devices");
  ASSERT_TRUE(catalog.has_value());
  Options options;
  options.live = true;
  options.live_any_tree = true;  // a fixture: its type numbers are opened on purpose
  Report report = run(*catalog, options);
  const GroupResult* live = live_group(report, "fakepmu");
  ASSERT_NE(live, nullptr);
  std::map<std::string, const Finding*> by_file;
  for (const Finding& finding : live->findings) by_file[finding.file] = &finding;
  ASSERT_TRUE(by_file.count("fakepmu/events/fake_event")) << render_text(report);
  const Finding& failed = *by_file["fakepmu/events/fake_event"];
  EXPECT_EQ(failed.rule, "live-open-failed");
  // Type 9999 is no registered PMU: the kernel answers ENOENT.
  EXPECT_NE(failed.diagnostic.message.find("ENOENT"), std::string::npos)
      << failed.diagnostic.message;
  EXPECT_NE(failed.diagnostic.message.find("type 9999"), std::string::npos);
  ASSERT_TRUE(by_file.count("fakepmu/events/needs_param"));
  EXPECT_EQ(by_file["fakepmu/events/needs_param"]->rule, "live-needs-parameter");
  ASSERT_TRUE(by_file.count("fakepmu/events/bad_term"));
  EXPECT_EQ(by_file["fakepmu/events/bad_term"]->rule, "live-encode-failed");

  // The software PMU of the same tree (type 1, cpu-clock) opens and reads on any Linux.
  const GroupResult* software = live_group(report, "software");
  ASSERT_NE(software, nullptr);
  EXPECT_TRUE(software->applicable);
  EXPECT_TRUE(software->findings.empty()) << render_text(report);
}

TEST(CheckLive, MsrTscOpensOnThisMachine) {
  const fs::path devices = "/sys/bus/event_source/devices";
  if (!fs::exists(devices / "msr/events/tsc")) GTEST_SKIP() << "no msr PMU with tsc here";
  auto catalog = Catalog::open(devices);
  ASSERT_TRUE(catalog.has_value());
  Options options;
  options.live = true;
  options.pmu_patterns = {"msr"};
  Report report = run(*catalog, options);
  const GroupResult* live = live_group(report, "msr");
  ASSERT_NE(live, nullptr);
  EXPECT_TRUE(live->applicable);
  for (const Finding& finding : live->findings) {
    EXPECT_NE(finding.file, "msr/events/tsc") << finding.diagnostic.message;
  }
}

TEST(CheckLive, ErrnoExplanations) {
  EXPECT_NE(explain_open_errno(ENOENT).find("ENOENT"), std::string::npos);
  EXPECT_NE(explain_open_errno(EINVAL).find("bits"), std::string::npos);
  EXPECT_NE(explain_open_errno(EACCES).find("perf_event_paranoid"), std::string::npos);
  EXPECT_NE(explain_open_errno(EOPNOTSUPP).find("sampling"), std::string::npos);
}

// --live on a fixture would open the fixture's type numbers on the running kernel: refused.
TEST(CheckLive, RefusedOnATreeThatIsNotTheRunningOne) {
  fs::current_path(PMUCAT_SOURCE_DIR);
  auto catalog = Catalog::open("fixtures/sysfs/live-fake/devices");
  ASSERT_TRUE(catalog.has_value());
  Options options;
  options.live = true;
  ASSERT_TRUE(live_tree_problem(*catalog, options).has_value());
  Report report = run(*catalog, options);
  ASSERT_EQ(report.tree_findings.size(), 1u) << render_text(report);
  EXPECT_EQ(report.tree_findings[0].rule, "live-foreign-tree");
  EXPECT_EQ(report.tree_findings[0].diagnostic.severity, Severity::error);
  EXPECT_EQ(exit_status(report, false), 1);
  for (const char* pmu : {"fakepmu", "software"}) {
    const GroupResult* live = live_group(report, pmu);
    ASSERT_NE(live, nullptr);
    EXPECT_FALSE(live->applicable) << pmu;  // nothing was opened
    EXPECT_TRUE(live->findings.empty()) << pmu;
    EXPECT_NE(live->skip_reason.find("refused"), std::string::npos) << live->skip_reason;
  }
}

TEST(CheckLive, AllowedOnTheRunningTree) {
  const fs::path running = "/sys/bus/event_source/devices";
  if (!fs::exists(running / "software")) GTEST_SKIP() << "no sysfs PMUs here";
  auto catalog = Catalog::open(running);
  ASSERT_TRUE(catalog.has_value());
  Options options;
  options.live = true;
  EXPECT_FALSE(live_tree_problem(*catalog, options).has_value());
  // The same directory by another path (`/sys`) is the running tree too.
  auto by_root = Catalog::open("/sys");
  ASSERT_TRUE(by_root.has_value());
  EXPECT_FALSE(live_tree_problem(*by_root, options).has_value());
}

}  // namespace
}  // namespace check
PMUCAT_END_NAMESPACE
