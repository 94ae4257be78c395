// pmudiff --tables: one CPU's events and metrics in two releases' built-in vendor tables, with the
// tool run as a process over the tables this build compiled.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "pmucat/version.h"
#include "support/tools.h"

PMUCAT_BEGIN_NAMESPACE
namespace testing {
namespace {

TEST(TablesDiffCli, ReleasesAndCpuAreChecked) {
  const CommandResult unknown = run_tool_command("pmudiff --tables 6.12 9.9 --cpuid X", "-");
  EXPECT_EQ(unknown.status, 2);
  EXPECT_NE(unknown.err.find("unknown perf release '9.9'"), std::string::npos) << unknown.err;
  EXPECT_EQ(run_tool_command("pmudiff --tables 6.12 7.3", "-").status, 2);
  EXPECT_EQ(run_tool_command("pmudiff --tables 6.12 7.3 --cpuid X a b", "-").status, 2);
}

TEST(TablesDiffCli, PantherLakeIsNewIn73) {
  if (std::string_view(PMUCAT_EVENTS_VERSION) != "7.3") {
    // Without linux 7.3's tables the newest set cannot stand in for them.
    const CommandResult missing =
        run_tool_command("pmudiff --tables 6.12 7.3 --cpuid GenuineIntel-6-CC-0", "-");
    EXPECT_EQ(missing.status, 2);
    GTEST_SKIP() << "this build has no linux 7.3 tables";
  }
  const CommandResult result =
      run_tool_command("pmudiff --json --tables 6.12 7.3 --cpuid GenuineIntel-6-CC-0", "-");
  ASSERT_EQ(result.status, 0) << result.err;
  const nlohmann::json document = nlohmann::json::parse(result.out);
  EXPECT_TRUE(document["old"]["model"].is_null());
  EXPECT_EQ(document["new"]["model"], "x86/pantherlake");
  bool generated = false;
  for (const auto& metric : document["metrics"]) {
    EXPECT_EQ(metric["change"], "added");
    if (metric["name"] == "lpm_br_cond_retired") generated = true;
  }
  EXPECT_TRUE(generated);

  // Sapphire Rapids is in both: the uncore IIO umasks linux 7.3 rewrote are re-encodings.
  const CommandResult spr =
      run_tool_command("pmudiff --tables 6.12 7.3 --cpuid GenuineIntel-6-8F-8", "-");
  ASSERT_EQ(spr.status, 0) << spr.err;
  EXPECT_NE(spr.out.find("CPU GenuineIntel-6-8F-8: linux 6.12 (x86/sapphirerapids) -> linux 7.3 "
                         "(x86/sapphirerapids)"),
            std::string::npos)
      << spr.out;
  EXPECT_NE(spr.out.find("~ event uncore_iio/unc_iio_comp_buf_inserts.cmpd.part0 "),
            std::string::npos);
}

}  // namespace
}  // namespace testing
PMUCAT_END_NAMESPACE
