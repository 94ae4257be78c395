// linux 7.3's tables as perf 7.3's build feeds them to its jevents (the kernel's JSON plus what
// its generator scripts write: cmake/PmucatGenerateEvents.cmake), when the build made them: the
// 2025 models load with their generated and common metrics. Skipped without them.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>

#include "pmucat/diagnostic_ids.h"
#include "pmucat/vendor_events.h"

namespace {

namespace fs = std::filesystem;
using pmucat::PerfRelease;
using pmucat::VendorMetric;

#define REQUIRE_TABLES_73()                                                \
  const std::string_view built = PMUCAT_TEST_EVENTS_DIR_7_3;               \
  if (built.empty()) GTEST_SKIP() << "this build has no linux 7.3 tables"; \
  const fs::path root(built)

bool has_metric(const pmucat::VendorModel& model, std::string_view name) {
  return std::any_of(model.metrics.begin(), model.metrics.end(),
                     [&](const VendorMetric& m) { return m.name == name; });
}

std::size_t errors(const pmucat::VendorModel& model) {
  return static_cast<std::size_t>(std::count_if(
      model.diagnostics.begin(), model.diagnostics.end(),
      [](const pmucat::Diagnostic& d) { return d.severity == pmucat::Severity::error; }));
}

TEST(Tables73, PantherLakeHasItsGeneratedAndTheCommonMetrics) {
  REQUIRE_TABLES_73();
  auto model = pmucat::load_vendor_model(root / "x86", "pantherlake", PerfRelease::v7_3);
  ASSERT_TRUE(model.has_value());
  EXPECT_EQ(errors(*model), 0U);
  // No metrics.json of its own: intel_metrics.py's lpm_* metrics, then the common table's.
  EXPECT_TRUE(has_metric(*model, "lpm_br_cond_retired"));
  EXPECT_TRUE(has_metric(*model, "CPUs_utilized"));
  EXPECT_EQ(model->metrics.back().topic, "metrics");
  EXPECT_EQ(fs::path(model->metrics.back().location.file).parent_path().filename(), "common");
  const auto groups =
      pmucat::vendor_metric_groups(model->metrics, model->metric_group_descriptions);
  const auto lpm_br =
      std::find_if(groups.begin(), groups.end(),
                   [](const pmucat::VendorMetricGroup& g) { return g.name == "lpm_br"; });
  ASSERT_NE(lpm_br, groups.end());
  EXPECT_FALSE(lpm_br->description.empty());
  EXPECT_TRUE(std::any_of(groups.begin(), groups.end(),
                          [](const pmucat::VendorMetricGroup& g) { return g.name == "Default"; }));
}

TEST(Tables73, NewModelsLoadAndMisspeltKeysAreReported) {
  REQUIRE_TABLES_73();
  for (const auto& [arch, directory] :
       {std::pair{"x86", "clearwaterforest"}, std::pair{"x86", "arrowlake"},
        std::pair{"arm64", "arm/neoverse-v3"}}) {
    auto model = pmucat::load_vendor_model(root / arch, directory, PerfRelease::v7_3);
    ASSERT_TRUE(model.has_value()) << directory;
    EXPECT_EQ(errors(*model), 0U) << directory;
    EXPECT_FALSE(model->events.empty()) << directory;
    EXPECT_TRUE(has_metric(*model, "CPUs_utilized")) << directory;
  }
  // Granite Rapids' retire-latency numbers are JSON numbers, not strings: the events stay.
  auto gnr = pmucat::load_vendor_model(root / "x86", "graniterapids", PerfRelease::v7_3);
  ASSERT_TRUE(gnr.has_value());
  EXPECT_EQ(errors(*gnr), 0U);
  const auto l2_hit = std::find_if(
      gnr->events.begin(), gnr->events.end(),
      [](const pmucat::VendorEvent& e) { return e.name == "mem_load_retired.l2_hit"; });
  ASSERT_NE(l2_hit, gnr->events.end());
  EXPECT_FALSE(l2_hit->retirement_latency_mean.empty());

  auto zen6 = pmucat::load_vendor_model(root / "x86", "amdzen6", PerfRelease::v7_3);
  ASSERT_TRUE(zen6.has_value());
  EXPECT_TRUE(std::any_of(zen6->diagnostics.begin(), zen6->diagnostics.end(),
                          [](const pmucat::Diagnostic& d) {
                            return d.code == pmucat::DiagId::vendor_json_unknown_key &&
                                   d.message.find("BriefDescript6ion") != std::string::npos;
                          }));
}

}  // namespace
