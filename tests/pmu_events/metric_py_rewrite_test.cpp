// Internal unit test of metric_py_rewrite: the MetricExpr perf 6.12's build stores, one rule of
// metric.py at a time, and where it flows (a 6.12 table read stores it, a 6.1 one keeps the
// written text). Small expressions of our own; the expected strings are what perf 6.12's
// metric.py prints for them.
#include "pmu_events/metric_py_rewrite.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <string>
#include <vector>

#include "pmucat/diagnostic_ids.h"
#include "pmucat/vendor_events.h"

PMUCAT_BEGIN_NAMESPACE
namespace pmu_events {
namespace {

struct Case {
  const char* written;
  const char* stored;
};

void expect_all(const std::vector<Case>& cases) {
  for (const Case& c : cases) {
    const Expected<std::string, std::string> got = metric_py_rewrite(c.written);
    ASSERT_TRUE(got) << c.written << ": " << got.error();
    EXPECT_EQ(*got, c.stored) << c.written;
  }
}

void expect_refused(const std::vector<const char*>& texts) {
  for (const char* text : texts) {
    const Expected<std::string, std::string> got = metric_py_rewrite(text);
    EXPECT_FALSE(got) << text << " gave " << (got ? *got : "");
  }
}

TEST(MetricPyRewrite, SpacesEveryOperatorAndDropsOuterBlanksAndBrackets) {
  expect_all({{"a+b", "a + b"}, {"  (q)  ", "q"}, {"x*y-z", "x * y - z"}});
}

// Brackets only where perf's precedence needs them, and always around a right operand of the
// same rank.
TEST(MetricPyRewrite, BracketsFollowPerfPrecedence) {
  expect_all({
      {"(x - y) - z", "x - y - z"},
      {"x - (y - z)", "x - (y - z)"},
      {"x / (y * z)", "x / (y * z)"},
      {"(x / y) * z", "x / y * z"},
      {"(p + q) * r", "(p + q) * r"},
      {"p + (q * r)", "p + q * r"},
      {"a & (b ^ c)", "a & (b ^ c)"},
      {"(a & b) ^ c", "a & b ^ c"},
  });
}

// Python reads comparisons below the bitwise operators; perf's printing ranks them above.
TEST(MetricPyRewrite, ComparisonsAreReadAsPythonButPrintedForPerf) {
  expect_all({{"a | b < c", "(a | b) < c"}, {"(a < b) | c", "a < b | c"}});
}

// Constants go through Python's int or float and print in engineering notation.
TEST(MetricPyRewrite, ConstantsPrintAsPythonDecimalEngineeringStrings) {
  expect_all({
      {"m * 1000", "m * 1e3"},
      {"m * 10000", "m * 10e3"},
      {"m * 1e9", "m * 1e9"},
      {"m / 1000000", "m / 1e6"},
      {"m * 1e16", "m * 10e15"},
      {"m * 1.5e3", "m * 1.5e3"},
      {"m * 100.0", "m * 100"},
      {"m * 2.50", "m * 2.5"},
      {"m * 0.25", "m * 0.25"},
      {"m * 1024", "m * 1024"},
      {"m * 120", "m * 120"},
      {"m * 123456789", "m * 123456789"},
      {"m * 0.0001", "m * 0.0001"},
      {"m * 0.0000001", "m * 100e-9"},
      {"m * -0.0", "m * -0"},
      {"m * -1", "m * -1"},
      {"-2 * m", "-2 * m"},
      {"m * +3", "m * 3"},
  });
}

// Python computes what is constant before metric.py sees it.
TEST(MetricPyRewrite, PythonFoldsConstantArithmetic) {
  expect_all({
      {"4 * 25 * m", "100 * m"},
      {"m * (4 * 25)", "m * 100"},
      {"1 / 4 * m", "0.25 * m"},
      {"m * (0.1 + 0.2)", "m * 0.30000000000000004"},
      {"m * (-7 % 3)", "m * 2"},
      {"(2 > 1) * m", "m"},
      {"m * (1 > 2)", "0"},
      {"m / (2 - 2)", "m / 0"},  // an expression over 0 is no Python division
      {"m * 3 / 2", "m * 3 / 2"},
      {"a == b", "0"},         // no __eq__: two names are two objects
      {"a < b < c", "b < c"},  // Python's `and` of the two links
      {"1 > 2 < m", "0"},
  });
}

// A number on the left asks the expression's reflected operator: comparisons swap sides.
TEST(MetricPyRewrite, NumberOnTheLeftUsesReflectedOperators) {
  expect_all({
      {"3 > m", "m < 3"},
      {"3 < m", "m > 3"},
      {"2 - m", "2 - m"},
      {"2 | m", "2 | m"},
      {"2 & m", "2 & m"},
      {"m % 2", "m % 2"},
  });
  expect_refused({"2 ^ m", "2 % m"});
}

TEST(MetricPyRewrite, SimplifyDropsNeutralOperandsAndZeroProducts) {
  expect_all({
      {"m * 1", "m"},
      {"1 * m", "m"},
      {"m * 1.0", "m"},
      {"0 + m", "m"},
      {"m + 0", "m"},
      {"m | 0", "m"},
      {"0 | m", "m"},
      {"0 * m", "0"},
      {"m * 0", "0"},
      {"m * (0 * a)", "0"},
      {"m * (7 % 3)", "m"},
      {"m - 0", "m - 0"},
      {"m / 1", "m / 1"},
  });
}

// `0 * <slots event>` is kept when the zero is on the left (topdown metrics add it on purpose).
TEST(MetricPyRewrite, ZeroTimesASlotsEventStays) {
  expect_all({
      {"0 * topdown_slots_x", "0 * topdown_slots_x"},
      {"0 * TOPDOWN.SLOTS", "0 * TOPDOWN.SLOTS"},
      {"topdown_slots_x * 0", "0"},
  });
}

TEST(MetricPyRewrite, SelectsAreBracketedAndFoldedOnConstantConditions) {
  expect_all({
      {"a if c else b", "(a if c else b)"},
      {"x * (a if c else b)", "x * (a if c else b)"},
      {"(a if c else b) + 1", "(a if c else b) + 1"},
      {"a if c else b if d else e", "(a if c else (b if d else e))"},
      {"a if 1 else b", "a"},
      {"a if 0 else b", "b"},
      {"a if 0.0 else b", "b"},
      {"a if c > 1 else a", "a"},
      {"m + (1 if 1 else 2)", "m + 1"},
  });
}

TEST(MetricPyRewrite, FunctionsKeepTheirNamesAndArguments) {
  expect_all({
      {"min(a, b)", "min(a, b)"},
      {"max(a,1)", "max(a, 1)"},
      {"min(a, b,)", "min(a, b)"},
      {"d_ratio(a,b)", "d_ratio(a, b)"},
      {"d_ratio(5, 0)", "0"},
      {"source_count(x)", "source_count(x)"},
      {"has_event(x)", "has_event(x)"},
      {"strcmp_cpuid_str(0x80000800)", "strcmp_cpuid_str(0x80000800)"},
  });
}

TEST(MetricPyRewrite, NamesLiteralsAndHexNumbers) {
  expect_all({
      {R"(cpu@event\=0x3c@)", R"(cpu@event\=0x3c@)"},
      {"cpu@event=0x3c@", R"(cpu@event\=0x3c@)"},  // an unescaped `=` gains its `\`
      {R"(power@energy\-pkg@ / duration_time)", R"(power@energy\-pkg@ / duration_time)"},
      {"uncore_imc@cas_count_read@ * 64 / 1e9", "uncore_imc@cas_count_read@ * 64 / 1e9"},
      {"inst_retired.any:u", "inst_retired.any:u"},
      {"if_count + else_x", "if_count + else_x"},  // keywords only as whole names
      {"#smt_on", "#smt_on"},
      {"m / #num_dies", "m / #num_dies"},
      {"m & 0xff", "m & 0xff"},
      {"0XFF + m", "0xFF + m"},
  });
}

// What makes metric.py raise (and perf 6.12's build stop) is an error here.
TEST(MetricPyRewrite, RefusesWhatMetricPyRaisesOn) {
  expect_refused({
      "a +",
      "-a",                   // no unary minus of an expression
      "a ** 2",               // no power
      "(a, b)",               // a tuple
      "foo(a)",               // an unknown function is a call of an event
      "min(a)",               // wrong argument count
      "min(1, 2)",            // a function of two constants
      "d_ratio(1, 2)",        //
      "(m * 0 + 1) * 2",      // an operator of two constants after simplifying
      "m * (2 if 1 else a)",  // a product with a select that became a constant
      "m * 1e-3",             // the name pattern splits `e-3`
      "m * 007",              // Python's leading zeros
      "#5 + m",               // `#` starts a Python comment
      "a <= b",               // no __le__
  });
}

// Python stops on deep nesting (its tokenizer at 200 open brackets, metric.py at its recursion
// limit); so does the rewrite, rather than overflowing its own stack.
TEST(MetricPyRewrite, DeepNestingIsRefusedNotOverflowed) {
  EXPECT_TRUE(metric_py_rewrite(std::string(150, '(') + "a" + std::string(150, ')')));
  EXPECT_FALSE(metric_py_rewrite(std::string(100000, '(') + "a" + std::string(100000, ')')));
  EXPECT_FALSE(metric_py_rewrite(std::string(100000, '-') + "1"));
  std::string long_sum = "a";
  for (int i = 0; i < 100000; ++i) long_sum += " + a";
  EXPECT_FALSE(metric_py_rewrite(long_sum));
  std::string short_sum = "a";
  for (int i = 0; i < 100; ++i) short_sum += "+a";
  EXPECT_EQ(metric_py_rewrite(short_sum).value().size(), 4U * 100 + 1);
}

// ---------------------------------------------------------------------------------------------
// Where the stored expression flows: a table read with 6.12's rules stores it, 6.1's keeps the
// written text.

struct Parsed {
  std::vector<VendorMetric> metrics;
  std::vector<Diagnostic> diagnostics;
};

Parsed parse(std::string_view text, PerfRelease rules, std::span<const VendorMetric> std = {}) {
  Parsed parsed;
  std::vector<VendorCounterInfo> counters;
  parse_vendor_json(text, "m.json", "metrics", {}, std, rules, parsed.diagnostics, parsed.metrics,
                    counters);
  return parsed;
}

TEST(MetricPyRewrite, OnlyTablesReadWith612RulesStoreThePrintedExpression) {
  constexpr std::string_view text =
      R"([{"MetricName": "ipc_x", "MetricExpr": "(INST / CYC) * 1000", "BriefDescription": "x"}])";
  const Parsed new_rules = parse(text, PerfRelease::v6_12);
  ASSERT_EQ(new_rules.metrics.size(), 1U);
  EXPECT_EQ(new_rules.metrics[0].expr, "INST / CYC * 1e3");
  EXPECT_TRUE(new_rules.diagnostics.empty());
  const Parsed old_rules = parse(text, PerfRelease::v6_1);
  ASSERT_EQ(old_rules.metrics.size(), 1U);
  EXPECT_EQ(old_rules.metrics[0].expr, "(INST / CYC) * 1000");
}

TEST(MetricPyRewrite, ACopiedStandardMetricIsPrintedOnce) {
  const Parsed standard =
      parse(R"([{"MetricName": "std_m", "MetricExpr": "(a + b) * 1.0"}])", PerfRelease::v6_12);
  ASSERT_EQ(standard.metrics.size(), 1U);
  EXPECT_EQ(standard.metrics[0].expr, "a + b");
  const Parsed copied =
      parse(R"([{"ArchStdEvent": "STD_M"}, {"ArchStdEvent": "std_m", "MetricExpr": "2 > c"}])",
            PerfRelease::v6_12, standard.metrics);
  ASSERT_EQ(copied.metrics.size(), 2U);
  EXPECT_EQ(copied.metrics[0].expr, "a + b");
  EXPECT_EQ(copied.metrics[1].expr, "c < 2");
}

TEST(MetricPyRewrite, AnExpressionMetricPyCannotReadIsKeptWithAWarning) {
  const Parsed parsed =
      parse(R"([{"MetricName": "odd", "MetricExpr": "a * 1e-3"}])", PerfRelease::v6_12);
  ASSERT_EQ(parsed.metrics.size(), 1U);
  EXPECT_EQ(parsed.metrics[0].expr, "a * 1e-3");
  ASSERT_EQ(parsed.diagnostics.size(), 1U);
  EXPECT_EQ(parsed.diagnostics[0].code, DiagId::vendor_metric_py_unreadable);
  EXPECT_EQ(parsed.diagnostics[0].severity, Severity::warning);
}

// ---------------------------------------------------------------------------------------------
// Printing back settles after two rounds on arithmetic, selects, functions and comparisons with
// a name on the left. One round is not always enough: metric.py tests the left operand for a
// literal 0 or 1 before simplifying it, so `(0 * a) + b` prints as `0 + b`, and only the next
// round drops the `0 +`. Beyond that subset not even two: Python and perf rank comparisons
// against bitwise operators differently, and a constant left of `<` comes back as `x > 0`.

const rc::Gen<std::string>& name_text() {
  static const rc::Gen<std::string> names = rc::gen::element<std::string>(
      "a", "cyc", "inst_retired.any", "topdown_slots", R"(cpu@event\=0x3c@)", "#smt_on");
  return names;
}

rc::Gen<std::string> expression_text(int depth) {
  const auto leaf = rc::gen::oneOf(
      name_text(), rc::gen::element<std::string>("0x10", "0.5", "2.5", "1e9", "100.0"),
      rc::gen::map(rc::gen::inRange(0, 3000), [](int n) { return std::to_string(n); }));
  if (depth <= 0) return leaf;
  const auto sub = rc::gen::lazy([depth] { return expression_text(depth - 1); });
  const auto condition =
      rc::gen::apply([](const std::string& name, const std::string& op,
                        const std::string& r) { return name + " " + op + " (" + r + ")"; },
                     name_text(), rc::gen::element<std::string>("<", ">"), sub);
  return rc::gen::oneOf(
      leaf, condition,
      rc::gen::apply([](const std::string& l, const std::string& op,
                        const std::string& r) { return "(" + l + ") " + op + " (" + r + ")"; },
                     sub, rc::gen::element<std::string>("+", "-", "*", "/"), sub),
      rc::gen::apply([](const std::string& t, const std::string& c,
                        const std::string& f) { return "(" + t + " if " + c + " else " + f + ")"; },
                     sub, condition, sub),
      rc::gen::apply([](const std::string& fn, const std::string& l,
                        const std::string& r) { return fn + "(" + l + ", " + r + ")"; },
                     rc::gen::element<std::string>("min", "max", "d_ratio"), sub, sub));
}

RC_GTEST_PROP(MetricPyRewrite, PrintingBackSettlesAfterTwoRounds, ()) {
  const std::string written = *expression_text(3);
  Expected<std::string, std::string> round = metric_py_rewrite(written);
  RC_PRE(round.has_value());
  std::vector<std::string> rounds{*round};
  for (int i = 0; i < 2; ++i) {
    // Below 1e-6 Python prints `100e-9`, which its own name pattern cannot read back.
    RC_PRE(rounds.back().find("e-") == std::string::npos);
    round = metric_py_rewrite(rounds.back());
    RC_ASSERT(round.has_value());
    rounds.push_back(*round);
  }
  RC_ASSERT(rounds[2] == rounds[1]);
}

// perf 7.3's metric.py (the expected strings are what it prints): an event's terms written
// unescaped inside `@...@`, which its name pattern splits at the `,`, are joined again and
// escaped; `aggr_nr()` is a function. perf 6.12's refuses both. Two arguments written without a
// space are joined alike, and then d_ratio lacks one: 7.3 refuses `d_ratio(a,b)`.
TEST(MetricPyRewrite, Perf73JoinsSplitEventTermsAndKnowsAggrNr) {
  constexpr const char* kTerms =
      "d_ratio(UNC_M2M_DIRECTORY_HIT.DIRTY_I@umask=0xFF,name=UNC_M2M_DIRECTORY_HIT.ANY@, "
      "UNC_M2M_DIRECTORY_MISS.DIRTY_I@umask=0xFF,name=UNC_M2M_DIRECTORY_MISS.ANY@)";
  const auto terms = metric_py_rewrite(kTerms, JeventsRules::of_7_2);
  ASSERT_TRUE(terms) << terms.error();
  EXPECT_EQ(
      *terms,
      R"(d_ratio(UNC_M2M_DIRECTORY_HIT.DIRTY_I@umask\=0xFF\,name\=UNC_M2M_DIRECTORY_HIT.ANY@, )"
      R"(UNC_M2M_DIRECTORY_MISS.DIRTY_I@umask\=0xFF\,name\=UNC_M2M_DIRECTORY_MISS.ANY@))");
  EXPECT_FALSE(metric_py_rewrite(kTerms, JeventsRules::of_6_12));
  constexpr const char* kAggr =
      "UNC_CHA_CLOCKTICKS / aggr_nr(UNC_CHA_TOR_INSERTS.IA_MISS_DRD_LOCAL) * 2";
  const auto aggr = metric_py_rewrite(kAggr, JeventsRules::of_7_2);
  ASSERT_TRUE(aggr) << aggr.error();
  EXPECT_EQ(*aggr, "UNC_CHA_CLOCKTICKS / aggr_nr(UNC_CHA_TOR_INSERTS.IA_MISS_DRD_LOCAL) * 2");
  EXPECT_FALSE(metric_py_rewrite(kAggr, JeventsRules::of_6_12));
  EXPECT_FALSE(metric_py_rewrite("d_ratio(a,b)", JeventsRules::of_7_2));
  EXPECT_EQ(metric_py_rewrite("d_ratio(a,b)", JeventsRules::of_6_12).value(), "d_ratio(a, b)");
}

}  // namespace
}  // namespace pmu_events
PMUCAT_END_NAMESPACE
