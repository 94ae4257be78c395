// The catalog over a compiled vendor event index gives what it gives over the JSON tree, and a
// lookup by name (one name merged, before any listing) gives what the PMU's listing gives, for
// every name of the model on every PMU, over both forms of the catalog.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <set>
#include <span>

#include "pmucat/catalog.h"
#include "pmucat/encode.h"
#include "pmucat/vendor_index.h"
#include "pmucat/vendor_index_cache.h"
#include "support/temp_tree.h"

PMUCAT_BEGIN_NAMESPACE
namespace {

using testing::TempTree;
namespace fs = std::filesystem;

constexpr std::string_view kPipeline = R"([
  {"EventCode": "0xc0", "EventName": "INST_RETIRED.ANY", "BriefDescription": "Instructions.",
   "SampleAfterValue": "2000003", "UMask": "0x1"},
  {"EventCode": "0x3c", "EventName": "CYCLES", "BriefDescription": "Cycles (JSON side).",
   "SampleAfterValue": "1000003", "UMask": "0x0"},
  {"EventCode": "0x2e", "EventName": "Mixed.Case", "BriefDescription": "Merges with a variant.",
   "UMask": "0x4f"},
  {"EventCode": "0xzz", "EventName": "BAD.CODE", "BriefDescription": "Skipped."},
  {"EventCode": "0xd1", "EventName": "MEM_LOAD_RETIRED.L3_MISS", "PEBS": "1", "UMask": "0x20"}
])";

constexpr std::string_view kUncore = R"([
  {"EventCode": "0x35", "EventName": "UNC_CHA_TOR_INSERTS.IA_MISS", "PerPkg": "1",
   "UMask": "0x21", "Unit": "CHA", "BriefDescription": "TOR inserts."},
  {"EventCode": "0x36", "EventName": "UNC_CHA_TOR_INSERTS.IA_MISS", "PerPkg": "1",
   "UMask": "0x22", "Unit": "CHA", "BriefDescription": "Second of one name and PMU."},
  {"EventCode": "0x01", "EventName": "UNC_M_CAS_COUNT.RD", "ScaleUnit": "64Bytes",
   "UMask": "0x0f", "Unit": "iMC", "BriefDescription": "DRAM reads."},
  {"EventCode": "0x3c", "EventName": "CYCLES", "Unit": "CHA", "BriefDescription": "Box cycles."}
])";

constexpr std::string_view kMetrics = R"([
  {"MetricName": "IPC", "MetricExpr": "INST_RETIRED.ANY / CYCLES", "MetricGroup": "Summary;Ret",
   "BriefDescription": "Instructions per cycle."},
  {"MetricName": "CPI", "MetricExpr": "1 / IPC", "MetricGroup": "Summary"},
  {"MetricName": "Bad", "MetricGroup": "Summary"}
])";

// System tables (`sys` directories): events that attach by the PMU's identifier (Compat).
constexpr std::string_view kBoardSys = R"([
  {"EventCode": "0x2b", "EventName": "sysddr.write_cycles", "BriefDescription": "DDR writes.",
   "Unit": "sysddr", "Compat": "v8"},
  {"EventCode": "0x2a", "EventName": "sysddr.read_cycles", "BriefDescription": "DDR reads.",
   "Unit": "sysddr", "Compat": "v8"},
  {"ConfigCode": "0x7", "EventName": "sysddr.v9_only", "BriefDescription": "Other revision.",
   "Unit": "sysddr", "Compat": "v9"}
])";
constexpr std::string_view kTestSys = R"([
  {"ConfigCode": "0x2c", "EventName": "tsys.reads", "BriefDescription": "Test SoC reads.",
   "Unit": "tsys", "Compat": "0x01"}
])";

constexpr std::string_view kCommonMetrics = R"([
  {"MetricName": "CPUs_utilized", "MetricExpr": "INST_RETIRED.ANY / 2", "MetricGroup": "Default",
   "BriefDescription": "CPUs used."}
])";

// The index is built with `rules`; open() asks for them (both forms then read alike).
struct Fixture {
  explicit Fixture(PerfRelease built_rules = PerfRelease::v6_1) : rules(built_rules) {
    tree.write("devices/cpu/type", "4\n");
    tree.write("devices/cpu/format/event", "config:0-7\n");
    tree.write("devices/cpu/format/umask", "config:8-15\n");
    tree.write("devices/cpu/events/cycles", "event=0x3c\n");
    tree.write("devices/cpu/events/cycles.scale", "2\n");
    tree.write("devices/cpu/events/CYCLES", "event=0x3c,umask=1\n");
    tree.write("devices/cpu/events/mixed.case", "event=0x2e\n");
    tree.write("devices/cpu/events/MIXED.case.unit", "orphan\n");
    tree.write("devices/cpu/events/broken", "event=\n");
    for (const char* cha : {"uncore_cha_0", "uncore_cha_1"}) {
      const std::string base = std::string("devices/") + cha;
      tree.write(base + "/type", "40\n");
      tree.write(base + "/cpumask", "0\n");
      tree.write(base + "/format/event", "config:0-7\n");
      tree.write(base + "/format/umask", "config:8-15\n");
    }
    tree.write("devices/uncore_cha_0/events/CYCLES", "event=0x1\n");
    // A core PMU by its `cpus` file (perf's arm64/hybrid rule): core JSON events attach to it.
    tree.write("devices/cpu_atom/type", "10\n");
    tree.write("devices/cpu_atom/cpus", "4-7\n");
    tree.write("devices/cpu_atom/format/event", "config:0-7\n");
    tree.write("devices/cpu_atom/format/umask", "config:8-15\n");
    tree.write("devices/uncore_imc_0/type", "51\n");
    tree.write("devices/uncore_imc_0/cpumask", "0\n");
    tree.write("devices/uncore_imc_0/format/event", "config:0-7\n");
    tree.write("devices/uncore_imc_0/format/umask", "config:8-15\n");
    tree.write("json/x86/mapfile.csv",
               "Family-model,Version,Filename,EventType\nGenuineIntel-6-8F,v1,testlake,core\n");
    tree.write("json/x86/testlake/pipeline.json", kPipeline);
    tree.write("json/x86/testlake/uncore-cache.json", kUncore);
    tree.write("json/x86/testlake/testlake-metrics.json", kMetrics);
    tree.write("json/x86/vendorx/board1/sys/ddrc.json", kBoardSys);
    tree.write("json/test/soc/sys/uncore.json", kTestSys);
    // perf 7.2+'s common table (no mapfile; read under those rules only).
    tree.write("json/common/common/metrics.json", kCommonMetrics);
    for (const char* ddr : {"uncore_sysddr_0", "uncore_sysddr_1"}) {
      const std::string base = std::string("devices/") + ddr;
      tree.write(base + "/type", ddr == std::string_view("uncore_sysddr_0") ? "60\n" : "61\n");
      tree.write(base + "/cpumask", "0\n");
      tree.write(base + "/identifier",
                 ddr == std::string_view("uncore_sysddr_0") ? "v8\n" : "v9\n");
      tree.write(base + "/format/event", "config:0-7\n");
      tree.write(base + "/format/config", "config:0-15\n");
    }
    tree.write("devices/uncore_tsys/type", "62\n");
    tree.write("devices/uncore_tsys/identifier", "0x01\n");
    tree.write("devices/uncore_tsys/format/config", "config:0-15\n");
    // The right identifier, but no PMU name the Unit matches.
    tree.write("devices/other_ddr/type", "63\n");
    tree.write("devices/other_ddr/identifier", "v8\n");
    tree.write("devices/other_ddr/format/event", "config:0-7\n");
    auto summary = write_vendor_index(tree.path("json"), tree.path("index"), rules);
    EXPECT_TRUE(summary.has_value());
  }
  // `events`: "json", "index", or "cached": the JSON tree through the index cache, compiled
  // beforehand (the catalog's own cache would not publish files written this recently).
  Catalog open(std::string_view events, std::string cpuid = "GenuineIntel-6-8F-8") const {
    return open(events, rules, std::move(cpuid));
  }
  Catalog open(std::string_view events, std::optional<PerfRelease> asked,
               std::string cpuid = "GenuineIntel-6-8F-8") const {
    VendorOptions options{tree.path(events), std::move(cpuid)};
    options.rules = asked;
    if (events == "cached") {
      options.events_dir = tree.path("json");
      options.index_cache = tree.path("cache");
      warm_cache(asked.value_or(PerfRelease::v6_1));
    }
    return std::move(Catalog::open(tree.path("devices"), std::move(options)).value());
  }
  void warm_cache(PerfRelease json_rules) const {
    const VendorIndexCache cache(tree.path("cache"), {.settle{}});
    for (const std::string_view directory : {"testlake", ""}) {
      EXPECT_TRUE(cache.open(tree.path("json"), "x86", directory, json_rules).has_value());
    }
  }
  PerfRelease rules;
  TempTree tree;
};

// Events compared by value, the JSON side by its fields (not by which copy it points to), and
// its location relative to the JSON tree.
void expect_same_event(const Event& a, const Event& b, const std::string& where) {
  SCOPED_TRACE(where);
  EXPECT_EQ(a.name, b.name);
  EXPECT_EQ(a.text, b.text);
  EXPECT_EQ(a.terms, b.terms);
  EXPECT_EQ(a.error, b.error);
  EXPECT_EQ(a.metadata_loaded, b.metadata_loaded);
  EXPECT_EQ(a.unit, b.unit);
  EXPECT_EQ(a.scale, b.scale);
  EXPECT_EQ(a.per_pkg, b.per_pkg);
  EXPECT_EQ(a.source, b.source);
  ASSERT_EQ(a.vendor == nullptr, b.vendor == nullptr);
  if (a.vendor) {
    VendorEvent left = *a.vendor;
    VendorEvent right = *b.vendor;
    for (VendorEvent* event : {&left, &right}) {
      for (const char* arch : {"x86/", "test/"}) {
        const std::size_t at = event->location.file.find(arch);
        if (at != std::string::npos) event->location.file.erase(0, at);
      }
    }
    EXPECT_EQ(left, right);
  }
}

std::set<std::string> model_names(const Catalog& catalog) {
  std::set<std::string> names;
  for (const VendorEvent& event : catalog.vendor_model()->events) names.insert(event.name);
  return names;
}

class BothForms : public ::testing::TestWithParam<const char*> {};

TEST_P(BothForms, LookupOfOneNameIsTheListingsAnswer) {
  Fixture f;
  const Catalog listed = f.open(GetParam());
  ASSERT_NE(listed.vendor_model(), nullptr);
  std::set<std::string> names = model_names(listed);
  for (const char* extra : {"CYCLES", "Cycles", "MIXED.CASE", "nope", "Bad.Code",
                            "sysddr.write_cycles", "SYSDDR.V9_ONLY", "tsys.reads"}) {
    names.insert(extra);
  }
  std::size_t found = 0;
  for (const Pmu& pmu : listed.pmus()) (void)pmu.events();
  for (const std::string& name : names) {
    for (const Pmu& listed_pmu : listed.pmus()) {
      // A fresh catalog per lookup: nothing listed, nothing probed before.
      const Catalog fresh = f.open(GetParam());
      const Pmu* pmu = fresh.find_pmu(listed_pmu.name());
      ASSERT_NE(pmu, nullptr);
      const Event* by_lookup = pmu->find_event(name);
      const Event* by_listing = listed_pmu.find_event(name);
      const std::string where = listed_pmu.name() + " " + name;
      ASSERT_EQ(by_lookup == nullptr, by_listing == nullptr) << where;
      if (by_lookup == nullptr) continue;
      ++found;
      expect_same_event(*by_lookup, *by_listing, where);
    }
  }
  EXPECT_GE(found, 13U);

  // One catalog asked every name in turn: past a few one-name merges a PMU lists itself whole,
  // and the answers stay the listing's.
  const Catalog shared = f.open(GetParam());
  for (int round = 0; round < 2; ++round) {
    for (const std::string& name : names) {
      for (const Pmu& listed_pmu : listed.pmus()) {
        const Event* by_lookup = shared.find_pmu(listed_pmu.name())->find_event(name);
        const Event* by_listing = listed_pmu.find_event(name);
        const std::string where = listed_pmu.name() + " " + name + " (shared)";
        ASSERT_EQ(by_lookup == nullptr, by_listing == nullptr) << where;
        if (by_lookup != nullptr) expect_same_event(*by_lookup, *by_listing, where);
      }
    }
  }
}

// perf 6.1's pmu_add_sys_aliases(): a system-table event goes to every PMU whose identifier is
// its Compat and whose name its Unit matches, after the model's events, whatever the CPU
// identifier; `test`'s tables are built into perf too.
TEST_P(BothForms, SystemTablesAttachByIdentifier) {
  Fixture f;
  for (const char* cpuid : {"GenuineIntel-6-8F-8", ""}) {
    SCOPED_TRACE(cpuid);
    const Catalog catalog = f.open(GetParam(), cpuid);
    const Event* writes = catalog.find_pmu("uncore_sysddr_0")->find_event("SYSDDR.WRITE_CYCLES");
    ASSERT_NE(writes, nullptr);
    EXPECT_EQ(writes->source, EventSource::json);
    EXPECT_EQ(writes->text, "event=0x2b");
    ASSERT_NE(writes->vendor, nullptr);
    EXPECT_TRUE(writes->vendor->system_table);
    EXPECT_EQ(catalog.find_pmu("uncore_sysddr_1")->find_event("sysddr.write_cycles"), nullptr);
    EXPECT_NE(catalog.find_pmu("uncore_sysddr_1")->find_event("sysddr.v9_only"), nullptr);
    EXPECT_EQ(catalog.find_pmu("other_ddr")->find_event("sysddr.write_cycles"), nullptr);
    EXPECT_EQ(catalog.find_pmu("cpu")->find_event("sysddr.write_cycles"), nullptr);
    EXPECT_NE(catalog.find_pmu("uncore_tsys")->find_event("tsys.reads"), nullptr);

    std::vector<std::string> listed;
    for (const Event& event : catalog.find_pmu("uncore_sysddr_0")->events()) {
      listed.push_back(event.name);
    }
    EXPECT_EQ(listed, (std::vector<std::string>{"sysddr.read_cycles", "sysddr.write_cycles"}));

    auto encoded = encode(catalog, "sysddr.read_cycles");
    ASSERT_TRUE(encoded) << encoded.error().message;
    ASSERT_EQ(encoded->size(), 1u);
    EXPECT_EQ((*encoded)[0].pmu, "uncore_sysddr_0");
    EXPECT_EQ((*encoded)[0].attr.config[0], 0x2au);
  }
}

TEST_P(BothForms, MetricsOfTheModelInTableOrder) {
  Fixture f;
  const Catalog catalog = f.open(GetParam());
  std::vector<std::string> names;
  for (const VendorMetric& metric : catalog.vendor_metrics()) names.push_back(metric.name);
  EXPECT_EQ(names, (std::vector<std::string>{"CPI", "IPC"}));
  ASSERT_EQ(catalog.vendor_metrics().size(), 2u);
  EXPECT_EQ(catalog.vendor_metrics()[1].expr, "INST_RETIRED.ANY / CYCLES");
  EXPECT_EQ(perf_metric_description(catalog.vendor_metrics()[1]), "Instructions per cycle");
  std::vector<std::string> groups;
  for (const VendorMetricGroup& group : catalog.vendor_metric_groups()) {
    groups.push_back(group.name + ":" + std::to_string(group.metrics.size()));
  }
  EXPECT_EQ(groups, (std::vector<std::string>{"Ret:1", "Summary:2"}));
  bool bad_reported = false;
  for (const Diagnostic& d : catalog.vendor_diagnostics()) {
    bad_reported = bad_reported || d.id == "vendor-metric-field";
  }
  EXPECT_TRUE(bad_reported);
  // No model: no metrics.
  const Catalog none = std::move(
      Catalog::open(f.tree.path("devices"), {f.tree.path(GetParam()), "GenuineIntel-6-01"})
          .value());
  EXPECT_TRUE(none.vendor_metrics().empty());
  EXPECT_TRUE(none.vendor_metric_groups().empty());
}

// perf 7.2 and later search their common table's metrics after the model's, and alone for a CPU
// no mapfile row matches; perf 6.x has no common table.
TEST_P(BothForms, WithoutAModelPerf72ReadsTheCommonTablesMetrics) {
  Fixture f(PerfRelease::v7_3);
  auto names_of = [](const Catalog& catalog) {
    std::vector<std::string> names;
    for (const VendorMetric& metric : catalog.vendor_metrics()) names.push_back(metric.name);
    return names;
  };
  const Catalog none = f.open(GetParam(), "GenuineIntel-6-01");
  EXPECT_EQ(names_of(none), (std::vector<std::string>{"CPUs_utilized"}));
  ASSERT_EQ(none.vendor_metric_groups().size(), 1u);
  EXPECT_EQ(none.vendor_metric_groups()[0].name, "Default");
  // No model's events come with them.
  EXPECT_EQ(none.find_pmu("cpu")->find_event("inst_retired.any"), nullptr);
  const Catalog model = f.open(GetParam());
  EXPECT_EQ(names_of(model), (std::vector<std::string>{"CPI", "IPC", "CPUs_utilized"}));
  Fixture old(PerfRelease::v6_12);
  EXPECT_TRUE(old.open(GetParam(), "GenuineIntel-6-01").vendor_metrics().empty());
}

INSTANTIATE_TEST_SUITE_P(VendorCatalog, BothForms, ::testing::Values("json", "index", "cached"));

void expect_same_catalogs(const Catalog& index, const Catalog& json);

TEST(VendorIndexCatalog, IndexAndJsonGiveTheSameCatalog) {
  for (const PerfRelease rules : known_perf_releases()) {
    SCOPED_TRACE(to_string(rules));
    Fixture f(rules);
    expect_same_catalogs(f.open("index"), f.open("json"));
  }
}

// An index answers with the rules it was built with; asked for others, it says so.
TEST(VendorIndexCatalog, IndexOfOtherRulesIsUsedWithAWarning) {
  Fixture f(PerfRelease::v6_12);
  const Catalog asked_6_1 = f.open("index", PerfRelease::v6_1);
  const Event* event = asked_6_1.find_pmu("cpu")->find_event("mem_load_retired.l3_miss");
  ASSERT_NE(event, nullptr);
  ASSERT_NE(event->vendor, nullptr);
  EXPECT_EQ(event->vendor->rules, PerfRelease::v6_12);
  const auto diagnostics = asked_6_1.vendor_diagnostics();
  ASSERT_FALSE(diagnostics.empty());
  EXPECT_EQ(diagnostics.back().id, "vendor-index-rules");
  EXPECT_NE(diagnostics.back().message.find("perf 6.12's jevents rules, not perf 6.1's"),
            std::string::npos);
  for (const std::optional<PerfRelease> asked :
       {std::optional<PerfRelease>(), std::optional<PerfRelease>(PerfRelease::v6_12)}) {
    const Catalog catalog = f.open("index", asked);
    for (const Diagnostic& diagnostic : catalog.vendor_diagnostics()) {
      EXPECT_NE(diagnostic.id, "vendor-index-rules");
    }
  }
  // A JSON tree is read with the rules asked for.
  const Catalog json_catalog = f.open("json", PerfRelease::v6_12);
  const Event* json_6_12 = json_catalog.find_pmu("cpu")->find_event("inst_retired.any");
  ASSERT_NE(json_6_12, nullptr);
  EXPECT_EQ(json_6_12->vendor->rules, PerfRelease::v6_12);
}

void expect_same_catalogs(const Catalog& index, const Catalog& json) {
  ASSERT_NE(index.vendor_model(), nullptr);
  EXPECT_EQ(index.vendor_model()->events.size(), json.vendor_model()->events.size());
  EXPECT_EQ(index.vendor_model()->cpuid, json.vendor_model()->cpuid);
  EXPECT_EQ(index.vendor_diagnostics().size(), json.vendor_diagnostics().size());
  ASSERT_EQ(index.pmus().size(), json.pmus().size());
  for (std::size_t p = 0; p < json.pmus().size(); ++p) {
    const auto a = index.pmus()[p].events();
    const auto b = json.pmus()[p].events();
    ASSERT_EQ(a.size(), b.size()) << json.pmus()[p].name();
    for (std::size_t e = 0; e < a.size(); ++e) {
      expect_same_event(a[e], b[e], json.pmus()[p].name() + " " + b[e].name);
    }
  }
}

TEST(VendorIndexCatalog, CorruptModelFileIsADiagnosticNotACrash) {
  Fixture f;
  f.tree.write("index/x86/testlake.pmuidx", "PMUCATVI\x01\0\0\0");
  const Catalog catalog = f.open("index");
  EXPECT_EQ(catalog.find_pmu("cpu")->find_event("inst_retired.any"), nullptr);
  EXPECT_NE(catalog.find_pmu("cpu")->find_event("cycles"), nullptr);  // sysfs still answers
  EXPECT_EQ(catalog.vendor_model(), nullptr);
  const auto diagnostics = catalog.vendor_diagnostics();
  ASSERT_FALSE(diagnostics.empty());
  EXPECT_EQ(diagnostics.back().id, "vendor-index-corrupt");
}

// The cache's notes (why an entry was not used) are the only diagnostics a cache adds.
bool is_cache_note(const Diagnostic& diagnostic) {
  return diagnostic.severity == Severity::note && diagnostic.id == "vendor-index-unreadable";
}

std::vector<Diagnostic> without_cache_notes(std::span<const Diagnostic> diagnostics) {
  std::vector<Diagnostic> kept;
  for (const Diagnostic& diagnostic : diagnostics) {
    if (!is_cache_note(diagnostic)) kept.push_back(diagnostic);
  }
  return kept;
}

std::size_t cache_notes(const Catalog& catalog) {
  const auto diagnostics = catalog.vendor_diagnostics();
  return static_cast<std::size_t>(
      std::count_if(diagnostics.begin(), diagnostics.end(), is_cache_note));
}

// The index cache gives the JSON's catalog: every event of every PMU, locations (the JSON files'
// paths, as given) and diagnostics; a warm cache is used as it is (no entry added), and a damaged
// entry or an unusable cache directory changes nothing the catalog answers.
TEST(VendorIndexCatalog, TheIndexCacheGivesTheJsonsCatalog) {
  Fixture f;
  const Catalog json = f.open("json");
  auto expect_same_catalog = [&](const Catalog& other, const std::string& where) {
    SCOPED_TRACE(where);
    ASSERT_NE(other.vendor_model(), nullptr);
    EXPECT_EQ(other.vendor_model()->events, json.vendor_model()->events);
    EXPECT_EQ(other.vendor_model()->metrics, json.vendor_model()->metrics);
    EXPECT_EQ(without_cache_notes(other.vendor_diagnostics()),
              std::vector<Diagnostic>(json.vendor_diagnostics().begin(),
                                      json.vendor_diagnostics().end()));
    ASSERT_EQ(other.pmus().size(), json.pmus().size());
    for (std::size_t i = 0; i < json.pmus().size(); ++i) {
      const auto& expected = json.pmus()[i].events();
      const auto& got = other.pmus()[i].events();
      ASSERT_EQ(got.size(), expected.size()) << json.pmus()[i].name();
      for (std::size_t e = 0; e < got.size(); ++e) {
        expect_same_event(got[e], expected[e], json.pmus()[i].name());
        EXPECT_EQ(got[e].path, expected[e].path);  // the JSON file's own path
      }
    }
  };
  const Catalog cached = f.open("cached");
  std::vector<fs::path> entries;
  for (const auto& entry : fs::directory_iterator(f.tree.path("cache"))) entries.push_back(entry);
  expect_same_catalog(cached, "warm cache");
  std::vector<fs::path> after;
  for (const auto& entry : fs::directory_iterator(f.tree.path("cache"))) after.push_back(entry);
  EXPECT_EQ(after.size(), entries.size());  // a hit: nothing compiled

  // Every model file of the cache damaged: the catalog reads the JSON instead.
  for (const auto& entry : fs::recursive_directory_iterator(f.tree.path("cache"))) {
    if (entry.path().extension() == ".pmuidx") testing::write_text(entry.path(), "garbage");
  }
  VendorOptions options{f.tree.path("json"), "GenuineIntel-6-8F-8"};
  options.index_cache = f.tree.path("cache");
  const Catalog damaged = Catalog::open(f.tree.path("devices"), options).value();
  expect_same_catalog(damaged, "damaged entry");
  EXPECT_GE(cache_notes(damaged), 1U);  // said, as a note

  f.tree.write("file", "x");
  options.index_cache = f.tree.path("file/cache");
  const Catalog unusable = Catalog::open(f.tree.path("devices"), options).value();
  expect_same_catalog(unusable, "unusable cache");
  EXPECT_EQ(cache_notes(unusable), 1U);
  EXPECT_EQ(cache_notes(json), 0U);
}

// Any byte of a cache entry changed (a disk error, an editor, another program): the digest sees
// it, and the catalog answers as the JSON does. RapidCheck picks the file of the entry (the
// model's, the system tables', the stamp), the byte and the bits flipped; the lookups the
// tools make (one event by name, a PMU's listing) and the diagnostics are the JSON's.
// (vendor_index_cache_test.cpp flips every byte of each file in turn.)
// One tree, its JSON catalog and a warm cache for every case: each case leaves the cache as it
// found it (the entry compiled again is the same bytes under the same name).
struct DamageFixture {
  DamageFixture() {
    json_options.rules = PerfRelease::v6_1;
    EXPECT_TRUE(cache.open(f.tree.path("json"), "x86", "testlake", PerfRelease::v6_1).has_value());
    for (const auto& entry : fs::recursive_directory_iterator(f.tree.path("cache"))) {
      const std::string name = entry.path().filename().string();
      if (name.ends_with(".pmuidx") || name.ends_with(".stamp")) files.push_back(entry.path());
    }
    std::sort(files.begin(), files.end());
  }
  Fixture f;
  VendorOptions json_options{f.tree.path("json"), "GenuineIntel-6-8F-8"};
  Catalog json = Catalog::open(f.tree.path("devices"), json_options).value();
  VendorIndexCache cache{f.tree.path("cache"), {.settle{}}};
  std::vector<fs::path> files;
};

RC_GTEST_PROP(VendorIndexCacheDamage, AnyByteFlippedIsDetectedAndChangesNoAnswer,
              (std::size_t pick_file, std::size_t pick_byte, std::uint8_t pick_mask)) {
  static const DamageFixture fixture;
  const Fixture& f = fixture.f;
  const VendorOptions& json_options = fixture.json_options;
  const Catalog& json = fixture.json;
  const VendorIndexCache& cache = fixture.cache;
  const std::vector<fs::path>& files = fixture.files;
  // The model's file, the system tables of x86 and of test, the stamp.
  RC_ASSERT(files.size() == 4U);
  const fs::path file = files[pick_file % files.size()];
  std::string bytes = testing::read_text(file);
  const std::size_t at = pick_byte % bytes.size();
  const auto mask = static_cast<char>(pick_mask == 0 ? 1 : pick_mask);
  bytes[at] = static_cast<char>(bytes[at] ^ mask);
  testing::write_text(file, bytes);

  // The catalog's own cache meets the damage (then, the JSON just written, reads the JSON).
  VendorOptions options = json_options;
  options.index_cache = f.tree.path("cache");
  const Catalog catalog = Catalog::open(f.tree.path("devices"), options).value();
  const Event* event = catalog.find_pmu("cpu")->find_event("mem_load_retired.l3_miss");
  const Event* json_event = json.find_pmu("cpu")->find_event("mem_load_retired.l3_miss");
  RC_ASSERT(event != nullptr && json_event != nullptr);
  RC_ASSERT(event->text == json_event->text);
  RC_ASSERT(catalog.find_pmu("uncore_tsys")->events().size() ==
            json.find_pmu("uncore_tsys")->events().size());
  RC_ASSERT(
      without_cache_notes(catalog.vendor_diagnostics()) ==
      std::vector<Diagnostic>(json.vendor_diagnostics().begin(), json.vendor_diagnostics().end()));
  RC_ASSERT(cache_notes(catalog) >= 1U);

  // The cache itself: a changed byte is never a hit; the entry compiled again is the JSON's.
  testing::write_text(file, bytes);
  auto entry = cache.open(f.tree.path("json"), "x86", "testlake", PerfRelease::v6_1);
  RC_ASSERT(entry.has_value());
  RC_ASSERT(entry->compiled);
  RC_ASSERT(!entry->notes.empty());
  auto model = entry->model->model();
  auto direct = load_vendor_model(f.tree.path("json") / "x86", "testlake", PerfRelease::v6_1);
  RC_ASSERT(model.has_value() && direct.has_value());
  RC_ASSERT(model->events == direct->events);
}

}  // namespace
PMUCAT_END_NAMESPACE
