// Every metric group of every x86 model with a counter.json in the built-in linux 6.12 tables,
// expanded as perf stat -M does (on the intel-spr fixture tree) and planned: the planner's verdict,
// running fractions and regrouping agree with the independent reference. Skipped without tables.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <string>

#include "pmucat/catalog.h"
#include "pmucat/metrics.h"
#include "pmucat/planner.h"
#include "reference.h"
#include "support/command.h"

#ifndef PMUCAT_EVENTS_DIR_BUILD
#define PMUCAT_EVENTS_DIR_BUILD ""
#endif
#ifndef PMUCAT_EVENTS_JSON_DIR
#define PMUCAT_EVENTS_JSON_DIR ""
#endif

namespace pmucat {
namespace {

namespace fs = std::filesystem;

// A CPU identifier a mapfile pattern matches: the first alternative of each `(a|b)`, the first
// character of each `[...]`.
std::string cpuid_matching(std::string pattern) {
  pattern = std::regex_replace(pattern, std::regex(R"(\(([^|)]*)[^)]*\))"), "$1");
  pattern = std::regex_replace(pattern, std::regex(R"(\[(.)[^\]]*\])"), "$1");
  return pattern;
}

struct Model {
  std::string directory;
  std::string cpuid;
};

// x86 core models of the JSON tree with a counter.json, with a CPU identifier for each.
std::vector<Model> models_with_counters(const fs::path& json_root) {
  std::vector<Model> models;
  std::ifstream mapfile(json_root / "x86" / "mapfile.csv");
  std::string line;
  while (std::getline(mapfile, line)) {
    std::vector<std::string> fields;
    std::size_t at = 0;
    while (at <= line.size()) {
      const auto comma = std::min(line.find(',', at), line.size());
      fields.push_back(line.substr(at, comma - at));
      at = comma + 1;
    }
    if (fields.size() < 4 || fields[3] != "core") continue;
    if (!fs::exists(json_root / "x86" / fields[2] / "counter.json")) continue;
    if (std::any_of(models.begin(), models.end(),
                    [&](const Model& m) { return m.directory == fields[2]; })) {
      continue;
    }
    models.push_back({fields[2], cpuid_matching(fields[0])});
  }
  return models;
}

// The plan agrees with the reference: verdict, per-PMU fractions, and a regrouping that fits.
void expect_agreement(const PlanInput& input, const Plan& plan, const std::string& what) {
  const auto reference = planner_reference::reference_plan(input);
  ASSERT_EQ(plan.fits, reference.fits) << what;
  for (const PmuPlan& pmu : plan.pmus) {
    if (!pmu.counts_known) continue;
    const auto& expected = reference.pmus.at(pmu.counters.pmu);
    ASSERT_EQ(pmu.fits, expected.fits) << what << " " << pmu.counters.pmu;
    ASSERT_EQ(pmu.runs.size(), expected.opened.size()) << what;
    for (std::size_t k = 0; k < pmu.runs.size(); ++k) {
      ASSERT_NEAR(pmu.runs[k].fraction, expected.running[k], 1e-12) << what;
    }
  }
  for (const auto& group : plan.regrouping.groups) {
    const auto counted = std::find_if(group.begin(), group.end(), [&](std::size_t e) {
      return input.events[e].constraint.need != CounterNeed::none;
    });
    ASSERT_NE(counted, group.end()) << what;
    const std::string& pmu = input.events[*counted].pmu;
    const auto set = std::find_if(input.counters.begin(), input.counters.end(),
                                  [&](const CounterSet& c) { return c.pmu == pmu; });
    ASSERT_NE(set, input.counters.end()) << what;
    ASSERT_TRUE(planner_reference::reference_opens(input, *set, group)) << what;
    ASSERT_TRUE(planner_reference::reference_fits_beside_pinned(input, *set, group)) << what;
  }
}

TEST(PlannerMetricGroups, EveryX86ModelWithCounterJsonAgreesWithTheReference) {
  const fs::path json_root = PMUCAT_EVENTS_JSON_DIR;
  const fs::path index_root = PMUCAT_EVENTS_DIR_BUILD;
  if (json_root.empty() || !fs::exists(json_root / "x86" / "mapfile.csv")) {
    GTEST_SKIP() << "no linux 6.12 pmu-events tables in this build";
  }
  const fs::path events_dir =
      !index_root.empty() && fs::exists(index_root / "x86") ? index_root : json_root;
  const auto models = models_with_counters(json_root);
  ASSERT_GE(models.size(), 30u);
  const fs::path tree = fs::path(pmucat::testing::source_dir()) / "fixtures/sysfs/intel-spr";
  std::size_t planned = 0, fitting = 0, rotating = 0, unschedulable = 0, skipped = 0;
  for (const Model& model : models) {
    VendorOptions vendor;
    vendor.events_dir = events_dir;
    vendor.cpuid = model.cpuid;
    vendor.rules = PerfVersion::v6_12;
    auto catalog = Catalog::open(tree, vendor);
    ASSERT_TRUE(catalog) << model.directory;
    ASSERT_NE(catalog->vendor_model(), nullptr) << model.directory << " " << model.cpuid;
    ASSERT_EQ(catalog->vendor_model()->directory, model.directory);
    for (const VendorMetricGroup& group : catalog->vendor_metric_groups()) {
      for (const bool watchdog : {false, true}) {
        MetricExpandOptions options;
        options.nmi_watchdog = watchdog;
        for (const char* literal :
             {"smt_on=1", "num_cpus=8", "num_cores=4", "num_dies=1", "num_packages=1",
              "core_wide=0", "system_tsc_freq=2e9", "num_cpus_online=8", "has_pmem=0"}) {
          const std::string_view text = literal;
          const auto eq = text.find('=');
          options.literals.set(text.substr(0, eq), std::stod(std::string(text.substr(eq + 1))));
        }
        EncodeOptions encode_options;
        encode_options.tool = Tool::stat;
        auto encoded = expand_metrics(*catalog, group.name, options, encode_options);
        if (!encoded) {
          ++skipped;  // events of PMUs the fixture tree lacks
          continue;
        }
        const PlanInput input = build_plan_input(
            *catalog, encoded->events, PlanBuildOptions{.nmi_watchdog = watchdog, .counters = {}});
        const Plan plan = plan_counters(input);
        expect_agreement(
            input, plan,
            fmt::format("{} -M {} watchdog {}", model.directory, group.name, watchdog));
        ++planned;
        if (plan.fits) {
          ++fitting;
        } else if (std::any_of(plan.pmus.begin(), plan.pmus.end(),
                               [](const PmuPlan& p) {
                                 return std::any_of(
                                     p.never.begin(), p.never.end(),
                                     [](const GroupProblem& g) { return !g.reopened_ungrouped; });
                               }) ||
                   !plan.problems.empty()) {
          ++unschedulable;
        } else {
          ++rotating;
        }
      }
    }
  }
  std::printf(
      "%zu models; %zu metric-group plans: %zu fit, %zu multiplex, %zu with events "
      "that never count; %zu not expandable on the fixture tree\n",
      models.size(), planned, fitting, rotating, unschedulable, skipped);
  EXPECT_GT(planned, 500u);
}

}  // namespace
}  // namespace pmucat
