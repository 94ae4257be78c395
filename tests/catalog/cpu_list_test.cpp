#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <set>

#include "pmucat/catalog.h"

PMUCAT_BEGIN_NAMESPACE
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

TEST(CpuList, RangesAndSinglesAreExpandedAndSorted) {
  auto list = parse_cpu_list("0-3,8\n", "cpumask");
  ASSERT_TRUE(list) << list.error().message;
  EXPECT_EQ(list->text, "0-3,8");
  EXPECT_THAT(list->cpus, ElementsAre(0u, 1u, 2u, 3u, 8u));
}

TEST(CpuList, RealSysfsShapes) {
  EXPECT_THAT(parse_cpu_list("0,8\n", "f")->cpus, ElementsAre(0u, 8u));  // SNB-EP 2S
  EXPECT_THAT(parse_cpu_list("0,4,8,16\n", "f")->cpus, ElementsAre(0u, 4u, 8u, 16u));
  EXPECT_THAT(parse_cpu_list("0", "f")->cpus, ElementsAre(0u));  // no newline
  EXPECT_THAT(parse_cpu_list("5-5", "f")->cpus, ElementsAre(5u));
  EXPECT_THAT(parse_cpu_list("8,0-1", "f")->cpus, ElementsAre(0u, 1u, 8u));        // out of order
  EXPECT_THAT(parse_cpu_list("0-2,1-3", "f")->cpus, ElementsAre(0u, 1u, 2u, 3u));  // overlap
}

TEST(CpuList, EmptyIsAnEmptyList) {
  EXPECT_THAT(parse_cpu_list("", "f")->cpus, IsEmpty());
  EXPECT_THAT(parse_cpu_list("\n", "f")->cpus, IsEmpty());
}

TEST(CpuList, ReversedRangeIsLocated) {
  auto list = parse_cpu_list("0,7-3\n", "pmu/cpumask");
  ASSERT_FALSE(list);
  EXPECT_EQ(list.error().id, "cpulist-reversed-range");
  EXPECT_EQ(list.error().range.file, "pmu/cpumask");
  EXPECT_EQ(list.error().range.column, 3u);
  EXPECT_EQ(list.error().range.length, 3u);
}

TEST(CpuList, SyntaxErrorsPointAtTheBadByte) {
  struct Case {
    const char* text;
    std::uint32_t column;
  };
  for (Case c : {Case{"x", 1}, Case{"0,,1", 3}, Case{"0-", 3}, Case{"0 1", 2}, Case{"1,", 3},
                 Case{"0x3", 2}, Case{" 0", 1}, Case{"-1", 1}}) {
    auto list = parse_cpu_list(c.text, "f");
    ASSERT_FALSE(list) << c.text;
    EXPECT_EQ(list.error().id, "cpulist-syntax") << c.text;
    EXPECT_EQ(list.error().range.column, c.column) << c.text;
  }
}

TEST(CpuList, HugeNumbersAreRejectedNotAllocated) {
  auto list = parse_cpu_list("0-4294967295", "f");
  ASSERT_FALSE(list);
  EXPECT_EQ(list.error().id, "cpulist-cpu-too-large");
  EXPECT_FALSE(parse_cpu_list("99999999999999999999999", "f"));
  EXPECT_TRUE(parse_cpu_list("65535", "f"));
  EXPECT_FALSE(parse_cpu_list("65536", "f"));
}

RC_GTEST_PROP(CpuListProperty, PrintedSetParsesBack, (const std::set<std::uint16_t>& cpus)) {
  // Print as maximal runs, the way the kernel does.
  std::string text;
  for (auto it = cpus.begin(); it != cpus.end();) {
    std::uint32_t first = *it;
    std::uint32_t last = first;
    for (++it; it != cpus.end() && *it == last + 1; ++it) last = *it;
    if (!text.empty()) text += ',';
    text += std::to_string(first);
    if (last != first) text += "-" + std::to_string(last);
  }
  auto list = parse_cpu_list(text + "\n", "f");
  RC_ASSERT(list.has_value());
  RC_ASSERT(list->cpus == std::vector<std::uint32_t>(cpus.begin(), cpus.end()));
}

RC_GTEST_PROP(CpuListProperty, ArbitraryTextNeverCrashes, (const std::string& text)) {
  auto list = parse_cpu_list(text, "f");
  if (list) RC_ASSERT(std::is_sorted(list->cpus.begin(), list->cpus.end()));
}

}  // namespace
PMUCAT_END_NAMESPACE
