// Metric expansion (pmucat/metrics.h) over small tables of fictional metrics, under perf 6.1's
// rules (Profile::perf(PerfRelease::v6_1)): perf 6.1's selection rule, references and cycles,
// sharing events between metrics, weak groups, tool events, metric-id escaping, modifiers, unknown
// names. perf 6.12's rules: expand_612_test.cpp.
#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "pmucat/metrics.h"
#include "support/small_stack.h"

PMUCAT_BEGIN_NAMESPACE
namespace {

using pmucat::testing::run_on_small_stack;

using Lists = std::vector<std::string>;

MetricDefinition metric(std::string_view name, std::string_view expr, std::string_view group = {},
                        std::string_view constraint = {}) {
  MetricDefinition m;
  m.name = name;
  m.expr = expr;
  m.group = group;
  m.constraint = constraint;
  m.file = "fixture.json";
  return m;
}

const std::vector<MetricDefinition>& table() {
  static const std::vector<MetricDefinition> t = {
      metric("IPC", "inst / cyc", "Summary;Pipeline"),
      metric("CPI", "1 / IPC", "Summary"),
      metric("Sum", "x + y", "Other"),
      metric("Ratio", "x / y", "Other"),
      metric("Tsc", "msr@tsc@ / inst", "Odd"),
      metric("Rate", "x / duration_time", ""),
      metric("Watch", "w1 + w2", "Nmi", "NO_NMI_WATCHDOG"),
      metric("Smt", "a if #smt_on else b", "Lit"),
      metric("Const", "1 if #smt_on else 1", "Lit"),
      metric("LoopA", "LoopB + 1", "Loop"),
      metric("LoopB", "LoopA * 2", "Loop"),
      metric("Broken", "x + (y", "Bad"),
      metric("Rate2", "y / duration_time", "Timed"),
  };
  return t;
}

MetricExpandOptions perf61(MetricExpandOptions options = {}) {
  options.semantics = Profile::perf(PerfRelease::v6_1);
  return options;
}

MetricExpansion expand(std::string_view names, const MetricExpandOptions& options = {}) {
  auto e = expand_metric_table(table(), names, perf61(options));
  EXPECT_TRUE(e.has_value()) << (e ? "" : e.error().message);
  return e ? *e : MetricExpansion{};
}

TEST(MetricMatches, PerfsRule) {
  const auto& ipc = table()[0];
  EXPECT_TRUE(metric_matches(ipc, "IPC"));
  EXPECT_TRUE(metric_matches(ipc, "ipc"));
  EXPECT_TRUE(metric_matches(ipc, "summary"));
  EXPECT_TRUE(metric_matches(ipc, "Pipeline"));
  EXPECT_TRUE(metric_matches(ipc, "all"));
  EXPECT_FALSE(metric_matches(ipc, "Pipe"));
  EXPECT_FALSE(metric_matches(ipc, "Summary;Pipeline;"));
  EXPECT_FALSE(metric_matches(ipc, "No_group"));
  EXPECT_TRUE(metric_matches(table()[5], "no_GROUP"));
}

TEST(ExpandMetrics, OneMetricIsAWeakGroupWithMetricIds) {
  const auto e = expand("IPC");
  EXPECT_EQ(e.event_lists, (Lists{"{cyc/metric-id=cyc/,inst/metric-id=inst/}:W"}));
  ASSERT_EQ(e.metrics.size(), 1U);
  EXPECT_EQ(e.metrics[0].name, "IPC");
  EXPECT_EQ(e.metrics[0].ids, (Lists{"cyc", "inst"}));
  EXPECT_TRUE(e.metrics[0].grouped);
}

TEST(ExpandMetrics, ReferencesAreResolvedIntoTheRoot) {
  const auto e = expand("CPI");
  ASSERT_EQ(e.metrics.size(), 1U);
  EXPECT_EQ(e.metrics[0].references, (Lists{"IPC"}));
  EXPECT_EQ(e.metrics[0].ids.size(), 2U);
}

TEST(ExpandMetrics, SharedEventsAndNoMerge) {
  // Summary = IPC and CPI: the same ids, one list.
  auto e = expand("Summary");
  EXPECT_EQ(e.event_lists.size(), 1U);
  ASSERT_EQ(e.metrics.size(), 2U);
  EXPECT_EQ(e.metrics[0].event_list, 0U);
  EXPECT_EQ(e.metrics[1].event_list, 0U);
  MetricExpandOptions no_merge;
  no_merge.no_merge = true;
  e = expand("Summary", no_merge);
  EXPECT_EQ(e.event_lists.size(), 2U);
}

TEST(ExpandMetrics, GroupOrderIsReversedTableOrderThenStableSort) {
  // Other = Sum, Ratio (2 ids each): perf adds each at the head, so Ratio comes first.
  const auto e = expand("Other");
  ASSERT_EQ(e.metrics.size(), 2U);
  EXPECT_EQ(e.metrics[0].name, "Ratio");
  EXPECT_EQ(e.metrics[1].name, "Sum");
  // Later names go before earlier ones, then the most ids first.
  const auto f = expand("Rate,IPC");
  ASSERT_EQ(f.metrics.size(), 2U);
  EXPECT_EQ(f.metrics[0].name, "IPC");
}

TEST(ExpandMetrics, NoGroup) {
  MetricExpandOptions o;
  o.no_group = true;
  const auto e = expand("IPC", o);
  // No group: every metric is constrained, so one combined list without braces.
  // A fresh map for the combined list: inserted cyc then inst, iterated inst first.
  EXPECT_EQ(e.event_lists, (Lists{"inst/metric-id=inst/,cyc/metric-id=cyc/"}));
  EXPECT_FALSE(e.metrics[0].grouped);
}

TEST(ExpandMetrics, NmiWatchdogConstraint) {
  auto e = expand("Watch");
  EXPECT_EQ(e.event_lists.size(), 1U);
  EXPECT_EQ(e.event_lists[0].front(), '{');
  MetricExpandOptions o;
  o.nmi_watchdog = true;
  e = expand("Watch", o);
  ASSERT_EQ(e.event_lists.size(), 1U);
  EXPECT_NE(e.event_lists[0].front(), '{');
}

TEST(ExpandMetrics, ToolEventsOutsideTheGroupAndInEveryList) {
  auto e = expand("Rate");
  EXPECT_EQ(e.event_lists, (Lists{"{x/metric-id=x/}:W,duration_time"}));
  // With Rate present, duration_time is added to every list.
  e = expand("Rate,IPC");
  ASSERT_EQ(e.event_lists.size(), 2U);
  EXPECT_NE(e.event_lists[0].find("}:W,duration_time"), std::string::npos);
  EXPECT_NE(e.event_lists[1].find("}:W,duration_time"), std::string::npos);
}

std::size_t count_of(const std::string& list, std::string_view word) {
  std::size_t n = 0;
  for (auto at = list.find(word); at != std::string::npos; at = list.find(word, at + 1)) ++n;
  return n;
}

// perf 6.1 adds every tool event some metric of the run uses to every list it parses, so a tool
// event is opened once per list, not once per metric that uses it. Measured (perf stat -vv -M
// ... true on sapphirerapids, MetricNoGroup.DurationTimeOncePerEventList): with
// --metric-no-group the metrics without a modifier share one list, duration_time once.
TEST(ExpandMetrics, NoGroupToolEventsOncePerList) {
  MetricExpandOptions no_group;
  no_group.no_group = true;
  auto e = expand("Rate,Rate2", no_group);
  ASSERT_EQ(e.event_lists.size(), 1U);
  EXPECT_EQ(count_of(e.event_lists[0], "duration_time"), 1U);
  EXPECT_TRUE(e.event_lists[0].ends_with(",duration_time"));
  ASSERT_EQ(e.metrics.size(), 2U);
  EXPECT_EQ(e.metrics[0].event_list, 0U);
  EXPECT_EQ(e.metrics[1].event_list, 0U);
  // A metric without the tool event in the same run: the one list still holds it once.
  e = expand("Rate,IPC", no_group);
  ASSERT_EQ(e.event_lists.size(), 1U);
  EXPECT_EQ(count_of(e.event_lists[0], "duration_time"), 1U);
  // Grouped, each metric its own list, each list the tool event.
  e = expand("Rate,Rate2");
  ASSERT_EQ(e.event_lists.size(), 2U);
  for (const auto& list : e.event_lists) EXPECT_EQ(count_of(list, "duration_time"), 1U) << list;
  // Modifiers keep metrics out of the combined list; --metric-no-merge gives each its own.
  e = expand("Rate:u,Rate2:k", no_group);
  EXPECT_EQ(e.event_lists,
            (Lists{"y/metric-id=y/k,duration_time", "x/metric-id=x/u,duration_time"}));
  MetricExpandOptions no_merge = no_group;
  no_merge.no_merge = true;
  e = expand("Rate,Rate2", no_merge);
  EXPECT_EQ(e.event_lists, (Lists{"y/metric-id=y/,duration_time", "x/metric-id=x/,duration_time"}));
}

// Without groups every metric reads the combined list, one with a modifier too; perf 6.1 fails
// -M when that list lacks its events ("Cannot resolve IDs for L1D_Cache_Fill_BW: ...", measured:
// -M L1D_Cache_Fill_BW:u,L2_Cache_Fill_BW --metric-no-group on sapphirerapids), and reads it
// without the modifier when it has them.
TEST(ExpandMetrics, NoGroupModifierMetricReadsTheCombinedList) {
  MetricExpandOptions no_group;
  no_group.no_group = true;
  const auto unresolved = expand_metric_table(table(), "Rate:u,Rate2", perf61(no_group));
  ASSERT_FALSE(unresolved.has_value());
  EXPECT_EQ(unresolved.error().id, "metric-unresolved");
  EXPECT_NE(unresolved.error().message.find("Rate:u"), std::string::npos);
  const auto shared = expand("Rate:u,Rate", no_group);
  EXPECT_EQ(shared.event_lists, (Lists{"x/metric-id=x/,duration_time"}));
  ASSERT_EQ(shared.metrics.size(), 2U);
  EXPECT_EQ(shared.metrics[0].event_list, 0U);
  EXPECT_EQ(shared.metrics[1].event_list, 0U);
  // Grouped, the modifier metric gets its own list.
  EXPECT_EQ(expand("Rate:u,Rate2").event_lists.size(), 2U);
}

TEST(ExpandMetrics, PmuEscapedIdsAndModifiers) {
  auto e = expand("Tsc");
  EXPECT_EQ(e.event_lists, (Lists{"{inst/metric-id=inst/,msr/tsc,metric-id=msr!3tsc!3/}:W"}));
  e = expand("IPC:u");
  EXPECT_EQ(e.event_lists, (Lists{"{cyc/metric-id=cyc/u,inst/metric-id=inst/u}:W"}));
  EXPECT_EQ(e.metrics[0].modifier, std::optional<std::string>("u"));
  EXPECT_EQ(encode_metric_id("a,b-c=d@e"), "a!0b!1c!2d!3e");
  EXPECT_EQ(decode_metric_id("a!0b!1c!2d!3e"), "a,b-c=d@e");
}

TEST(ExpandMetrics, LiteralsChooseTheBranch) {
  MetricExpandOptions o;
  o.literals.smt_on = 1;
  EXPECT_EQ(expand("Smt", o).event_lists, (Lists{"{a/metric-id=a/}:W"}));
  o.literals.smt_on = 0;
  EXPECT_EQ(expand("Smt", o).event_lists, (Lists{"{b/metric-id=b/}:W"}));
  // No event left: perf parses duration_time alone.
  EXPECT_EQ(expand("Const", o).event_lists, (Lists{"duration_time"}));
}

// M0 = M1 + 1, ..., the last = ev + 1; `broken` makes the last `ev + (`. The table views the
// texts, which live as long as it.
struct Chain {
  std::vector<std::string> names, exprs;
  std::vector<MetricDefinition> metrics;
};
std::unique_ptr<Chain> chain(std::size_t length, bool broken = false) {
  auto out = std::make_unique<Chain>();
  for (std::size_t i = 0; i < length; ++i) {
    out->names.push_back("M" + std::to_string(i));
    out->exprs.push_back(i + 1 < length ? "M" + std::to_string(i + 1) + " + 1"
                                        : std::string(broken ? "ev + (" : "ev + 1"));
  }
  for (std::size_t i = 0; i < length; ++i) {
    out->metrics.push_back(metric(out->names[i], out->exprs[i]));
  }
  return out;
}

TEST(ExpandMetrics, AChainOfReferencesIsBoundedNotRecursive) {
  ASSERT_TRUE(run_on_small_stack([] {
    const auto deep = chain(10000);
    auto e = expand_metric_table(deep->metrics, "M0", perf61());
    ASSERT_FALSE(e);
    EXPECT_EQ(e.error().id, "metric-too-deep");
    EXPECT_EQ(e.error().message,
              "metric M0: its chain of references exceeds 1000 levels: M0 -> M1 -> M2 -> ... "
              "(994 more) -> M997 -> M998 -> M999 -> M1000");
    // 1000 levels are expanded, under both perf releases' rules.
    const auto fits = chain(1000);
    for (const Profile semantics :
         {Profile::perf(PerfRelease::v6_1), Profile::perf(PerfRelease::v6_12)}) {
      MetricExpandOptions options;
      options.semantics = semantics;
      auto ok = expand_metric_table(fits->metrics, "M0", options);
      ASSERT_TRUE(ok) << ok.error().message;
      ASSERT_EQ(ok->metrics.size(), 1U);
      EXPECT_EQ(ok->metrics[0].references.size(), 999U);
      EXPECT_EQ(ok->metrics[0].ids, std::vector<std::string>{"ev"});
      ASSERT_EQ(ok->metrics[0].id_sources.size(), 1U);
      EXPECT_EQ(ok->metrics[0].id_sources[0],
                "M0 -> M1 -> M2 -> ... (993 more) -> M996 -> M997 -> M998 -> M999");
    }
    EXPECT_FALSE(expand_metric_table(chain(1001)->metrics, "M0", perf61()));
    // An error deep in the chain names the chain.
    const auto twenty = chain(20, true);
    auto broken = expand_metric_table(twenty->metrics, "M0", perf61());
    ASSERT_FALSE(broken);
    EXPECT_EQ(broken.error().id, "metric-expr-syntax");
    EXPECT_NE(broken.error().message.find(
                  "metric M19 (in M0 -> M1 -> M2 -> ... (13 more) -> M16 -> M17 -> M18 -> M19): "),
              std::string::npos)
        << broken.error().message;
  }));
}

TEST(ExpandMetrics, Errors) {
  auto e = expand_metric_table(table(), "IPX", perf61());
  ASSERT_FALSE(e);
  EXPECT_EQ(e.error().id, "metric-not-found");
  EXPECT_EQ(e.error().hint, "did you mean 'IPC'?");
  e = expand_metric_table(table(), "IPC,Nope", perf61());
  ASSERT_FALSE(e);
  EXPECT_EQ(e.error().range.column, 5U);
  e = expand_metric_table(table(), "LoopA", perf61());
  ASSERT_FALSE(e);
  EXPECT_EQ(e.error().id, "metric-recursion");
  EXPECT_NE(e.error().message.find("LoopA -> LoopB -> LoopA"), std::string::npos);
  e = expand_metric_table(table(), "Broken", perf61());
  ASSERT_FALSE(e);
  // The parser's own id, located in the expression `x + (y`: the `(` left open.
  EXPECT_EQ(e.error().id, "metric-expr-unbalanced-paren");
  EXPECT_EQ(e.error().range.file, "fixture.json");
  EXPECT_NE(e.error().message.find("metric Broken: "), std::string::npos);
}

}  // namespace
PMUCAT_END_NAMESPACE
