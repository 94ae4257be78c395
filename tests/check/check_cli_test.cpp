// pmucheck's command line: exit statuses, options and formats.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "pmucat/catalog.h"
#include "pmucat/check.h"
#include "support/scratch_dir.h"
#include "support/tools.h"

PMUCAT_BEGIN_NAMESPACE
namespace check {
namespace {

using pmucat::testing::run_command;
using pmucat::testing::tool;

std::string pmucheck(const std::string& args) {
  return tool("pmucheck") + " " + args;
}

TEST(PmucheckCli, ExitStatusIsZeroOneOrTwo) {
  EXPECT_EQ(run_command(pmucheck("--sysfs fixtures/sysfs/diff/snb-ep-today/devices")).status, 0);
  EXPECT_EQ(run_command(pmucheck("--sysfs fixtures/sysfs/broken/names/devices")).status, 1);
  EXPECT_EQ(run_command(pmucheck("--sysfs /nonexistent 2>/dev/null")).status, 2);
  EXPECT_EQ(run_command(pmucheck("--bogus-option 2>/dev/null")).status, 2);
  EXPECT_EQ(
      run_command(
          pmucheck(
              "--baseline /nonexistent --sysfs fixtures/sysfs/broken/names/devices 2>/dev/null"))
          .status,
      2);
  // An unknown --pmu is rejected input, as in pmuls and pmuencode (one table, docs/cli.md).
  EXPECT_EQ(
      run_command(pmucheck("--sysfs fixtures/sysfs/broken/names/devices --pmu nosuch 2>/dev/null"))
          .status,
      1);
}

TEST(PmucheckCli, WerrorDisableAndEnable) {
  const std::string fields = "--sysfs fixtures/sysfs/broken/format-fields/devices --format json ";
  EXPECT_EQ(run_command(pmucheck(fields + "--disable event-overlapping-terms")).status, 0);
  EXPECT_EQ(run_command(pmucheck(fields + "--disable event-overlapping-terms --werror")).status, 1);
  auto enabled = run_command(pmucheck(fields + "--enable format-wide-range"));
  EXPECT_NE(enabled.out.find("\"format-wide-range\""), std::string::npos);
  auto plain = run_command(pmucheck(fields));
  EXPECT_EQ(plain.out.find("\"format-wide-range\""), std::string::npos);
}

TEST(PmucheckCli, WrittenBaselineMakesTheSameTreePass) {
  const pmucat::testing::ScratchDir scratch("cli-baseline");
  auto dir = scratch.path();
  std::string tree = "--sysfs fixtures/sysfs/broken/terms/devices --format ktap ";
  auto first = run_command(pmucheck(tree + "--write-baseline " + (dir / "known").string()));
  EXPECT_EQ(first.status, 1);
  auto second = run_command(pmucheck(tree + "--werror --baseline " + (dir / "known").string()));
  EXPECT_EQ(second.status, 0) << second.out;
  EXPECT_NE(second.out.find("# TODO known findings (baseline)"), std::string::npos);
}

TEST(PmucheckCli, PmuSelectionAndJobsDoNotChangeTheOrder) {
  std::string tree = "--sysfs fixtures/sysfs/broken/type/devices --format json ";
  auto one = run_command(pmucheck(tree + "--jobs 1"));
  auto four = run_command(pmucheck(tree + "--jobs 4"));
  EXPECT_EQ(one.out, four.out);
  auto selected = run_command(pmucheck(tree + "--pmu 'dup*'"));
  auto parsed = nlohmann::json::parse(selected.out);
  ASSERT_EQ(parsed["pmus"].size(), 2u);
  EXPECT_EQ(parsed["pmus"][0]["name"], "dupone");
}

TEST(PmucheckCli, DefaultFormatOffATerminalIsKtap) {
  auto out = run_command(pmucheck("--sysfs fixtures/sysfs/broken/names/devices"));
  EXPECT_EQ(out.out.rfind("KTAP version 1\n", 0), 0u) << out.out;
  auto text = run_command(pmucheck("--sysfs fixtures/sysfs/broken/names/devices --format text"));
  EXPECT_NE(text.out.find("error: event name 'Mixed_Case' mixes upper and lower case"),
            std::string::npos);
}

TEST(PmucheckCli, LiveOnAFixtureIsRefused) {
  auto out = run_command(pmucheck("--sysfs fixtures/sysfs/live-fake/devices --live --format text"));
  EXPECT_EQ(out.status, 1);
  EXPECT_NE(out.out.find("[live-foreign-tree]"), std::string::npos) << out.out;
  EXPECT_EQ(out.out.find("[live-open-failed]"), std::string::npos) << out.out;
}

TEST(PmucheckCli, LiveReportsTheFakePmu) {
  auto out = run_command(
      pmucheck("--sysfs fixtures/sysfs/live-fake/devices --live --live-any-tree --format text"));
  EXPECT_EQ(out.status, 1);
  EXPECT_NE(out.out.find("cannot open 'fakepmu/fake_event/'"), std::string::npos) << out.out;
  EXPECT_NE(out.out.find("[live-open-failed]"), std::string::npos);
}

TEST(PmucheckCli, ListRulesNamesEveryRule) {
  auto out = run_command(pmucheck("--list-rules"));
  EXPECT_EQ(out.status, 0);
  for (const Rule& rule : rules()) {
    EXPECT_NE(out.out.find(std::string(rule.id) + " "), std::string::npos) << rule.id;
  }
}

}  // namespace
}  // namespace check
PMUCAT_END_NAMESPACE
