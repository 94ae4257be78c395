// Every metric group of every x86 model with a counter.json in the built-in linux 6.12 tables and
// in linux 7.3's (the default set, with the metrics its build generates, read as perf 7.3 reads
// them), expanded as perf stat -M does (on a tree made for the model, model_tree) and planned:
// the planner's verdict, running fractions and regrouping agree with the independent reference.
// Skipped without tables.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <optional>
#include <regex>
#include <set>
#include <string>

#include "pmucat/catalog.h"
#include "pmucat/metrics.h"
#include "pmucat/planner.h"
#include "reference.h"
#include "support/command.h"
#include "support/scratch_dir.h"

#ifndef PMUCAT_EVENTS_DIR_BUILD
#define PMUCAT_EVENTS_DIR_BUILD ""
#endif
#ifndef PMUCAT_EVENTS_JSON_DIR
#define PMUCAT_EVENTS_JSON_DIR ""
#endif
#ifndef PMUCAT_EVENTS_DIR_BUILD_7_3
#define PMUCAT_EVENTS_DIR_BUILD_7_3 ""
#endif
#ifndef PMUCAT_EVENTS_JSON_DIR_7_3
#define PMUCAT_EVENTS_JSON_DIR_7_3 ""
#endif

PMUCAT_BEGIN_NAMESPACE
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

// A sysfs tree for `model`: the fixture of its kind (intel-adl-hybrid for a hybrid model, whose
// core events are cpu_core's and cpu_atom's, else intel-spr), completed with what the model's
// metrics name and the fixture lacks: a made-up box `<pmu>_0` for each uncore PMU its JSON events
// name (B2CMI, CXL, PCU...), the uncore terms they and the metrics use (filter_opc, thresh, ...)
// in words the PMU's own formats leave free, `any` on the core PMU (config:21, as before Ice
// Lake), a CHA and IIO umask of 32 bits (Sierra Forest's IIO umasks carry channel bits), the cstate
// residency events. Placement is all the planner reads of these PMUs (a box's own counters), so
// the made-up bits claim nothing about a real tree. nullopt when a PMU's terms do not fit.
std::optional<fs::path> model_tree(const VendorModel& model, const fs::path& root) {
  bool hybrid = false;
  for (const VendorEvent& event : model.events) hybrid |= event.pmu.starts_with("cpu_");
  const fs::path fixture = fs::path(pmucat::testing::source_dir()) / "fixtures/sysfs" /
                           (hybrid ? "intel-adl-hybrid" : "intel-spr") / "devices";
  const fs::path devices = root / "devices";
  fs::copy(fixture, devices, fs::copy_options::recursive);
  auto present = [&] {
    std::vector<std::string> names;
    for (const auto& entry : fs::directory_iterator(devices)) {
      names.push_back(entry.path().filename().string());
    }
    return names;
  };
  const std::vector<std::string> fixture_pmus = present();
  // The uncore terms perf's metrics write in event specs, besides those of the JSON events.
  const std::set<std::string> uncore_terms = {
      "event",      "umask",      "edge",         "inv",    "thresh",  "cmask",  "filter_opc",
      "filter_tid", "filter_nid", "filter_state", "tid_en", "ch_mask", "fc_mask"};
  std::map<std::string, std::set<std::string>> terms_of;  // PMU directory -> terms
  std::uint32_t type = 1000;
  for (const VendorEvent& event : model.events) {
    if (event.pmu.empty() || event.pmu == "cpu" || event.pmu.starts_with("cpu_") ||
        event.pmu.find(',') != std::string::npos) {
      continue;
    }
    std::vector<std::string> dirs;
    for (const std::string& name : fixture_pmus) {
      if (name == event.pmu || vendor_pmu_matches(event.pmu, name)) dirs.push_back(name);
    }
    if (dirs.empty()) {
      const std::string made_up = event.pmu + "_0";
      if (!fs::exists(devices / made_up)) {
        fs::create_directories(devices / made_up / "format");
        std::ofstream(devices / made_up / "type") << type++ << "\n";
        std::ofstream(devices / made_up / "cpumask") << "0\n";
      }
      dirs.push_back(made_up);
    }
    for (const std::string& dir : dirs) {
      std::set<std::string>& terms = terms_of[dir];
      terms.insert(uncore_terms.begin(), uncore_terms.end());
      std::size_t at = 0;
      while (at < event.terms.size()) {
        const std::size_t comma = std::min(event.terms.find(',', at), event.terms.size());
        const std::string term = event.terms.substr(at, comma - at);
        terms.insert(term.substr(0, term.find('=')));
        at = comma + 1;
      }
    }
  }
  for (const auto& [dir, terms] : terms_of) {
    const fs::path format = devices / dir / "format";
    fs::create_directories(format);
    std::set<std::string> used_words;
    for (const auto& entry : fs::directory_iterator(format)) {
      std::ifstream in(entry.path());
      std::string bits;
      std::getline(in, bits);
      used_words.insert(bits.substr(0, bits.find(':')));
    }
    std::vector<std::string> free_slots;
    for (const char* word : {"config", "config1", "config2", "config3"}) {
      if (used_words.count(word) != 0) continue;
      for (int low = 0; low < 64; low += 16) {
        free_slots.push_back(fmt::format("{}:{}-{}", word, low, low + 15));
      }
    }
    std::size_t next = 0;
    for (const std::string& term : terms) {
      if (fs::exists(format / term)) continue;
      std::string bits;
      if (used_words.empty() && term == "event") {
        bits = "config:0-7";
      } else if (used_words.empty() && term == "umask") {
        bits = "config:8-15,32-55";
      } else {
        while (next < free_slots.size() && used_words.empty() &&
               free_slots[next].starts_with("config:")) {
          ++next;  // a made-up box: config holds event and umask
        }
        if (next == free_slots.size()) return std::nullopt;
        bits = free_slots[next++];
      }
      std::ofstream(format / term) << bits << "\n";
    }
  }
  for (const std::string& name : fixture_pmus) {
    if (name.starts_with("uncore_cha") ||
        (name.starts_with("uncore_iio") && name.find("free_running") == std::string::npos)) {
      std::ofstream(devices / name / "format" / "umask") << "config:8-15,32-55\n";
    }
  }
  if (fs::exists(devices / "cpu" / "format") && !fs::exists(devices / "cpu" / "format" / "any")) {
    std::ofstream(devices / "cpu" / "format" / "any") << "config:21\n";
  }
  // The residency counters perf's Power metrics read, each PMU's own (event codes made up).
  for (const char* pmu : {"cstate_core", "cstate_pkg", "cstate_module"}) {
    const fs::path dir = devices / pmu;
    if (!fs::exists(dir)) {
      fs::create_directories(dir / "format");
      std::ofstream(dir / "type") << type++ << "\n";
      std::ofstream(dir / "cpumask") << "0\n";
      std::ofstream(dir / "format" / "event") << "config:0-63\n";
    }
    fs::create_directories(dir / "events");
    for (int state : {1, 2, 3, 6, 7, 8, 9, 10}) {
      const fs::path file = dir / "events" / fmt::format("c{}-residency", state);
      if (!fs::exists(file)) std::ofstream(file) << fmt::format("event=0x{:02x}\n", state);
    }
  }
  return devices;
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

// One table set: its JSON tree, its compiled index, the jevents rules (and metric language) that
// read it, the semantics the expanded events are encoded with, and which expansion errors are
// known gaps (left out of the plans, counted) rather than failures.
struct TableSet {
  fs::path json_root;
  fs::path index_root;
  PerfRelease rules;
  Profile semantics;
  std::function<bool(const std::string& error)> known_gap = nullptr;
};

void every_metric_group_agrees(const TableSet& tables) {
  const fs::path& json_root = tables.json_root;
  const fs::path& index_root = tables.index_root;
  if (json_root.empty() || !fs::exists(json_root / "x86" / "mapfile.csv")) {
    GTEST_SKIP() << "no linux " << to_string(tables.rules) << " pmu-events tables in this build";
  }
  const fs::path events_dir =
      !index_root.empty() && fs::exists(index_root / "x86") ? index_root : json_root;
  const auto models = models_with_counters(json_root);
  ASSERT_GE(models.size(), 30u);
  std::size_t planned = 0, fitting = 0, rotating = 0, unschedulable = 0, skipped = 0, pasted = 0,
              left_out = 0;
  for (const Model& model : models) {
    VendorOptions vendor;
    vendor.events_dir = events_dir;
    vendor.cpuid = model.cpuid;
    vendor.rules = tables.rules;
    const fs::path fixture = fs::path(pmucat::testing::source_dir()) / "fixtures/sysfs/intel-spr";
    auto first = Catalog::open(fixture, vendor);
    ASSERT_TRUE(first && first->vendor_model() != nullptr) << model.directory;
    const pmucat::testing::ScratchDir scratch("planner-tree");
    const std::optional<fs::path> tree = model_tree(*first->vendor_model(), scratch.path());
    ASSERT_TRUE(tree) << model.directory << ": a PMU's terms do not fit the made-up formats";
    auto catalog = Catalog::open(*tree, vendor);
    ASSERT_TRUE(catalog) << model.directory;
    ASSERT_NE(catalog->vendor_model(), nullptr) << model.directory << " " << model.cpuid;
    ASSERT_EQ(catalog->vendor_model()->directory, model.directory);
    for (const VendorMetricGroup& group : catalog->vendor_metric_groups()) {
      for (const bool watchdog : {false, true}) {
        MetricExpandOptions options;
        options.nmi_watchdog = watchdog;
        for (const char* literal : {"smt_on=1", "num_cpus=8", "num_cores=4", "num_dies=1",
                                    "num_packages=1", "core_wide=0", "system_tsc_freq=2e9",
                                    "num_cpus_online=8", "has_pmem=0", "target_cpu=0"}) {
          const std::string_view text = literal;
          const auto eq = text.find('=');
          options.literals.set(text.substr(0, eq), std::stod(std::string(text.substr(eq + 1))));
        }
        EncodeOptions encode_options;
        encode_options.tool = Tool::stat;
        encode_options.semantics = tables.semantics;
        auto encoded = expand_metrics(*catalog, group.name, options, encode_options);
        if (!encoded && tables.known_gap && tables.known_gap(encoded.error().message)) {
          ++left_out;
          continue;
        }
        if (!encoded) {
          ++skipped;
          ADD_FAILURE() << model.directory << " -M " << group.name << ": "
                        << encoded.error().message;
          continue;
        }
        const PlanInput input = build_plan_input(
            *catalog, encoded->events, PlanBuildOptions{.nmi_watchdog = watchdog, .counters = {}});
        const Plan plan = plan_counters(input);
        expect_agreement(
            input, plan,
            fmt::format("{} -M {} watchdog {}", model.directory, group.name, watchdog));
        ++planned;
        // The regrouping in the expanded events' specs pastes back as the same attrs as its
        // encodings (once per group: the watchdog changes neither line's spelling).
        if (!watchdog) {
          auto by_encoding = encode(*catalog, plan.regrouping.perf_events, encode_options);
          if (by_encoding) {
            auto by_spec = encode(*catalog, plan.regrouping.events, encode_options);
            ASSERT_TRUE(by_spec) << model.directory << " -M " << group.name << ": "
                                 << plan.regrouping.events << ": " << by_spec.error().message;
            std::vector<Attr> a;
            std::vector<Attr> b;
            for (const EncodedEvent& e : *by_spec) a.push_back(e.attr);
            for (const EncodedEvent& e : *by_encoding) b.push_back(e.attr);
            EXPECT_EQ(a, b) << model.directory << " -M " << group.name << "\n"
                            << plan.regrouping.events << "\n"
                            << plan.regrouping.perf_events;
            ++pasted;
          }
        }
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
      "that never count; %zu not expandable; %zu known gaps\n",
      models.size(), planned, fitting, rotating, unschedulable, skipped, left_out);
  EXPECT_GT(planned, 500u);
  std::printf("%zu regroupings pasted back in the expanded specs\n", pasted);
  EXPECT_GT(pasted, 250u);
}

TEST(PlannerMetricGroups, EveryX86ModelWithCounterJsonAgreesWithTheReference) {
  every_metric_group_agrees(
      {PMUCAT_EVENTS_JSON_DIR, PMUCAT_EVENTS_DIR_BUILD, PerfRelease::v6_12, Profile{}});
}

// A known gap in linux 7.3's: the generated lpm_miss_lat metrics' CHA filter terms (filter_opc0,
// filter_rem, ...), which model_tree's made-up CHA formats have no room for beside the others.
TEST(PlannerMetricGroups, Linux73TablesAgreeWithTheReference) {
  TableSet tables{PMUCAT_EVENTS_JSON_DIR_7_3, PMUCAT_EVENTS_DIR_BUILD_7_3, PerfRelease::v7_3,
                  Profile::perf(PerfRelease::v7_3)};
  tables.known_gap = [](const std::string& error) {
    return error.find("unknown term 'filter_opc0'") != std::string::npos;
  };
  every_metric_group_agrees(tables);
}

}  // namespace
PMUCAT_END_NAMESPACE
