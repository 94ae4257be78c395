// Internal unit test of src/metrics/perf_ids.h: perf 6.1's id hashmap order and id search.
#include "metrics/perf_ids.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace pmucat::metrics_detail {
namespace {

using Keys = std::vector<std::string>;

PerfIdMap map_of(const Keys& keys) {
  PerfIdMap m;
  for (const auto& k : keys) m.insert(k);
  return m;
}

Keys ids_of(std::string_view expr, const MetricLiterals& lit = {}) {
  PerfIdMap m;
  auto d = find_ids(expr, 0, lit, "test", m);
  EXPECT_FALSE(d.has_value()) << (d ? d->message : "");
  return m.keys();
}

// Hand-computed: hash("a") = 97, bucket = top bits of 97 * 0x9E3779B97F4A7C15; 4 buckets until
// the 4th key, 8 until the 7th, growth re-inserting chains at the head (reversing them).
TEST(PerfIdMap, IterationOrderIsPerfs) {
  EXPECT_EQ(map_of({"a", "b", "c", "d", "e", "f", "g"}).keys(),
            (Keys{"f", "c", "e", "b", "g", "d", "a"}));
  EXPECT_EQ(map_of({"instructions", "cycles"}).keys(), (Keys{"instructions", "cycles"}));
}

TEST(PerfIdMap, InsertExistingKeepsPlaceEraseRemoves) {
  PerfIdMap m = map_of({"a", "b", "c"});
  const Keys before = m.keys();
  m.insert("b");
  EXPECT_EQ(m.keys(), before);
  EXPECT_EQ(m.size(), 3U);
  EXPECT_TRUE(m.erase("b"));
  EXPECT_FALSE(m.erase("b"));
  EXPECT_FALSE(m.contains("b"));
  EXPECT_EQ(m.size(), 2U);
}

TEST(PerfIdMap, UnionKeepsTheLargerMap) {
  auto u = ids_union(map_of({"x"}), map_of({"a", "b", "c"}));
  ASSERT_TRUE(u);
  EXPECT_EQ(u->size(), 4U);
  EXPECT_FALSE(ids_union(std::nullopt, std::nullopt).has_value());
  EXPECT_EQ(ids_union(std::nullopt, map_of({"q"}))->keys(), (Keys{"q"}));
}

TEST(FindIds, EventsOperatorsAndFunctions) {
  EXPECT_EQ(ids_of("a + b"), ids_of("b * a"));
  EXPECT_EQ(ids_of("min(a, b)").size(), 2U);
  EXPECT_EQ(ids_of("d_ratio(a, b) + source_count(c)").size(), 3U);
  EXPECT_EQ(ids_of("1 + 2 * 3").size(), 0U);
  EXPECT_EQ(ids_of("cpu@INST_RETIRED.ANY@ / msr@tsc@"), ids_of("msr@tsc@ / cpu@INST_RETIRED.ANY@"));
  const Keys escaped = ids_of("ev\\=1");
  ASSERT_EQ(escaped.size(), 1U);
  EXPECT_EQ(escaped[0], "ev=1");
  const Keys runtime = ids_of("imc?.x");
  ASSERT_EQ(runtime.size(), 1U);
  EXPECT_EQ(runtime[0], "imc0.x");
}

TEST(FindIds, IfWithConstantConditionKeepsOneBranch) {
  MetricLiterals on;
  on.smt_on = 1;
  MetricLiterals off;
  off.smt_on = 0;
  EXPECT_EQ(ids_of("a if #smt_on else b", on), (Keys{"a"}));
  EXPECT_EQ(ids_of("a if #SMT_on else b", off), (Keys{"b"}));
  EXPECT_EQ(ids_of("a if c else b", off).size(), 3U);
  // Both branches the same constant: no event needed.
  EXPECT_EQ(ids_of("1 if c else 1").size(), 0U);
  // min/max are never folded when searching ids.
  EXPECT_EQ(ids_of("a if min(1, 2) else b").size(), 2U);
  EXPECT_EQ(ids_of("a if 2 > 1 else b"), (Keys{"a"}));
  EXPECT_EQ(ids_of("a if 2 < 1 else b"), (Keys{"b"}));
  EXPECT_EQ(ids_of("d_ratio(a, 0)").size(), 0U);
}

TEST(FindIds, ErrorsAreLocated) {
  PerfIdMap m;
  auto d = find_ids("a + (b", 0, {}, "f.json", m);
  ASSERT_TRUE(d);
  EXPECT_EQ(d->id, "metric-expr-invalid");
  d = find_ids("a / 0", 0, {}, "f.json", m);
  ASSERT_TRUE(d);
  EXPECT_EQ(d->range.column, 3U);
  d = find_ids("a if #smt_on else b", 0, {}, "f.json", m);  // literal value unknown
  ASSERT_TRUE(d);
  EXPECT_EQ(d->range.column, 6U);
  d = find_ids("#bogus", 0, {}, "f.json", m);
  ASSERT_TRUE(d);
  EXPECT_NE(d->message.find("unrecognized literal"), std::string::npos);
  d = find_ids("a b", 0, {}, "f.json", m);
  ASSERT_TRUE(d);
}

TEST(FindIds, Lexing) {
  // `0x10` is a symbol (longer than the number 0), `1e3` a number, `if2` a symbol.
  EXPECT_EQ(ids_of("0x10"), (Keys{"0x10"}));
  EXPECT_EQ(ids_of("1e3 + 2.5e-1").size(), 0U);
  EXPECT_EQ(ids_of("if2"), (Keys{"if2"}));
  EXPECT_EQ(ids_of("a $ + b").size(), 2U);  // unknown characters are skipped
}

}  // namespace
}  // namespace pmucat::metrics_detail
