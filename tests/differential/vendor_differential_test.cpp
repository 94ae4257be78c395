// The vendor JSON differential test: for every x86 model of the events dir's mapfile.csv, a
// sysfs tree made for that model's events, a seeded sample of its JSON events (core and
// uncore) in several spellings, encoded by pmucat and by the real perf 6.1 run with
// PERF_CPUID set to that model. By default a few events per model (the ctest run); `--all`
// takes 50 per model, `--count N` N per model, `--seed N` another sample (docs/robustness.md).
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "comparison.h"
#include "diff_env.h"
#include "perf_oracle.h"
#include "pmucat/catalog.h"
#include "pmucat/vendor_events.h"
#include "support/scratch_dir.h"
#include "vendor_tree.h"

PMUCAT_BEGIN_NAMESPACE
namespace differential {
namespace {
namespace fs = std::filesystem;

// Events sampled per model: 50 in the full run; 12 in the ctest run (~2,400 perf runs).
unsigned events_per_model() {
  return static_cast<unsigned>(env_number("PMUCAT_VENDOR_DIFF_COUNT", full_run() ? 50 : 12));
}

std::uint64_t label_seed(const std::string& label) {
  std::uint64_t hash = seed();
  for (char c : label) hash = hash * 1099511628211ULL ^ static_cast<unsigned char>(c);
  return hash;
}

std::string upper(std::string text) {
  for (char& c : text) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return text;
}

enum class Variant : std::uint8_t { bare, pmu, user_term, modifier, upper_case, invalid };
const char* to_string(Variant variant) {
  switch (variant) {
    case Variant::bare:
      return "bare";
    case Variant::pmu:
      return "pmu";
    case Variant::user_term:
      return "user-term";
    case Variant::modifier:
      return "modifier";
    case Variant::upper_case:
      return "upper-case";
    case Variant::invalid:
      return "invalid";
  }
  return "?";
}

struct VendorCase {
  std::string spec;
  Variant variant = Variant::bare;
  const VendorEvent* event = nullptr;  // the event pmucat and perf find first by this name/PMU
  bool uncore = false;
  std::string pmu_written;  // empty for a bare name
  std::string user_term;    // `name=value` of the user_term variant
};

// The first event of the model (perf's table order) with this name and PMU: the one both
// tools use when a model has two.
const VendorEvent* first_event(const std::vector<VendorEvent>& events, const VendorEvent& event) {
  for (const auto& candidate : events) {
    if (candidate.name == event.name && candidate.pmu == event.pmu) return &candidate;
  }
  return &event;
}

// The tree's core PMU (`cpu`, or `cpu_core` on hybrid models) and its first uncore unit (empty
// when it has none), for specs that put an event on a PMU that does not have it.
std::string tree_core_pmu(const VendorTree& tree) {
  return tree.hybrid.contains("cpu_core") ? "cpu_core" : "cpu";
}
std::string first_uncore(const VendorTree& tree) {
  for (const auto& pmu : tree.tree.pmus) {
    if (!is_core_pmu(pmu.name)) return pmu.name;
  }
  return {};
}

// A seeded sample of `count` distinct event names, uncore ones up to two fifths when the model
// has them, then the variants of each.
std::vector<VendorCase> sample_cases(const std::vector<VendorEvent>& events, const VendorTree& tree,
                                     unsigned count, Rng& rng) {
  std::vector<const VendorEvent*> core;
  std::vector<const VendorEvent*> uncore;
  std::set<std::string> seen;
  for (const auto& event : events) {
    if (!seen.insert(event.name).second) continue;
    (is_core_pmu(event.pmu) ? core : uncore).push_back(first_event(events, event));
  }
  std::shuffle(core.begin(), core.end(), rng);
  std::shuffle(uncore.begin(), uncore.end(), rng);
  const std::size_t uncore_count = std::min<std::size_t>(uncore.size(), (count * 2 + 4) / 5);
  const std::size_t core_count = std::min<std::size_t>(core.size(), count - uncore_count);
  std::vector<const VendorEvent*> chosen(core.begin(), core.begin() + core_count);
  chosen.insert(chosen.end(), uncore.begin(), uncore.begin() + uncore_count);
  if (chosen.size() < count) {  // a model with few core events: more uncore ones
    const std::size_t more =
        std::min<std::size_t>(uncore.size() - uncore_count, count - chosen.size());
    chosen.insert(chosen.end(), uncore.begin() + uncore_count,
                  uncore.begin() + uncore_count + more);
  }

  auto pick = [&rng](std::size_t n) { return static_cast<std::size_t>(rng() % n); };
  std::vector<VendorCase> cases;
  for (const VendorEvent* event : chosen) {
    const bool is_uncore = !is_core_pmu(event->pmu);
    // Uncore: the unit's name (every instance) or one instance; core: the core PMU.
    std::string pmu = core_pmu_for(event->pmu);
    if (is_uncore && pick(3) == 0) {
      const auto names = instance_names(event->pmu);
      pmu = names[pick(names.size())];
    }
    const std::string& name = event->name;
    auto add = [&](std::string spec, Variant variant, std::string written,
                   std::string user_term = {}) {
      cases.push_back(VendorCase{std::move(spec), variant, event, is_uncore, std::move(written),
                                 std::move(user_term)});
    };
    add(name, Variant::bare, {});
    add(fmt::format("{}/{}/", pmu, name), Variant::pmu, pmu);
    // A user term: cmask=2 on core events (the docs' example); on uncore, one of the PMU's
    // format terms at 1.
    std::string user_term = "cmask=2";
    if (is_uncore) {
      const auto it = std::find_if(
          tree.tree.pmus.begin(), tree.tree.pmus.end(),
          [&](const PmuModel& model) { return model.name == instance_names(event->pmu).front(); });
      if (it != tree.tree.pmus.end() && !it->fields.empty()) {
        auto field = it->fields.begin();
        std::advance(field, static_cast<std::ptrdiff_t>(pick(it->fields.size())));
        user_term = field->first + "=1";
      }
    }
    add(fmt::format("{}/{},{}/", pmu, name, user_term), Variant::user_term, pmu, user_term);
    static constexpr std::array<const char*, 3> kModifiers{"u", "k", "pp"};
    const char* modifier = kModifiers[pick(is_uncore ? 2 : 3)];
    if (pick(2) == 0) {
      add(fmt::format("{}:{}", name, modifier), Variant::modifier, {});
    } else {
      add(fmt::format("{}/{}/{}", pmu, name, modifier), Variant::modifier, pmu);
    }
    if (pick(2) == 0) {
      add(upper(name), Variant::upper_case, {});
    } else {
      add(fmt::format("{}/{}/", pmu, upper(name)), Variant::upper_case, pmu);
    }
    // One spec both should reject: a value one past a field's maximum, a term no format has,
    // or the event on a PMU that does not have it.
    const std::string other_pmu =
        is_uncore ? core_pmu_for(tree_core_pmu(tree)) : first_uncore(tree);
    switch (other_pmu.empty() ? pick(2) : pick(3)) {
      case 0: {
        const std::string over =
            is_uncore ? (event->pmu.starts_with("amd_") ? "umask=0x100" : "edge=2") : "cmask=0x100";
        add(fmt::format("{}/{},{}/", pmu, name, over), Variant::invalid, pmu, over);
        break;
      }
      case 1:
        add(fmt::format("{}/{},pmucat_no_such_term=1/", pmu, name), Variant::invalid, pmu);
        break;
      default:
        add(fmt::format("{}/{}/", other_pmu, name), Variant::invalid, other_pmu);
        break;
    }
  }
  return cases;
}

// pmucat's default semantics lets a user term replace the event's own value of that field
// (perf ORs the two): the explicit spec that means, or empty when the user term is not one of
// the event's.
std::string override_spec(const VendorCase& spec_case) {
  if (spec_case.user_term.empty()) return {};
  const std::string field = spec_case.user_term.substr(0, spec_case.user_term.find('='));
  std::string terms;
  bool replaced = false;
  for (const auto& [name, value] : split_terms(spec_case.event->terms)) {
    if (!terms.empty()) terms += ',';
    if (name == field) {
      terms += spec_case.user_term;
      replaced = true;
    } else {
      terms += value.empty() ? name : name + "=" + value;
    }
  }
  if (!replaced) return {};
  return fmt::format("{}/{}/", spec_case.pmu_written, terms);
}

constexpr const char* kHybridFallback = "perf61-hybrid-pmu-bare-name";

// `cpu_core/NAME/` or `cpu_atom/NAME/`, one bare term that is no event of that PMU: perf 6.1
// parses NAME again as a bare event name (its hybrid path) and builds it on every PMU that has
// it; pmucat, like newer perf, rejects the term (docs/perf-compat.md, Vendor JSON events).
bool hybrid_fallback(const VendorCase& spec_case, const VendorTree& tree) {
  if (!tree.hybrid.contains(spec_case.pmu_written)) return false;
  if (spec_case.spec != fmt::format("{}/{}/", spec_case.pmu_written, spec_case.event->name) &&
      spec_case.spec !=
          fmt::format("{}/{}/", spec_case.pmu_written, upper(spec_case.event->name))) {
    return false;
  }
  return core_pmu_for(spec_case.event->pmu) != spec_case.pmu_written;
}

bool same(const OurResult& a, const OurResult& b) {
  return a.accepted() == b.accepted() && a.attrs == b.attrs;
}

std::string describe(const OurResult& result) {
  return result.accepted() ? describe(result.attrs) : "rejected: " + result.error;
}

std::string describe(const PerfResult& result) {
  return result.accepted() ? describe(result.attrs) : "rejected: " + result.error;
}

class VendorModel : public ::testing::TestWithParam<std::string> {};

TEST_P(VendorModel, SampledEventsMatchPerf) {
  const std::string directory = GetParam();
  const auto mapfile = read_x86_mapfile();
  if (!mapfile) {
    GTEST_SKIP() << "no vendor events dir (x86/mapfile.csv) at '" << events_dir().string()
                 << "': configure with -DPMUCAT_PMU_EVENTS_DIR or set PMUCAT_EVENTS_DIR";
  }
  OracleOptions options = OracleOptions::from_environment();
  if (auto why = oracle_unavailable(options)) GTEST_SKIP() << "perf oracle unavailable: " << *why;

  const auto row = std::find_if(mapfile->rows.begin(), mapfile->rows.end(),
                                [&](const MapfileRow& r) { return r.directory == directory; });
  ASSERT_NE(row, mapfile->rows.end());
  const auto cpuid = x86_cpuid_for_row(*mapfile, *row);
  ASSERT_TRUE(cpuid.has_value()) << "no identifier reaches row " << row->cpuid;
  // pmucat's own choice of model for that identifier must be the row's.
  std::vector<Diagnostic> notes;
  const auto choice = choose_vendor_model(events_dir(), *cpuid, notes);
  ASSERT_TRUE(choice.has_value()) << *cpuid;
  EXPECT_EQ(choice->row.directory, directory) << *cpuid;

  auto model = load_vendor_model(events_dir() / "x86", directory, oracle_perf_version());
  ASSERT_TRUE(model.has_value()) << model.error().message;
  const VendorTree tree = make_vendor_tree(model->events, vendor_of_cpuid(*cpuid));
  const testing::ScratchDir scratch("vendor");
  const fs::path devices = scratch / "devices";
  write_vendor_tree(tree, devices);
  auto catalog = Catalog::open(
      devices, VendorOptions{catalog_events_dir(), *cpuid, {}, {}, oracle_perf_version()});
  ASSERT_TRUE(catalog.has_value()) << catalog.error().message;

  Rng rng(label_seed(directory));
  const std::vector<VendorCase> cases = sample_cases(model->events, tree, events_per_model(), rng);
  ASSERT_FALSE(cases.empty()) << directory << ": no events";
  std::vector<std::string> specs;
  for (const auto& spec_case : cases) specs.push_back(spec_case.spec);
  options.cpuid = *cpuid;
  const OracleRun run = run_perf(devices, specs, options);
  ASSERT_TRUE(run.failure.empty()) << run.failure;
  ASSERT_EQ(run.results.size(), cases.size());

  std::set<const VendorEvent*> events;
  std::set<const VendorEvent*> uncore_events;
  unsigned equal = 0;
  unsigned documented = 0;
  unsigned perf_accepted = 0;
  std::vector<std::string> failures;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const VendorCase& spec_case = cases[i];
    const PerfResult& perf = run.results[i];
    events.insert(spec_case.event);
    if (spec_case.uncore) uncore_events.insert(spec_case.event);
    perf_accepted += perf.accepted() ? 1 : 0;
    const OurResult ours = encode_words(*catalog, spec_case.spec, oracle_semantics());
    const OurResult ours_default = encode_words(*catalog, spec_case.spec, Profile::pmucat());
    const bool agree =
        perf.accepted() == ours.accepted() && (!perf.accepted() || perf.attrs == ours.attrs);
    if (agree) {
      ++equal;
    } else if (hybrid_fallback(spec_case, tree)) {
      // docs/perf-compat.md: perf 6.1 takes `cpu_core/NAME/` for the bare `NAME`, wherever it
      // is; pmucat rejects it. Both sides asserted.
      const OurResult bare = encode_words(*catalog, spec_case.event->name, oracle_semantics());
      if (!ours.accepted() && perf.accepted() && perf.attrs == bare.attrs) {
        ++documented;
      } else {
        failures.push_back(fmt::format(
            "[{} / {}] {}: perf {} | pmucat {} | pmucat bare name {}", to_string(spec_case.variant),
            kHybridFallback, spec_case.spec, describe(perf), describe(ours), describe(bare)));
      }
    } else {
      failures.push_back(fmt::format("[{}] {} ({}): perf {} | pmucat {}",
                                     to_string(spec_case.variant), spec_case.spec,
                                     spec_case.event->terms, describe(perf), describe(ours)));
    }
    // Default semantics: as perf semantics, except that a user term replaces the event's value.
    const std::string equivalent = override_spec(spec_case);
    const OurResult expected =
        equivalent.empty() ? ours : encode_words(*catalog, equivalent, oracle_semantics());
    if (!same(expected, ours_default)) {
      failures.push_back(fmt::format(
          "[{} / default semantics] {}: expected {}{} | got {}", to_string(spec_case.variant),
          spec_case.spec, describe(expected), equivalent.empty() ? "" : " (as " + equivalent + ")",
          describe(ours_default)));
    }
  }
  std::string invented;
  for (const auto& name : tree.invented) invented += " " + name;
  fmt::print(
      "[vendor-diff] {} ({}): {} events ({} uncore), {} specs, perf accepted {}: {} equal, {} "
      "documented ({}), {} differ; invented formats:{}\n",
      directory, *cpuid, events.size(), uncore_events.size(), cases.size(), perf_accepted, equal,
      documented, kHybridFallback, cases.size() - equal - documented,
      invented.empty() ? " none" : invented);
  std::string report;
  for (const auto& failure : failures) report += "  " + failure + "\n";
  EXPECT_TRUE(failures.empty()) << directory << " (" << *cpuid << "): " << failures.size()
                                << " differences (seed " << seed() << "):\n"
                                << report;
}

INSTANTIATE_TEST_SUITE_P(VendorDiff, VendorModel, ::testing::ValuesIn(model_directories()),
                         [](const ::testing::TestParamInfo<std::string>& param_info) {
                           std::string name = param_info.param;
                           for (char& c : name)
                             c = std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
                           return name;
                         });

// An Intel tree whose core PMU knows the one JSON-style event inst_retired.any (event=0xc0,
// period=2000003), written to `scratch`/devices; returns that folder.
std::filesystem::path write_core_tree(const testing::ScratchDir& scratch) {
  VendorEvent event;
  event.name = "inst_retired.any";
  event.terms = "event=0xc0,period=2000003";
  write_vendor_tree(make_vendor_tree({event}, CpuVendor::intel), scratch / "devices");
  return scratch / "devices";
}

// The oracle hands PERF_CPUID to perf: with a model's identifier perf knows that model's JSON
// events, with the default one it knows none.
TEST(VendorDiffOracle, PerfCpuidReachesPerf) {
  if (!read_x86_mapfile()) GTEST_SKIP() << "no vendor events dir at '" << events_dir() << "'";
  OracleOptions options = OracleOptions::from_environment();
  if (auto why = oracle_unavailable(options)) GTEST_SKIP() << "perf oracle unavailable: " << *why;
  const testing::ScratchDir scratch("vendor");
  write_core_tree(scratch);
  const auto without = run_perf(scratch / "devices", {"inst_retired.any"}, options);
  options.cpuid = "GenuineIntel-6-8F-0";
  const auto with = run_perf(scratch / "devices", {"inst_retired.any"}, options);
  ASSERT_TRUE(without.failure.empty() && with.failure.empty()) << without.failure << with.failure;
  ASSERT_EQ(with.results.size(), 1U);
  ASSERT_EQ(without.results.size(), 1U);
  EXPECT_FALSE(without.results[0].accepted()) << without.results[0].output;
  ASSERT_TRUE(with.results[0].accepted()) << with.results[0].output;
  EXPECT_EQ(with.results[0].attrs[0].type, 4U);
  EXPECT_EQ(with.results[0].attrs[0].config[0], 0xc0U);
}

// docs/perf-compat.md, Vendor JSON events: perf 6.1 takes `cpu_core/NAME/`, NAME no event of
// cpu_core, for the bare NAME (here alderlake's memory controller event on both uncore_imc
// instances); with a second term it rejects it. pmucat rejects both, and so does perf 6.12.
TEST(VendorDiffOracle, Perf61HybridPmuTakesAnUnknownNameAsTheBareName) {
  if (!read_x86_mapfile()) GTEST_SKIP() << "no vendor events dir at '" << events_dir() << "'";
  OracleOptions options = OracleOptions::from_environment();
  if (auto why = oracle_unavailable(options)) GTEST_SKIP() << "perf oracle unavailable: " << *why;
  auto model = load_vendor_model(events_dir() / "x86", "alderlake", oracle_perf_version());
  ASSERT_TRUE(model.has_value());
  const VendorTree tree = make_vendor_tree(model->events, CpuVendor::intel);
  const testing::ScratchDir scratch("vendor");
  write_vendor_tree(tree, scratch / "devices");
  options.cpuid = "GenuineIntel-6-97-0";
  auto catalog = Catalog::open(
      scratch / "devices",
      VendorOptions{catalog_events_dir(), options.cpuid, {}, {}, oracle_perf_version()});
  ASSERT_TRUE(catalog.has_value());
  const std::vector<std::string> specs{"cpu_core/unc_m_cas_count_rd/", "unc_m_cas_count_rd",
                                       "cpu_core/unc_m_cas_count_rd,cmask=2/"};
  const OracleRun run = run_perf(scratch / "devices", specs, options);
  ASSERT_TRUE(run.failure.empty()) << run.failure;
  ASSERT_EQ(run.results.size(), 3U);
  // perf: the hybrid PMU's spec is the bare name's two uncore_imc attrs.
  ASSERT_TRUE(run.results[1].accepted()) << run.results[1].output;
  EXPECT_EQ(run.results[1].attrs.size(), 2U);
  EXPECT_EQ(run.results[1].attrs[0].config[0], 0x22U);
  if (oracle_perf_version() == PerfRelease::v6_1) {
    EXPECT_EQ(run.results[0].attrs, run.results[1].attrs) << run.results[0].output;
  } else {
    // perf 6.12 no longer does: it rejects the spec, as pmucat does.
    EXPECT_FALSE(run.results[0].accepted()) << run.results[0].output;
  }
  EXPECT_FALSE(run.results[2].accepted()) << run.results[2].output;
  // pmucat: the bare name as perf; the hybrid PMU's spec rejected in both semantics.
  EXPECT_EQ(encode_words(*catalog, specs[1], oracle_semantics()).attrs, run.results[1].attrs);
  for (const Profile semantics : {oracle_semantics(), Profile::pmucat()}) {
    const OurResult result = encode_words(*catalog, specs[0], semantics);
    EXPECT_FALSE(result.accepted()) << describe(result.attrs);
    EXPECT_NE(result.error.find("unc_m_cas_count_rd"), std::string::npos) << result.error;
    EXPECT_FALSE(encode_words(*catalog, specs[2], semantics).accepted());
  }
}

// perf 6.1 builds in the system tables of its architecture and of `test` (test_soc: Compat "v8"
// on Unit sys_ddr_pmu, "0x01" on sys_ccn_pmu) and adds them to PMUs by identifier; the same
// specs through pmucat's catalog, with and without a CPU identifier.
TEST(VendorDiffOracle, SystemTablesAttachByIdentifierAsPerf) {
  if (!read_x86_mapfile()) GTEST_SKIP() << "no vendor events dir at '" << events_dir() << "'";
  OracleOptions options = OracleOptions::from_environment();
  if (auto why = oracle_unavailable(options)) GTEST_SKIP() << "perf oracle unavailable: " << *why;
  const testing::ScratchDir scratch("vendor-sys");
  const std::filesystem::path devices = write_core_tree(scratch);
  auto write = [&](const std::string& relative, const std::string& text) {
    std::filesystem::create_directories((devices / relative).parent_path());
    std::ofstream(devices / relative) << text;
  };
  const struct {
    const char* pmu;
    const char* type;
    const char* identifier;
  } boxes[] = {{"uncore_sys_ddr_pmu0", "60", "v8"},
               {"uncore_sys_ddr_pmu1", "61", "v9"},
               {"uncore_sys_ccn_pmu", "62", "0x01"}};
  for (const auto& box : boxes) {
    const std::string base = box.pmu;
    write(base + "/type", std::string(box.type) + "\n");
    write(base + "/cpumask", "0\n");
    write(base + "/identifier", std::string(box.identifier) + "\n");
    write(base + "/format/event", "config:0-7\n");
    write(base + "/format/config", "config:0-15\n");
  }
  const std::vector<std::string> specs{"sys_ddr_pmu.write_cycles", "SYS_CCN_PMU.READ_CYCLES",
                                       "uncore_sys_ddr_pmu0/sys_ddr_pmu.write_cycles/",
                                       "uncore_sys_ddr_pmu1/sys_ddr_pmu.write_cycles/",
                                       "sys_ddr_pmu.write_cycles:u"};
  options.cpuid = "GenuineIntel-6-8F-0";
  const OracleRun run = run_perf(devices, specs, options);
  ASSERT_TRUE(run.failure.empty()) << run.failure;
  ASSERT_EQ(run.results.size(), specs.size());
  ASSERT_TRUE(run.results[0].accepted()) << run.results[0].output;
  ASSERT_EQ(run.results[0].attrs.size(), 1U);
  EXPECT_EQ(run.results[0].attrs[0].type, 60U);
  EXPECT_EQ(run.results[0].attrs[0].config[0], 0x2bU);
  EXPECT_FALSE(run.results[3].accepted()) << run.results[3].output;
  for (const std::string& cpuid : {options.cpuid, std::string()}) {
    auto catalog = Catalog::open(
        devices, VendorOptions{catalog_events_dir(), cpuid, {}, {}, oracle_perf_version()});
    ASSERT_TRUE(catalog.has_value());
    for (std::size_t i = 0; i < specs.size(); ++i) {
      const OurResult ours = encode_words(*catalog, specs[i], oracle_semantics());
      EXPECT_EQ(ours.accepted(), run.results[i].accepted())
          << specs[i] << " (cpuid '" << cpuid << "'): " << ours.error << run.results[i].output;
      EXPECT_EQ(ours.attrs, run.results[i].attrs) << specs[i] << " (cpuid '" << cpuid << "')";
    }
  }
}

// Hardware cache event names: every spelling perf 6.1's lexer has for a cache type,
// alone and with one or two operation/result words, against perf 6.1 (type, config and whether
// it is accepted), and every other built-in name (hardware, software, tool). Also what the lexer
// makes of case variants, unknown words, a third word, a
// word a type does not support (iTLB-stores), and a built-in name that wins the lexer's tie
// (`branches-loads`). CI: the edge cases and a seeded sample of 60; PMUCAT_VENDOR_DIFF_ALL=1
// (or --all): every type spelling with every one- and two-word combination (6,006 specs).
TEST(LegacyNamesDiff, BuiltInAndCacheNamesMatchPerf) {
  OracleOptions options = OracleOptions::from_environment();
  if (auto why = oracle_unavailable(options)) GTEST_SKIP() << "perf oracle unavailable: " << *why;
  const std::vector<std::string> types = {
      "L1-dcache", "l1-d",     "l1d",  "L1-data", "L1-icache", "l1-i", "l1i",   "L1-instruction",
      "LLC",       "L2",       "dTLB", "d-tlb",   "Data-TLB",  "iTLB", "i-tlb", "Instruction-TLB",
      "branch",    "branches", "bpu",  "btb",     "bpc",       "node"};
  const std::vector<std::string> words = {"load",
                                          "loads",
                                          "read",
                                          "store",
                                          "stores",
                                          "write",
                                          "prefetch",
                                          "prefetches",
                                          "speculative-read",
                                          "speculative-load",
                                          "refs",
                                          "Reference",
                                          "ops",
                                          "access",
                                          "misses",
                                          "miss"};
  std::vector<std::string> specs = {
      "l1-dcache-loads", "llc-load-misses", "LLC-Load-misses", "LLC-load-MISSES", "DTLB-loads",
      "L1-dcache-reference", "L1-dcache-load-load-misses", "L1-dcache-loads-misses-refs",
      "iTLB-stores", "L1-icache-stores", "branch-prefetches", "branches-loads", "branch-misses",
      "branch-loads", "LLC-loads:u", "dTLB-load-misses:k", "node-loads:uk", "L1-dcache-",
      "L1-dcachex", "LLC-loadx", "LLC-load_misses", "LLC-2", "L1-dcache-load-misses-", "bpu-miss",
      "l1d-refs-load", "L1-data-misses-stores", "Instruction-TLB-access",
      // The other built-in names: hardware, software, tool events.
      "cpu-cycles", "cycles", "instructions", "cache-references", "cache-misses",
      "branch-instructions", "branches", "branch-misses", "bus-cycles", "stalled-cycles-frontend",
      "idle-cycles-frontend", "stalled-cycles-backend", "idle-cycles-backend", "ref-cycles",
      "cpu-clock", "task-clock", "page-faults", "faults", "context-switches", "cs",
      "cpu-migrations", "migrations", "minor-faults", "major-faults", "alignment-faults",
      "emulation-faults", "dummy", "bpf-output", "cgroup-switches", "duration_time", "user_time",
      "system_time", "duration_time:u", "cs:k",
      // Raw events: r<hex> outside a PMU, r0x<hex> only inside one.
      "r3c", "r0x3c", "rc0:u", "cpu/r0x3c/"};
  std::vector<std::string> combinations;
  for (const std::string& type : types) {
    combinations.push_back(type);
    for (const std::string& first : words) {
      combinations.push_back(type + "-" + first);
      for (const std::string& second : words)
        combinations.push_back(type + "-" + first + "-" + second);
    }
  }
  if (full_run()) {
    specs.insert(specs.end(), combinations.begin(), combinations.end());
  } else {
    std::mt19937_64 random(seed());
    std::shuffle(combinations.begin(), combinations.end(), random);
    specs.insert(specs.end(), combinations.begin(), combinations.begin() + 60);
  }
  const testing::ScratchDir scratch("cache-names");
  write_core_tree(scratch);
  const OracleRun run = run_perf(scratch / "devices", specs, options);
  ASSERT_TRUE(run.failure.empty()) << run.failure;
  ASSERT_EQ(run.results.size(), specs.size());
  auto catalog = Catalog::open(scratch / "devices");
  ASSERT_TRUE(catalog.has_value());
  std::size_t accepted = 0;
  std::size_t equal = 0;
  for (std::size_t i = 0; i < specs.size(); ++i) {
    const PerfResult& perf = run.results[i];
    accepted += perf.accepted() ? 1 : 0;
    for (const Profile semantics : semantics_matching_oracle()) {
      const OurResult ours = encode_words(*catalog, specs[i], semantics);
      if (counted_without_attr(perf)) {
        // A tool event: its attr is perf's software dummy event, which perf 6.12 never opens.
        EXPECT_TRUE(only_tool_event_attrs(ours)) << specs[i] << ": pmucat " << describe(ours);
        ++accepted;
        if (semantics != Profile::pmucat()) ++equal;
        continue;
      }
      EXPECT_EQ(ours.accepted(), perf.accepted())
          << specs[i] << ": pmucat " << (ours.accepted() ? describe(ours.attrs) : ours.error)
          << "\nperf: " << perf.output;
      EXPECT_EQ(ours.attrs, perf.attrs) << specs[i];
      if (semantics != Profile::pmucat() && ours.accepted() == perf.accepted() &&
          ours.attrs == perf.attrs) {
        ++equal;
      }
    }
  }
  std::printf("built-in and cache names: %zu specs, perf accepted %zu, pmucat equal %zu\n",
              specs.size(), accepted, equal);
  EXPECT_GT(accepted, specs.size() / 3) << "too few accepted specs to prove anything";
}

}  // namespace
}  // namespace differential
PMUCAT_END_NAMESPACE
