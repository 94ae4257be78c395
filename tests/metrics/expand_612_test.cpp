// Metric expansion under perf 6.12's rules (Profile::perf(PerfRelease::v6_12), and pmucat's own
// semantics, which follow the newest perf here), over small tables of fictional metrics: one test
// per rule that differs from perf 6.1 (docs/perf-compat.md, "perf 6.12: what changed since 6.1").
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "pmucat/metrics.h"

PMUCAT_BEGIN_NAMESPACE
namespace {

using Lists = std::vector<std::string>;

// A fictional metric, its optional fields set one by one: metric("A", "x").group("G"). (An event
// spelled like a metric's name, in any case, is that metric: perf 6.1 and 6.12 alike.)
struct Metric {
  MetricDefinition d;
  Metric& group(std::string_view v) {
    d.group = v;
    return *this;
  }
  Metric& constraint(std::string_view v) {
    d.constraint = v;
    return *this;
  }
  Metric& threshold(std::string_view v) {
    d.threshold = v;
    return *this;
  }
  Metric& no_group(std::string_view v) {
    d.metricgroup_no_group = v;
    return *this;
  }
  Metric& default_group(std::string_view v) {
    d.default_metricgroup_name = v;
    return *this;
  }
  Metric& pmu(std::string_view v) {
    d.pmu = v;
    return *this;
  }
  operator MetricDefinition() const { return d; }  // NOLINT(google-explicit-constructor)
};

Metric metric(std::string_view name, std::string_view expr) {
  Metric m;
  m.d.name = name;
  m.d.expr = expr;
  m.d.file = "fixture.json";
  return m;
}

MetricExpandOptions perf612(MetricExpandOptions options = {}) {
  options.semantics = Profile::perf(PerfRelease::v6_12);
  return options;
}

MetricExpansion expand(const std::vector<MetricDefinition>& table, std::string_view names,
                       const MetricExpandOptions& options = perf612()) {
  auto e = expand_metric_table(table, names, options);
  EXPECT_TRUE(e.has_value()) << (e ? "" : e.error().message);
  return e ? *e : MetricExpansion{};
}

std::vector<std::string> metric_names(const MetricExpansion& e) {
  std::vector<std::string> out;
  for (const auto& m : e.metrics) out.push_back(m.name);
  return out;
}

TEST(MetricMatches612, OneWordOfTheFieldFromItsStart) {
  const MetricDefinition m = metric("IPC", "a").group("Summary;Pipe line");
  for (const Profile s : {Profile::perf(PerfRelease::v6_12), Profile::pmucat()}) {
    EXPECT_TRUE(metric_matches(m, "summary", s));
    EXPECT_TRUE(metric_matches(m, "Pipe line", s));
    EXPECT_TRUE(metric_matches(m, "ipc", s));
    EXPECT_TRUE(metric_matches(m, "all", s));
    // A blank separates nothing under 6.12; 6.1 starts a word after one.
    EXPECT_FALSE(metric_matches(m, "line", s));
    EXPECT_FALSE(metric_matches(m, "Summ", s));
    EXPECT_FALSE(metric_matches(m, "No_group", s));
  }
  EXPECT_TRUE(metric_matches(m, "line", Profile::perf(PerfRelease::v6_1)));
  EXPECT_TRUE(metric_matches(metric("Lone", "a"), "NO_GROUP", Profile::perf(PerfRelease::v6_12)));
}

TEST(ExpandMetrics612, DefaultSemanticsFollowPerf612) {
  const std::vector<MetricDefinition> table = {
      metric("Top", "slots_x / cyc").group("TopdownL1").no_group("TopdownL1")};
  const MetricExpandOptions pmucat_semantics;  // Profile::pmucat()
  EXPECT_EQ(expand(table, "TopdownL1", pmucat_semantics).event_lists,
            expand(table, "TopdownL1").event_lists);
  MetricExpandOptions perf61;
  perf61.semantics = Profile::perf(PerfRelease::v6_1);
  EXPECT_NE(expand(table, "TopdownL1", perf61).event_lists, expand(table, "TopdownL1").event_lists);
}

TEST(ExpandMetrics612, MetricgroupNoGroupUngroupsWhenTheGroupIsAsked) {
  const std::vector<MetricDefinition> table = {
      metric("Fe", "fe_ev").group("TopdownL1;Default").no_group("TopdownL1;Default")};
  // Asked by a group its MetricgroupNoGroup names: no weak group (the combined list).
  auto e = expand(table, "TopdownL1");
  EXPECT_EQ(e.event_lists, (Lists{"fe_ev/metric-id=fe_ev/"}));
  EXPECT_FALSE(e.metrics[0].grouped);
  // Asked by name: grouped, as perf 6.1 always did.
  e = expand(table, "Fe");
  EXPECT_EQ(e.event_lists, (Lists{"{fe_ev/metric-id=fe_ev/}:W"}));
  EXPECT_TRUE(e.metrics[0].grouped);
  // perf 6.1 ignores the field.
  MetricExpandOptions perf61;
  perf61.semantics = Profile::perf(PerfRelease::v6_1);
  EXPECT_EQ(expand(table, "TopdownL1", perf61).event_lists, (Lists{"{fe_ev/metric-id=fe_ev/}:W"}));
}

TEST(ExpandMetrics612, ConstraintsDecideTheGroup) {
  const std::vector<MetricDefinition> table = {
      metric("Never", "n").constraint("NO_GROUP_EVENTS"),
      metric("Nmi", "w").constraint("NO_GROUP_EVENTS_NMI"),
      metric("OldNmi", "o").constraint("NO_NMI_WATCHDOG"),
      metric("Smt", "s").constraint("NO_GROUP_EVENTS_SMT"),
  };
  MetricExpandOptions off = perf612();
  off.nmi_watchdog = false;
  off.literals.smt_on = 0;
  MetricExpandOptions on = off;
  on.nmi_watchdog = true;
  on.literals.smt_on = 1;
  EXPECT_EQ(expand(table, "Never", off).event_lists, (Lists{"n/metric-id=n/"}));
  EXPECT_EQ(expand(table, "Nmi", off).event_lists, (Lists{"{w/metric-id=w/}:W"}));
  EXPECT_EQ(expand(table, "Nmi", on).event_lists, (Lists{"w/metric-id=w/"}));
  EXPECT_EQ(expand(table, "OldNmi", on).event_lists, (Lists{"o/metric-id=o/"}));
  EXPECT_EQ(expand(table, "Smt", off).event_lists, (Lists{"{s/metric-id=s/}:W"}));
  EXPECT_EQ(expand(table, "Smt", on).event_lists, (Lists{"s/metric-id=s/"}));
  // perf 6.1 knows NO_NMI_WATCHDOG only.
  MetricExpandOptions perf61 = on;
  perf61.semantics = Profile::perf(PerfRelease::v6_1);
  EXPECT_EQ(expand(table, "Never", perf61).event_lists, (Lists{"{n/metric-id=n/}:W"}));
  EXPECT_EQ(expand(table, "OldNmi", perf61).event_lists, (Lists{"o/metric-id=o/"}));
}

TEST(ExpandMetrics612, AllAndNoGroupMatchAnAbsentMetricgroupNoGroup) {
  // perf 6.12 asks MetricgroupNoGroup with the same match: `all` and `No_group` match a metric
  // without the field, so those metrics lose their groups.
  const std::vector<MetricDefinition> table = {metric("Lone", "x")};
  EXPECT_EQ(expand(table, "all").event_lists, (Lists{"x/metric-id=x/"}));
  EXPECT_EQ(expand(table, "No_group").event_lists, (Lists{"x/metric-id=x/"}));
  EXPECT_EQ(expand(table, "Lone").event_lists, (Lists{"{x/metric-id=x/}:W"}));
}

TEST(ExpandMetrics612, ThresholdsAddTheEventsOfTheMetricsTheyName) {
  const std::vector<MetricDefinition> table = {
      metric("Parent", "p").threshold("Parent > 0.2"),
      metric("Child", "c").threshold("Child > 0.1 & Parent > 0.2"),
  };
  auto e = expand(table, "Child");
  ASSERT_EQ(e.metrics.size(), 1U);
  EXPECT_EQ(e.metrics[0].expr, "c");
  Lists ids = e.metrics[0].ids;
  std::sort(ids.begin(), ids.end());
  EXPECT_EQ(ids, (Lists{"c", "p"}));
  Lists refs = e.metrics[0].references;
  std::sort(refs.begin(), refs.end());
  EXPECT_EQ(refs, (Lists{"Child", "Parent"}));  // the threshold names the metric itself
  // --metric-no-threshold: the metric's own events.
  MetricExpandOptions no_threshold = perf612();
  no_threshold.no_threshold = true;
  e = expand(table, "Child", no_threshold);
  EXPECT_EQ(e.event_lists, (Lists{"{c/metric-id=c/}:W"}));
  EXPECT_EQ(e.metrics[0].references, (Lists{"Child"}));
  // perf 6.1 has no thresholds.
  MetricExpandOptions perf61;
  perf61.semantics = Profile::perf(PerfRelease::v6_1);
  EXPECT_EQ(expand(table, "Child", perf61).event_lists, (Lists{"{c/metric-id=c/}:W"}));
}

TEST(ExpandMetrics612, DefaultSortsByDefaultMetricgroupNameThenName) {
  const std::vector<MetricDefinition> table = {
      metric("A1", "e1").group("Default").default_group("GroupA"),
      metric("B1", "e2 + e3").group("Default").default_group("GroupB"),
      metric("A2", "e4 + e5 + e6").group("Default").default_group("GroupA"),
      metric("B2", "e7").group("Default").default_group("GroupB"),
  };
  // `-M Default`: descending (DefaultMetricgroupName, MetricName), whatever the sizes.
  auto e = expand(table, "Default");
  EXPECT_EQ(metric_names(e), (Lists{"B2", "B1", "A2", "A1"}));
  ASSERT_EQ(e.event_lists.size(), 4U);
  EXPECT_EQ(e.event_lists[0], "{e7/metric-id=e7/}:W");
  EXPECT_EQ(e.event_lists[3], "{e1/metric-id=e1/}:W");
  // The same metrics asked otherwise: most ids first, as perf 6.1.
  e = expand(table, "A1,B1,A2,B2");
  EXPECT_EQ(metric_names(e).front(), "A2");
  // The word must be the whole list, spelled so.
  e = expand(table, "Default,A1");
  EXPECT_EQ(metric_names(e).front(), "A2");
}

TEST(ExpandMetrics612, PmusKeepReferencesAndSharedListsApart) {
  const std::vector<MetricDefinition> table = {
      metric("Slots", "atom_slots").pmu("cpu_atom"),
      metric("Slots", "core_slots").pmu("cpu_core"),
      metric("Ratio", "x / Slots").group("G").pmu("cpu_core"),
      metric("RatioA", "x / Slots").group("G").pmu("cpu_atom"),
      metric("Same", "y").group("H").pmu("cpu_core"),
      metric("SameA", "y").group("H").pmu("cpu_atom"),
  };
  // A reference is looked up among the metrics of the referencing metric's PMU.
  auto e = expand(table, "Ratio");
  Lists ids = e.metrics[0].ids;
  std::sort(ids.begin(), ids.end());
  EXPECT_EQ(ids, (Lists{"core_slots", "x"}));
  e = expand(table, "RatioA");
  ids = e.metrics[0].ids;
  std::sort(ids.begin(), ids.end());
  EXPECT_EQ(ids, (Lists{"atom_slots", "x"}));
  // Equal events on two PMUs: two lists (perf 6.1 shares one).
  EXPECT_EQ(expand(table, "H").event_lists.size(), 2U);
  MetricExpandOptions perf61;
  perf61.semantics = Profile::perf(PerfRelease::v6_1);
  EXPECT_EQ(expand(table, "H", perf61).event_lists.size(), 1U);
}

TEST(ExpandMetrics612, HasEventAsksWhetherTheEventParses) {
  const std::vector<MetricDefinition> table = {
      metric("Tsx", "cycles\\-t / cycles if has_event(cycles\\-t) else 0"),
      metric("Pmu", "cpu@x@ if has_event(cpu@x@) else 0"),
  };
  std::vector<std::string> asked;
  MetricExpandOptions yes = perf612();
  yes.event_parses = [&](std::string_view event) {
    asked.emplace_back(event);
    return true;
  };
  MetricExpandOptions no = perf612();
  no.event_parses = [](std::string_view) { return false; };
  auto e = expand(table, "Tsx", yes);
  Lists ids = e.metrics[0].ids;
  std::sort(ids.begin(), ids.end());
  EXPECT_EQ(ids, (Lists{"cycles", "cycles-t"}));
  EXPECT_EQ(asked, (Lists{"cycles-t"}));
  // Not there: the constant branch, no events; duration_time keeps the list from being empty.
  e = expand(table, "Tsx", no);
  EXPECT_EQ(e.event_lists, (Lists{"duration_time"}));
  // `@` names are asked as PMU terms.
  asked.clear();
  expand(table, "Pmu", yes);
  EXPECT_EQ(asked, (Lists{"cpu/x/"}));
  // perf 6.1's lexer has no has_event: a syntax error.
  MetricExpandOptions perf61;
  perf61.semantics = Profile::perf(PerfRelease::v6_1);
  EXPECT_FALSE(expand_metric_table(table, "Tsx", perf61).has_value());
}

TEST(ExpandMetrics612, NewLiterals) {
  const std::vector<MetricDefinition> table = {
      metric("Pmem", "(rd / wr if #has_pmem > 0 else 0)"),
      metric("Util", "busy / #num_cpus_online"),
  };
  MetricExpandOptions o = perf612();
  o.literals.has_pmem = 0;
  o.literals.num_cpus_online = 8;
  EXPECT_EQ(expand(table, "Pmem", o).event_lists, (Lists{"duration_time"}));
  EXPECT_EQ(expand(table, "Util", o).event_lists, (Lists{"{busy/metric-id=busy/}:W"}));
  o.literals.has_pmem = 1;
  EXPECT_EQ(expand(table, "Pmem", o).metrics[0].ids.size(), 2U);
  // Unknown to perf 6.1: the metric is broken there.
  MetricExpandOptions perf61 = o;
  perf61.semantics = Profile::perf(PerfRelease::v6_1);
  const auto broken = expand_metric_table(table, "Util", perf61);
  ASSERT_FALSE(broken.has_value());
  EXPECT_EQ(broken.error().id, "metric-expr-unknown-literal");
}

TEST(ExpandMetrics612, DivisionByAConstantZeroNeedsNoEvents) {
  const std::vector<MetricDefinition> table = {metric("Zero", "a + x / (2 - 2)")};
  // perf 6.12: `x / 0` is NaN needing no ids; perf 6.1: a broken metric.
  EXPECT_EQ(expand(table, "Zero").event_lists, (Lists{"{a/metric-id=a/}:W"}));
  MetricExpandOptions perf61;
  perf61.semantics = Profile::perf(PerfRelease::v6_1);
  EXPECT_FALSE(expand_metric_table(table, "Zero", perf61).has_value());
}

// perf 7.3 finds a referenced metric by its exact name (a binary search with strcmp): linux 7.3's
// generated `lpm_br_taken_insn_between_branches = d_ratio(instructions, ...)` on Elkhart Lake,
// whose table also has `Instructions = INST_RETIRED.ANY`, opens `instructions` (perf 7.3.4);
// perf 6.12 took `instructions` as that metric, in any case.
TEST(ExpandMetrics612, Perf73ReferencesAMetricByItsExactName) {
  const std::vector<MetricDefinition> table = {metric("Instructions", "INST_RETIRED.ANY"),
                                               metric("Between", "d_ratio(instructions, br)")};
  MetricExpandOptions perf73;
  perf73.semantics = Profile::perf(PerfRelease::v7_3);
  EXPECT_EQ(expand(table, "Between", perf73).event_lists,
            (Lists{"{br/metric-id=br/,instructions/metric-id=instructions/}:W"}));
  EXPECT_EQ(expand(table, "Between").event_lists,
            (Lists{"{br/metric-id=br/,INST_RETIRED.ANY/metric-id=INST_RETIRED.ANY/}:W"}));
  const std::vector<MetricDefinition> exact = {metric("Instructions", "INST_RETIRED.ANY"),
                                               metric("Between", "d_ratio(Instructions, br)")};
  EXPECT_EQ(expand(exact, "Between", perf73).event_lists,
            (Lists{"{br/metric-id=br/,INST_RETIRED.ANY/metric-id=INST_RETIRED.ANY/}:W"}));
}

}  // namespace
PMUCAT_END_NAMESPACE
