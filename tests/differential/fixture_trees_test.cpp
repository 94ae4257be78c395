// Checks the vendor fixture trees themselves: sysfs layout (relative symlinks), unique types,
// kernel-style content, and that every event encodes on its own PMU.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "pmucat/version.h"
#include "reference_encoder.h"
#include "tree_model.h"

PMUCAT_BEGIN_NAMESPACE
namespace differential {
namespace {
namespace fs = std::filesystem;

fs::path tree_root(const std::string& name) {
  return fs::path(PMUCAT_SOURCE_DIR) / "fixtures" / "sysfs" / name;
}

std::string read_all(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

class VendorTree : public ::testing::TestWithParam<std::string> {};

TEST_P(VendorTree, PmuEntriesAreRelativeSymlinksToDevices) {
  const fs::path root = tree_root(GetParam());
  const fs::path links = root / "bus" / "event_source" / "devices";
  ASSERT_TRUE(fs::is_directory(links)) << links;
  std::size_t count = 0;
  for (const auto& entry : fs::directory_iterator(links)) {
    ++count;
    ASSERT_TRUE(entry.is_symlink()) << entry.path();
    const fs::path target = fs::read_symlink(entry.path());
    EXPECT_TRUE(target.is_relative()) << target;
    EXPECT_EQ(target, fs::path("../../../devices") / entry.path().filename());
    EXPECT_TRUE(fs::is_regular_file(entry.path() / "type")) << entry.path();
  }
  EXPECT_GE(count, 8U);
}

TEST_P(VendorTree, TypesAreUniqueAndFixedOnesFixed) {
  const TreeModel tree = read_tree(devices_folder(tree_root(GetParam())));
  std::set<std::string> types;
  for (const auto& pmu : tree.pmus) {
    ASSERT_TRUE(pmu.type_text.has_value()) << pmu.name;
    EXPECT_TRUE(types.insert(*pmu.type_text).second) << pmu.name << " repeats " << *pmu.type_text;
    const std::map<std::string, std::string> fixed{
        {"software", "1"}, {"tracepoint", "2"}, {"cpu", "4"}, {"breakpoint", "5"}};
    if (const auto found = fixed.find(pmu.name); found != fixed.end()) {
      EXPECT_EQ(*pmu.type_text, found->second) << pmu.name;
    } else {
      EXPECT_GE(std::stoul(*pmu.type_text), 6U) << pmu.name;
    }
  }
}

TEST_P(VendorTree, EveryTextFileEndsWithANewline) {
  const fs::path devices = tree_root(GetParam()) / "devices";
  for (const auto& entry : fs::recursive_directory_iterator(devices)) {
    if (!entry.is_regular_file()) continue;
    const std::string name = entry.path().filename().string();
    if (name == "uevent" || name == "catalog") continue;  // empty / binary, as in sysfs
    const std::string text = read_all(entry.path());
    ASSERT_FALSE(text.empty()) << entry.path();
    EXPECT_EQ(text.back(), '\n') << entry.path();
    if (name != "domains") {  // hv_24x7's domain table is the one multi-line file
      EXPECT_EQ(text.find('\n'), text.size() - 1) << "one line expected: " << entry.path();
    }
  }
}

TEST_P(VendorTree, EveryFormatParsesAndEveryEventEncodesOnItsPmu) {
  const TreeModel tree = read_tree(devices_folder(tree_root(GetParam())));
  for (const auto& pmu : tree.pmus) {
    for (const auto& [name, event] : pmu.events) {
      ASSERT_FALSE(event.terms.empty()) << pmu.name << "/" << name;
      SpecCase spec_case;
      spec_case.pmu = pmu.name;
      spec_case.alias = name;
      for (const auto& param : event.params()) spec_case.user_terms.push_back(param + "=0");
      EXPECT_TRUE(reference_encode(spec_case, tree).has_value())
          << pmu.name << "/" << name << " = " << event.text;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Fixtures, VendorTree,
                         ::testing::Values("intel-spr", "amd-zen4", "arm-neoverse", "power9"),
                         [](const ::testing::TestParamInfo<std::string>& param_info) {
                           std::string name = param_info.param;
                           for (char& c : name) c = c == '-' ? '_' : c;
                           return name;
                         });

TEST(VendorTrees, AbiExampleEncodesOnZen4AsTheReferenceComputes) {
  const TreeModel tree = read_tree(devices_folder(tree_root("amd-zen4")));
  SpecCase spec_case;
  spec_case.pmu = "cpu";
  spec_case.user_terms = {"event=0x423", "inv", "cmask=0x3"};
  const auto attrs = reference_encode(spec_case, tree);
  ASSERT_TRUE(attrs.has_value());
  EXPECT_EQ((*attrs)[0].config[0], 0x403800023U);
}

TEST(VendorTrees, HexSuffixInstancesAndConfig3AreWhereTheReferenceSaysTheyAre) {
  const TreeModel arm = read_tree(devices_folder(tree_root("arm-neoverse")));
  EXPECT_EQ(select_pmus("smmuv3_pmcg", arm).size(), 2U);
  bool has_config3 = false;
  for (const auto& pmu : arm.pmus) {
    for (const auto& [name, field] : pmu.fields) has_config3 |= field.word == 3;
  }
  EXPECT_TRUE(has_config3);
  const TreeModel spr = read_tree(devices_folder(tree_root("intel-spr")));
  EXPECT_EQ(select_pmus("uncore_cha", spr).size(), 4U);
  EXPECT_EQ(select_pmus("uncore_imc", spr).size(), 4U);  // not the free-running box
}

}  // namespace
}  // namespace differential
PMUCAT_END_NAMESPACE
