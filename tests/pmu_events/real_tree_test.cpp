// The kernel's own tables (perf 6.1's pmu-events/arch), when PMUCAT_PMU_EVENTS_DIR points at
// them: every model of every mapfile loads without errors, and spot checks against what
// `PERF_CPUID=... perf list --details` prints (numbers there are re-printed as %#x; here they
// are as jevents.py writes them).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "pmucat/diagnostic.h"
#include "pmucat/vendor_events.h"

namespace {

namespace fs = std::filesystem;
using pmucat::VendorEvent;

// $PMUCAT_PMU_EVENTS_DIR, else the tables the build prepared (empty when it had none).
std::optional<fs::path> events_dir() {
  const char* dir = std::getenv("PMUCAT_PMU_EVENTS_DIR");
  if (dir && *dir) return fs::path(dir);
  const std::string_view built = PMUCAT_TEST_EVENTS_DIR;
  if (built.empty()) return std::nullopt;
  return fs::path(built);
}

#define REQUIRE_EVENTS_DIR()                                                          \
  const auto root = events_dir();                                                     \
  if (!root)                                                                          \
  GTEST_SKIP() << "no events dir: the build prepared none and PMUCAT_PMU_EVENTS_DIR " \
                  "is unset (point it at a kernel tree's tools/perf/pmu-events/arch)"

std::string read_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

const VendorEvent* find(const pmucat::VendorModel& model, std::string_view name,
                        std::string_view pmu = "") {
  const auto it = std::find_if(model.events.begin(), model.events.end(),
                               [&](const auto& e) { return e.name == name && e.pmu == pmu; });
  return it == model.events.end() ? nullptr : &*it;
}

pmucat::VendorModel model_for(const fs::path& root, std::string_view cpuid) {
  std::vector<pmucat::Diagnostic> notes;
  const auto choice = pmucat::choose_vendor_model(root, cpuid, notes);
  EXPECT_TRUE(choice.has_value()) << cpuid;
  if (!choice) return {};
  auto model = pmucat::load_vendor_model(root / choice->arch, choice->row.directory,
                                         pmucat::PerfRelease::v6_1);
  EXPECT_TRUE(model.has_value());
  return model ? std::move(*model) : pmucat::VendorModel{};
}

TEST(RealPmuEvents, EveryModelOfEveryMapfileLoads) {
  REQUIRE_EVENTS_DIR();
  std::size_t models = 0;
  std::size_t events = 0;
  for (const auto& arch : fs::directory_iterator(*root)) {
    const fs::path mapfile_path = arch.path() / "mapfile.csv";
    if (!fs::exists(mapfile_path)) continue;
    const pmucat::Mapfile mapfile = pmucat::parse_mapfile(
        read_text(mapfile_path), mapfile_path.string(), arch.path().filename().string());
    for (const auto& d : mapfile.diagnostics) ADD_FAILURE() << pmucat::render(d);
    for (const pmucat::MapfileRow& row : mapfile.rows) {
      auto model = pmucat::load_vendor_model(arch.path(), row.directory, pmucat::PerfRelease::v6_1);
      ASSERT_TRUE(model.has_value()) << pmucat::render(model.error());
      for (const auto& d : model->diagnostics) {
        if (d.severity == pmucat::Severity::error) ADD_FAILURE() << pmucat::render(d);
      }
      ++models;
      events += model->events.size();
    }
  }
  EXPECT_GT(models, 50u);
  EXPECT_GT(events, 30000u);
}

TEST(RealPmuEvents, SapphireRapidsAsPerfListsIt) {
  REQUIRE_EVENTS_DIR();
  const pmucat::VendorModel model = model_for(*root, "GenuineIntel-6-8F-8");
  EXPECT_EQ(model.directory, "sapphirerapids");
  const auto terms = [&](std::string_view name, std::string_view pmu = "") {
    const VendorEvent* e = find(model, name, pmu);
    return e ? e->terms : "<missing>";
  };
  // perf list: cpu/event=0xc0,period=0x1e8483/
  EXPECT_EQ(terms("inst_retired.any"), "event=0xc0,period=2000003");
  // perf list: cpu/event=0xd0,period=0xf4243,umask=0x83/
  EXPECT_EQ(terms("mem_inst_retired.any"), "event=0xd0,period=1000003,umask=0x83");
  // perf list: cpu/event=0x2a,period=0x186a3,umask=0x1,offcore_rsp=0x10001/
  EXPECT_EQ(terms("ocr.demand_data_rd.any_response"),
            "event=0x2a,period=100003,umask=0x1,offcore_rsp=0x10001");
  // perf list: cpu/event=0xc6,period=0x186a7,umask=0x1,frontend=0x11/
  EXPECT_EQ(terms("frontend_retired.dsb_miss"), "event=0xc6,period=100007,umask=0x1,frontend=0x11");
  // perf list: uncore_cha_0/event=0x35,umask=0xc001fe01/
  EXPECT_EQ(terms("unc_cha_tor_inserts.ia_miss", "uncore_cha"), "event=0x35,umask=0x00c001fe01");
  const VendorEvent* load_latency = find(model, "mem_trans_retired.load_latency_gt_4");
  ASSERT_NE(load_latency, nullptr);
  EXPECT_TRUE(load_latency->terms.ends_with(",ldlat=0x4")) << load_latency->terms;
  EXPECT_EQ(pmucat::perf_brief_description(*load_latency),
            "Counts randomly selected loads when the latency from first dispatch to completion "
            "is greater than 4 cycles  Supports address when precise (Must be precise)");
  EXPECT_EQ(
      pmucat::perf_brief_description(*find(model, "unc_cha_tor_inserts.ia_miss", "uncore_cha")),
      "TOR Inserts; misses from Local IA. Unit: uncore_cha ");
  EXPECT_EQ(pmucat::perf_brief_description(*find(model, "frontend_retired.dsb_miss")),
            "Retired Instructions who experienced a critical DSB miss (Precise event)");
}

TEST(RealPmuEvents, AmdZen3AndArm64) {
  REQUIRE_EVENTS_DIR();
  const pmucat::VendorModel zen3 = model_for(*root, "AuthenticAMD-25-01-1");
  EXPECT_EQ(zen3.directory, "amdzen3");
  const VendorEvent* ex_ret_instr = find(zen3, "ex_ret_instr");
  ASSERT_NE(ex_ret_instr, nullptr);
  EXPECT_EQ(ex_ret_instr->terms, "event=0xc0");
  const VendorEvent* l3 = find(zen3, "l3_lookup_state.all_l3_req_typs", "amd_l3");
  ASSERT_NE(l3, nullptr);
  EXPECT_EQ(l3->terms, "event=0x4,umask=0xff");

  // Neoverse N1: MIDR 0x410fd0c0; its events refer to arm64's standard events.
  const pmucat::VendorModel n1 = model_for(*root, "0x00000000410fd0c0");
  EXPECT_EQ(n1.arch, "arm64");
  EXPECT_EQ(n1.directory, "arm/cortex-a76-n1");
  const VendorEvent* refill = find(n1, "l1d_cache_refill");
  ASSERT_NE(refill, nullptr);
  EXPECT_EQ(refill->terms, "event=0x3");
  EXPECT_EQ(refill->topic, "cache");
}

}  // namespace
