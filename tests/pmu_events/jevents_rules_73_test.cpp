// What perf 7.3's jevents.py makes of the tables where it differs from 6.12's: the common table,
// the build's generated group files, the new keys. Our own small JSON only.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "pmucat/diagnostic_ids.h"
#include "pmucat/vendor_events.h"

namespace {

namespace fs = std::filesystem;
using pmucat::DiagId;
using pmucat::Diagnostic;
using pmucat::PerfRelease;
using pmucat::VendorEvent;
using pmucat::VendorMetric;

struct Parsed {
  std::vector<VendorEvent> events;
  std::vector<VendorMetric> metrics;
  std::vector<Diagnostic> diagnostics;
};

Parsed parse(std::string_view text, PerfRelease rules) {
  Parsed parsed;
  std::vector<pmucat::VendorCounterInfo> counters;
  parsed.events = pmucat::parse_vendor_json(text, "t.json", "topic", {}, {}, rules,
                                            parsed.diagnostics, parsed.metrics, counters);
  return parsed;
}

std::size_t count_id(const std::vector<Diagnostic>& diagnostics, DiagId id) {
  return static_cast<std::size_t>(std::count_if(diagnostics.begin(), diagnostics.end(),
                                                [&](const Diagnostic& d) { return d.code == id; }));
}

TEST(JeventsRules73, LegacyCodesBecomeTheirTerms) {
  const Parsed parsed = parse(
      R"([{"EventName": "cpu-cycles", "LegacyConfigCode": "0x0"},
          {"EventName": "branch-misses", "LegacyConfigCode": "0x5"},
          {"EventName": "L1-dcache-load-misses", "LegacyCacheCode": "0x10000"}])",
      PerfRelease::v7_3);
  ASSERT_EQ(parsed.events.size(), 3U);
  EXPECT_EQ(parsed.events[0].terms, "legacy-hardware-config=0");
  EXPECT_EQ(parsed.events[1].terms, "legacy-hardware-config=5");
  EXPECT_EQ(parsed.events[2].terms, "legacy-cache-config=0x10000");
  EXPECT_TRUE(parsed.diagnostics.empty());
  // perf 6.12's jevents knows neither key: the events are plain `event=0`.
  const Parsed old =
      parse(R"([{"EventName": "branch-misses", "LegacyConfigCode": "0x5"}])", PerfRelease::v6_12);
  ASSERT_EQ(old.events.size(), 1U);
  EXPECT_EQ(old.events[0].terms, "event=0");
}

TEST(JeventsRules73, NewKeysAreRead) {
  const Parsed parsed = parse(
      R"([{"EventName": "E", "EventCode": "0xc0", "RetirementLatencyMean": 10.5,
           "RetirementLatencyMin": "1", "RetirementLatencyMax": 19.0},
          {"MetricName": "M", "MetricExpr": "a", "MetricGroup": "Default",
           "DefaultShowEvents": "1"}])",
      PerfRelease::v7_3);
  ASSERT_EQ(parsed.events.size(), 1U);
  EXPECT_EQ(parsed.events[0].retirement_latency_mean, "10.5");
  EXPECT_EQ(parsed.events[0].retirement_latency_min, "1");
  EXPECT_EQ(parsed.events[0].retirement_latency_max, "19.0");
  ASSERT_EQ(parsed.metrics.size(), 1U);
  EXPECT_EQ(parsed.metrics[0].default_show_events, "1");
  EXPECT_TRUE(parsed.diagnostics.empty());
}

TEST(JeventsRules73, UnknownKeysAreReportedOncePerFile) {
  const std::string text =
      R"([{"EventName": "A", "BriefDescript6ion": "x", "Experimental": "1"},
          {"EventName": "B", "BriefDescript6ion": "y", "NewKey": "2"}])";
  const Parsed parsed = parse(text, PerfRelease::v7_3);
  EXPECT_EQ(parsed.events.size(), 2U);
  ASSERT_EQ(count_id(parsed.diagnostics, DiagId::vendor_json_unknown_key), 2U);
  EXPECT_NE(parsed.diagnostics[0].message.find("'BriefDescript6ion'"), std::string::npos);
  EXPECT_NE(parsed.diagnostics[1].message.find("'NewKey'"), std::string::npos);
  EXPECT_EQ(parsed.diagnostics[1].range.line, 2U);
  // Older rules keep their reading as it was.
  EXPECT_TRUE(parse(text, PerfRelease::v6_12).diagnostics.empty());
}

TEST(JeventsRules73, UnitsMsrsAndDuplicateDescriptions) {
  const Parsed parsed = parse(
      R"([{"EventName": "page-faults", "Unit": "software", "ConfigCode": "0x2"},
          {"EventName": "O", "EventCode": "0x2a", "MSRIndex": "0x3E0", "MSRValue": "0x1"},
          {"EventName": "D", "BriefDescription": "Same.", "PublicDescription": "Same."}])",
      PerfRelease::v7_3);
  ASSERT_EQ(parsed.events.size(), 3U);
  EXPECT_EQ(parsed.events[0].pmu, "software");
  EXPECT_EQ(parsed.events[1].terms, "event=0x2a,offcore_rsp=0x1");
  // 7.3 keeps no long description equal to the short one; perf then shows the short one.
  EXPECT_EQ(pmucat::perf_brief_description(parsed.events[2]), "Same");
  EXPECT_EQ(pmucat::perf_public_description(parsed.events[2]), "Same");
  EXPECT_TRUE(parsed.diagnostics.empty());

  const Parsed old = parse(
      R"([{"EventName": "page-faults", "Unit": "software", "ConfigCode": "0x2"},
          {"EventName": "O", "EventCode": "0x2a", "MSRIndex": "0x3E0", "MSRValue": "0x1"}])",
      PerfRelease::v6_12);
  ASSERT_EQ(old.events.size(), 1U);
  EXPECT_EQ(old.events[0].pmu, "uncore_software");
  EXPECT_EQ(count_id(old.diagnostics, DiagId::vendor_json_field), 1U);
}

// An architecture tree written for one test (x86/m and common/common), removed after it.
class Tree {
 public:
  Tree() : root_(fs::temp_directory_path() / ("pmucat-jevents73-" + std::to_string(::getpid()))) {
    fs::remove_all(root_);
    fs::create_directories(root_ / "x86" / "m");
    fs::create_directories(root_ / "common" / "common");
  }
  Tree(const Tree&) = delete;
  Tree& operator=(const Tree&) = delete;
  ~Tree() { fs::remove_all(root_); }
  void write(const std::string& file, std::string_view text) const {
    std::ofstream(root_ / file) << text;
  }
  pmucat::VendorModel load(PerfRelease rules) const {
    auto model = pmucat::load_vendor_model(root_ / "x86", "m", rules);
    EXPECT_TRUE(model.has_value());
    return model ? *model : pmucat::VendorModel();
  }

 private:
  fs::path root_;
};

std::vector<std::string> metric_names(const pmucat::VendorModel& model) {
  std::vector<std::string> names;
  for (const VendorMetric& m : model.metrics) names.push_back(m.name);
  return names;
}

TEST(JeventsRules73, CommonMetricsFollowTheModelsAndGeneratedGroupsAreDescriptions) {
  Tree tree;
  tree.write("x86/m/pipeline.json", R"([{"EventName": "E", "EventCode": "0xc0"}])");
  tree.write("x86/m/extra-metrics.json",
             R"([{"MetricName": "lpm_b", "MetricExpr": "E", "MetricGroup": "lpm"},
                 {"MetricName": "lpm_a", "MetricExpr": "E * 2", "MetricGroup": "lpm"}])");
  tree.write("x86/m/extra-metricgroups.json", R"({"lpm": "Generated", "Other": "x"})");
  tree.write("x86/m/metricgroups.json", R"({"Other": "From the kernel"})");
  tree.write("common/common/metrics.json",
             R"([{"MetricName": "CPUs_utilized", "MetricExpr": "E / 2",
                  "MetricGroup": "Default"}])");
  tree.write("common/common/software.json",
             R"([{"EventName": "cpu-clock", "Unit": "software", "ConfigCode": "0"}])");

  const pmucat::VendorModel model = tree.load(PerfRelease::v7_3);
  EXPECT_EQ(metric_names(model), (std::vector<std::string>{"lpm_a", "lpm_b", "CPUs_utilized"}));
  // The common table's events stay the grammar's: no vendor event of the model.
  ASSERT_EQ(model.events.size(), 1U);
  EXPECT_EQ(model.events[0].name, "e");
  ASSERT_EQ(model.metric_group_descriptions.size(), 2U);
  EXPECT_EQ(model.metric_group_descriptions[0].name, "Other");
  // metricgroups.json sorts after extra-metricgroups.json: its description is the later one.
  EXPECT_EQ(model.metric_group_descriptions[0].description, "From the kernel");
  EXPECT_EQ(model.metric_group_descriptions[1].description, "Generated");
  EXPECT_TRUE(model.diagnostics.empty()) << pmucat::render(model.diagnostics.front());

  // perf 6.12 knew neither the common table nor extra-metricgroups.json (no array of events).
  const pmucat::VendorModel old = tree.load(PerfRelease::v6_12);
  EXPECT_EQ(metric_names(old), (std::vector<std::string>{"lpm_a", "lpm_b"}));
  EXPECT_EQ(count_id(old.diagnostics, DiagId::vendor_json_syntax), 1U);
}

TEST(JeventsRules73, TheFirstOfTwoSameNamedMetricsIsKept) {
  Tree tree;
  tree.write("x86/m/a-metrics.json", R"([{"MetricName": "M", "MetricExpr": "first"}])");
  tree.write("x86/m/b-metrics.json", R"([{"MetricName": "M", "MetricExpr": "second"}])");
  const pmucat::VendorModel model = tree.load(PerfRelease::v7_3);
  ASSERT_EQ(model.metrics.size(), 1U);
  EXPECT_EQ(model.metrics[0].expr, "first");
  EXPECT_EQ(count_id(model.diagnostics, DiagId::vendor_metric_duplicate), 1U);
  // perf 6.12 keeps both.
  EXPECT_EQ(tree.load(PerfRelease::v6_12).metrics.size(), 2U);
}

}  // namespace
