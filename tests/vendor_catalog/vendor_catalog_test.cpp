// The catalog with vendor JSON events: which PMU gets which event, the merge with sysfs aliases
// (perf 6.1's rules), provenance, and encoding JSON names like sysfs ones. Our own small JSON
// files; the kernel's catalogs are tested in tests/pmu_events.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "pmucat/catalog.h"
#include "pmucat/encode.h"
#include "support/temp_tree.h"

PMUCAT_BEGIN_NAMESPACE
namespace {

using testing::TempTree;

constexpr std::string_view kPipeline = R"([
  {
    "EventCode": "0xc0",
    "EventName": "INST_RETIRED.ANY",
    "BriefDescription": "Number of instructions retired.",
    "SampleAfterValue": "2000003",
    "UMask": "0x1"
  },
  {
    "EventCode": "0x3c",
    "EventName": "CYCLES",
    "BriefDescription": "Core cycles (JSON side).",
    "SampleAfterValue": "1000003",
    "UMask": "0x0"
  },
  {
    "EventCode": "0xd1",
    "EventName": "MEM_LOAD_RETIRED.L3_MISS",
    "BriefDescription": "Retired load instructions missed L3.",
    "CounterMask": "0",
    "PEBS": "1",
    "SampleAfterValue": "50021",
    "UMask": "0x20"
  }
])";

constexpr std::string_view kUncore = R"([
  {
    "EventCode": "0x35",
    "EventName": "UNC_CHA_TOR_INSERTS.IA_MISS",
    "BriefDescription": "TOR inserts, IA misses.",
    "PerPkg": "1",
    "UMask": "0x21",
    "Unit": "CHA"
  },
  {
    "EventCode": "0x01",
    "EventName": "UNC_M_CAS_COUNT.RD",
    "BriefDescription": "DRAM reads.",
    "PerPkg": "1",
    "ScaleUnit": "64Bytes",
    "UMask": "0x0f",
    "Unit": "iMC"
  }
])";

// A small Sapphire-Rapids-like tree and a one-model vendor catalog for it.
// Without `core`, no `cpu` PMU: a VM without a virtual PMU.
struct Fixture {
  explicit Fixture(bool core = true) {
    if (core) {
      tree.write("devices/cpu/type", "4\n");
      tree.write("devices/cpu/format/event", "config:0-7\n");
      tree.write("devices/cpu/format/umask", "config:8-15\n");
      tree.write("devices/cpu/format/cmask", "config:24-31\n");
      tree.write("devices/cpu/events/cycles", "event=0x3c\n");
      tree.write("devices/cpu/events/cycles.scale", "2\n");
    }
    for (const char* cha : {"uncore_cha_0", "uncore_cha_1"}) {
      std::string base = std::string("devices/") + cha;
      tree.write(base + "/type", cha == std::string_view("uncore_cha_0") ? "40\n" : "41\n");
      tree.write(base + "/cpumask", "0\n");
      tree.write(base + "/format/event", "config:0-7\n");
      tree.write(base + "/format/umask", "config:8-15\n");
    }
    tree.write("devices/uncore_imc_free_running_0/type", "50\n");
    tree.write("devices/uncore_imc_free_running_0/cpumask", "0\n");
    tree.write("devices/uncore_imc_0/type", "51\n");
    tree.write("devices/uncore_imc_0/cpumask", "0\n");
    tree.write("devices/uncore_imc_0/format/event", "config:0-7\n");
    tree.write("devices/uncore_imc_0/format/umask", "config:8-15\n");
    tree.write("events/x86/mapfile.csv",
               "Family-model,Version,Filename,EventType\n"
               "GenuineIntel-6-8F,v1,testlake,core\n");
    tree.write("events/x86/testlake/pipeline.json", kPipeline);
    tree.write("events/x86/testlake/uncore-cache.json", kUncore);
  }
  Catalog open(std::string cpuid = "GenuineIntel-6-8F-8") const {
    return std::move(Catalog::open(tree.path("devices"), {tree.path("events"), cpuid}).value());
  }
  TempTree tree;
};

TEST(VendorCatalog, JsonOnlyCoreEventBelongsToTheCorePmu) {
  Fixture f;
  Catalog catalog = f.open();
  const Event* event = catalog.find_pmu("cpu")->find_event("inst_retired.any");
  ASSERT_NE(event, nullptr);
  EXPECT_EQ(event->source, EventSource::json);
  EXPECT_EQ(event->name, "inst_retired.any");
  // perf's fixed string for this name, not the JSON fields.
  EXPECT_EQ(event->text, "event=0xc0,period=2000003");
  ASSERT_NE(event->vendor, nullptr);
  EXPECT_EQ(event->vendor->brief_description, "Number of instructions retired.");
  EXPECT_EQ(catalog.find_pmu("uncore_cha_0")->find_event("inst_retired.any"), nullptr);
}

// On a tree without the PMU the model's event is for, "unknown event" says which model has it
// and why no PMU here takes it, instead of suggesting a misspelling.
TEST(VendorCatalog, ModelEventForAPmuTheTreeLacksSaysSo) {
  Fixture f(/*core=*/false);
  Catalog catalog = f.open();
  auto encoded = encode(catalog, "inst_retired.any");
  ASSERT_FALSE(encoded.has_value());
  const Diagnostic& error = encoded.error();
  EXPECT_EQ(error.id, "event-unknown");
  EXPECT_EQ(error.hint, "");
  ASSERT_EQ(error.notes.size(), 1u) << render(error);
  const Diagnostic& note = error.notes.front();
  EXPECT_EQ(note.id, "event-model-pmu-absent");
  EXPECT_EQ(note.severity, Severity::note);
  EXPECT_THAT(note.message, ::testing::HasSubstr("model testlake (CPU identifier "
                                                 "GenuineIntel-6-8F-8) has 'inst_retired.any' "
                                                 "for PMU 'cpu'"));
  EXPECT_THAT(note.message, ::testing::HasSubstr("no core PMU"));
  EXPECT_THAT(note.range.file, ::testing::EndsWith("pipeline.json"));
  // An uncore event whose unit is here still encodes; a misspelt name gets no note.
  EXPECT_TRUE(encode(catalog, "unc_cha_tor_inserts.ia_miss").has_value());
  auto misspelt = encode(catalog, "inst_retired.anx");
  ASSERT_FALSE(misspelt.has_value());
  EXPECT_TRUE(misspelt.error().notes.empty());
  // With the core PMU the event encodes: the note is only for a PMU the tree lacks.
  Fixture with_core;
  EXPECT_TRUE(encode(with_core.open(), "inst_retired.any").has_value());
}

// A JSON event whose generated term string does not parse: the error points into the term
// string, and its note at the JSON object the string came from (file, line, column).
TEST(VendorCatalog, UnparsableTermsNameTheirJsonObject) {
  Fixture f;
  f.tree.write("events/x86/testlake/zz-odd.json",
               "[\n  {\n    \"EventCode\": \"0x1\",\n    \"EventName\": \"ODD.FILTER\",\n"
               "    \"Filter\": \"=\"\n  }\n]\n");
  Catalog catalog = f.open();
  const Event* event = catalog.find_pmu("cpu")->find_event("odd.filter");
  ASSERT_NE(event, nullptr);
  ASSERT_TRUE(event->error.has_value());
  ASSERT_EQ(event->error->notes.size(), 1u) << pmucat::render(*event->error);
  const SourceRange& where = event->error->notes[0].range;
  EXPECT_TRUE(where.file.ends_with("zz-odd.json")) << where.file;
  EXPECT_EQ(where.line, 2u);
  EXPECT_EQ(where.column, 3u);
}

// The sysfs-file lints (upper-case hex, ...) judge how a file is written; a JSON event's term
// string is generated from the vendor's fields, so the same text gives no lint there.
TEST(VendorCatalog, GeneratedTermsCarryNoSysfsLints) {
  Fixture f;
  f.tree.write("events/x86/testlake/zz-hex.json",
               "[{\"EventCode\": \"0xC1\", \"EventName\": \"HEX.UPPER\", \"UMask\": \"0x0A\"}]\n");
  f.tree.write("devices/cpu/events/sysfs_upper", "event=0xC1,umask=0x0A\n");
  Catalog catalog = f.open();
  const Event* json = catalog.find_pmu("cpu")->find_event("hex.upper");
  ASSERT_NE(json, nullptr);
  EXPECT_EQ(json->text, "event=0xc1,umask=0x0A");  // the umask as the JSON writes it
  EXPECT_THAT(json->diagnostics, ::testing::IsEmpty());
  EXPECT_THAT(json->terms.lints, ::testing::IsEmpty());
  const Event* sysfs = catalog.find_pmu("cpu")->find_event("sysfs_upper");
  ASSERT_NE(sysfs, nullptr);
  EXPECT_THAT(sysfs->diagnostics, ::testing::Not(::testing::IsEmpty()));
}

TEST(VendorCatalog, NamesAreCaseInsensitive) {
  Fixture f;
  Catalog catalog = f.open();
  const Event* event = catalog.find_pmu("cpu")->find_event("MEM_LOAD_RETIRED.L3_MISS");
  ASSERT_NE(event, nullptr);
  EXPECT_EQ(event->name, "mem_load_retired.l3_miss");
  EXPECT_EQ(event->text, "event=0xd1,period=50021,umask=0x20");
}

TEST(VendorCatalog, SysfsAliasKeepsItsTermsAndMetadataAndGainsTheJsonSide) {
  Fixture f;
  Catalog catalog = f.open();
  const Event* event = catalog.find_pmu("cpu")->find_event("cycles");
  ASSERT_NE(event, nullptr);
  EXPECT_EQ(event->source, EventSource::both);
  EXPECT_EQ(event->text, "event=0x3c\n");
  ASSERT_NE(event->vendor, nullptr);
  EXPECT_EQ(event->vendor->terms, "event=0x3c,period=1000003,umask=0x0");
  EXPECT_EQ(event->scale, 2.0);  // sysfs's .scale stays (perf 6.1 would reset it to 1)
}

TEST(VendorCatalog, UncoreEventGoesToEveryInstanceOfItsUnit) {
  Fixture f;
  Catalog catalog = f.open();
  for (const char* cha : {"uncore_cha_0", "uncore_cha_1"}) {
    const Event* event = catalog.find_pmu(cha)->find_event("unc_cha_tor_inserts.ia_miss");
    ASSERT_NE(event, nullptr) << cha;
    EXPECT_EQ(event->text, "event=0x35,umask=0x21");
    EXPECT_TRUE(event->per_pkg);
  }
  EXPECT_EQ(catalog.find_pmu("cpu")->find_event("unc_cha_tor_inserts.ia_miss"), nullptr);
  // `iMC` maps to uncore_imc: `_0` is an instance suffix, `_free_running_0` is not.
  EXPECT_NE(catalog.find_pmu("uncore_imc_0")->find_event("unc_m_cas_count.rd"), nullptr);
  EXPECT_EQ(catalog.find_pmu("uncore_imc_free_running_0")->find_event("unc_m_cas_count.rd"),
            nullptr);
}

TEST(VendorCatalog, ScaleUnitSplitsLikeStrtod) {
  Fixture f;
  Catalog catalog = f.open();
  const Event* event = catalog.find_pmu("uncore_imc_0")->find_event("unc_m_cas_count.rd");
  ASSERT_NE(event, nullptr);
  EXPECT_EQ(event->scale, 64.0);
  EXPECT_EQ(event->unit, "Bytes");
}

TEST(VendorCatalog, LookupBeforeAndAfterTheListingAgree) {
  Fixture f;
  Catalog early = f.open();
  Catalog late = f.open();
  const Pmu* late_cpu = late.find_pmu("cpu");
  (void)late_cpu->events();
  for (const char* name : {"cycles", "CYCLES", "inst_retired.any", "Inst_Retired.Any", "nope"}) {
    const Event* a = early.find_pmu("cpu")->find_event(name);
    const Event* b = late_cpu->find_event(name);
    ASSERT_EQ(a == nullptr, b == nullptr) << name;
    if (a != nullptr) {
      EXPECT_EQ(a->name, b->name) << name;
      EXPECT_EQ(a->source, b->source) << name;
      EXPECT_EQ(a->text, b->text) << name;
    }
  }
}

// with_vendor on an opened catalog gives what open(dir, vendor) gives, also to a PMU found
// before it was called and to a listing read before.
TEST(VendorCatalog, WithVendorIsOpeningWithTheVendor) {
  Fixture f;
  const VendorOptions vendor{f.tree.path("events"), "GenuineIntel-6-8F-8"};
  Catalog opened = f.open();
  Catalog plain = std::move(Catalog::open(f.tree.path("devices")).value());
  const Pmu* found_first = plain.find_pmu("uncore_cha_1");
  ASSERT_NE(found_first, nullptr);
  Catalog attached = std::move(plain).with_vendor(vendor);
  Catalog listed = std::move(Catalog::open(f.tree.path("devices")).value());
  ASSERT_FALSE(listed.pmus().empty());
  Catalog listed_attached = std::move(listed).with_vendor(vendor);
  for (const Catalog* catalog : {&attached, &listed_attached}) {
    ASSERT_NE(catalog->vendor_model(), nullptr);
    for (const char* pmu : {"cpu", "uncore_cha_0", "uncore_cha_1"}) {
      for (const char* name :
           {"cycles", "inst_retired.any", "unc_cha_tor_inserts.ia_miss", "nope"}) {
        SCOPED_TRACE(std::string(pmu) + " " + name);
        const Event* want = opened.find_pmu(pmu)->find_event(name);
        const Event* got = catalog->find_pmu(pmu)->find_event(name);
        ASSERT_EQ(want == nullptr, got == nullptr);
        if (want == nullptr) continue;
        EXPECT_EQ(got->source, want->source);
        EXPECT_EQ(got->text, want->text);
      }
    }
  }
  EXPECT_EQ(attached.find_pmu("uncore_cha_1"), found_first);
}

// The deferred form asks for the options once, when first needed: not to find a PMU or read its
// formats, but to look up an event by name; then it answers as the options given at once do.
TEST(VendorCatalog, DeferredVendorIsAskedOnFirstNeed) {
  Fixture f;
  const VendorOptions vendor{f.tree.path("events"), "GenuineIntel-6-8F-8"};
  Catalog opened = f.open();
  int asked = 0;
  Catalog deferred = std::move(Catalog::open(f.tree.path("devices")).value()).with_vendor([&] {
    ++asked;
    return vendor;
  });
  const Pmu* cpu = deferred.find_pmu("cpu");
  ASSERT_NE(cpu, nullptr);
  EXPECT_NE(cpu->find_format("event"), nullptr);
  EXPECT_EQ(asked, 0);
  for (const char* pmu : {"cpu", "uncore_cha_0"}) {
    for (const char* name : {"cycles", "inst_retired.any", "unc_cha_tor_inserts.ia_miss", "nope"}) {
      SCOPED_TRACE(std::string(pmu) + " " + name);
      const Event* want = opened.find_pmu(pmu)->find_event(name);
      const Event* got = deferred.find_pmu(pmu)->find_event(name);
      ASSERT_EQ(want == nullptr, got == nullptr);
      if (want == nullptr) continue;
      EXPECT_EQ(got->source, want->source);
      EXPECT_EQ(got->text, want->text);
    }
  }
  EXPECT_EQ(asked, 1);
  EXPECT_EQ(deferred.vendor_options().cpuid, "GenuineIntel-6-8F-8");
  ASSERT_NE(deferred.vendor_model(), nullptr);
  EXPECT_EQ(asked, 1);
}

// Deferred options without an events directory are sysfs only, as with_vendor({}) is.
TEST(VendorCatalog, DeferredVendorWithoutEventsIsSysfsOnly) {
  Fixture f;
  Catalog deferred = std::move(Catalog::open(f.tree.path("devices")).value()).with_vendor([] {
    return VendorOptions{};
  });
  EXPECT_EQ(deferred.find_pmu("cpu")->find_event("inst_retired.any"), nullptr);
  const Event* cycles = deferred.find_pmu("cpu")->find_event("cycles");
  ASSERT_NE(cycles, nullptr);
  EXPECT_EQ(cycles->source, EventSource::sysfs);
  EXPECT_EQ(deferred.vendor_model(), nullptr);
  EXPECT_TRUE(deferred.vendor_options().events_dir.empty());
  EXPECT_TRUE(deferred.vendor_metrics().empty());
  EXPECT_TRUE(deferred.vendor_metric_groups().empty());
  EXPECT_TRUE(deferred.vendor_diagnostics().empty());
  std::size_t listed = 0;
  for (const Event& event : deferred.find_pmu("cpu")->events()) {
    EXPECT_EQ(event.source, EventSource::sysfs) << event.name;
    ++listed;
  }
  EXPECT_EQ(listed, 1U);
}

TEST(VendorCatalog, ListingHoldsSysfsAndJsonEventsOnce) {
  Fixture f;
  Catalog catalog = f.open();
  std::vector<std::pair<std::string, EventSource>> seen;
  for (const Event& event : catalog.find_pmu("cpu")->events()) {
    seen.emplace_back(event.name, event.source);
  }
  EXPECT_THAT(seen, ::testing::ElementsAre(
                        std::pair<std::string, EventSource>{"cycles", EventSource::both},
                        std::pair<std::string, EventSource>{"inst_retired.any", EventSource::json},
                        std::pair<std::string, EventSource>{"mem_load_retired.l3_miss",
                                                            EventSource::json}));
}

TEST(VendorCatalog, NoCpuidOrNoMatchMeansSysfsOnly) {
  Fixture f;
  Catalog without = f.open("");
  EXPECT_EQ(without.find_pmu("cpu")->find_event("inst_retired.any"), nullptr);
  EXPECT_EQ(without.vendor_model(), nullptr);

  Catalog unmatched = f.open("AuthenticAMD-25-1-0");
  EXPECT_EQ(unmatched.find_pmu("cpu")->find_event("inst_retired.any"), nullptr);
  EXPECT_EQ(unmatched.vendor_model(), nullptr);
  auto diagnostics = unmatched.vendor_diagnostics();
  EXPECT_TRUE(std::any_of(diagnostics.begin(), diagnostics.end(),
                          [](const Diagnostic& d) { return d.id == "mapfile-no-match"; }));
}

// What a tool reports after its lookups: the problems read so far, and nothing read for it.
TEST(VendorCatalog, DiagnosticsSoFarReadNothingMore) {
  Fixture f;
  Catalog unmatched = f.open("AuthenticAMD-25-1-0");
  EXPECT_TRUE(unmatched.vendor_diagnostics_so_far().empty());  // nothing looked up yet
  EXPECT_EQ(unmatched.find_pmu("cpu")->find_event("inst_retired.any"), nullptr);
  auto so_far = unmatched.vendor_diagnostics_so_far();
  EXPECT_TRUE(std::any_of(so_far.begin(), so_far.end(),
                          [](const Diagnostic& d) { return d.id == "mapfile-no-match"; }));

  Catalog deferred = std::move(Catalog::open(f.tree.path("devices")).value()).with_vendor([] {
    ADD_FAILURE() << "resolved only to report";
    return VendorOptions{};
  });
  EXPECT_TRUE(deferred.vendor_diagnostics_so_far().empty());
}

// perf 6.1 on arm64 without PERF_CPUID: each PMU's table is the one of its own CPUs' MIDR (its
// cpumask, else cpus), so a big.LITTLE machine's core PMUs each get their model; with one
// identifier for the whole tree (PERF_CPUID, --cpuid) both get that one.
TEST(VendorCatalog, ArmCorePmusTakeTheModelOfTheirOwnCpus) {
  TempTree tree;
  const struct {
    const char* pmu;
    const char* type;
    const char* cpus;
  } cores[] = {{"armv8_cortex_a53", "8", "0-1"}, {"armv8_cortex_a72", "9", "2-3"}};
  for (const auto& core : cores) {
    const std::string base = std::string("devices/") + core.pmu;
    tree.write(base + "/type", std::string(core.type) + "\n");
    tree.write(base + "/cpus", std::string(core.cpus) + "\n");
    tree.write(base + "/format/event", "config:0-15\n");
  }
  tree.write("devices/uncore_dsu_0/type", "10\n");
  tree.write("devices/uncore_dsu_0/cpumask", "3\n");
  tree.write("devices/uncore_dsu_0/format/event", "config:0-15\n");
  // MIDRs with a revision (cleared) and no readable file for cpu2 (perf tries the next CPU).
  const char* midr[] = {"0x00000000410fd034\n", "0x00000000410fd034\n", nullptr,
                        "0x00000000411fd081\n"};
  for (int cpu = 0; cpu < 4; ++cpu) {
    if (midr[cpu] == nullptr) continue;
    tree.write(
        "root/devices/system/cpu/cpu" + std::to_string(cpu) + "/regs/identification/midr_el1",
        midr[cpu]);
  }
  tree.write("events/arm64/mapfile.csv",
             "Family-model,Version,Filename,EventType\n"
             "0x00000000410fd030,v1,arm/cortex-a53,core\n"
             "0x00000000410fd080,v1,arm/cortex-a72,core\n");
  tree.write("events/arm64/arm/cortex-a53/pipeline.json",
             R"([{"EventCode": "0x11", "EventName": "A53_ONLY", "BriefDescription": "a53"},
                 {"EventCode": "0x21", "EventName": "COMMON", "BriefDescription": "a53 side"}])");
  tree.write("events/arm64/arm/cortex-a72/pipeline.json",
             R"([{"EventCode": "0x12", "EventName": "A72_ONLY", "BriefDescription": "a72"},
                 {"EventCode": "0x22", "EventName": "COMMON", "BriefDescription": "a72 side"},
                 {"EventCode": "0x33", "EventName": "DSU_CYCLES", "Unit": "dsu",
                  "BriefDescription": "dsu"}])");
  VendorOptions per_pmu{tree.path("events"), "0x00000000410fd030"};
  per_pmu.midr_root = tree.path("root");
  const Catalog catalog = std::move(Catalog::open(tree.path("devices"), per_pmu).value());
  const Pmu* a53 = catalog.find_pmu("armv8_cortex_a53");
  const Pmu* a72 = catalog.find_pmu("armv8_cortex_a72");
  EXPECT_NE(a53->find_event("a53_only"), nullptr);
  EXPECT_EQ(a53->find_event("a72_only"), nullptr);
  EXPECT_NE(a72->find_event("a72_only"), nullptr);
  EXPECT_EQ(a72->find_event("a53_only"), nullptr);
  // uncore_dsu_0's cpumask is CPU 3: the a72 model's uncore event.
  EXPECT_NE(catalog.find_pmu("uncore_dsu_0")->find_event("dsu_cycles"), nullptr);
  auto common = encode(catalog, "common");
  ASSERT_TRUE(common) << common.error().message;
  ASSERT_EQ(common->size(), 2u);
  EXPECT_EQ((*common)[0].attr.config[0], 0x21u);
  EXPECT_EQ((*common)[1].attr.config[0], 0x22u);
  ASSERT_NE(catalog.vendor_model(), nullptr);
  EXPECT_EQ(catalog.vendor_model()->directory, "arm/cortex-a53");

  const Catalog one_model = std::move(
      Catalog::open(tree.path("devices"), {tree.path("events"), "0x00000000410fd030"}).value());
  EXPECT_NE(one_model.find_pmu("armv8_cortex_a72")->find_event("a53_only"), nullptr);
  EXPECT_EQ(one_model.find_pmu("armv8_cortex_a72")->find_event("a72_only"), nullptr);
}

TEST(VendorCatalog, EncodesBareWithModifiersInsideAPmuAndOnEveryUncoreInstance) {
  Fixture f;
  Catalog catalog = f.open();
  auto bare = encode(catalog, "inst_retired.any:u");
  ASSERT_TRUE(bare) << bare.error().message;
  ASSERT_EQ(bare->size(), 1u);
  EXPECT_EQ((*bare)[0].pmu, "cpu");
  EXPECT_EQ((*bare)[0].attr.type, 4u);
  EXPECT_EQ((*bare)[0].attr.config[0], 0xc0u);
  EXPECT_EQ((*bare)[0].attr.sample_period, 2000003u);
  EXPECT_TRUE((*bare)[0].attr.exclude_kernel);

  auto with_terms = encode(catalog, "cpu/MEM_LOAD_RETIRED.L3_MISS,cmask=2/");
  ASSERT_TRUE(with_terms) << with_terms.error().message;
  EXPECT_EQ((*with_terms)[0].attr.config[0], 0x020020d1u);

  auto uncore = encode(catalog, "unc_cha_tor_inserts.ia_miss");
  ASSERT_TRUE(uncore) << uncore.error().message;
  ASSERT_EQ(uncore->size(), 2u);
  EXPECT_EQ((*uncore)[0].pmu, "uncore_cha_0");
  EXPECT_EQ((*uncore)[1].pmu, "uncore_cha_1");
  EXPECT_EQ((*uncore)[1].attr.config[0], 0x2135u);
}

TEST(VendorPmuMatches, PerfsUncoreAliasRule) {
  EXPECT_TRUE(vendor_pmu_matches("uncore_cha", "uncore_cha"));
  EXPECT_TRUE(vendor_pmu_matches("uncore_cha", "uncore_cha_12"));
  EXPECT_TRUE(vendor_pmu_matches("uncore_cha", "uncore_cha12"));
  EXPECT_FALSE(vendor_pmu_matches("uncore_cha", "uncore_cha_"));
  EXPECT_FALSE(vendor_pmu_matches("uncore_imc", "uncore_imc_free_running_0"));
  EXPECT_FALSE(vendor_pmu_matches("uncore_cha", "uncore_chabox_1"));
  // Tokens in order; perf skips past a found token by the *next* token's length.
  EXPECT_TRUE(vendor_pmu_matches("hisi_sccl,ddrc", "hisi_sccl1_ddrc0"));
  EXPECT_FALSE(vendor_pmu_matches("hisi_sccl,ddrc", "hisi_ddrc0_sccl1"));
  EXPECT_FALSE(vendor_pmu_matches("", "cpu"));
  EXPECT_FALSE(vendor_pmu_matches(",", "cpu"));
}

}  // namespace
PMUCAT_END_NAMESPACE
