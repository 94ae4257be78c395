// Vendor metrics of our own fictional models: the fields perf 6.1 keeps, its table order, group
// names, name matching and located diagnostics for bad metric objects.
#include <gtest/gtest.h>

#include <algorithm>

#include "pmucat/diagnostic_ids.h"
#include "pmucat/vendor_events.h"

namespace {

using pmucat::VendorMetric;

const std::filesystem::path kArch = PMUCAT_SOURCE_DIR "/tests/pmu_events/data/arch";

const VendorMetric* find(const pmucat::VendorModel& model, std::string_view name) {
  const auto it = std::find_if(model.metrics.begin(), model.metrics.end(),
                               [&](const VendorMetric& m) { return m.name == name; });
  return it == model.metrics.end() ? nullptr : &*it;
}

TEST(VendorMetrics, TableOrderIsPerfs) {
  auto model = pmucat::load_vendor_model(kArch / "x86", "testlake", pmucat::PerfRelease::v6_1);
  ASSERT_TRUE(model.has_value());
  std::vector<std::string> order;
  for (const VendorMetric& m : model->metrics) order.push_back(m.name);
  // Without a description first; then topic, EventName, PMU, MetricName (strcmp order).
  EXPECT_EQ(order, (std::vector<std::string>{"CPI", "C6_Core_Residency", "IPC", "Load_Miss_Pending",
                                             "tma_frontend_bound", "Package_Power"}));
}

TEST(VendorMetrics, FieldsAsWritten) {
  auto model = pmucat::load_vendor_model(kArch / "x86", "testlake", pmucat::PerfRelease::v6_1);
  ASSERT_TRUE(model.has_value());
  const VendorMetric* tma = find(*model, "tma_frontend_bound");
  ASSERT_NE(tma, nullptr);
  EXPECT_EQ(tma->expr, "IDQ_UOPS_NOT_DELIVERED.CORE / SLOTS");
  EXPECT_EQ(tma->group, "PGO;TopdownL1;tma_L1_group");
  EXPECT_EQ(tma->scale_unit, "100%");
  EXPECT_EQ(tma->constraint, "NO_NMI_WATCHDOG");
  EXPECT_EQ(tma->topic, "metrics");
  EXPECT_TRUE(tma->has_perf_description);
  EXPECT_EQ(pmucat::perf_metric_description(*tma),
            "This category represents fraction of slots where the processor's Frontend "
            "undersupplies its Backend");
  EXPECT_TRUE(tma->public_description.ends_with("core."));
  EXPECT_EQ(tma->location.line, 13u);
  EXPECT_TRUE(tma->location.file.ends_with("testlake-metrics.json"));

  // The backslashes of an @-escaped name stay: perf's table holds the JSON string itself.
  const VendorMetric* pending = find(*model, "Load_Miss_Pending");
  ASSERT_NE(pending, nullptr);
  EXPECT_EQ(pending->expr,
            "cpu@l1d_pend_miss.pending_cycles\\,cmask\\=1@ / CPU_CLK_UNHALTED.THREAD");
  EXPECT_EQ(pending->threshold, "Load_Miss_Pending > 0.5");
  EXPECT_EQ(pending->no_group, "TopdownL1");
  EXPECT_EQ(pmucat::perf_metric_description(*pending),
            "Fraction of cycles with at least one load miss pending");

  const VendorMetric* power = find(*model, "Package_Power");
  ASSERT_NE(power, nullptr);
  EXPECT_EQ(power->unit, "power");
  EXPECT_EQ(power->pmu, "uncore_power");
  EXPECT_EQ(power->aggregation_mode, "PerChip");
  EXPECT_EQ(pmucat::perf_metric_description(*power),
            "Average per-core power on the package (a metric with a Unit). Unit: uncore_power ");

  const VendorMetric* cpi = find(*model, "CPI");
  ASSERT_NE(cpi, nullptr);
  EXPECT_FALSE(cpi->has_perf_description);
  EXPECT_EQ(pmucat::perf_metric_description(*cpi), "");
}

TEST(VendorMetrics, GroupsAsPerfListsThem) {
  auto model = pmucat::load_vendor_model(kArch / "x86", "testlake", pmucat::PerfRelease::v6_1);
  ASSERT_TRUE(model.has_value());
  EXPECT_EQ(pmucat::metric_group_names(*find(*model, "Load_Miss_Pending")),
            (std::vector<std::string>{"Mem", "No_group", "MemoryBound"}));
  EXPECT_EQ(pmucat::metric_group_names(*find(*model, "C6_Core_Residency")),
            (std::vector<std::string>{"No_group"}));

  const auto groups = pmucat::vendor_metric_groups(model->metrics);
  std::vector<std::string> names;
  for (const auto& g : groups) names.push_back(g.name);
  EXPECT_EQ(names,
            (std::vector<std::string>{"Mem", "MemoryBound", "No_group", "PGO", "Pipeline", "Power",
                                      "Ret", "Summary", "TopdownL1", "tma_L1_group"}));
  const auto no_group = std::find_if(groups.begin(), groups.end(),
                                     [](const auto& g) { return g.name == "No_group"; });
  ASSERT_NE(no_group, groups.end());
  EXPECT_EQ(no_group->metrics, (std::vector<std::size_t>{1, 3}));
  EXPECT_TRUE(no_group->description.empty());
}

TEST(VendorMetrics, MatchingIsPerfs) {
  using pmucat::perf_metric_matches;
  EXPECT_TRUE(perf_metric_matches("PGO;TopdownL1;tma_L1_group", "topdownl1"));
  EXPECT_TRUE(perf_metric_matches("PGO;TopdownL1;tma_L1_group", "PGO"));
  EXPECT_TRUE(perf_metric_matches("PGO;TopdownL1;tma_L1_group", "tma_L1_group"));
  EXPECT_FALSE(perf_metric_matches("PGO;TopdownL1;tma_L1_group", "Topdown"));
  EXPECT_FALSE(perf_metric_matches("PGO;TopdownL1;tma_L1_group", "L1"));
  EXPECT_TRUE(perf_metric_matches("Mem; MemoryBound", "MemoryBound"));
  // Only the first occurrence is looked at, as strcasestr finds it.
  EXPECT_FALSE(perf_metric_matches("MemX;Mem", "Mem"));
  EXPECT_TRUE(perf_metric_matches("anything", "all"));
  EXPECT_TRUE(perf_metric_matches("", "no_GROUP"));
  EXPECT_FALSE(perf_metric_matches("", "IPC"));
  EXPECT_TRUE(perf_metric_matches("IPC", "ipc"));
}

TEST(VendorMetrics, BadObjectsAreLocatedAndSkipped) {
  auto model = pmucat::load_vendor_model(kArch / "x86", "metriclake", pmucat::PerfRelease::v6_1);
  ASSERT_TRUE(model.has_value());
  // Table order: the metric-only objects' topic `bad metrics` is all three's; then EventName.
  ASSERT_EQ(model->metrics.size(), 3u);
  EXPECT_EQ(model->metrics[0].expr, "3");
  EXPECT_EQ(model->metrics[1].expr, "4");
  // An object that is an event and a metric is both.
  const VendorMetric& cas = model->metrics[2];
  EXPECT_EQ(cas.name, "UNC_M_CAS_COUNT.RD");
  EXPECT_EQ(cas.event_name, "unc_m_cas_count.rd");
  EXPECT_TRUE(cas.per_pkg);
  EXPECT_EQ(cas.pmu, "uncore_imc");
  EXPECT_EQ(pmucat::perf_metric_description(cas),
            "Memory read bandwidth (an event that is a metric too, as some uncore objects are). "
            "Unit: uncore_imc ");
  ASSERT_EQ(model->events.size(), 1u);
  EXPECT_EQ(model->events[0].name, "unc_m_cas_count.rd");
  // An event that is a metric, without MetricGroup: perf lists it under no group.
  EXPECT_TRUE(pmucat::metric_group_names(cas).empty());
  std::vector<std::string> seen;
  for (const auto& d : model->diagnostics) {
    seen.push_back(d.id + "@" + std::to_string(d.range.line));
  }
  EXPECT_EQ(seen,
            (std::vector<std::string>{"vendor-metric-field@2", "vendor-metric-field@6",
                                      "vendor-metric-field@10", "vendor-metric-duplicate@20"}));
  EXPECT_NE(model->diagnostics[2].message.find("'MetricGroup'"), std::string::npos);
}

TEST(VendorMetrics, ParseOneFile) {
  std::vector<pmucat::Diagnostic> diagnostics;
  std::vector<VendorMetric> metrics;
  std::vector<pmucat::VendorCounterInfo> counters;
  const auto events = pmucat::parse_vendor_json(
      R"([{"MetricName": "M", "MetricExpr": "a + b", "EventName": "E", "EventCode": "0x1"}])",
      "x.json", "pipeline", {}, {}, pmucat::PerfRelease::v6_1, diagnostics, metrics, counters);
  EXPECT_TRUE(diagnostics.empty());
  ASSERT_EQ(events.size(), 1u);
  ASSERT_EQ(metrics.size(), 1u);
  EXPECT_EQ(metrics[0].event_name, "e");
  EXPECT_EQ(metrics[0].topic, "pipeline");
  EXPECT_EQ(metrics[0].location.column, 2u);
}

}  // namespace
