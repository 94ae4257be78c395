// The differential test: pmucat's encoder (perf semantics) against the real perf 6.1, on the
// vendor fixture trees, the captured dumps in ../shared/sysfs-dumps and seeded random trees.
// `--seed N` / `--count N` (or PMUCAT_DIFF_SEED / PMUCAT_DIFF_COUNT, random specs per tree) run
// more; see docs/robustness.md.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "comparison.h"
#include "diff_env.h"
#include "perf_oracle.h"
#include "pmucat/version.h"
#include "reference_encoder.h"
#include "spec_generator.h"
#include "support/scratch_dir.h"
#include "tree_model.h"

PMUCAT_BEGIN_NAMESPACE
namespace differential {
namespace {
namespace fs = std::filesystem;

std::uint64_t run_seed() {
  return seed(20261130);
}
// The default gives ~3,000 specs, which two cores compare in well under a minute.
unsigned random_count() {
  return static_cast<unsigned>(env_number("PMUCAT_DIFF_COUNT", 100));
}

// Per-tree tallies, printed so docs/testing.md can quote the agreement figures.
struct Tally {
  std::map<std::string, unsigned> documented;  // divergence id -> count
  unsigned agree = 0;
  unsigned disagree = 0;
  unsigned perf_accepted = 0;
  std::map<std::string, unsigned> semantics_documented;  // default vs perf semantics
  unsigned reference_checked = 0;
  unsigned reference_differs = 0;
  std::vector<std::string> failures;
};

void print(const std::string& label, const Tally& tally, std::size_t total) {
  std::string documented;
  for (const auto& [id, count] : tally.documented) documented += fmt::format(" {}={}", id, count);
  std::string semantics;
  for (const auto& [id, count] : tally.semantics_documented) {
    semantics += fmt::format(" {}={}", id, count);
  }
  fmt::print(
      "[differential] {}: {} specs ({} accepted by perf): {} agree, {} disagree;"
      " documented vs perf:{}; default semantics differs as documented:{};"
      " reference encoder: {} checked, {} differ\n",
      label, total, tally.perf_accepted, tally.agree, tally.disagree,
      documented.empty() ? " none" : documented, semantics.empty() ? " none" : semantics,
      tally.reference_checked, tally.reference_differs);
}

// The attrs of one event without the `slots` leader perf 7.3 and pmucat's semantics add before a
// lone topdown metric event (topdown_adds_slots, type 4 config 0x400): the reference encoder
// encodes the event alone.
std::vector<AttrWords> without_added_slots(std::vector<AttrWords> attrs) {
  const auto is_slots = [](const AttrWords& words) {
    return words.type == 4 && words.config == ConfigWords{0x400};
  };
  if (Profile::pmucat().has(Behaviour::topdown_adds_slots) && attrs.size() == 2) {
    std::erase_if(attrs, is_slots);
  }
  return attrs;
}

// Runs every case through perf and pmucat and checks both comparisons.
// `reference_applies`: the tree is one the reference encoder models completely (generated or
// vendor fixture trees; not the captured dumps, whose odd files it does not try to read).
// `materialised`: perf reads a MaterialisedTree copy, whose dynamic types are moved up.
void run_differential(const std::string& label, const fs::path& library_dir,
                      const fs::path& perf_devices_dir, const TreeModel& tree,
                      const std::vector<SpecCase>& cases, bool reference_applies,
                      bool materialised) {
  const OracleOptions options = OracleOptions::from_environment();
  if (auto why = oracle_unavailable(options)) GTEST_SKIP() << "perf oracle unavailable: " << *why;
  auto catalog = Catalog::open(library_dir);
  ASSERT_TRUE(catalog.has_value()) << label << ": " << catalog.error().message;
  if (cases.empty()) {
    fmt::print("[differential] {}: no PMU with formats or events, nothing to compare\n", label);
    return;
  }

  std::vector<std::string> specs;
  for (const auto& spec_case : cases) specs.push_back(spec_case.spec);
  OracleRun run = run_perf(perf_devices_dir, specs, options);
  ASSERT_TRUE(run.failure.empty()) << label << ": " << run.failure;
  ASSERT_EQ(run.results.size(), cases.size());
  if (materialised) {
    for (PerfResult& result : run.results) restore_materialised_types(result);
  }

  Tally tally;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const SpecCase& spec_case = cases[i];
    const PerfResult& perf = run.results[i];
    const OurResult ours = encode_words(*catalog, spec_case.spec, oracle_semantics());
    const OurResult ours_default = encode_words(*catalog, spec_case.spec, Profile::pmucat());
    tally.perf_accepted += perf.accepted() ? 1 : 0;

    const Comparison versus_perf = compare_with_perf(spec_case, tree, perf, ours);
    if (versus_perf.verdict == Verdict::agree) ++tally.agree;
    if (versus_perf.verdict == Verdict::documented) ++tally.documented[versus_perf.reason];
    if (versus_perf.verdict == Verdict::disagree) {
      ++tally.disagree;
      tally.failures.push_back(fmt::format("[{}] {}: {}", to_string(spec_case.kind), spec_case.spec,
                                           versus_perf.reason));
    }
    if (reference_applies) {
      const auto expected = reference_encode(spec_case, tree);
      ++tally.reference_checked;
      const bool same_result = expected ? without_added_slots(ours_default.attrs) == *expected
                                        : !ours_default.accepted();
      if (!same_result) {
        ++tally.reference_differs;
        tally.failures.push_back(fmt::format(
            "[{} / reference] {}: reference {} | pmucat default {}", to_string(spec_case.kind),
            spec_case.spec, expected ? describe(*expected) : "rejects",
            ours_default.accepted() ? describe(ours_default.attrs)
                                    : "rejected: " + ours_default.error));
      }
    }
    // pmucat's semantics build on their base release: against a newer perf they are compared
    // with that release's semantics (the newer perf's changes are in the oracle comparison).
    const OurResult base =
        oracle_perf_version() != kPmucatBaseRelease
            ? encode_words(*catalog, spec_case.spec, Profile::perf(kPmucatBaseRelease))
            : ours;
    const Comparison semantics = compare_semantics(spec_case, tree, *catalog, base, ours_default);
    if (semantics.verdict == Verdict::documented) ++tally.semantics_documented[semantics.reason];
    if (semantics.verdict == Verdict::disagree) {
      tally.failures.push_back(fmt::format("[{} / default semantics] {}: {}",
                                           to_string(spec_case.kind), spec_case.spec,
                                           semantics.reason));
    }
  }
  print(label, tally, cases.size());
  std::string report;
  for (const auto& failure : tally.failures) report += "  " + failure + "\n";
  EXPECT_TRUE(tally.failures.empty())
      << label << ": " << tally.failures.size() << " differences (seed " << run_seed() << "):\n"
      << report;
}

// Runs a tree on disk: the library reads it where it is, perf reads a symlink-free copy.
void run_tree_on_disk(const std::string& label, const fs::path& root, std::uint64_t tree_seed,
                      unsigned random_specs, bool reference_applies,
                      const std::vector<SpecCase>& curated = {}) {
  const fs::path devices = devices_folder(root);
  const TreeModel tree = read_tree(devices);
  ASSERT_FALSE(tree.pmus.empty()) << label << ": no PMUs under " << devices;
  Rng rng(tree_seed);
  std::vector<SpecCase> cases = curated;
  const auto events = event_cases(tree, rng);
  cases.insert(cases.end(), events.begin(), events.end());
  if (reference_applies) {
    const auto limits = field_limit_cases(tree, rng);
    cases.insert(cases.end(), limits.begin(), limits.end());
  }
  const auto extra = random_cases(tree, rng, random_specs);
  cases.insert(cases.end(), extra.begin(), extra.end());
  auto copy = MaterialisedTree::copy_of(devices);
  ASSERT_TRUE(copy.has_value()) << label << ": cp -rL failed";
  run_differential(label, root, copy->devices_dir(), tree, cases, reference_applies, true);
}

std::uint64_t label_seed(const std::string& label) {
  std::uint64_t hash = run_seed();
  for (char c : label) hash = hash * 1099511628211ULL ^ static_cast<unsigned char>(c);
  return hash;
}

// Hand-picked specs per vendor tree: the examples the reference notes and ABI docs use.
std::vector<SpecCase> curated_cases(const std::string& tree) {
  using K = CaseKind;
  if (tree == "intel-spr") {
    return {
        {"cpu/mem-loads,ldlat=30/", K::alias_same_field, "cpu", "mem-loads", {"ldlat=30"}, "ldlat"},
        {"cpu/event=0x3c,umask=0x1,inv,cmask=3/u",
         K::fields,
         "cpu",
         "",
         {"event=0x3c", "umask=0x1", "inv", "cmask=3"},
         ""},
        {"uncore_cha/event=0x35,umask=0x10c0008101/",
         K::pmu_pattern,
         "uncore_cha",
         "",
         {"event=0x35", "umask=0x10c0008101"},
         ""},
        {"uncore_imc/cas_count_read/", K::pmu_pattern, "uncore_imc", "cas_count_read", {}, ""}};
  }
  if (tree == "amd-zen4") {
    return {{"cpu/event=0x423,inv,cmask=0x3/",
             K::fields,
             "cpu",
             "",
             {"event=0x423", "inv", "cmask=0x3"},
             ""},
            {"amd_iommu_0/mem_dte_hit,devid=0x10,devid_mask=0xffff/",
             K::alias_other_field,
             "amd_iommu_0",
             "mem_dte_hit",
             {"devid=0x10", "devid_mask=0xffff"},
             ""}};
  }
  if (tree == "arm-neoverse") {
    return {
        {"arm_cmn_0/watchpoint_up,wp_dev_sel=1,wp_chn_sel=2,wp_grp=1,wp_val=0x5,wp_mask=0x7/",
         K::event,
         "arm_cmn_0",
         "watchpoint_up",
         {"wp_dev_sel=1", "wp_chn_sel=2", "wp_grp=1", "wp_val=0x5", "wp_mask=0x7"},
         ""},
        {"arm_spe_0/ts_enable=1,event_filter=0x2/",
         K::fields,
         "arm_spe_0",
         "",
         {"ts_enable=1", "event_filter=0x2"},
         ""},
        {"arm_spe_0/inv_event_filter=1/", K::fields, "arm_spe_0", "", {"inv_event_filter=1"}, ""}};
  }
  if (tree == "power9") {
    return {{"hv_24x7/PM_PB_CYC,chip=0/", K::event, "hv_24x7", "PM_PB_CYC", {"chip=0"}, ""},
            {"hv_24x7/pm_cyc,domain=2,core=3/",
             K::event,
             "hv_24x7",
             "pm_cyc",
             {"domain=2", "core=3"},
             ""},
            {"cpu/L1-dcache-load-misses/", K::event, "cpu", "L1-dcache-load-misses", {}, ""}};
  }
  return {};
}

class FixtureTree : public ::testing::TestWithParam<std::string> {};

TEST_P(FixtureTree, EveryEventAndRandomSpecsMatchPerf) {
  const fs::path root = fs::path(PMUCAT_SOURCE_DIR) / "fixtures" / "sysfs" / GetParam();
  ASSERT_TRUE(fs::is_directory(root)) << root;
  run_tree_on_disk(GetParam(), root, label_seed(GetParam()), random_count(), true,
                   curated_cases(GetParam()));
}

INSTANTIATE_TEST_SUITE_P(Vendors, FixtureTree,
                         ::testing::Values("intel-spr", "amd-zen4", "arm-neoverse", "power9"),
                         [](const ::testing::TestParamInfo<std::string>& param_info) {
                           std::string name = param_info.param;
                           for (char& c : name) c = c == '-' ? '_' : c;
                           return name;
                         });

// The captured trees kept in ../shared/sysfs-dumps (read in place, never copied into the repo).
TEST(CapturedDumps, EveryEventAndRandomSpecsMatchPerf) {
  const fs::path dumps = fs::path(PMUCAT_SOURCE_DIR) / ".." / "shared" / "sysfs-dumps";
  if (!fs::is_directory(dumps)) GTEST_SKIP() << "no captured dumps at " << dumps;
  std::vector<fs::path> roots;
  for (auto it = fs::recursive_directory_iterator(dumps); it != fs::recursive_directory_iterator();
       ++it) {
    if (it->is_directory() && it->path().filename() == "event_source") {
      roots.push_back(it->path().parent_path().parent_path());
      it.disable_recursion_pending();
    }
  }
  std::sort(roots.begin(), roots.end());
  ASSERT_FALSE(roots.empty());
  for (const auto& root : roots) {
    const std::string label = fs::relative(root, dumps).string();
    SCOPED_TRACE(label);
    run_tree_on_disk(label, root, label_seed(label), random_count() / 4, false);
  }
}

// perf -vv prints no unit or scale, so the random trees' metadata is checked against the model
// the tree was written from.
void expect_metadata_as_written(const TreeModel& tree, const fs::path& devices) {
  auto catalog = Catalog::open(devices);
  ASSERT_TRUE(catalog.has_value()) << catalog.error().message;
  for (const auto& model : tree.pmus) {
    const Pmu* pmu = catalog->find_pmu(model.name);
    ASSERT_NE(pmu, nullptr) << model.name;
    ASSERT_EQ(pmu->events().size(), model.events.size()) << model.name;
    for (const auto& [name, event] : model.events) {
      const Event* loaded = pmu->find_event(name);
      ASSERT_NE(loaded, nullptr) << model.name << "/" << name;
      EXPECT_EQ(loaded->unit, event.unit) << model.name << "/" << name;
      EXPECT_EQ(event.scale.has_value(), loaded->scale.has_value()) << model.name << "/" << name;
      if (event.scale && loaded->scale) {
        EXPECT_DOUBLE_EQ(*loaded->scale, std::stod(*event.scale)) << model.name << "/" << name;
        EXPECT_EQ(loaded->scale_text, *event.scale) << model.name << "/" << name;
      }
    }
  }
}

TEST(RandomTrees, RandomSpecsMatchPerf) {
  const unsigned trees = std::max(4U, random_count() / 10);
  for (unsigned t = 0; t < trees; ++t) {
    Rng rng(run_seed() + t);
    const TreeModel tree = random_tree(rng, 6, /*with_config3=*/t % 2 == 1);
    const testing::ScratchDir scratch("random");
    const fs::path& root = scratch.path();
    write_tree(tree, root / "devices");
    std::vector<SpecCase> cases = event_cases(tree, rng);
    const auto limits = field_limit_cases(tree, rng);
    cases.insert(cases.end(), limits.begin(), limits.end());
    const auto extra = random_cases(tree, rng, random_count());
    cases.insert(cases.end(), extra.begin(), extra.end());
    const std::string label = fmt::format("random tree {} (seed {})", t, run_seed() + t);
    SCOPED_TRACE(label);
    expect_metadata_as_written(tree, root / "devices");
    run_differential(label, root / "devices", root / "devices", tree, cases, true, false);
    if (IsSkipped()) return;
  }
}

}  // namespace
}  // namespace differential
PMUCAT_END_NAMESPACE
