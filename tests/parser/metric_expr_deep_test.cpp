// Metric expressions no stack can hold: nesting past the bound is a located error, and every
// shape at or under it (nesting at the bound through every precedence level, chains of 100,000
// operands) parses, prints, evaluates and computes its ids on a thread with a 256 KiB stack, as
// small as the sanitizer build's deepest frames can assume.
#include <gtest/gtest.h>

#include <functional>
#include <string>

#include "pmucat/metric_expr.h"
#include "support/small_stack.h"

PMUCAT_BEGIN_NAMESPACE
namespace metric_expr {
namespace {

using pmucat::testing::run_on_small_stack;

constexpr int kBound = 256;  // docs/grammar.md: nesting deeper than 256 levels is an error

std::string repeat(std::string_view text, int times) {
  std::string out;
  out.reserve(text.size() * static_cast<std::size_t>(times));
  for (int i = 0; i < times; ++i) out += text;
  return out;
}

Context constants() {
  Context context;
  context.lookup = [](std::string_view) -> std::optional<IdValue> { return IdValue{2, 1}; };
  return context;
}

// Parses, prints, re-parses, evaluates and computes ids; returns the parse's error message.
std::string exercise(const std::string& text) {
  auto expr = parse(text, "<deep>", MetricDialect::of_6_12);
  if (!expr) return expr.error().message;
  const std::string printed = to_string(*expr);
  auto again = parse(printed, "<printed>", MetricDialect::of_6_12);
  EXPECT_TRUE(again) << (again ? "" : again.error().message);
  if (again) {
    EXPECT_EQ(to_string(*again), printed);
  }
  const Result result = evaluate(*expr, constants());
  EXPECT_TRUE(result.ok());
  EXPECT_TRUE(compute_ids(*expr, Literals{}, 0, MetricDialect::of_6_12));
  return {};
}

TEST(MetricExprDeep, NestingPastTheBoundIsALocatedError) {
  ASSERT_TRUE(run_on_small_stack([] {
    const std::string text = std::string(100000, '(') + "a" + std::string(100000, ')');
    auto expr = parse(text);
    ASSERT_FALSE(expr);
    EXPECT_EQ(expr.error().id, "metric-expr-syntax");
    EXPECT_EQ(expr.error().message, "expression nested deeper than 256 levels");
    // The whole expression is level 1 and the 256th '(' opens level 257: the error points at
    // the token after it.
    EXPECT_EQ(expr.error().range.column, 257U);
    auto minus = parse(std::string(100000, '-') + "a");
    ASSERT_FALSE(minus);
    EXPECT_EQ(minus.error().range.column, 256U);
    auto chained = parse(repeat("a if b else ", 100000) + "c");
    ASSERT_FALSE(chained);
    EXPECT_EQ(chained.error().message, "expression nested deeper than 256 levels");
  }));
}

TEST(MetricExprDeep, NestingAtTheBoundThroughEveryLevelFitsASmallStack) {
  ASSERT_TRUE(run_on_small_stack([] {
    // Each '(' goes down through every precedence level and a function call before it nests.
    const std::string text = repeat("min(1 | 2 ^ 3 & 4 < 5 + 6 * -(", kBound / 2 - 1) + "a" +
                             repeat("), 1)", kBound / 2 - 1);
    EXPECT_EQ(exercise(text), "");
    EXPECT_EQ(exercise(std::string(kBound - 1, '(') + "a" + std::string(kBound - 1, ')')), "");
    EXPECT_EQ(exercise(std::string(kBound - 1, '-') + "a"), "");
    EXPECT_EQ(exercise(repeat("a if b else ", kBound - 1) + "c"), "");
    EXPECT_NE(exercise(std::string(kBound, '(') + "a" + std::string(kBound, ')')), "");
  }));
}

TEST(MetricExprDeep, LongOperatorChainsAreNotNesting) {
  ASSERT_TRUE(run_on_small_stack([] {
    // A left-associative chain is a tree as deep as it is long.
    EXPECT_EQ(exercise("a" + repeat(" + a", 100000)), "");
    EXPECT_EQ(exercise("a" + repeat(" * 2 - a / 3", 30000)), "");
    EXPECT_EQ(exercise("1" + repeat(" | a", 50000)), "");
    auto expr = parse("a" + repeat(" + a", 100000));
    ASSERT_TRUE(expr);
    const Result result = evaluate(*expr, constants());
    ASSERT_TRUE(result.ok());
    EXPECT_EQ(result.value, 200002.0);
  }));
}

}  // namespace
}  // namespace metric_expr
PMUCAT_END_NAMESPACE
