#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdlib>

#include "pmucat/catalog.h"
#include "pmucat/sysfs_root.h"
#include "support/temp_tree.h"

PMUCAT_BEGIN_NAMESPACE
namespace {

using ::testing::ElementsAre;
using testing::TempTree;

std::vector<std::string> names(std::span<const Pmu> pmus) {
  std::vector<std::string> result;
  for (const Pmu& pmu : pmus) result.push_back(pmu.name());
  return result;
}

std::vector<std::string> names(const std::vector<const Pmu*>& pmus) {
  std::vector<std::string> result;
  for (const Pmu* pmu : pmus) result.push_back(pmu->name());
  return result;
}

void write_pmu(const TempTree& tree, const std::string& devices, const std::string& name,
               int type) {
  tree.write(devices + "/" + name + "/type", std::to_string(type) + "\n");
}

TEST(CatalogOpen, DevicesFolderItself) {
  TempTree tree;
  write_pmu(tree, "devices", "cpu", 4);
  write_pmu(tree, "devices", "software", 1);
  auto catalog = Catalog::open(tree.path("devices"));
  ASSERT_TRUE(catalog) << catalog.error().message;
  EXPECT_THAT(names(catalog->pmus()), ElementsAre("cpu", "software"));
  EXPECT_EQ(catalog->devices_dir(), tree.path("devices"));
}

TEST(CatalogOpen, FolderWithAnyNameHoldingPmuDirectories) {
  TempTree tree;
  write_pmu(tree, "capture", "fakepmu", 42);
  tree.mkdir("capture/no_type_here");
  auto catalog = Catalog::open(tree.path("capture"));
  ASSERT_TRUE(catalog) << catalog.error().message;
  EXPECT_THAT(names(catalog->pmus()), ElementsAre("fakepmu", "no_type_here"));
}

TEST(CatalogOpen, RootsAboveTheDevicesFolder) {
  TempTree tree;
  write_pmu(tree, "a/bus/event_source/devices", "pmu1", 7);      // like /sys, pcp's syspmu
  write_pmu(tree, "b/sys/bus/event_source/devices", "pmu2", 8);  // like /, perf_event_tests
  for (auto [root, pmu] : {std::pair{"a", "pmu1"}, {"b", "pmu2"}}) {
    auto catalog = Catalog::open(tree.path(root));
    ASSERT_TRUE(catalog) << catalog.error().message;
    EXPECT_THAT(names(catalog->pmus()), ElementsAre(pmu));
    EXPECT_EQ(catalog->devices_dir().filename(), "devices");
  }
  auto with_slash = Catalog::open(tree.path("a").string() + "/");
  ASSERT_TRUE(with_slash);
  EXPECT_THAT(names(with_slash->pmus()), ElementsAre("pmu1"));
}

TEST(CatalogOpen, EmptyDevicesFolderIsAnEmptyCatalog) {
  TempTree tree;
  tree.mkdir("devices");
  auto catalog = Catalog::open(tree.path("devices"));
  ASSERT_TRUE(catalog);
  EXPECT_TRUE(catalog->pmus().empty());
  EXPECT_EQ(catalog->core_pmu(), nullptr);
}

TEST(CatalogOpen, MissingDirectoryIsALocatedError) {
  TempTree tree;
  auto catalog = Catalog::open(tree.path("nowhere"));
  ASSERT_FALSE(catalog);
  EXPECT_EQ(catalog.error().id, "catalog-unreadable");
  EXPECT_EQ(catalog.error().range.file, tree.path("nowhere").string());
  EXPECT_THAT(catalog.error().message, ::testing::HasSubstr("No such file"));
}

TEST(CatalogOpen, FileInsteadOfDirectoryIsAnError) {
  TempTree tree;
  tree.write("file", "x");
  auto catalog = Catalog::open(tree.path("file"));
  ASSERT_FALSE(catalog);
  EXPECT_EQ(catalog.error().id, "catalog-unreadable");
}

TEST(CatalogOpen, UnrelatedDirectoryIsNotAPmuTree) {
  TempTree tree;
  tree.write("stuff/readme.txt", "hello");
  tree.mkdir("stuff/subdir");
  auto catalog = Catalog::open(tree.path("stuff"));
  ASSERT_FALSE(catalog);
  EXPECT_EQ(catalog.error().id, "catalog-not-pmu-tree");
  EXPECT_FALSE(catalog.error().hint.empty());
}

TEST(CatalogOpen, StrayFilesInDevicesAreDiagnosedAndSkipped) {
  TempTree tree;
  write_pmu(tree, "devices", "cpu", 4);
  tree.write("devices/README", "not a pmu");
  auto catalog = Catalog::open(tree.path("devices"));
  ASSERT_TRUE(catalog);
  EXPECT_THAT(names(catalog->pmus()), ElementsAre("cpu"));
  ASSERT_EQ(catalog->diagnostics().size(), 1u);
  EXPECT_EQ(catalog->diagnostics()[0].id, "catalog-stray-entry");
  EXPECT_EQ(catalog->diagnostics()[0].severity, Severity::warning);
}

TEST(CatalogOpen, SymlinkedPmuDirectoriesAreFollowed) {
  TempTree tree;
  tree.write("devices_real/uncore_imc_0/type", "17\n");
  tree.write("devices_real/uncore_imc_0/cpumask", "0\n");
  tree.mkdir("devices");
  tree.symlink(tree.path("devices_real/uncore_imc_0").string(), "devices/uncore_imc_0");
  auto catalog = Catalog::open(tree.path("devices"));
  ASSERT_TRUE(catalog);
  const Pmu* imc = catalog->find_pmu("uncore_imc_0");
  ASSERT_NE(imc, nullptr);
  EXPECT_EQ(imc->type(), 17u);
  EXPECT_EQ(imc->kind(), PmuKind::uncore);
  EXPECT_TRUE(imc->diagnostics().empty());
}

TEST(CatalogOpen, PmusAreNaturallySorted) {
  TempTree tree;
  for (int i : {10, 2, 0, 1, 11})
    write_pmu(tree, "devices", "uncore_cha_" + std::to_string(i), 20 + i);
  write_pmu(tree, "devices", "cpu", 4);
  auto catalog = Catalog::open(tree.path("devices"));
  ASSERT_TRUE(catalog);
  EXPECT_THAT(names(catalog->pmus()),
              ElementsAre("cpu", "uncore_cha_0", "uncore_cha_1", "uncore_cha_2", "uncore_cha_10",
                          "uncore_cha_11"));
}

TEST(CatalogMatch, ExactNameWinsOverInstances) {
  TempTree tree;
  for (const char* name :
       {"uncore_imc", "uncore_imc_0", "uncore_imc_1", "uncore_imc_free_running_0"}) {
    write_pmu(tree, "devices", name, 30);
  }
  auto catalog = Catalog::open(tree.path("devices"));
  ASSERT_TRUE(catalog);
  EXPECT_THAT(names(catalog->match_pmus("uncore_imc")), ElementsAre("uncore_imc"));
  EXPECT_THAT(names(catalog->match_pmus("uncore_imc_")),
              ElementsAre("uncore_imc_0", "uncore_imc_1"));
  EXPECT_THAT(names(catalog->match_pmus("imc_free_running")),
              ElementsAre("uncore_imc_free_running_0"));
  EXPECT_THAT(names(catalog->match_pmus("uncore_imc_*")),
              ElementsAre("uncore_imc_0", "uncore_imc_1", "uncore_imc_free_running_0"));
  EXPECT_TRUE(catalog->match_pmus("nomatch").empty());
  EXPECT_EQ(catalog->find_pmu("uncore_im"), nullptr);
  EXPECT_EQ(catalog->find_pmu("UNCORE_IMC"), nullptr);  // PMU names are case-sensitive
}

TEST(CatalogMatch, InstancesComeInNaturalOrder) {
  TempTree tree;
  for (int i = 0; i < 12; ++i)
    write_pmu(tree, "devices", "uncore_cha_" + std::to_string(i), 10 + i);
  auto catalog = Catalog::open(tree.path("devices"));
  ASSERT_TRUE(catalog);
  auto matches = catalog->match_pmus("uncore_cha");
  ASSERT_EQ(matches.size(), 12u);
  EXPECT_EQ(matches[2]->name(), "uncore_cha_2");
  EXPECT_EQ(matches[10]->name(), "uncore_cha_10");
}

TEST(CatalogCorePmu, PrefersCpuThenCpuCoreThenCpus) {
  {
    TempTree tree;
    write_pmu(tree, "devices", "cpu", 4);
    write_pmu(tree, "devices", "armv8_pmuv3_0", 8);
    tree.write("devices/armv8_pmuv3_0/cpus", "0-3\n");
    auto catalog = Catalog::open(tree.path("devices"));
    ASSERT_EQ(catalog->core_pmu()->name(), "cpu");
  }
  {
    TempTree tree;
    write_pmu(tree, "devices", "cpu_atom", 10);
    tree.write("devices/cpu_atom/cpus", "16-23\n");
    write_pmu(tree, "devices", "cpu_core", 4);
    tree.write("devices/cpu_core/cpus", "0-15\n");
    auto catalog = Catalog::open(tree.path("devices"));
    ASSERT_EQ(catalog->core_pmu()->name(), "cpu_core");
  }
  {
    TempTree tree;
    write_pmu(tree, "devices", "arm_dsu_0", 9);
    tree.write("devices/arm_dsu_0/cpumask", "0\n");
    write_pmu(tree, "devices", "armv8_pmuv3_0", 8);
    tree.write("devices/armv8_pmuv3_0/cpus", "0-3\n");
    auto catalog = Catalog::open(tree.path("devices"));
    ASSERT_EQ(catalog->core_pmu()->name(), "armv8_pmuv3_0");
  }
}

TEST(CatalogOpenDefault, UsesPmucatSysfs) {
  TempTree tree;
  write_pmu(tree, "devices", "envpmu", 99);
  const char* previous = std::getenv("PMUCAT_SYSFS");
  std::string saved = previous != nullptr ? previous : "";
  ::setenv("PMUCAT_SYSFS", tree.path("devices").c_str(), 1);
  auto catalog = Catalog::open_default();
  if (previous != nullptr) {
    ::setenv("PMUCAT_SYSFS", saved.c_str(), 1);
  } else {
    ::unsetenv("PMUCAT_SYSFS");
  }
  ASSERT_TRUE(catalog);
  EXPECT_THAT(names(catalog->pmus()), ElementsAre("envpmu"));
}

}  // namespace
PMUCAT_END_NAMESPACE

PMUCAT_BEGIN_NAMESPACE
namespace {

// Formats are listed in natural order, like PMUs (f1, f2, f10, not f1, f10, f2), and found.
TEST(CatalogFormats, FormatsSortNaturallyAndAreFound) {
  TempTree tree;
  tree.write("devices/pmu/type", "42\n");
  for (const char* name : {"f10", "f2", "f1", "event", "f01"}) {
    tree.write(std::string("devices/pmu/format/") + name, "config:0-7\n");
  }
  auto catalog = Catalog::open(tree.path("devices"));
  ASSERT_TRUE(catalog);
  const Pmu* pmu = catalog->find_pmu("pmu");
  ASSERT_NE(pmu, nullptr);
  std::vector<std::string> order;
  for (const Format& format : pmu->formats()) order.push_back(format.name);
  EXPECT_THAT(order, ElementsAre("event", "f01", "f1", "f2", "f10"));
  for (const std::string& name : order) {
    ASSERT_NE(pmu->find_format(name), nullptr) << name;
    EXPECT_EQ(pmu->find_format(name)->name, name);
  }
  EXPECT_EQ(pmu->find_format("f3"), nullptr);

  PmuInfo info;
  info.name = "made";
  for (const char* name : {"f10", "f2", "f1"}) {
    Format format;
    format.name = name;
    info.formats.push_back(std::move(format));
  }
  const Pmu made = Pmu::from_info(std::move(info));
  ASSERT_EQ(made.formats().size(), 3u);
  EXPECT_EQ(made.formats()[2].name, "f10");
  EXPECT_NE(made.find_format("f10"), nullptr);
}

// The root above a devices folder, for the readers of a tree's other sysfs parts (the CPUs'
// MIDRs, class/hwmon, a capture's manifest): only sysfs's own layout has one.
TEST(SysfsRoot, OnlyBusEventSourceDevicesHasARootAbove) {
  EXPECT_EQ(sysfs_root_above("/sys/bus/event_source/devices"), std::filesystem::path("/sys"));
  EXPECT_EQ(sysfs_root_above("tree/bus/event_source/devices/"), std::filesystem::path("tree"));
  EXPECT_EQ(sysfs_root_above("tree/./bus/x/../event_source/devices"),
            std::filesystem::path("tree"));
  EXPECT_FALSE(sysfs_root_above("fixtures/sysfs/intel-spr/devices").has_value());
  EXPECT_FALSE(sysfs_root_above("tree/other/event_source/devices").has_value());
  EXPECT_FALSE(sysfs_root_above("").has_value());
}

}  // namespace
PMUCAT_END_NAMESPACE
