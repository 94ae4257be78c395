// Unit test of arm64_midr_cpuid on the fixture trees,
// with the catalog's vendor side: the hybrid Intel tree (fixtures/sysfs/intel-adl-hybrid) with
// our own JSON and with the kernel's alderlake model, and the arm64 tree (fixtures/sysfs/arm64-n1)
// whose midr_el1 files choose the model of tests/pmu_events/data/arch/arm64; the 2025+ trees: the
// Arrow Lake-H hybrid with three core PMUs and the Neoverse V3 tree's identifier.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdlib>

#include "pmucat/catalog.h"
#include "pmucat/encode.h"
#include "support/temp_tree.h"

PMUCAT_BEGIN_NAMESPACE
namespace {

namespace fs = std::filesystem;
using testing::TempTree;

const fs::path kSource = PMUCAT_SOURCE_DIR;
const fs::path kHybrid = kSource / "fixtures/sysfs/intel-adl-hybrid";
const fs::path kArm64 = kSource / "fixtures/sysfs/arm64-n1";
const fs::path kArrowLake = kSource / "fixtures/sysfs/intel-arl-hybrid";
const fs::path kNeoverseV3 = kSource / "fixtures/sysfs/arm-neoverse-v3";

// The kernel's pmu-events/arch: $PMUCAT_PMU_EVENTS_DIR, else the one the build was configured
// with (PMUCAT_PMU_EVENTS_DIR at cmake time, or the extracted tarball); none: the test skips.
std::optional<fs::path> kernel_events_dir() {
  if (const char* dir = std::getenv("PMUCAT_PMU_EVENTS_DIR"); dir != nullptr && *dir != '\0') {
    return fs::path(dir);
  }
  const fs::path built = PMUCAT_EVENTS_DIR_BUILD;
  if (!built.empty() && fs::exists(built / "x86/mapfile.csv")) return built;
  return std::nullopt;
}

std::vector<std::string> pmus_of(const Catalog& catalog, std::string_view name) {
  std::vector<std::string> found;
  for (const Pmu& pmu : catalog.pmus()) {
    if (pmu.find_event(name) != nullptr) found.push_back(pmu.name());
  }
  return found;
}

using Names = std::vector<std::string>;

// Our own hybrid JSON: events per core type, one name on both types with two encodings, one
// without Unit, and client uncore Units.
constexpr std::string_view kHybridPipeline = R"([
  {"EventCode": "0x10", "EventName": "CORE.ONLY", "UMask": "0x1", "Unit": "cpu_core",
   "BriefDescription": "P-core only"},
  {"EventCode": "0x20", "EventName": "ATOM.ONLY", "UMask": "0x2", "Unit": "cpu_atom",
   "BriefDescription": "E-core only"},
  {"EventCode": "0x30", "EventName": "BOTH.TYPES", "Unit": "cpu_core",
   "BriefDescription": "P-core encoding"},
  {"EventCode": "0x31", "EventName": "BOTH.TYPES", "Unit": "cpu_atom",
   "BriefDescription": "E-core encoding"},
  {"EventCode": "0x40", "EventName": "NO.UNIT", "BriefDescription": "No Unit"},
  {"EventCode": "0x81", "EventName": "UNC_ARB_TRK_REQUESTS.ALL", "UMask": "0x01",
   "Unit": "ARB", "PerPkg": "1", "BriefDescription": "ARB requests"},
  {"EventCode": "0xff", "EventName": "UNC_CLOCK.SOCKET", "Unit": "CLOCK", "PerPkg": "1",
   "BriefDescription": "UCLK cycles"},
  {"EventCode": "0x22", "EventName": "UNC_CBO_XSNP_RESPONSE.MISS", "UMask": "0x41",
   "Unit": "CBO", "PerPkg": "1", "BriefDescription": "Cbox snoop misses"}
])";

struct HybridJson {
  HybridJson() {
    tree.write("x86/mapfile.csv",
               "Family-model,Version,Filename,EventType\n"
               "GenuineIntel-6-(97|9A),v1,hybridlake,core\n");
    tree.write("x86/hybridlake/pipeline.json", kHybridPipeline);
  }
  Catalog open() const {
    return std::move(Catalog::open(kHybrid, {tree.root(), "GenuineIntel-6-97-2"}).value());
  }
  TempTree tree{"hybrid-json"};
};

TEST(HybridFixture, IsTwoCorePmusWithTheirOwnCpus) {
  auto catalog = Catalog::open(kHybrid);
  ASSERT_TRUE(catalog.has_value());
  const Pmu* core = catalog->find_pmu("cpu_core");
  const Pmu* atom = catalog->find_pmu("cpu_atom");
  ASSERT_NE(core, nullptr);
  ASSERT_NE(atom, nullptr);
  EXPECT_EQ(core->type(), 4u);
  EXPECT_EQ(atom->type(), 10u);
  ASSERT_TRUE(core->attributes().cpus.has_value());
  ASSERT_TRUE(atom->attributes().cpus.has_value());
  EXPECT_EQ(core->attributes().cpus->text, "0-15");
  EXPECT_EQ(atom->attributes().cpus->text, "16-23");
  EXPECT_EQ(core->kind(), PmuKind::core);
  EXPECT_EQ(atom->kind(), PmuKind::core);
  EXPECT_EQ(catalog->core_pmu(), core);  // no `cpu`: bare terms go to cpu_core
  EXPECT_EQ(catalog->find_pmu("uncore_cbox_9")->kind(), PmuKind::uncore);
  // Both core PMUs have the generic events; `cycles` opens once per core type.
  auto cycles = encode(*catalog, "cpu-cycles");
  ASSERT_TRUE(cycles) << cycles.error().message;
  ASSERT_EQ(cycles->size(), 2u);
  EXPECT_EQ((*cycles)[0].attr.type, 10u);  // natural name order: cpu_atom, cpu_core
  EXPECT_EQ((*cycles)[1].attr.type, 4u);
}

TEST(HybridFixture, UnitCpuCoreAndCpuAtomAttachToThatPmuOnly) {
  HybridJson json;
  Catalog catalog = json.open();
  ASSERT_NE(catalog.vendor_model(), nullptr);
  EXPECT_EQ(catalog.vendor_model()->directory, "hybridlake");
  EXPECT_EQ(pmus_of(catalog, "core.only"), Names{"cpu_core"});
  EXPECT_EQ(pmus_of(catalog, "atom.only"), Names{"cpu_atom"});
  // One name, one event per core type, each with its own encoding.
  EXPECT_EQ(pmus_of(catalog, "both.types"), (Names{"cpu_atom", "cpu_core"}));
  // No Unit: perf 6.1 gives the event to every PMU with a `cpus` file (its own name stands in
  // for `cpu`), so both core types get it.
  EXPECT_EQ(pmus_of(catalog, "no.unit"), (Names{"cpu_atom", "cpu_core"}));
  // Client uncore Units: ARB and CLOCK by name, CBO on every cbox instance.
  EXPECT_EQ(pmus_of(catalog, "unc_arb_trk_requests.all"), Names{"uncore_arb"});
  EXPECT_EQ(pmus_of(catalog, "unc_clock.socket"), Names{"uncore_clock"});
  EXPECT_EQ(pmus_of(catalog, "unc_cbo_xsnp_response.miss").size(), 10u);

  auto atom_only = encode(catalog, "atom.only");
  ASSERT_TRUE(atom_only) << atom_only.error().message;
  ASSERT_EQ(atom_only->size(), 1u);
  EXPECT_EQ((*atom_only)[0].pmu, "cpu_atom");
  EXPECT_EQ((*atom_only)[0].attr.type, 10u);
  EXPECT_EQ((*atom_only)[0].attr.config[0], 0x220u);
  EXPECT_FALSE(encode(catalog, "cpu_core/atom.only/").has_value());

  auto both = encode(catalog, "both.types");
  ASSERT_TRUE(both) << both.error().message;
  ASSERT_EQ(both->size(), 2u);
  EXPECT_EQ((*both)[0].pmu, "cpu_atom");
  EXPECT_EQ((*both)[0].attr.config[0], 0x31u);
  EXPECT_EQ((*both)[1].pmu, "cpu_core");
  EXPECT_EQ((*both)[1].attr.config[0], 0x30u);

  auto core_only = encode(catalog, "cpu_core/core.only,cmask=2/");
  ASSERT_TRUE(core_only) << core_only.error().message;
  EXPECT_EQ((*core_only)[0].attr.config[0], 0x02000110u);
}

TEST(HybridFixture, KernelAlderlakeModelSplitsEventsByCoreType) {
  const auto events_dir = kernel_events_dir();
  if (!events_dir) GTEST_SKIP() << "no kernel pmu-events/arch configured";
  auto catalog = Catalog::open(kHybrid, {*events_dir, "GenuineIntel-6-97-2"});
  ASSERT_TRUE(catalog.has_value());
  ASSERT_NE(catalog->vendor_model(), nullptr);
  EXPECT_EQ(catalog->vendor_model()->directory, "alderlake");
  // Unit cpu_core only (a P-core frontend event), Unit cpu_atom only (an E-core one).
  EXPECT_EQ(pmus_of(*catalog, "frontend_retired.dsb_miss"), Names{"cpu_core"});
  EXPECT_EQ(pmus_of(*catalog, "mem_bound_stalls.load"), Names{"cpu_atom"});
  // On both, each with its own table row.
  EXPECT_EQ(pmus_of(*catalog, "longest_lat_cache.miss"), (Names{"cpu_atom", "cpu_core"}));
  EXPECT_EQ(pmus_of(*catalog, "unc_arb_trk_requests.all"), Names{"uncore_arb"});
  EXPECT_EQ(pmus_of(*catalog, "unc_clock.socket"), Names{"uncore_clock"});
  // The iMC Unit maps to uncore_imc, which this tree does not have (only the free-running box).
  EXPECT_TRUE(pmus_of(*catalog, "unc_m_clockticks").empty());

  // A P-core event that needs frontend= (config1) encodes on cpu_core.
  auto dsb = encode(*catalog, "frontend_retired.dsb_miss");
  ASSERT_TRUE(dsb) << dsb.error().message;
  ASSERT_EQ(dsb->size(), 1u);
  EXPECT_EQ((*dsb)[0].attr.type, 4u);
  EXPECT_EQ((*dsb)[0].attr.config[0] & 0xff, 0xc6u);
  EXPECT_NE((*dsb)[0].attr.config[1], 0u);
  auto stalls = encode(*catalog, "mem_bound_stalls.load");
  ASSERT_TRUE(stalls) << stalls.error().message;
  EXPECT_EQ((*stalls)[0].attr.type, 10u);
}

TEST(Arm64Fixture, MidrFilesGiveTheIdentifierWithVariantAndRevisionCleared) {
  EXPECT_EQ(arm64_midr_cpuid(kArm64), "0x00000000410fd0c0");
  // The identifier comes from the sysfs root, not from the devices folder or a PMU directory.
  EXPECT_EQ(arm64_midr_cpuid(kArm64 / "bus/event_source/devices"), std::nullopt);
  // Trees without the files (every other fixture) have none.
  EXPECT_EQ(arm64_midr_cpuid(kSource / "fixtures/sysfs/arm-neoverse"), std::nullopt);
}

TEST(Arm64Fixture, MidrSelectsTheModelAndArchStdEventsEncode) {
  const auto cpuid = arm64_midr_cpuid(kArm64);
  ASSERT_TRUE(cpuid.has_value());
  auto catalog = Catalog::open(kArm64, {kSource / "tests/pmu_events/data/arch", *cpuid});
  ASSERT_TRUE(catalog.has_value());
  ASSERT_NE(catalog->vendor_model(), nullptr);
  EXPECT_EQ(catalog->vendor_model()->arch, "arm64");
  EXPECT_EQ(catalog->vendor_model()->directory, "acme/core1");

  // No Unit on arm64: the PMU with `cpus` takes the event under its own name.
  const Pmu* pmuv3 = catalog->find_pmu("armv8_pmuv3_0");
  ASSERT_NE(pmuv3, nullptr);
  // ArchStdEvent CPU_CYCLES under the model's own name: the standard event's encoding.
  const Event* alias = pmuv3->find_event("cpu_cycles_alias");
  ASSERT_NE(alias, nullptr);
  EXPECT_EQ(alias->source, EventSource::json);
  EXPECT_EQ(alias->vendor->arch_std_event, "CPU_CYCLES");
  auto encoded = encode(*catalog, "cpu_cycles_alias:u");
  ASSERT_TRUE(encoded) << encoded.error().message;
  ASSERT_EQ(encoded->size(), 1u);
  EXPECT_EQ((*encoded)[0].pmu, "armv8_pmuv3_0");
  EXPECT_EQ((*encoded)[0].attr.type, 8u);
  EXPECT_EQ((*encoded)[0].attr.config[0], 0x11u);
  EXPECT_TRUE((*encoded)[0].attr.exclude_kernel);

  // The nameless ArchStdEvent takes the standard name, which sysfs also has: sysfs encodes, the
  // JSON side describes.
  const Event* refill = pmuv3->find_event("l1d_cache_refill");
  ASSERT_NE(refill, nullptr);
  EXPECT_EQ(refill->source, EventSource::both);
  EXPECT_EQ(refill->text, "event=0x0003\n");
  ASSERT_NE(refill->vendor, nullptr);
  EXPECT_EQ(refill->vendor->terms, "event=0x3");
  auto refill_attr = encode(*catalog, "armv8_pmuv3_0/l1d_cache_refill/");
  ASSERT_TRUE(refill_attr) << refill_attr.error().message;
  EXPECT_EQ((*refill_attr)[0].attr.config[0], 0x3u);
  // Not on the SPE PMU (no `cpus`, no Unit).
  EXPECT_EQ(catalog->find_pmu("arm_spe_0")->find_event("cpu_cycles_alias"), nullptr);
}

TEST(Arm64Fixture, KernelModelForTheMidr) {
  const auto events_dir = kernel_events_dir();
  if (!events_dir) GTEST_SKIP() << "no kernel pmu-events/arch configured";
  auto catalog = Catalog::open(kArm64, {*events_dir, *arm64_midr_cpuid(kArm64)});
  ASSERT_TRUE(catalog.has_value());
  ASSERT_NE(catalog->vendor_model(), nullptr);
  EXPECT_EQ(catalog->vendor_model()->directory, "arm/cortex-a76-n1");
  EXPECT_EQ(pmus_of(*catalog, "l1d_cache_refill"), Names{"armv8_pmuv3_0"});
}

TEST(ArrowLakeFixture, ThreeCorePmusEachWithItsCpusAndTheWideUmask) {
  auto catalog = Catalog::open(kArrowLake);
  ASSERT_TRUE(catalog.has_value());
  const std::array<std::pair<const char*, const char*>, 3> kCores{
      {{"cpu_core", "0-5"}, {"cpu_atom", "6-13"}, {"cpu_lowpower", "14-15"}}};
  for (const auto& [name, cpus] : kCores) {
    SCOPED_TRACE(name);
    const Pmu* pmu = catalog->find_pmu(name);
    ASSERT_NE(pmu, nullptr);
    EXPECT_EQ(pmu->kind(), PmuKind::core);
    ASSERT_TRUE(pmu->attributes().cpus.has_value());
    EXPECT_EQ(pmu->attributes().cpus->text, cpus);
  }
  // The E-core tables' 9-bit umask: bits 0-7 in config:8-15, bit 8 in config:40.
  auto wide = encode(*catalog, "cpu_lowpower/event=0x24,umask=0x1ff/");
  ASSERT_TRUE(wide) << wide.error().message;
  ASSERT_EQ(wide->size(), 1u);
  EXPECT_EQ((*wide)[0].attr.type, 11u);
  EXPECT_EQ((*wide)[0].attr.config[0], 0x1000000ff24u);
  // A generic event every core PMU has opens once per core type.
  auto cycles = encode(*catalog, "cpu-cycles");
  ASSERT_TRUE(cycles) << cycles.error().message;
  std::vector<std::uint32_t> types;
  for (const auto& event : *cycles) types.push_back(event.attr.type);
  std::sort(types.begin(), types.end());
  EXPECT_EQ(types, (std::vector<std::uint32_t>{4, 10, 11}));
}

TEST(NeoverseV3Fixture, MidrIsTheOneLinux73MapsToNeoverseV3) {
  EXPECT_EQ(arm64_midr_cpuid(kNeoverseV3), "0x00000000410fd830");
}

}  // namespace
PMUCAT_END_NAMESPACE
