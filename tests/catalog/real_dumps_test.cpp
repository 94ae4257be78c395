// The captured trees in the shared folder: real 2013 Intel dumps and PCP's hand-made trees.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <string>

#include "pmucat/catalog.h"

PMUCAT_BEGIN_NAMESPACE
namespace {

using ::testing::ElementsAre;

const std::string kDumps = PMUCAT_SOURCE_DIR "/../shared/sysfs-dumps";

bool exists(const std::string& path) {
  struct stat status {};
  return ::stat(path.c_str(), &status) == 0;
}

#define REQUIRE_DUMP(relative)                                                        \
  if (!exists(kDumps + "/" + (relative))) {                                           \
    GTEST_SKIP() << "shared sysfs dump not present: " << kDumps << "/" << (relative); \
  }

std::vector<std::string> names(std::span<const Pmu> pmus) {
  std::vector<std::string> result;
  for (const Pmu& pmu : pmus) result.push_back(pmu.name());
  return result;
}

const Term* term(const Event& event, std::string_view name) {
  for (const Term& t : event.terms.terms) {
    if (t.name == name) return &t;
  }
  return nullptr;
}

TEST(RealDumps, SandyBridgeEpFromItsRoot) {
  REQUIRE_DUMP("perf_event_tests/tools/fakesys/snb_ep");
  auto catalog = Catalog::open(kDumps + "/perf_event_tests/tools/fakesys/snb_ep");
  ASSERT_TRUE(catalog) << catalog.error().message;
  EXPECT_EQ(catalog->pmus().size(), 24u);
  EXPECT_EQ(catalog->pmus()[0].name(), "breakpoint");
  EXPECT_EQ(catalog->match_pmus("uncore_cbox").size(), 8u);
  EXPECT_EQ(catalog->match_pmus("uncore_imc").size(), 4u);

  const Pmu* cpu = catalog->find_pmu("cpu");
  ASSERT_NE(cpu, nullptr);
  EXPECT_FALSE(cpu->type());  // the capture lacks cpu/type
  EXPECT_EQ(cpu->attributes().diagnostics[0].id, "pmu-type-missing");
  EXPECT_EQ(cpu->kind(), PmuKind::core);
  EXPECT_EQ(catalog->core_pmu(), cpu);
  const Event* cycles = cpu->find_event("cpu-cycles");
  ASSERT_NE(cycles, nullptr);
  EXPECT_EQ(term(*cycles, "event")->value, 0x3cu);
  EXPECT_EQ(cpu->find_format("cmask")->spec.mask, 0xff000000u);

  const Pmu* qpi = catalog->find_pmu("uncore_qpi_0");
  EXPECT_EQ(qpi->type(), 21u);
  EXPECT_EQ(qpi->kind(), PmuKind::uncore);
  EXPECT_THAT(qpi->attributes().cpumask->cpus, ElementsAre(0u, 8u));
  EXPECT_EQ(qpi->find_format("event")->spec.mask, 0x2000ffu);  // config:0-7,21
  const Event* drs = qpi->find_event("drs_data");              // no trailing newline
  ASSERT_NE(drs, nullptr);
  EXPECT_FALSE(drs->error);
  EXPECT_EQ(term(*drs, "event")->value, 0x02u);
  EXPECT_EQ(term(*drs, "umask")->value, 0x08u);
  EXPECT_EQ(catalog->find_pmu("uncore_pcu")->find_format("occ_edge")->spec.mask,
            0x000fffffffffc000u);  // config:14-51, the shipped defect
  EXPECT_EQ(catalog->find_pmu("breakpoint")->type(), 5u);
  EXPECT_EQ(catalog->find_pmu("breakpoint")->kind(), PmuKind::software);
}

TEST(RealDumps, IvyBridgeFromTheDevicesFolder) {
  REQUIRE_DUMP("perf_event_tests/tools/fakesys/ivb/sys/bus/event_source/devices");
  auto catalog =
      Catalog::open(kDumps + "/perf_event_tests/tools/fakesys/ivb/sys/bus/event_source/devices");
  ASSERT_TRUE(catalog) << catalog.error().message;
  EXPECT_THAT(names(catalog->pmus()), ElementsAre("breakpoint", "cpu", "software", "tracepoint",
                                                  "uncore_cbox_0", "uncore_cbox_1"));
  EXPECT_EQ(catalog->find_pmu("cpu")->type(), 4u);
  EXPECT_EQ(catalog->find_pmu("cpu")->find_format("ldlat")->spec.word, 1u);
  const Event* mem_loads = catalog->find_pmu("cpu")->find_event("mem-loads");
  ASSERT_NE(mem_loads, nullptr);
  EXPECT_EQ(term(*mem_loads, "ldlat")->value, 3u);
  for (const Pmu& pmu : catalog->pmus()) {
    pmu.events();
    pmu.formats();
    for (const Diagnostic& d : pmu.diagnostics()) {
      ADD_FAILURE() << pmu.name() << ": " << d.id << " " << d.message;
    }
  }
}

TEST(RealDumps, PcpTrees) {
  REQUIRE_DUMP("pcp_perfevent_fakefs/syspmu");
  auto catalog = Catalog::open(kDumps + "/pcp_perfevent_fakefs/syspmu");
  ASSERT_TRUE(catalog) << catalog.error().message;
  EXPECT_THAT(names(catalog->pmus()), ElementsAre("pmu1", "pmu2"));
  EXPECT_EQ(catalog->find_pmu("pmu1")->type(), 0u);
  EXPECT_THAT(catalog->find_pmu("pmu2")->attributes().cpumask->cpus, ElementsAre(0u, 4u, 8u, 16u));
  EXPECT_EQ(term(*catalog->find_pmu("pmu1")->find_event("foo"), "event")->value, 0x1fu);

  auto failing = Catalog::open(kDumps + "/pcp_perfevent_fakefs/syspmu_fail_event");
  ASSERT_TRUE(failing);
  const Event* bad = failing->find_pmu("pmu1")->find_event("bar");  // content "abc"
  ASSERT_NE(bad, nullptr);
  EXPECT_EQ(bad->text, "abc\n");

  auto hv = Catalog::open(kDumps + "/pcp_perfevent_fakefs/syspmu_core");
  ASSERT_TRUE(hv);
  const Event* event1 = hv->find_pmu("pmu1")->find_event("event1");
  ASSERT_NE(event1, nullptr);
  EXPECT_EQ(term(*event1, "core")->kind, TermValueKind::param);
  EXPECT_EQ(term(*event1, "offset")->value, 0xa0u);
  EXPECT_EQ(hv->find_pmu("pmu1")->find_format("lpar")->spec.word, 1u);

  auto empty = Catalog::open(kDumps + "/pcp_perfevent_fakefs/syspmu_empty");
  ASSERT_TRUE(empty);
  EXPECT_THAT(names(empty->pmus()), ElementsAre("dev1"));
  EXPECT_EQ(empty->find_pmu("dev1")->type(), 10u);
  EXPECT_TRUE(empty->find_pmu("dev1")->events().empty());
}

}  // namespace
PMUCAT_END_NAMESPACE
