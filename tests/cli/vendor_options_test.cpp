// Internal unit test of choose_vendor_options (cli/common/vendor.h): which vendor JSON catalog and
// CPU identifier a tool uses, from every input that has a say.
#include <gtest/gtest.h>

#include "common/vendor.h"
#include "pmucat/vendor_index_install.h"
#include "pmucat/version.h"

PMUCAT_BEGIN_NAMESPACE
namespace cli {
namespace {

// Every input set, each to a value that names it.
VendorInputs everything() {
  VendorInputs inputs;
  inputs.option_events_dir = "option-dir";
  inputs.env_events_dir = "env-dir";
  inputs.installed_events_dir = "installed-dir";
  inputs.option_cpuid = "option-cpuid";
  inputs.env_cpuid = "env-cpuid";
  inputs.capture_cpuid = "capture-cpuid";
  inputs.host_cpuid = "host-cpuid";
  inputs.live_tree = true;
  return inputs;
}

// A tree with MIDR files (arm64): each PMU's model by its own CPUs, as perf without PERF_CPUID;
// --cpuid or $PMUCAT_CPUID (perf's PERF_CPUID) names one model for every PMU instead.
TEST(ChooseVendorOptions, MidrFilesChooseEachPmusModelUnlessAnIdentifierIsGiven) {
  VendorInputs inputs;
  inputs.midr_root = "/trees/arm";
  inputs.tree_midr_cpuid = "0x00000000410fd030";
  VendorOptions chosen = choose_vendor_options(inputs);
  EXPECT_EQ(chosen.midr_root, "/trees/arm");
  EXPECT_EQ(chosen.cpuid, "0x00000000410fd030");  // the tree's first CPU names the machine
  inputs.capture_cpuid = "capture-cpuid";
  chosen = choose_vendor_options(inputs);
  EXPECT_EQ(chosen.midr_root, "/trees/arm");
  EXPECT_EQ(chosen.cpuid, "capture-cpuid");
  inputs.env_cpuid = "env-cpuid";
  chosen = choose_vendor_options(inputs);
  EXPECT_TRUE(chosen.midr_root.empty());
  EXPECT_EQ(chosen.cpuid, "env-cpuid");
  inputs.env_cpuid.reset();
  inputs.option_cpuid = "option-cpuid";
  EXPECT_TRUE(choose_vendor_options(inputs).midr_root.empty());
}

// The index cache goes with any events directory, and with none when there is no directory.
TEST(ChooseVendorOptions, TheIndexCacheGoesWithAnEventsDirectory) {
  VendorInputs inputs = everything();
  inputs.index_cache = "/home/u/.cache/pmucat/vendor-index";
  EXPECT_EQ(choose_vendor_options(inputs).index_cache, "/home/u/.cache/pmucat/vendor-index");
  inputs.option_no_events_dir = true;
  EXPECT_TRUE(choose_vendor_options(inputs).index_cache.empty());
  inputs = everything();
  EXPECT_TRUE(choose_vendor_options(inputs).index_cache.empty());  // no cache directory
}

// A JSON tree is read by the jevents rules of the tables the semantics read: --perf-semantics'
// release, else the default set's (linux 7.3's in a full build, whose tree has generated files
// 6.12's rules would take for events).
TEST(ChooseVendorOptions, JsonRulesAreThoseOfTheTablesRead) {
  VendorInputs inputs = everything();
  EXPECT_EQ(choose_vendor_options(inputs).rules,
            default_tables_release().value_or(kPmucatBaseRelease));
  inputs.tables = PerfRelease::v6_1;
  EXPECT_EQ(choose_vendor_options(inputs).rules, PerfRelease::v6_1);
}

TEST(ChooseVendorOptions, NothingGivenIsSysfsOnly) {
  const VendorOptions chosen = choose_vendor_options({});
  EXPECT_TRUE(chosen.events_dir.empty());
  EXPECT_TRUE(chosen.cpuid.empty());
}

TEST(ChooseVendorOptions, EventsDirPrecedence) {
  VendorInputs inputs = everything();
  EXPECT_EQ(choose_vendor_options(inputs).events_dir, "option-dir");
  inputs.option_events_dir.reset();
  EXPECT_EQ(choose_vendor_options(inputs).events_dir, "env-dir");
  inputs.env_events_dir.reset();
  EXPECT_EQ(choose_vendor_options(inputs).events_dir, "installed-dir");
  inputs.installed_events_dir.reset();
  EXPECT_TRUE(choose_vendor_options(inputs).events_dir.empty());
}

TEST(ChooseVendorOptions, EmptyEventsDirMeansSysfsOnlyAndStopsTheSearch) {
  VendorInputs inputs = everything();
  inputs.option_events_dir = "";
  EXPECT_TRUE(choose_vendor_options(inputs).events_dir.empty());
  inputs.option_events_dir.reset();
  inputs.env_events_dir = "";
  EXPECT_TRUE(choose_vendor_options(inputs).events_dir.empty())
      << "a set but empty $PMUCAT_EVENTS_DIR does not fall back to the installed catalog";
}

TEST(ChooseVendorOptions, NoEventsDirBeatsEverything) {
  VendorInputs inputs = everything();
  inputs.option_no_events_dir = true;
  const VendorOptions chosen = choose_vendor_options(inputs);
  EXPECT_TRUE(chosen.events_dir.empty());
  EXPECT_EQ(chosen.cpuid, "option-cpuid") << "the identifier is decided on its own";
}

TEST(ChooseVendorOptions, CpuidPrecedenceOptionEnvironmentCaptureHost) {
  VendorInputs inputs = everything();
  EXPECT_EQ(choose_vendor_options(inputs).cpuid, "option-cpuid");
  inputs.option_cpuid.reset();
  EXPECT_EQ(choose_vendor_options(inputs).cpuid, "env-cpuid");
  inputs.env_cpuid.reset();
  EXPECT_EQ(choose_vendor_options(inputs).cpuid, "capture-cpuid");
  inputs.capture_cpuid.reset();
  EXPECT_EQ(choose_vendor_options(inputs).cpuid, "host-cpuid");
  inputs.host_cpuid.reset();
  EXPECT_TRUE(choose_vendor_options(inputs).cpuid.empty());
}

TEST(ChooseVendorOptions, TheCaptureBeatsTheHostEvenForTheLiveTree) {
  VendorInputs inputs;
  inputs.capture_cpuid = "capture-cpuid";
  inputs.host_cpuid = "host-cpuid";
  inputs.live_tree = true;
  EXPECT_EQ(choose_vendor_options(inputs).cpuid, "capture-cpuid");
}

TEST(ChooseVendorOptions, TheHostDescribesOnlyTheLiveTree) {
  VendorInputs inputs;
  inputs.host_cpuid = "host-cpuid";
  inputs.live_tree = false;
  EXPECT_TRUE(choose_vendor_options(inputs).cpuid.empty())
      << "a fixture or another machine's tree is not described by this CPU";
  inputs.live_tree = true;
  EXPECT_EQ(choose_vendor_options(inputs).cpuid, "host-cpuid");
}

TEST(ChooseVendorOptions, ACaptureCountsForAnyTree) {
  VendorInputs inputs;
  inputs.capture_cpuid = "capture-cpuid";
  EXPECT_EQ(choose_vendor_options(inputs).cpuid, "capture-cpuid");
}

TEST(ChooseVendorOptions, DirectoryAndIdentifierAreIndependent) {
  VendorInputs inputs;
  inputs.installed_events_dir = "installed-dir";
  VendorOptions chosen = choose_vendor_options(inputs);
  EXPECT_EQ(chosen.events_dir, "installed-dir");
  EXPECT_TRUE(chosen.cpuid.empty());
  inputs = {};
  inputs.env_cpuid = "env-cpuid";
  chosen = choose_vendor_options(inputs);
  EXPECT_TRUE(chosen.events_dir.empty());
  EXPECT_EQ(chosen.cpuid, "env-cpuid");
}

}  // namespace
}  // namespace cli
PMUCAT_END_NAMESPACE
