#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <cctype>
#include <string>
#include <vector>

#include "pmucat/catalog.h"

PMUCAT_BEGIN_NAMESPACE
namespace {

struct MatchCase {
  const char* pmu_name;
  const char* pattern;
  bool matches;
};

// Every vector of perf's test__pmu_match ("PMU cmdline match"), including the surprising ones:
// a pattern that is a prefix of a decimal suffix matches (`pmuname_1` selects `pmuname_10`), and
// a two-character hex suffix is not a suffix (`pmuname` does not select `pmuname_a3`), yet
// `pmuname_a` does select `pmuname_a3` because the trailing `3` looks like a decimal suffix.
const MatchCase kPerfVectors[] = {
    {"pmuname", "pmuname", true},
    {"pmuname", "longertoken", false},
    {"pmuname", "pmu", false},

    {"pmuname_10", "pmuname_2", false},
    {"pmuname_10", "pmuname_1", true},
    {"pmuname_10", "pmuname_10", true},
    {"pmuname_10", "pmuname", true},
    {"pmuname_10", "pmuname_", true},
    {"pmuname_10", "pmuna", false},

    {"pmuname_ab23", "pmuname_2", false},
    {"pmuname_ab23", "pmuname_ab", true},
    {"pmuname_ab23", "pmuname_ab23", true},
    {"pmuname_ab23", "pmuname", true},
    {"pmuname_ab23", "pmuname_", true},
    {"pmuname_ab23", "pmuna", false},

    {"pmuname10", "pmuname2", false},
    {"pmuname10", "pmuname1", true},
    {"pmuname10", "pmuname10", true},
    {"pmuname10", "pmuname", true},
    {"pmuname10", "pmuname_", false},
    {"pmuname10", "pmuna", false},

    {"pmunameab23", "pmuname2", false},
    {"pmunameab23", "pmunameab", true},
    {"pmunameab23", "pmunameab23", true},
    {"pmunameab23", "pmuname", true},
    {"pmunameab23", "pmuname_", false},
    {"pmunameab23", "pmuna", false},

    {"pmuname_a3", "pmuname_2", false},
    {"pmuname_a3", "pmuname_a", true},
    {"pmuname_a3", "pmuname_a3", true},
    {"pmuname_a3", "pmuname", false},
    {"pmuname_a3", "pmuname_", false},
    {"pmuname_a3", "pmuna", false},

    {"pmuname_5", "pmu*", true},
    {"pmuname_5", "nomatch*", false},
    {"pmuname_5", "pmuname_[12345]", true},
    {"pmuname_5", "pmuname_[67890]", false},
    {"pmuname_5", "pmuname_?", true},
    {"pmuname_5", "pmuname_1?", false},
};

class PerfMatchVector : public ::testing::TestWithParam<MatchCase> {};

TEST_P(PerfMatchVector, AgreesWithPerf) {
  const MatchCase& c = GetParam();
  EXPECT_EQ(pmu_name_matches(c.pmu_name, c.pattern), c.matches)
      << "pmu '" << c.pmu_name << "' pattern '" << c.pattern << "'";
}

std::string vector_name(const ::testing::TestParamInfo<MatchCase>& info) {
  std::string name =
      std::to_string(info.index) + "_" + info.param.pmu_name + "_by_" + info.param.pattern;
  for (char& c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return name;
}

INSTANTIATE_TEST_SUITE_P(PerfTestPmuMatch, PerfMatchVector, ::testing::ValuesIn(kPerfVectors),
                         vector_name);

TEST(PmuNameMatches, UncoreInstances) {
  EXPECT_TRUE(pmu_name_matches("uncore_cha_0", "uncore_cha"));
  EXPECT_TRUE(pmu_name_matches("uncore_cha_59", "uncore_cha"));
  EXPECT_TRUE(pmu_name_matches("uncore_imc_free_running_0", "uncore_imc_free_running"));
  EXPECT_FALSE(pmu_name_matches("uncore_imc_free_running_0", "uncore_imc"));
  EXPECT_FALSE(pmu_name_matches("uncore_chabox_0", "uncore_cha"));
  // perf lets users leave out the uncore_ prefix ...
  EXPECT_TRUE(pmu_name_matches("uncore_cbox_3", "cbox"));
  // ... but a pattern that spells it out does not select PMUs without it.
  EXPECT_FALSE(pmu_name_matches("cbox_3", "uncore_cbox"));
  EXPECT_FALSE(pmu_name_matches("cpu", "uncore_*"));
  EXPECT_TRUE(pmu_name_matches("uncore_imc_2", "uncore_imc_*"));
}

TEST(PmuNameMatches, HexAddressSuffixes) {
  EXPECT_TRUE(pmu_name_matches("smmuv3_pmcg_ff88840", "smmuv3_pmcg"));
  EXPECT_TRUE(pmu_name_matches("mrvl_ddr_pmu_87e1b0000000", "mrvl_ddr_pmu"));
  EXPECT_TRUE(pmu_name_matches("hisi_sccl1_ddrc0", "hisi_sccl1_ddrc"));
  EXPECT_FALSE(pmu_name_matches("hisi_sccl1_ddrc0", "hisi_sccl1_dd"));
}

TEST(PmuNameMatches, EmptyPatternMatchesNothing) {
  EXPECT_FALSE(pmu_name_matches("abc", ""));
  EXPECT_FALSE(pmu_name_matches("", ""));
}

TEST(NaturalLess, PerfNameComparisonVectors) {
  EXPECT_FALSE(natural_less("cpu", "cpu"));
  EXPECT_TRUE(natural_less("cpu", "i915"));
  EXPECT_FALSE(natural_less("i915", "cpu"));
  EXPECT_TRUE(natural_less("cpum_ce", "cpum_cf"));
  EXPECT_TRUE(natural_less("cpum_cf", "cpum_d0"));
  for (int i = 1; i < 32; ++i) {
    std::string previous = "uncore_cha_" + std::to_string(i - 1);
    std::string current = "uncore_cha_" + std::to_string(i);
    EXPECT_TRUE(natural_less(previous, current)) << previous << " < " << current;
    EXPECT_FALSE(natural_less(current, previous)) << current;
  }
  const char* hex_digits = "0123456789abcdef";
  for (int i = 1; i < 16; ++i) {
    std::string previous = std::string("mrvl_ddr_pmu_87e1b") + hex_digits[i - 1] + "000000";
    std::string current = std::string("mrvl_ddr_pmu_87e1b") + hex_digits[i] + "000000";
    EXPECT_TRUE(natural_less(previous, current)) << previous << " < " << current;
    EXPECT_FALSE(natural_less(current, previous)) << current;
  }
}

TEST(NaturalLess, DigitRunsCompareAsNumbers) {
  EXPECT_TRUE(natural_less("uncore_cha_2", "uncore_cha_10"));
  EXPECT_TRUE(natural_less("uncore_cha", "uncore_cha_0"));
  EXPECT_TRUE(natural_less("a9b", "a10a"));
  EXPECT_TRUE(natural_less("a01", "a1"));  // equal numbers: bytes decide, order stays strict
  EXPECT_FALSE(natural_less("a1", "a01"));
}

RC_GTEST_PROP(NaturalLessProperty, IsAStrictTotalOrder,
              (const std::string& a, const std::string& b)) {
  RC_ASSERT(!natural_less(a, a));
  if (a != b) RC_ASSERT(natural_less(a, b) != natural_less(b, a));
}

RC_GTEST_PROP(NaturalLessProperty, SortsNumberedInstancesByNumber,
              (std::vector<std::uint16_t> numbers)) {
  std::sort(numbers.begin(), numbers.end());
  numbers.erase(std::unique(numbers.begin(), numbers.end()), numbers.end());
  std::vector<std::string> names;
  for (auto n : numbers) names.push_back("uncore_imc_" + std::to_string(n));
  std::vector<std::string> shuffled = names;
  std::reverse(shuffled.begin(), shuffled.end());
  std::sort(shuffled.begin(), shuffled.end(), natural_less);
  RC_ASSERT(shuffled == names);
}

TEST(Iequals, AsciiCaseInsensitive) {
  EXPECT_TRUE(iequals("Bar_Mixed", "bar_mixed"));
  EXPECT_TRUE(iequals("UPPER", "upper"));
  EXPECT_TRUE(iequals("", ""));
  EXPECT_FALSE(iequals("foo", "foo2"));
  EXPECT_FALSE(iequals("foo", "fop"));
  EXPECT_FALSE(iequals("\xc3\x84", "\xc3\xa4"));  // only ASCII folds
}

}  // namespace
PMUCAT_END_NAMESPACE
