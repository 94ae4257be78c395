// perf 6.12's metric expression rules (metric_expr.h with MetricDialect::of_6_12): its lexer's new
// words and the constant folding of its expr.y while ids are computed, each against perf 6.1's.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "pmucat/metric_expr.h"

PMUCAT_BEGIN_NAMESPACE
namespace metric_expr {
namespace {

using Ids = std::vector<std::string>;

Expected<MetricIdSet> ids_of(std::string_view text, MetricDialect rules,
                             const Literals& literals = {}, const Functions& functions = {}) {
  auto parsed = parse(text, {}, rules);
  if (!parsed) return unexpected(std::move(parsed).error());
  MetricIdSet ids;
  auto ok = find_ids(*parsed, literals, ids, {}, 0, rules, functions);
  if (!ok) return unexpected(std::move(ok).error());
  return ids;
}

Ids sorted(const MetricIdSet& ids) {
  Ids out = ids.keys();
  std::sort(out.begin(), out.end());
  return out;
}

Ids ids612(std::string_view text, const Literals& literals = {}) {
  auto ids = ids_of(text, MetricDialect::of_6_12, literals);
  EXPECT_TRUE(ids.has_value()) << text << ": " << (ids ? "" : ids.error().message);
  return ids ? sorted(*ids) : Ids{"<error>"};
}

Ids ids61(std::string_view text) {
  auto ids = ids_of(text, MetricDialect::of_6_1);
  EXPECT_TRUE(ids.has_value()) << text << ": " << (ids ? "" : ids.error().message);
  return ids ? sorted(*ids) : Ids{"<error>"};
}

TEST(MetricExpr612, OrAndAreLogicalAndShortCircuitOnAConstant) {
  EXPECT_EQ(ids612("a | 1"), Ids{});
  EXPECT_EQ(ids612("1 | a"), Ids{});
  EXPECT_EQ(ids612("0 | a"), Ids{"a"});
  EXPECT_EQ(ids612("a & 0"), Ids{});
  EXPECT_EQ(ids612("2 & a"), Ids{"a"});
  EXPECT_EQ(ids612("a | b"), (Ids{"a", "b"}));
  // Both constant: 1 or 0, so the conditional takes the branch perf 6.12 takes.
  EXPECT_EQ(ids612("a if 2 & 1 else b"), Ids{"a"});  // 6.1: (long)2 & 1 = 0
  EXPECT_EQ(ids61("a if 2 & 1 else b"), Ids{"b"});
  // perf 6.1 needs both sides whenever one is an event.
  EXPECT_EQ(ids61("a | 1"), Ids{"a"});
  EXPECT_EQ(ids61("a & 0"), Ids{"a"});
}

TEST(MetricExpr612, XorOfConstantsIsLogical) {
  EXPECT_EQ(ids612("a if 2 ^ 1 else b"), Ids{"b"});  // both non-zero: 0
  EXPECT_EQ(ids61("a if 2 ^ 1 else b"), Ids{"a"});   // 2 ^ 1 = 3
  EXPECT_EQ(ids612("a ^ 1"), Ids{"a"});              // no short cut with an event
}

TEST(MetricExpr612, DivisionByAConstantZeroIsNaNWithoutIds) {
  EXPECT_EQ(ids612("x / 0"), Ids{});
  EXPECT_EQ(ids612("a + x / (1 - 1)"), Ids{"a"});
  EXPECT_FALSE(ids_of("x / 0", MetricDialect::of_6_1).has_value());
  // `%` by zero stays a broken metric.
  EXPECT_FALSE(ids_of("x % 0", MetricDialect::of_6_12).has_value());
}

TEST(MetricExpr612, NaNIsANumber) {
  auto parsed = parse("NaN", {}, MetricDialect::of_6_12);
  ASSERT_TRUE(parsed.has_value());
  EXPECT_EQ(parsed->root_node().kind, NodeKind::number);
  EXPECT_TRUE(std::isnan(parsed->root_node().number));
  EXPECT_EQ(to_string(*parsed), "NaN");
  EXPECT_EQ(ids612("a if NaN else b"), (Ids{"a", "b"}));  // NaN is no constant: both sides
  // perf 6.1 reads an event named NaN.
  EXPECT_EQ(ids61("NaN"), Ids{"NaN"});
}

TEST(MetricExpr612, HasEventAndStrcmpCpuidStrAreFunctions) {
  for (std::string_view text : {"has_event(cpu@cycles\\-t@)", "strcmp_cpuid_str(0x410fd490)"}) {
    auto parsed = parse(text, {}, MetricDialect::of_6_12);
    ASSERT_TRUE(parsed.has_value()) << text;
    EXPECT_EQ(to_string(*parsed), text);
    EXPECT_FALSE(parse(text, {}, MetricDialect::of_6_1).has_value()) << text;
  }
  Functions functions;
  std::vector<std::string> asked;
  functions.event_parses = [&](std::string_view event) {
    asked.emplace_back(event);
    return event == "cpu/cycles-t/";
  };
  functions.cpuid_matches = [](std::string_view id) { return id == "0x410fd490"; };
  const std::string_view text = "cpu@cycles\\-t@ if has_event(cpu@cycles\\-t@) else 0";
  auto ids = ids_of(text, MetricDialect::of_6_12, {}, functions);
  ASSERT_TRUE(ids.has_value());
  EXPECT_EQ(sorted(*ids), Ids{"cpu@cycles-t@"});
  EXPECT_EQ(asked, Ids{"cpu/cycles-t/"});
  ids = ids_of("a if strcmp_cpuid_str(0x410fd493) else b", MetricDialect::of_6_12, {}, functions);
  ASSERT_TRUE(ids.has_value());
  EXPECT_EQ(sorted(*ids), Ids{"b"});
  // Without the machine's answers: not known, both branches.
  EXPECT_EQ(ids612("a if has_event(e) else b"), (Ids{"a", "b"}));
  // Evaluated: has_event is whether the event has a value.
  Context context;
  context.lookup = [](std::string_view name) -> std::optional<IdValue> {
    if (name == "e") return IdValue{5, 1};
    return std::nullopt;
  };
  auto e = parse("has_event(e) + has_event(f)", {}, MetricDialect::of_6_12);
  ASSERT_TRUE(e.has_value());
  const Result r = evaluate(*e, context);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r.value, 1.0);
}

TEST(MetricExpr612, LiteralsOf612) {
  Literals literals;
  literals[Literal::has_pmem] = 1;
  literals[Literal::num_cpus_online] = 4;
  EXPECT_EQ(ids612("a if #has_pmem else b", literals), Ids{"a"});
  EXPECT_EQ(ids612("a / #num_cpus_online", literals), Ids{"a"});
  // #slots unknown (as on x86): a broken metric.
  EXPECT_FALSE(ids_of("a * #slots", MetricDialect::of_6_12, literals).has_value());
  // perf 6.1 knows none of them: its lexer rejects them (find_ids too, given a 6.12 tree).
  auto old = ids_of("a / #num_cpus_online", MetricDialect::of_6_1, literals);
  ASSERT_FALSE(old.has_value());
  EXPECT_EQ(old.error().id, "metric-expr-unknown-literal");
  EXPECT_FALSE(parse("#has_pmem").has_value());
  auto tree = parse("a * #has_pmem", {}, MetricDialect::of_6_12);
  ASSERT_TRUE(tree.has_value());
  MetricIdSet ids;
  auto found = find_ids(*tree, literals, ids, {}, 0, MetricDialect::of_6_1);
  ASSERT_FALSE(found.has_value());
  EXPECT_EQ(found.error().id, "metric-expr-unknown-literal");
  EXPECT_EQ(literal_since(Literal::has_pmem), MetricDialect::of_6_12);
  EXPECT_EQ(literal_since(Literal::smt_on), MetricDialect::of_6_1);
}

}  // namespace
}  // namespace metric_expr
PMUCAT_END_NAMESPACE
