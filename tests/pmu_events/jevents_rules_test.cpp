// The two jevents rule sets: what perf 6.12's jevents.py makes of a JSON object where it differs
// from perf 6.1's, and that 6.1's reading stays as it was. Our own small JSON only.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <array>
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
  std::vector<pmucat::VendorCounterInfo> counters;
  std::vector<Diagnostic> diagnostics;
};

Parsed parse(std::string_view text, PerfRelease rules,
             const std::vector<VendorEvent>& std_events = {},
             const std::vector<VendorMetric>& std_metrics = {}) {
  Parsed parsed;
  parsed.events = pmucat::parse_vendor_json(text, "t.json", "topic", std_events, std_metrics, rules,
                                            parsed.diagnostics, parsed.metrics, parsed.counters);
  return parsed;
}

// The term string of the only event of `[object]` under `rules`.
std::string terms(std::string_view object, PerfRelease rules) {
  const Parsed parsed = parse("[" + std::string(object) + "]", rules);
  EXPECT_TRUE(parsed.diagnostics.empty())
      << (parsed.diagnostics.empty() ? "" : pmucat::render(parsed.diagnostics[0]));
  if (parsed.events.size() != 1) {
    ADD_FAILURE() << "expected one event from " << object;
    return {};
  }
  return parsed.events[0].terms;
}

std::string terms_6_1(std::string_view object) {
  return terms(object, PerfRelease::v6_1);
}
std::string terms_6_12(std::string_view object) {
  return terms(object, PerfRelease::v6_12);
}

TEST(JeventsRules, ValuesAreCanonicalisedUnder612Only) {
  const std::string object =
      R"({"EventName": "E", "EventCode": "0x1", "UMask": "0x0A", "CounterMask": "0x01",
          "SampleAfterValue": "2000003", "EdgeDetect": "0x00", "Invert": "007"})";
  EXPECT_EQ(terms_6_1(object), "event=0x1,cmask=0x01,edge=0x00,inv=007,period=2000003,umask=0x0A");
  EXPECT_EQ(terms_6_12(object), "event=1,cmask=1,inv=7,period=2000003,umask=0xa");
  // Hex values below ten print in decimal, ten and more in lower-case hex; decimal stays decimal.
  EXPECT_EQ(terms_6_12(R"({"EventName": "E", "EventCode": "0xC0", "UMask": "0x9"})"),
            "event=0xc0,umask=9");
  EXPECT_EQ(terms_6_12(R"({"EventName": "E", "EventCode": "0x3C", "UMask": "16"})"),
            "event=0x3c,umask=16");
  EXPECT_EQ(terms_6_12(R"({"EventName": "E", "ConfigCode": "0x5"})"), "config=5");
  EXPECT_EQ(terms_6_1(R"({"EventName": "E", "ConfigCode": "0x5"})"), "config=0x5");
  // Python's int() for decimal text: whitespace, underscores, a sign; zero in any spelling is
  // left out.
  EXPECT_EQ(terms_6_12(R"({"EventName": "E", "UMask": " 1_0 ", "Invert": "-0", "FCMask": "00"})"),
            "event=0,umask=10");
  EXPECT_EQ(terms_6_12(R"({"EventName": "E", "CounterMask": "-2"})"), "event=0,cmask=-2");
  // The first value of a comma list of event codes.
  EXPECT_EQ(terms_6_12(R"({"EventName": "E", "EventCode": "0x0B,0xBB"})"), "event=0xb");
}

TEST(JeventsRules, NewFieldsAndEventidUnder612) {
  const std::string object =
      R"({"EventName": "E", "EventCode": "0x1", "ThreadMask": "0x3", "SliceId": "0x2",
          "EnAllSlices": "1", "EnAllCores": "0x0", "RdWrMask": "0x1", "NodeType": "0x10",
          "UMask": "0x4"})";
  EXPECT_EQ(terms_6_12(object),
            "event=1,umask=4,type=0x10,rdwrmask=1,enallslices=1,sliceid=2,threadmask=3");
  // 6.1 knew none of them.
  EXPECT_EQ(terms_6_1(object), "event=0x1,umask=0x4");
  EXPECT_EQ(terms_6_12(R"({"EventName": "E", "EventidCode": "0x14", "NodeType": "0x5"})"),
            "eventid=0x14,type=5");
  EXPECT_EQ(terms_6_1(R"({"EventName": "E", "EventidCode": "0x14"})"), "event=0");
  // ConfigCode comes first, as in jevents.
  EXPECT_EQ(terms_6_12(R"({"EventName": "E", "EventidCode": "0x14", "ConfigCode": "0x20"})"),
            "config=0x20");
}

TEST(JeventsRules, UnparsableTermValueSkipsTheEventUnder612) {
  const std::string text = R"([{"EventName": "E", "EventCode": "0x1", "UMask": "0X1F"}])";
  const Parsed old_rules = parse(text, PerfRelease::v6_1);
  ASSERT_EQ(old_rules.events.size(), 1U);
  EXPECT_EQ(old_rules.events[0].terms, "event=0x1,umask=0X1F");
  const Parsed new_rules = parse(text, PerfRelease::v6_12);
  EXPECT_TRUE(new_rules.events.empty());
  ASSERT_EQ(new_rules.diagnostics.size(), 1U);
  EXPECT_EQ(new_rules.diagnostics[0].code, DiagId::vendor_json_field);
  EXPECT_NE(new_rules.diagnostics[0].message.find("UMask '0X1F'"), std::string::npos);
  // A new field of another type is judged only by the rules that read it.
  const std::string typed = R"([{"EventName": "E", "NodeType": 5}])";
  EXPECT_EQ(parse(typed, PerfRelease::v6_1).events.size(), 1U);
  EXPECT_TRUE(parse(typed, PerfRelease::v6_12).events.empty());
}

TEST(JeventsRules, MsrIndexWithoutValueIsPythonsNoneUnder612) {
  const std::string text =
      R"([{"EventName": "E", "EventCode": "0xB", "UMask": "0x10", "MSRIndex": "0x3F6"}])";
  const Parsed new_rules = parse(text, PerfRelease::v6_12);
  ASSERT_EQ(new_rules.events.size(), 1U);
  EXPECT_EQ(new_rules.events[0].terms, "event=0xb,umask=0x10,ldlat=None");
  const Parsed old_rules = parse(text, PerfRelease::v6_1);
  EXPECT_TRUE(old_rules.events.empty());
  ASSERT_EQ(old_rules.diagnostics.size(), 1U);
  EXPECT_EQ(old_rules.diagnostics[0].code, DiagId::vendor_json_field);
}

TEST(JeventsRules, UnitTableOf612) {
  for (const auto& [unit, pmu_6_1, pmu_6_12] : std::vector<std::array<std::string, 3>>{
           {"UMCPMC", "uncore_umcpmc", "amd_umc"},
           {"PAI-EXT", "uncore_pai-ext", "pai_ext"},
           {"imx9_ddr", "uncore_imx9_ddr", "imx9_ddr"},
           {"ali_drw", "uncore_ali_drw", "ali_drw"},
           {"arm_cmn", "uncore_arm_cmn", "arm_cmn"},
           {"L3PMC", "amd_l3", "amd_l3"},
           {"CHA", "uncore_cha", "uncore_cha"},
       }) {
    const std::string text = R"([{"EventName": "E", "Unit": ")" + unit + R"("}])";
    EXPECT_EQ(parse(text, PerfRelease::v6_1).events.at(0).pmu, pmu_6_1) << unit;
    EXPECT_EQ(parse(text, PerfRelease::v6_12).events.at(0).pmu, pmu_6_12) << unit;
  }
}

TEST(JeventsRules, DescriptionsLoseTheUnitUnder612) {
  const std::string text =
      R"([{"EventName": "E", "Unit": "CHA", "BriefDescription": "Counts things.",
           "PEBS": "1"},
          {"EventName": "F", "Unit": "CHA"}])";
  const Parsed old_rules = parse(text, PerfRelease::v6_1);
  EXPECT_EQ(pmucat::perf_brief_description(old_rules.events.at(0)),
            "Counts things (Precise event). Unit: uncore_cha ");
  EXPECT_EQ(pmucat::perf_brief_description(old_rules.events.at(1)), "Unit: uncore_cha ");
  EXPECT_TRUE(old_rules.events.at(1).has_perf_description);
  const Parsed new_rules = parse(text, PerfRelease::v6_12);
  EXPECT_EQ(pmucat::perf_brief_description(new_rules.events.at(0)),
            "Counts things (Precise event)");
  EXPECT_EQ(pmucat::perf_brief_description(new_rules.events.at(1)), "");
  // 6.12's table key: only a BriefDescription counts as a description.
  EXPECT_FALSE(new_rules.events.at(1).has_perf_description);
  EXPECT_EQ(new_rules.events.at(0).rules, PerfRelease::v6_12);
}

TEST(JeventsRules, StandardEventKeepsTheCorePmuUnder612) {
  const Parsed standard =
      parse(R"([{"EventName": "STD", "EventCode": "0x11", "Unit": "X"}])", PerfRelease::v6_12);
  const std::string text = R"([{"ArchStdEvent": "std"}])";
  const Parsed new_rules = parse(text, PerfRelease::v6_12, standard.events);
  ASSERT_EQ(new_rules.events.size(), 1U);
  EXPECT_EQ(new_rules.events[0].pmu, "");  // perf 6.12's default_core is never replaced
  EXPECT_EQ(new_rules.events[0].terms, "event=0x11");
  const Parsed standard_6_1 =
      parse(R"([{"EventName": "STD", "EventCode": "0x11", "Unit": "X"}])", PerfRelease::v6_1);
  EXPECT_EQ(parse(text, PerfRelease::v6_1, standard_6_1.events).events.at(0).pmu, "uncore_x");
}

TEST(JeventsRules, ArchStdEventNamesAStandardMetricUnder612) {
  const Parsed standard = parse(
      R"([{"MetricName": "backend_bound", "MetricExpr": "100 * a / b", "MetricGroup": "TopdownL1",
           "DefaultMetricgroupName": "TopdownL1", "BriefDescription": "Backend.",
           "ScaleUnit": "1percent"}])",
      PerfRelease::v6_12);
  ASSERT_EQ(standard.metrics.size(), 1U);
  const std::string text =
      R"([{"ArchStdEvent": "backend_bound"},
          {"ArchStdEvent": "Backend_Bound", "MetricExpr": "a / b"}])";
  const Parsed new_rules = parse(text, PerfRelease::v6_12, {}, standard.metrics);
  EXPECT_TRUE(new_rules.diagnostics.empty())
      << (new_rules.diagnostics.empty() ? "" : pmucat::render(new_rules.diagnostics[0]));
  EXPECT_TRUE(new_rules.events.empty());
  ASSERT_EQ(new_rules.metrics.size(), 2U);
  EXPECT_EQ(new_rules.metrics[0].name, "backend_bound");
  EXPECT_EQ(new_rules.metrics[0].expr, "100 * a / b");
  EXPECT_EQ(new_rules.metrics[0].group, "TopdownL1");
  EXPECT_EQ(new_rules.metrics[0].default_metricgroup_name, "TopdownL1");
  EXPECT_EQ(new_rules.metrics[0].scale_unit, "1percent");
  EXPECT_EQ(new_rules.metrics[1].expr, "a / b");  // its own expression over the standard one
  // 6.1 looked standard events up by EventName only.
  const Parsed old_rules = parse(text, PerfRelease::v6_1, {}, standard.metrics);
  EXPECT_TRUE(old_rules.events.empty());
  ASSERT_FALSE(old_rules.diagnostics.empty());
  EXPECT_EQ(old_rules.diagnostics[0].code, DiagId::vendor_std_event_unknown);
}

TEST(JeventsRules, MetricFieldsOf612) {
  const std::string text =
      R"([{"MetricName": "M", "MetricExpr": "a", "DefaultMetricgroupName": "Default",
           "MetricgroupNoGroup": "TopdownL1", "MetricThreshold": "M > 1", "Unit": "CHA",
           "BriefDescription": "Things."}])";
  const Parsed new_rules = parse(text, PerfRelease::v6_12);
  ASSERT_EQ(new_rules.metrics.size(), 1U);
  EXPECT_EQ(new_rules.metrics[0].default_metricgroup_name, "Default");
  EXPECT_EQ(new_rules.metrics[0].no_group, "TopdownL1");
  EXPECT_EQ(new_rules.metrics[0].threshold, "M > 1");
  EXPECT_EQ(pmucat::perf_metric_description(new_rules.metrics[0]), "Things");
  const Parsed old_rules = parse(text, PerfRelease::v6_1);
  ASSERT_EQ(old_rules.metrics.size(), 1U);
  EXPECT_EQ(old_rules.metrics[0].default_metricgroup_name, "");
  EXPECT_EQ(pmucat::perf_metric_description(old_rules.metrics[0]), "Things. Unit: uncore_cha ");
}

TEST(JeventsRules, CounterObjectsAreKeptNotEvents) {
  const std::string text =
      R"([{"Unit": "core", "CountersNumFixed": "3", "CountersNumGeneric": "8"},
          {"Unit": "CHA", "CountersNumFixed": "0", "CountersNumGeneric": "4"}])";
  for (const PerfRelease rules : pmucat::known_perf_releases()) {
    const Parsed parsed = parse(text, rules);
    EXPECT_TRUE(parsed.events.empty());
    EXPECT_TRUE(parsed.metrics.empty());
    EXPECT_TRUE(parsed.diagnostics.empty());
    ASSERT_EQ(parsed.counters.size(), 2U);
    EXPECT_EQ(parsed.counters[1].unit, "CHA");
    EXPECT_EQ(parsed.counters[1].generic, "4");
    EXPECT_EQ(parsed.counters[1].fixed, "0");
    EXPECT_EQ(parsed.counters[1].location.line, 2U);
  }
}

TEST(JeventsRules, MetricGroupDescriptions) {
  std::vector<Diagnostic> diagnostics;
  const auto descriptions = pmucat::parse_metric_group_descriptions(
      R"({"TopdownL1": "Metrics for top-down level 1", "Backend": "Grouping from it", "X": 1})",
      "metricgroups.json", diagnostics);
  ASSERT_EQ(descriptions.size(), 2U);
  EXPECT_EQ(descriptions[0].name, "Backend");  // sorted by name
  EXPECT_EQ(descriptions[1].description, "Metrics for top-down level 1");
  ASSERT_EQ(diagnostics.size(), 1U);
  EXPECT_EQ(diagnostics[0].code, DiagId::vendor_json_field);
  diagnostics.clear();
  EXPECT_TRUE(pmucat::parse_metric_group_descriptions("[]", "m.json", diagnostics).empty());
  ASSERT_EQ(diagnostics.size(), 1U);
  EXPECT_EQ(diagnostics[0].code, DiagId::vendor_json_syntax);
}

// A model directory written for one test, removed after it.
class ModelDir {
 public:
  ModelDir() : root_(fs::temp_directory_path() / ("pmucat-jevents-" + std::to_string(::getpid()))) {
    fs::remove_all(root_);
    fs::create_directories(root_ / "x86" / "m");
  }
  ModelDir(const ModelDir&) = delete;
  ModelDir& operator=(const ModelDir&) = delete;
  ~ModelDir() { fs::remove_all(root_); }
  void write(const std::string& file, std::string_view text) const {
    std::ofstream(root_ / "x86" / "m" / file) << text;
  }
  pmucat::VendorModel load(PerfRelease rules) const {
    auto model = pmucat::load_vendor_model(root_ / "x86", "m", rules);
    EXPECT_TRUE(model.has_value());
    return model ? *model : pmucat::VendorModel();
  }

 private:
  fs::path root_;
};

TEST(JeventsRules, TableOrderIsPerPmuUnder612) {
  ModelDir dir;
  dir.write("cache.json",
            R"([{"EventName": "B", "BriefDescription": "b"},
                {"EventName": "Z", "Unit": "CHA", "BriefDescription": "z"},
                {"EventName": "A"},
                {"EventName": "C", "Unit": "cpu_core", "BriefDescription": "c"}])");
  dir.write("pipeline.json", R"([{"EventName": "AA", "BriefDescription": "aa"}])");
  auto order = [](const pmucat::VendorModel& model) {
    std::vector<std::string> names;
    for (const VendorEvent& e : model.events) names.push_back(e.pmu + "/" + e.name);
    return names;
  };
  // 6.1: events without a description (and without a Unit) first, then topic, name, PMU.
  EXPECT_EQ(order(dir.load(PerfRelease::v6_1)),
            (std::vector<std::string>{"/a", "/b", "cpu_core/c", "uncore_cha/z", "/aa"}));
  // 6.12: a table per PMU in name order (`default_core` for the core one), each by name.
  EXPECT_EQ(order(dir.load(PerfRelease::v6_12)),
            (std::vector<std::string>{"cpu_core/c", "/a", "/aa", "/b", "uncore_cha/z"}));
}

TEST(JeventsRules, MetricOrderAndGroupFilesUnder612) {
  ModelDir dir;
  dir.write("m-metrics.json",
            R"([{"MetricName": "Zeta", "MetricExpr": "a"},
                {"MetricName": "Alpha", "MetricExpr": "b", "MetricGroup": "G1",
                 "BriefDescription": "a"},
                {"MetricName": "Mid", "MetricExpr": "c", "Unit": "CHA", "MetricGroup": "G1"}])");
  dir.write("metricgroups.json", R"({"G1": "The first group"})");
  dir.write("counter.json", R"([{"Unit": "core", "CountersNumGeneric": "8"}])");
  const pmucat::VendorModel new_rules = dir.load(PerfRelease::v6_12);
  std::vector<std::string> names;
  for (const VendorMetric& m : new_rules.metrics) names.push_back(m.name);
  EXPECT_EQ(names, (std::vector<std::string>{"Alpha", "Zeta", "Mid"}));
  EXPECT_TRUE(new_rules.diagnostics.empty());
  ASSERT_EQ(new_rules.metric_group_descriptions.size(), 1U);
  const auto groups =
      pmucat::vendor_metric_groups(new_rules.metrics, new_rules.metric_group_descriptions);
  ASSERT_EQ(groups.size(), 2U);
  EXPECT_EQ(groups[0].name, "G1");
  EXPECT_EQ(groups[0].description, "The first group");
  EXPECT_EQ(groups[1].name, "No_group");
  EXPECT_EQ(groups[1].description, "");
  ASSERT_EQ(new_rules.counters.size(), 1U);
  EXPECT_EQ(new_rules.counters[0].generic, "8");

  // 6.1 read every *.json as events: metricgroups.json is no array of them.
  const pmucat::VendorModel old_rules = dir.load(PerfRelease::v6_1);
  names.clear();
  for (const VendorMetric& m : old_rules.metrics) names.push_back(m.name);
  // Objects without a description (nor Unit) first.
  EXPECT_EQ(names, (std::vector<std::string>{"Zeta", "Alpha", "Mid"}));
  EXPECT_TRUE(old_rules.metric_group_descriptions.empty());
  ASSERT_EQ(old_rules.diagnostics.size(), 1U);
  EXPECT_EQ(old_rules.diagnostics[0].code, DiagId::vendor_json_syntax);
}

}  // namespace
