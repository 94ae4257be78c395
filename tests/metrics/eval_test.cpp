// Metric evaluation: a hand-computed table over every operator and literal through
// evaluate_metrics, references, ScaleUnit, thresholds, not-computed reasons, selection, and
// scaled vs unscaled counts.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>

#include "pmucat/metric_counts.h"
#include "pmucat/metric_eval.h"
#include "pmucat/vendor_events.h"
#include "support/small_stack.h"

PMUCAT_BEGIN_NAMESPACE
namespace {

using pmucat::testing::run_on_small_stack;

VendorMetric metric(std::string name, std::string expr, std::string scale_unit = {},
                    std::string threshold = {}, std::string group = {}) {
  VendorMetric m;
  m.name = std::move(name);
  m.expr = std::move(expr);
  m.scale_unit = std::move(scale_unit);
  m.threshold = std::move(threshold);
  m.group = std::move(group);
  return m;
}

Count count_of(std::string event, double value, std::optional<std::uint64_t> enabled = {},
               std::optional<std::uint64_t> running = {},
               CountStatus status = CountStatus::counted) {
  Count count;
  count.event = std::move(event);
  count.value = value;
  count.enabled = enabled;
  count.running = running;
  count.status = status;
  return count;
}

// Counts: A = 6, B = 4, Z = 0, C = 10 counted for half of its enabled time (so 20),
// cpu/INST_RETIRED.ANY/ = 8, duration_time = 2e9 ns (2 s), task-clock 1.5 msec printed.
Counts table_counts() {
  Counts counts;
  counts.add(count_of("A", 6));
  counts.add(count_of("B", 4));
  counts.add(count_of("Z", 0));
  counts.add(count_of("C", 10, 100, 50));
  counts.add(count_of("cpu/INST_RETIRED.ANY/", 8));
  counts.add(count_of("duration_time", 2e9));
  Count clock = count_of("task-clock", 1.5);
  clock.unit = "msec";
  clock.unit_scale = 1e-6;
  clock.multiplex_scaled = true;
  counts.add(clock);
  counts.add(count_of("NC", 0, {}, {}, CountStatus::not_counted));
  counts.add(count_of("NS", 0, {}, {}, CountStatus::not_supported));
  return counts;
}

EvalOptions table_options() {
  EvalOptions options;
  options.literals[metric_expr::Literal::num_cpus] = 8;
  options.literals[metric_expr::Literal::smt_on] = 1;
  options.literals[metric_expr::Literal::num_packages] = 2;
  options.literals[metric_expr::Literal::num_dies] = 2;
  options.literals[metric_expr::Literal::num_cores] = 4;
  options.literals[metric_expr::Literal::core_wide] = 0;
  options.literals[metric_expr::Literal::system_tsc_freq] = 2e9;
  return options;
}

struct Row {
  const char* expr;
  double expected;
};

// Every operator, function and literal of perf 6.1's language, worked out by hand.
const Row kTable[] = {
    {"A + B", 10},
    {"A - B", 2},
    {"A * B", 24},
    {"A / B", 1.5},
    {"A % B", 2},
    {"7.9 % 2", 1},  // (long)7.9 % (long)2
    {"A | B", 6},    // 0b110 | 0b100
    {"A & B", 4},
    {"A ^ B", 2},
    {"A < B", 0},
    {"A > B", 1},
    {"-A", -6},
    {"- A + B", -2},
    {"A + B * 2", 14},
    {"(A + B) * 2", 20},
    {"A - B - 1", 1},
    {"A / B / 2", 0.75},
    {"min(A, B)", 4},
    {"max(A, B)", 6},
    {"d_ratio(A, B)", 1.5},
    {"d_ratio(A, Z)", 0},
    {"A if B > 1 else Z", 6},
    {"A if Z else B", 4},
    {"A if Z else NC", std::numeric_limits<double>::quiet_NaN()},  // NC not counted: fails
    {"B if A else NC", 4},  // the branch not taken needs no value
    {"C", 20},              // 10 counted for 50 of 100 ns
    {"cpu@INST_RETIRED.ANY@", 8},
    {"CPU@INST_RETIRED.ANY@ / 2", 4},  // matched ignoring case
    {"duration_time", 2},              // seconds
    {"task\\-clock", 1.5e6},           // ns, perf's msec scale undone
    {"source_count(A)", 1},
    {"#num_cpus", 8},
    {"#smt_on", 1},
    {"#SMT_ON + 1", 2},
    {"#num_packages", 2},
    {"#num_dies", 2},
    {"#num_cores", 4},
    {"#core_wide", 0},
    {"#system_tsc_freq", 2e9},
    {"1e3 + .5", 1000.5},
    {"2. * 3", 6},
};

TEST(MetricEval, HandComputedTable) {
  std::vector<VendorMetric> metrics;
  for (const Row& row : kTable) {
    metrics.push_back(metric(std::string("m").append(std::to_string(metrics.size())), row.expr));
  }
  const std::vector<MetricValue> values =
      evaluate_metrics(metrics, table_counts(), table_options());
  ASSERT_EQ(values.size(), std::size(kTable));
  for (std::size_t i = 0; i < values.size(); ++i) {
    SCOPED_TRACE(kTable[i].expr);
    if (std::isnan(kTable[i].expected)) {
      EXPECT_FALSE(values[i].computed);
      continue;
    }
    ASSERT_TRUE(values[i].computed) << values[i].reason;
    EXPECT_DOUBLE_EQ(values[i].value, kTable[i].expected);
    EXPECT_EQ(values[i].threshold, ThresholdState::none);
  }
}

TEST(MetricEval, ReferencesScaleUnitAndThreshold) {
  const std::vector<VendorMetric> metrics = {
      metric("IPC", "A / B"),
      metric("CPI", "1 / IPC"),
      metric("tma_part", "B / (A + B)", "100%", "tma_part > 0.3"),
      metric("tma_rest", "1 - tma_part", "100%", "tma_rest > 0.9"),
      metric("Bandwidth", "A * 64 / 1e9 / duration_time", "1GB/sec"),
      metric("Odd", "A", "per_instr"),  // no number: strtod gives 0
  };
  const std::vector<MetricValue> values =
      evaluate_metrics(metrics, table_counts(), table_options());
  EXPECT_DOUBLE_EQ(values[1].value, 4.0 / 6.0);
  EXPECT_DOUBLE_EQ(values[2].value, 40);
  EXPECT_DOUBLE_EQ(values[2].raw_value, 0.4);
  EXPECT_EQ(values[2].unit, "%");
  EXPECT_EQ(values[2].threshold, ThresholdState::met);
  // A reference sees the referenced expression's value, not its ScaleUnit'd one.
  EXPECT_DOUBLE_EQ(values[3].value, 60);
  EXPECT_EQ(values[3].threshold, ThresholdState::not_met);
  EXPECT_DOUBLE_EQ(values[4].value, 6 * 64 / 1e9 / 2);
  EXPECT_EQ(values[4].unit, "GB/sec");
  EXPECT_DOUBLE_EQ(values[5].value, 0);
  EXPECT_EQ(values[5].unit, "per_instr");
}

TEST(MetricEval, NotComputedReasons) {
  const std::vector<VendorMetric> metrics = {
      metric("missing", "A / MISSING.EVENT"),
      metric("not_counted", "A / NC"),
      metric("not_supported", "NS + 1"),
      metric("literal", "A * #smt_on"),
      metric("div0", "A / Z"),
      metric("ref", "missing * 2"),
      metric("cycle_a", "cycle_b + 1"),
      metric("cycle_b", "cycle_a + 1"),
      metric("bad", "A + * B"),
      metric("threshold_unknown", "A", "", "MISSING.EVENT > 1"),
  };
  const std::vector<MetricValue> values = evaluate_metrics(metrics, table_counts(), EvalOptions{});
  EXPECT_EQ(values[0].why, NotComputed::missing_event);
  EXPECT_EQ(values[0].subject, "MISSING.EVENT");
  EXPECT_EQ(values[0].reason, "event 'MISSING.EVENT' missing from the counts");
  EXPECT_EQ(values[1].why, NotComputed::not_counted);
  EXPECT_EQ(values[2].why, NotComputed::not_supported);
  EXPECT_EQ(values[3].why, NotComputed::missing_literal);
  EXPECT_EQ(values[3].subject, "#smt_on");
  EXPECT_EQ(values[4].why, NotComputed::division_by_zero);
  EXPECT_EQ(values[5].why, NotComputed::metric_failed);
  EXPECT_EQ(values[5].cause, NotComputed::missing_event);
  EXPECT_EQ(values[5].subject, "missing");
  EXPECT_NE(values[5].reason.find("MISSING.EVENT"), std::string::npos);
  EXPECT_EQ(values[6].why, NotComputed::reference_cycle);
  EXPECT_EQ(values[6].subject, "cycle_a -> cycle_b -> cycle_a");
  EXPECT_EQ(values[7].why, NotComputed::reference_cycle);
  EXPECT_EQ(values[8].why, NotComputed::bad_expression);
  ASSERT_TRUE(values[8].diagnostic);
  EXPECT_EQ(values[8].diagnostic->range.column, 5u);
  EXPECT_TRUE(values[9].computed);
  EXPECT_EQ(values[9].threshold, ThresholdState::unknown);
  for (const MetricValue& value : values) {
    if (!value.computed) {
      EXPECT_EQ(value.value, 0) << "no made-up number for " << value.metric->name;
    }
  }
}

TEST(MetricEval, SelectionAsPerfMatches) {
  const std::vector<VendorMetric> metrics = {
      metric("IPC", "A / B", "", "", "Ret;Summary"),
      metric("tma_frontend_bound", "A", "100%", "", "TopdownL1;tma_L1_group"),
      metric("tma_backend_bound", "B", "100%", "", "TopdownL1;tma_L1_group"),
  };
  const std::vector<std::string> topdown = {"topdownl1"};
  EXPECT_EQ(*select_metrics(metrics, topdown), (std::vector<std::size_t>{1, 2}));
  const std::vector<std::string> both = {"tma_backend_bound", "IPC"};
  EXPECT_EQ(*select_metrics(metrics, both), (std::vector<std::size_t>{0, 2}));
  const std::vector<std::string> all = {"all"};
  EXPECT_EQ(select_metrics(metrics, all)->size(), 3u);
  const std::vector<std::string> typo = {"tma_frontend_bond"};
  const auto error = select_metrics(metrics, typo);
  ASSERT_FALSE(error);
  EXPECT_EQ(error.error().id, "metric-not-found");
  EXPECT_EQ(error.error().hint, "did you mean 'tma_frontend_bound'?");
  // Selected metrics only; referenced ones are computed all the same.
  const MetricEvaluator evaluator(metrics);
  const std::vector<std::size_t> one = {2};
  const auto values = evaluator.evaluate(table_counts(), EvalOptions{}, one);
  ASSERT_EQ(values.size(), 1u);
  EXPECT_DOUBLE_EQ(values[0].value, 400);
}

// find(): a name's index through the evaluator's index of names, the exact spelling only.
TEST(MetricEval, FindsAMetricByItsExactName) {
  const std::vector<VendorMetric> metrics = {metric("ipc", "A"), metric("IPC", "A / B"),
                                             metric("CPI", "B / A")};
  const MetricEvaluator evaluator(metrics);
  EXPECT_EQ(evaluator.find("ipc"), 0u);
  EXPECT_EQ(evaluator.find("IPC"), 1u) << "another spelling first in the table";
  EXPECT_EQ(evaluator.find("CPI"), 2u);
  EXPECT_EQ(evaluator.find("cpi"), std::nullopt);
  EXPECT_EQ(evaluator.find("nothing"), std::nullopt);
}

TEST(MetricEval, ScaleUnitAsStrtod) {
  EXPECT_DOUBLE_EQ(parse_scale_unit("100%").scale, 100);
  EXPECT_EQ(parse_scale_unit("100%").unit, "%");
  EXPECT_DOUBLE_EQ(parse_scale_unit("1GB/sec").scale, 1);
  EXPECT_EQ(parse_scale_unit("1GB/sec").unit, "GB/sec");
  EXPECT_DOUBLE_EQ(parse_scale_unit("6.103515625e-5MiB").scale, 6.103515625e-5);
  EXPECT_EQ(parse_scale_unit("6.103515625e-5MiB").unit, "MiB");
  EXPECT_DOUBLE_EQ(parse_scale_unit("  +2 x").scale, 2);
  EXPECT_EQ(parse_scale_unit("  +2 x").unit, " x");
  EXPECT_DOUBLE_EQ(parse_scale_unit("Joules").scale, 0);
}

// Counts given raw with enabled == running and the same counts given as perf stat prints them
// (already scaled) evaluate every metric to the same value.
RC_GTEST_PROP(MetricEvalProperty, ScaledAndUnscaledCountsAgree, ()) {
  const auto a = *rc::gen::inRange<std::uint64_t>(1, std::uint64_t{1} << 40);
  const auto b = *rc::gen::inRange<std::uint64_t>(1, std::uint64_t{1} << 40);
  const auto time = *rc::gen::inRange<std::uint64_t>(1, std::uint64_t{1} << 40);
  const std::vector<VendorMetric> metrics = {
      metric("ratio", "A / B"), metric("share", "A / (A + B)", "100%"),
      metric("sum", "max(A, B) - min(A, B) + d_ratio(A, B)")};
  Counts raw;
  raw.add(count_of("A", static_cast<double>(a), time, time));
  raw.add(count_of("B", static_cast<double>(b), time, time));
  Counts printed;
  for (const auto& [name, value] : {std::pair{"A", a}, std::pair{"B", b}}) {
    Count c = count_of(name, static_cast<double>(value));
    c.multiplex_scaled = true;
    c.running = time;
    printed.add(c);
  }
  const auto x = evaluate_metrics(metrics, raw, EvalOptions{});
  const auto y = evaluate_metrics(metrics, printed, EvalOptions{});
  for (std::size_t i = 0; i < x.size(); ++i) {
    RC_ASSERT(x[i].computed && y[i].computed);
    RC_ASSERT(x[i].value == y[i].value);
  }
}

// M0 = M1 + 1, M1 = M2 + 1, ..., the last = A.
std::vector<VendorMetric> chain(std::size_t length) {
  std::vector<VendorMetric> metrics;
  for (std::size_t i = 0; i + 1 < length; ++i) {
    metrics.push_back(metric("M" + std::to_string(i), "M" + std::to_string(i + 1) + " + 1"));
  }
  metrics.push_back(metric("M" + std::to_string(length - 1), "A"));
  return metrics;
}

TEST(MetricEval, AChainOfReferencesIsBoundedNotRecursive) {
  ASSERT_TRUE(run_on_small_stack([] {
    const std::vector<VendorMetric> metrics = chain(10000);
    const MetricEvaluator evaluator(metrics);
    // The deepest first: the metrics it walks through are judged by their own depth.
    const std::vector<std::size_t> asked = {0, 8999, 9000};
    const auto values = evaluator.evaluate(table_counts(), EvalOptions{}, asked);
    ASSERT_EQ(values.size(), 3U);
    EXPECT_FALSE(values[0].computed);
    EXPECT_EQ(values[0].why, NotComputed::too_deep);
    EXPECT_EQ(values[0].reason,
              "its chain of metric references is 10000 levels deep, more than 1000: M0 -> M1 -> "
              "M2 -> ... (9994 more) -> M9997 -> M9998 -> M9999");
    EXPECT_EQ(values[1].why, NotComputed::too_deep);      // 1001 levels
    ASSERT_TRUE(values[2].computed) << values[2].reason;  // 1000 levels
    EXPECT_EQ(values[2].value, 6.0 + 999.0);
    const auto all = evaluator.evaluate(table_counts(), EvalOptions{});
    EXPECT_EQ(std::count_if(all.begin(), all.end(),
                            [](const MetricValue& value) { return value.computed; }),
              1000);
  }));
}

// Scaling: multiplexed counts evaluate as the counts perf would have extrapolated.
RC_GTEST_PROP(MetricEvalProperty, MultiplexedCountsAreExtrapolated, ()) {
  const auto a = *rc::gen::inRange<std::uint64_t>(1, 1'000'000);
  const auto running = *rc::gen::inRange<std::uint64_t>(1, 1000);
  const auto factor = *rc::gen::inRange<std::uint64_t>(1, 8);
  const std::vector<VendorMetric> metrics = {metric("twice", "2 * A")};
  Counts counts;
  counts.add(count_of("A", static_cast<double>(a), running * factor, running));
  const auto values = evaluate_metrics(metrics, counts, EvalOptions{});
  RC_ASSERT(values[0].computed);
  RC_ASSERT(values[0].value == 2.0 * static_cast<double>(a * factor));
}

}  // namespace
PMUCAT_END_NAMESPACE
