// The forms perf writes CPU identifiers in, and what a user's identifier gets when it is in none.
#include "pmucat/cpuid_form.h"

#include <gtest/gtest.h>

#include "pmucat/diagnostic_ids.h"
#include "support/files.h"
#include "support/scratch_dir.h"

PMUCAT_BEGIN_NAMESPACE
namespace {

TEST(CpuidForm, PerfsOwnFormsPass) {
  for (const char* id :
       {"GenuineIntel-6-8F-8", "GenuineIntel-6-8F", "AuthenticAMD-25-11-1", "HygonGenuine-24-0-1",
        "0x00000000410fd490", "004e1202", "IBM,8561,703,T01,3.6,002f", "IBM,3931,A01",
        "0x489-0x8000000000000007-0x1"}) {
    EXPECT_EQ(check_cpuid_form(id, "<--cpuid>"), std::nullopt) << id;
  }
}

TEST(CpuidForm, LowerCaseX86HexGetsAFixItToPerfsCase) {
  const auto warning = check_cpuid_form("GenuineIntel-6-8f-8", "<--cpuid>");
  ASSERT_TRUE(warning.has_value());
  EXPECT_EQ(warning->id, to_string(DiagId::cpuid_case));
  EXPECT_EQ(warning->severity, Severity::warning);
  EXPECT_EQ(warning->range.file, "<--cpuid>");
  ASSERT_TRUE(warning->fixit.has_value());
  EXPECT_EQ(warning->fixit->replacement, "GenuineIntel-6-8F-8");
  const auto stepping = check_cpuid_form("GenuineIntel-6-55-b", "<--cpuid>");
  ASSERT_TRUE(stepping && stepping->fixit);
  EXPECT_EQ(stepping->fixit->replacement, "GenuineIntel-6-55-B");
}

TEST(CpuidForm, ShortMidrGetsItsLeadingZeros) {
  const auto warning = check_cpuid_form("0x410fd490", "<--cpuid>");
  ASSERT_TRUE(warning.has_value());
  EXPECT_EQ(warning->id, to_string(DiagId::cpuid_malformed));
  ASSERT_TRUE(warning->fixit.has_value());
  EXPECT_EQ(warning->fixit->replacement, "0x00000000410fd490");
  const auto upper = check_cpuid_form("0x00000000410FD490", "<--cpuid>");
  ASSERT_TRUE(upper && upper->fixit);
  EXPECT_EQ(upper->id, to_string(DiagId::cpuid_case));
  EXPECT_EQ(upper->fixit->replacement, "0x00000000410fd490");
}

TEST(CpuidForm, AnythingElseIsMalformedWithTheFormsAsHint) {
  for (const char* id : {"bogus", "GenuineIntel", "GenuineIntel-6-8G-8", "GenuineIntel-x-8F", "0x",
                         "0x00000000410fd4901", "Genuine Intel-6-8F", "-6-8F", "IBM,,1"}) {
    const auto warning = check_cpuid_form(id, "$PMUCAT_CPUID");
    ASSERT_TRUE(warning.has_value()) << id;
    EXPECT_EQ(warning->id, to_string(DiagId::cpuid_malformed)) << id;
    EXPECT_EQ(warning->range.file, "$PMUCAT_CPUID");
    EXPECT_NE(warning->hint.find("GenuineIntel-6-8F-8"), std::string::npos) << id;
  }
}

TEST(CpuidForm, NearestRowsComeFromEveryMapfile) {
  const testing::ScratchDir root("cpuid-rows");
  testing::write_text(root / "x86/mapfile.csv",
                      "Family-model,Version,Filename,EventType\n"
                      "GenuineIntel-6-8F,v1,sapphirerapids,core\n"
                      "GenuineIntel-6-55-[56789ABCDEF],v1,cascadelakex,core\n"
                      "AuthenticAMD-25-([01][0-9A-F]|2[0-9A-F]),v1,amdzen3,core\n");
  testing::write_text(root / "arm64/mapfile.csv",
                      "Family-model,Version,Filename,EventType\n"
                      "0x00000000410fd490,v1,arm/cortex-a510,core\n");
  const auto nearest = nearest_mapfile_rows(root.path(), "GenuineIntel-6-8E-8", 2);
  ASSERT_EQ(nearest.size(), 2u);
  EXPECT_EQ(nearest[0], "GenuineIntel-6-8F (sapphirerapids)");
  EXPECT_EQ(nearest_mapfile_rows(root.path(), "0x410fd490", 1),
            std::vector<std::string>{"0x00000000410fd490 (arm/cortex-a510)"});
  EXPECT_TRUE(nearest_mapfile_rows(root / "missing", "x", 3).empty());
}

}  // namespace
PMUCAT_END_NAMESPACE
