// pmucheck over the fixture trees: good trees have no errors, each broken tree has exactly the
// rule ids its expected.txt lists, and every output format matches its golden file.
#include <gtest/gtest.h>

#include <cstdlib>
#include <sstream>

#include "pmucat/version.h"
#include "support/files.h"
#include "test_support.h"

PMUCAT_BEGIN_NAMESPACE
namespace check {
namespace {

namespace fs = std::filesystem;
using pmucat::testing::read_text;
using testing::rule_ids;

const fs::path kSource = PMUCAT_SOURCE_DIR;

std::vector<std::string> broken_fixtures() {
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(kSource / "fixtures/sysfs/broken")) {
    if (entry.is_directory()) names.push_back(entry.path().filename().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

// expected.txt: one rule id per line, `#` comments.
std::set<std::string> expected_ids(const std::string& fixture) {
  std::set<std::string> ids;
  std::istringstream in(read_text(kSource / "fixtures/sysfs/broken" / fixture / "expected.txt"));
  std::string line;
  while (std::getline(in, line)) {
    auto hash = line.find('#');
    if (hash != std::string::npos) line.resize(hash);
    while (!line.empty() && std::isspace(static_cast<unsigned char>(line.back()))) line.pop_back();
    if (!line.empty()) ids.insert(line);
  }
  return ids;
}

// Runs from the source root with a relative path, as the golden files were made.
Report check_tree(const std::string& relative, const Options& options = {}) {
  auto catalog = Catalog::open(relative);
  EXPECT_TRUE(catalog.has_value()) << relative;
  if (!catalog) return {};
  return run(*catalog, options);
}

class CheckFixtures : public ::testing::Test {
 protected:
  void SetUp() override { fs::current_path(kSource); }
};

TEST_F(CheckFixtures, BrokenTreesHaveExactlyTheExpectedRules) {
  auto fixtures = broken_fixtures();
  ASSERT_GE(fixtures.size(), 10u);
  for (const std::string& fixture : fixtures) {
    SCOPED_TRACE(fixture);
    Report report = check_tree("fixtures/sysfs/broken/" + fixture + "/devices");
    EXPECT_EQ(rule_ids(report), expected_ids(fixture));
    EXPECT_EQ(exit_status(report, false), 1);
  }
}

TEST_F(CheckFixtures, EveryRuleIsCoveredByABrokenFixtureOrATest) {
  std::set<std::string> covered;
  for (const std::string& fixture : broken_fixtures()) {
    auto ids = expected_ids(fixture);
    covered.insert(ids.begin(), ids.end());
  }
  // Covered elsewhere: off by default (CheckRules.WideRangeIsOffUntilEnabled) and --live rules
  // (CheckLive); live-read-failed needs a kernel that opens an event and then fails the read.
  const std::set<std::string> elsewhere = {
      "format-wide-range", "live-encode-failed", "live-open-failed", "live-needs-parameter",
      "live-read-failed", "live-foreign-tree",
      // tests/hostile (names that are not UTF-8)
      "pmu-name-charset", "format-name-charset",
      // tests/check/snapshot_hostile_test.cpp
      "capture-manifest-invalid",
      // tests/check/check_vendor_test.cpp (--cpuid)
      "vendor-json-invalid", "mapfile-no-match", "vendor-unit-unmatched",
      "vendor-event-unencodable", "vendor-event-encoding-differs"};
  for (const Rule& rule : rules()) {
    EXPECT_TRUE(covered.count(std::string(rule.id)) != 0 ||
                elsewhere.count(std::string(rule.id)) != 0)
        << rule.id << " has no broken fixture";
  }
}

TEST_F(CheckFixtures, GoodTreesHaveNoErrors) {
  for (const char* tree :
       {"intel-spr", "amd-zen4", "arm-neoverse", "power9", "intel-adl-hybrid", "arm64-n1",
        "intel-arl-hybrid", "intel-cwf", "amd-zen6", "arm-neoverse-v3"}) {
    SCOPED_TRACE(tree);
    if (!fs::exists(kSource / "fixtures/sysfs" / tree)) GTEST_SKIP() << tree << " not written yet";
    Report report = check_tree(std::string("fixtures/sysfs/") + tree);
    EXPECT_FALSE(report.pmus.empty());
    EXPECT_EQ(report.count(Severity::error), 0u) << render_text(report);
    EXPECT_EQ(exit_status(report, false), 0);
  }
}

struct Rendering {
  const char* extension;
  std::string (*render)(const Report&);
};

std::string text_without_color(const Report& report) {
  return render_text(report, {});
}
std::string kcidb_default(const Report& report) {
  KcidbOptions options;
  options.run_id = "golden";  // ids are unique per run; the golden files name one run
  return render_kcidb(report, options);
}

constexpr Rendering kRenderings[] = {{"txt", text_without_color},
                                     {"ktap", render_ktap},
                                     {"json", render_json},
                                     {"junit.xml", render_junit},
                                     {"kcidb.json", kcidb_default}};

// PMUCAT_UPDATE_GOLDEN=1 rewrites the golden files (review the diff before committing).
TEST_F(CheckFixtures, EveryFormatMatchesItsGoldenFile) {
  bool update = std::getenv("PMUCAT_UPDATE_GOLDEN") != nullptr;
  for (const std::string& fixture : broken_fixtures()) {
    Report report = check_tree("fixtures/sysfs/broken/" + fixture + "/devices");
    for (const Rendering& rendering : kRenderings) {
      fs::path golden = kSource / "tests/check/golden" / (fixture + "." + rendering.extension);
      std::string actual = rendering.render(report);
      if (update) pmucat::testing::write_text(golden, actual);
      EXPECT_EQ(actual, read_text(golden)) << golden;
    }
  }
}

TEST_F(CheckFixtures, SharedSysfsDumpsGiveTheirKnownFindings) {
  fs::path dumps = kSource / "../shared/sysfs-dumps";
  fs::path snb_ep = dumps / "perf_event_tests/tools/fakesys/snb_ep/sys";
  if (!fs::exists(snb_ep)) GTEST_SKIP() << "no shared sysfs dumps here";
  Report report = check_tree(snb_ep.string());
  ASSERT_EQ(report.pmus.size(), 24u);
  std::set<std::pair<std::string, std::string>> found;
  for (const Finding& finding : report.all_findings()) found.emplace(finding.rule, finding.file);
  // 2013 SNB-EP capture: cpu/type was not captured, and the PCU's occ_edge spans 14-51 (D6, D12).
  EXPECT_TRUE(found.count({"pmu-type-missing", "cpu/type"})) << render_text(report);
  EXPECT_TRUE(found.count({"format-flag-wide", "uncore_pcu/format/occ_edge"}));
  EXPECT_EQ(report.count(Severity::error), 0u) << render_text(report);

  fs::path pcp = dumps / "pcp_perfevent_fakefs";
  Report fail_format = check_tree((pcp / "syspmu_fail_format").string());
  EXPECT_TRUE(rule_ids(fail_format).count("event-unknown-term")) << render_text(fail_format);
  Report fail_event = check_tree((pcp / "syspmu_fail_event").string());
  EXPECT_EQ(exit_status(fail_event, false), 1) << render_text(fail_event);
  Report hv_gpci = check_tree((pcp / "syspmu_hvgpci").string());
  EXPECT_EQ(hv_gpci.count(Severity::error), 0u) << render_text(hv_gpci);
}

}  // namespace
}  // namespace check
PMUCAT_END_NAMESPACE
