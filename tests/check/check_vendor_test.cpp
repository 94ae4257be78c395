// pmucheck's vendor JSON rules (--cpuid): on tests/check/data/vendor, a small tree of ours with
// a JSON catalog written to break each rule once, and golden files of the report.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <optional>

#include "pmucat/version.h"
#include "support/files.h"
#include "support/tools.h"
#include "test_support.h"

PMUCAT_BEGIN_NAMESPACE
namespace check {
namespace {

namespace fs = std::filesystem;
using pmucat::testing::read_text;
using testing::rule_ids;

const fs::path kSource = PMUCAT_SOURCE_DIR;
const std::string kTree = "tests/check/data/vendor/devices";
const std::string kArch = "tests/check/data/vendor/arch";
constexpr const char* kCpuid = "GenuineIntel-6-8F-8";

class CheckVendor : public ::testing::Test {
 protected:
  void SetUp() override { fs::current_path(kSource); }

  // Relative paths, run from the source root, as the golden files were made.
  static Report check(const std::string& cpuid, const Options& options = {}) {
    auto catalog = Catalog::open(kTree, VendorOptions{kArch, cpuid});
    EXPECT_TRUE(catalog.has_value());
    if (!catalog) return {};
    return run(*catalog, options);
  }
};

std::vector<Finding> of_rule(const Report& report, std::string_view rule) {
  std::vector<Finding> found;
  for (const Finding& finding : report.all_findings()) {
    if (finding.rule == rule) found.push_back(finding);
  }
  return found;
}

TEST_F(CheckVendor, RulesRunOnlyWithAModel) {
  auto catalog = Catalog::open(kTree);
  ASSERT_TRUE(catalog.has_value());
  const Report sysfs_only = run(*catalog, {});
  EXPECT_TRUE(rule_ids(sysfs_only).empty()) << render_text(sysfs_only);
  // A vendor catalog without a CPU identifier chooses no model: nothing to check either.
  const Report no_cpuid = check("");
  EXPECT_TRUE(rule_ids(no_cpuid).empty()) << render_text(no_cpuid);
}

TEST_F(CheckVendor, EachRuleFiresWhereTheCatalogBreaksIt) {
  const Report report = check(kCpuid);
  EXPECT_EQ(rule_ids(report),
            (std::set<std::string>{"vendor-json-invalid", "vendor-unit-unmatched",
                                   "vendor-event-unencodable", "vendor-event-encoding-differs"}))
      << render_text(report);

  // The truncated JSON file and the mapfile row that is no regular expression, each located.
  const auto invalid = of_rule(report, "vendor-json-invalid");
  ASSERT_EQ(invalid.size(), 2u);
  EXPECT_EQ(invalid[0].file, kArch + "/x86/checklake/zz-truncated.json");
  EXPECT_EQ(invalid[1].file, kArch + "/x86/mapfile.csv");
  EXPECT_EQ(invalid[1].diagnostic.range.line, 2u);
  for (const Finding& finding : invalid) {
    EXPECT_EQ(finding.diagnostic.severity, Severity::error);
    EXPECT_TRUE(finding.pmu.empty());
  }

  // M2M has two events and no PMU: one note for the Unit. CHA and iMC have their PMUs.
  const auto unmatched = of_rule(report, "vendor-unit-unmatched");
  ASSERT_EQ(unmatched.size(), 1u);
  EXPECT_NE(unmatched[0].diagnostic.message.find("Unit 'M2M' (2 vendor JSON events"),
            std::string::npos)
      << unmatched[0].diagnostic.message;
  EXPECT_EQ(unmatched[0].diagnostic.severity, Severity::note);
  EXPECT_EQ(unmatched[0].diagnostic.range.file, kArch + "/x86/checklake/uncore.json");

  // ldlat (no format on this cpu), umask and cmask too wide, and filter_opc on every CHA box.
  std::vector<std::pair<std::string, std::string>> unencodable;
  for (const Finding& finding : of_rule(report, "vendor-event-unencodable")) {
    unencodable.emplace_back(finding.pmu, finding.diagnostic.message);
  }
  ASSERT_EQ(unencodable.size(), 4u);
  EXPECT_EQ(unencodable[0].first, "cpu");
  EXPECT_NE(unencodable[0].second.find("mem_trans_retired.load_latency_gt_32"), std::string::npos);
  EXPECT_NE(unencodable[0].second.find("no format/ldlat"), std::string::npos);
  EXPECT_NE(unencodable[1].second.find("wide.fields"), std::string::npos);
  EXPECT_NE(unencodable[1].second.find("2 problems"), std::string::npos);
  EXPECT_EQ(unencodable[2].first, "uncore_cha_0");
  EXPECT_EQ(unencodable[3].first, "uncore_cha_1");
  EXPECT_NE(unencodable[3].second.find("no format/filter_opc"), std::string::npos);

  // branch-misses (0xc5 in sysfs, 0xc4 in JSON) and cas_count_read differ; cpu-cycles is the
  // same event (period= is not part of the encoding).
  const auto differs = of_rule(report, "vendor-event-encoding-differs");
  ASSERT_EQ(differs.size(), 2u);
  EXPECT_EQ(differs[0].file, "cpu/events/branch-misses");
  EXPECT_NE(differs[0].diagnostic.message.find("config=0xc5"), std::string::npos);
  EXPECT_NE(differs[0].diagnostic.message.find("config=0xc4"), std::string::npos);
  EXPECT_EQ(differs[1].file, "uncore_imc_0/events/cas_count_read");
  EXPECT_NE(differs[1].diagnostic.message.find("config=0xcf05"), std::string::npos);
  EXPECT_NE(differs[1].diagnostic.message.find("config=0x304"), std::string::npos);
  EXPECT_EQ(exit_status(report, false), 1);
}

TEST_F(CheckVendor, JsonEventsAreNotJudgedAsSysfsFiles) {
  // JSON events carry `period=2000003` (decimal) and perf's lower-cased names: the sysfs rules
  // (event-decimal-value, the name rules, the parser's lints) are about files of the tree.
  const Report report = check(kCpuid);
  for (const Finding& finding : report.all_findings()) {
    EXPECT_TRUE(finding.rule.starts_with("vendor-")) << finding.rule;
  }
}

TEST_F(CheckVendor, NoMapfileRowIsANote) {
  const Report report = check("GenuineIntel-6-01-0");
  const auto no_match = of_rule(report, "mapfile-no-match");
  ASSERT_EQ(no_match.size(), 1u);
  EXPECT_EQ(no_match[0].diagnostic.severity, Severity::note);
  EXPECT_NE(no_match[0].diagnostic.message.find("GenuineIntel-6-01-0"), std::string::npos);
  EXPECT_TRUE(of_rule(report, "vendor-event-unencodable").empty());
  EXPECT_TRUE(of_rule(report, "vendor-unit-unmatched").empty());
}

TEST_F(CheckVendor, RulesCanBeDisabledAndBaselined) {
  Options options;
  options.disabled = {"vendor-event-unencodable", "vendor-json-invalid"};
  const Report disabled = check(kCpuid, options);
  EXPECT_EQ(rule_ids(disabled),
            (std::set<std::string>{"vendor-unit-unmatched", "vendor-event-encoding-differs"}));
  EXPECT_EQ(exit_status(disabled, false), 0);
  EXPECT_EQ(exit_status(disabled, true), 1);

  const Report all = check(kCpuid);
  auto baseline = parse_baseline(format_baseline(all.all_findings()), "known");
  ASSERT_TRUE(baseline.has_value());
  Options known;
  known.baseline = *baseline;
  EXPECT_EQ(exit_status(check(kCpuid, known), true), 0);
}

// PMUCAT_UPDATE_GOLDEN=1 rewrites the golden files (review the diff before committing).
TEST_F(CheckVendor, ReportsMatchTheirGoldenFiles) {
  const bool update = std::getenv("PMUCAT_UPDATE_GOLDEN") != nullptr;
  struct Case {
    std::string name;
    std::string cpuid;
  };
  for (const Case& c : {Case{"vendor", kCpuid}, Case{"vendor-no-match", "GenuineIntel-6-01-0"}}) {
    const Report report = check(c.cpuid);
    const std::pair<std::string, std::string> renderings[] = {
        {"txt", render_text(report)}, {"ktap", render_ktap(report)}, {"json", render_json(report)}};
    for (const auto& [extension, actual] : renderings) {
      const fs::path golden = kSource / "tests/check/golden" / (c.name + "." + extension);
      if (update) pmucat::testing::write_text(golden, actual);
      EXPECT_EQ(actual, read_text(golden)) << golden;
    }
  }
}

// The kernel's pmu-events/arch: $PMUCAT_PMU_EVENTS_DIR, else the one the build was configured
// with; none: the test skips.
std::optional<fs::path> kernel_events_dir() {
  if (const char* dir = std::getenv("PMUCAT_PMU_EVENTS_DIR"); dir != nullptr && *dir != '\0') {
    return fs::path(dir);
  }
  const fs::path built = PMUCAT_EVENTS_DIR_BUILD;
  if (!built.empty() && fs::exists(built / "x86/mapfile.csv")) return built;
  return std::nullopt;
}

// Our fixtures against the kernel's own models: nothing but notes (Units of boxes the fixture
// lacks, intentional format aliases). JSON events are not judged as events/ files, whose rules
// (decimal `period=`, uppercase `umask=0xC1`) the kernel's JSON breaks by design.
TEST_F(CheckVendor, FixturesWithTheKernelModelsHaveOnlyNotes) {
  const auto events_dir = kernel_events_dir();
  if (!events_dir) GTEST_SKIP() << "no kernel pmu-events/arch configured";
  struct Case {
    const char* tree;
    const char* cpuid;
    const char* model;
  };
  for (const Case& c : {Case{"intel-spr", "GenuineIntel-6-8F-8", "sapphirerapids"},
                        Case{"intel-adl-hybrid", "GenuineIntel-6-97-2", "alderlake"},
                        Case{"arm64-n1", "0x00000000410fd0c0", "arm/cortex-a76-n1"}}) {
    SCOPED_TRACE(c.tree);
    auto catalog = Catalog::open(std::string("fixtures/sysfs/") + c.tree, {*events_dir, c.cpuid});
    ASSERT_TRUE(catalog.has_value());
    ASSERT_NE(catalog->vendor_model(), nullptr);
    EXPECT_EQ(catalog->vendor_model()->directory, c.model);
    const Report report = run(*catalog, {});
    EXPECT_EQ(report.count(Severity::error), 0u) << render_text(report);
    EXPECT_EQ(report.count(Severity::warning), 0u) << render_text(report);
  }
  // intel-spr lacks the IRP, M2PCIe, M2M, M3UPI and PCU boxes of the model: one note each.
  auto spr = Catalog::open("fixtures/sysfs/intel-spr", {*events_dir, "GenuineIntel-6-8F-8"});
  ASSERT_TRUE(spr.has_value());
  std::vector<std::string> units;
  for (const Finding& finding : of_rule(run(*spr, {}), "vendor-unit-unmatched")) {
    units.push_back(finding.diagnostic.message.substr(0, finding.diagnostic.message.find(" (")));
  }
  EXPECT_EQ(units, (std::vector<std::string>{"Unit 'IRP'", "Unit 'M2PCIe'", "Unit 'M2M'",
                                             "Unit 'M3UPI'", "Unit 'PCU'"}));
}

TEST_F(CheckVendor, CommandLineChecksAgainstTheCpuidModel) {
  const std::string base = pmucat::testing::tool("pmucheck") + " --sysfs " + kTree +
                           " --events-dir " + kArch + " --format json";
  const auto with_model = pmucat::testing::run_command(base + " --cpuid " + kCpuid);
  EXPECT_EQ(with_model.status, 1);
  EXPECT_NE(with_model.out.find("\"vendor-event-encoding-differs\""), std::string::npos);
  // The same through the environment; and no identifier, no model, no vendor findings.
  const auto from_env =
      pmucat::testing::run_command(std::string("PMUCAT_CPUID=") + kCpuid + " " + base);
  EXPECT_EQ(from_env.out, with_model.out);
  const auto without = pmucat::testing::run_command("env -u PMUCAT_CPUID " + base);
  EXPECT_EQ(without.status, 0) << without.out;
  EXPECT_EQ(without.out.find("\"vendor-"), std::string::npos);
}

}  // namespace
}  // namespace check
PMUCAT_END_NAMESPACE
