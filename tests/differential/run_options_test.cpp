// The differential binary's own options: parsed out, gtest's flags passed through untouched.
#include "run_options.h"

#include <gtest/gtest.h>

#include "pmucat/version.h"

PMUCAT_BEGIN_NAMESPACE
namespace differential {
namespace {

TEST(RunOptions, SeedAndCountAreTakenAndGtestFlagsKeptInOrder) {
  const auto options = parse_run_options({"differential_test", "--gtest_filter=Random*", "--seed",
                                          "12345", "--count=400", "--gtest_repeat=2"});
  ASSERT_TRUE(options) << options.error();
  EXPECT_EQ(options->seed, 12345U);
  EXPECT_EQ(options->count, 400U);
  EXPECT_EQ(options->rest, (std::vector<std::string>{"differential_test", "--gtest_filter=Random*",
                                                     "--gtest_repeat=2"}));
  const auto environment = environment_for(*options);
  ASSERT_EQ(environment.size(), 2U);
  EXPECT_EQ(environment[0], (std::pair<std::string, std::string>{"PMUCAT_DIFF_SEED", "12345"}));
  EXPECT_EQ(environment[1], (std::pair<std::string, std::string>{"PMUCAT_DIFF_COUNT", "400"}));
}

TEST(RunOptions, NothingGivenLeavesTheEnvironmentAlone) {
  const auto options = parse_run_options({"differential_test", "--gtest_list_tests"});
  ASSERT_TRUE(options) << options.error();
  EXPECT_FALSE(options->seed);
  EXPECT_FALSE(options->count);
  EXPECT_TRUE(environment_for(*options).empty());
  EXPECT_EQ(options->rest.size(), 2U);
}

TEST(RunOptions, BadValuesAreErrorsThatSayWhy) {
  const auto not_number = parse_run_options({"differential_test", "--seed", "banana"});
  ASSERT_FALSE(not_number);
  EXPECT_NE(not_number.error().find("--seed"), std::string::npos) << not_number.error();
  const auto zero = parse_run_options({"differential_test", "--count", "0"});
  ASSERT_FALSE(zero);
  EXPECT_NE(zero.error().find("--count"), std::string::npos) << zero.error();
  EXPECT_FALSE(parse_run_options({"differential_test", "--count"}));
}

TEST(RunOptions, DiffHelpIsAnErrorValueHoldingTheUsage) {
  const auto help = parse_run_options({"differential_test", "--diff-help"});
  ASSERT_FALSE(help);
  EXPECT_NE(help.error().find("--count"), std::string::npos) << help.error();
}

}  // namespace
}  // namespace differential
PMUCAT_END_NAMESPACE
