// Internal unit test of resolve_perf_semantics (cli/common/semantics.h): --perf-semantics[=VERSION]
// as given, and the perf on PATH for `auto`.
#include <gtest/gtest.h>

#include "common/semantics.h"
#include "pmucat/version.h"

PMUCAT_BEGIN_NAMESPACE
namespace cli {
namespace {

TEST(PerfSemanticsOption, NotGivenBareNamedAndAuto) {
  const auto resolve = [](bool given, std::string value,
                          std::optional<std::string> perf = std::nullopt) {
    return resolve_perf_semantics(PerfSemanticsOption{given, std::move(value)}, perf);
  };
  EXPECT_EQ(resolve(false, "").value(), std::nullopt);
  // The bare flag is perf 6.1 (what it meant before versions could be named).
  EXPECT_EQ(resolve(true, "").value(), PerfRelease::v6_1);
  EXPECT_EQ(resolve(true, "6.1").value(), PerfRelease::v6_1);
  EXPECT_EQ(resolve(true, "6.12").value(), PerfRelease::v6_12);
  EXPECT_EQ(resolve(true, "auto", "perf version 6.12.118\n").value(), PerfRelease::v6_12);
  EXPECT_EQ(resolve(true, "auto", "perf version 6.1.187\n").value(), PerfRelease::v6_1);

  const auto unknown = resolve(true, "6.2");
  ASSERT_FALSE(unknown.has_value());
  EXPECT_NE(unknown.error().find("'6.2' is not a perf release pmucat follows (6.1, 6.12"),
            std::string::npos);
  const auto no_perf = resolve(true, "auto");
  ASSERT_FALSE(no_perf.has_value());
  EXPECT_NE(no_perf.error().find("no perf on PATH"), std::string::npos);
  const auto other_perf = resolve(true, "auto", "perf version 6.8.0\n");
  ASSERT_FALSE(other_perf.has_value());
  EXPECT_NE(other_perf.error().find("'perf version 6.8.0'"), std::string::npos);
}

TEST(PerfRelease, ParsesWhatPerfVersionPrints) {
  EXPECT_EQ(parse_perf_release("6.12"), PerfRelease::v6_12);
  EXPECT_EQ(parse_perf_release("perf version 6.12.118-dirty"), PerfRelease::v6_12);
  EXPECT_EQ(parse_perf_release("6.1.187"), PerfRelease::v6_1);
  EXPECT_EQ(parse_perf_release("6.10"), std::nullopt);
  EXPECT_EQ(parse_perf_release("6.1x"), std::nullopt);
  EXPECT_EQ(parse_perf_release("5.1"), std::nullopt);
  EXPECT_EQ(parse_perf_release(""), std::nullopt);
}

}  // namespace
}  // namespace cli
PMUCAT_END_NAMESPACE
