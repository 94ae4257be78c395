// installed_vendor_index (vendor_index_install.h), the one lookup of the default tables the tools
// and the Python package share: the index beside the caller's anchor first, by table set (each
// release's from the release table), and nothing that is not a directory.
#include "pmucat/vendor_index_install.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <optional>
#include <string>

#include "support/temp_tree.h"

PMUCAT_BEGIN_NAMESPACE
namespace {

namespace fs = std::filesystem;
using testing::TempTree;

TEST(InstalledVendorIndex, FindsTheIndexBesideTheAnchorLexicallyNormal) {
  TempTree tree("installed-index");
  tree.mkdir("prefix/bin");
  tree.mkdir("prefix/share/pmucat/pmu-events-index");
  const std::string anchor = tree.path("prefix/bin").string();
  const auto found =
      installed_vendor_index(std::nullopt, {anchor, "../share/pmucat/pmu-events-index"});
  ASSERT_TRUE(found.has_value());
  EXPECT_EQ(*found, tree.path("prefix/share/pmucat/pmu-events-index").lexically_normal().string());
  // Naming the default set's release gives the same.
  const std::optional<PerfRelease> default_set = parse_perf_release(PMUCAT_EVENTS_VERSION);
  ASSERT_TRUE(default_set.has_value()) << PMUCAT_EVENTS_VERSION;
  EXPECT_EQ(installed_vendor_index(*default_set, {anchor, "../share/pmucat/pmu-events-index"}),
            found);
}

// A release whose table set this build lacks (neither the default set's nor perf 6.1's) finds no
// index, never another release's tables: the tools then say its tables are missing
// (vendor-tables-missing).
TEST(InstalledVendorIndex, AReleaseFindsItsOwnTableSetOrNone) {
  TempTree tree("installed-index");
  tree.mkdir("prefix/bin");
  tree.mkdir("prefix/share/pmucat/pmu-events-index");
  tree.mkdir("prefix/share/pmucat/pmu-events-index-6.1");
  const std::string anchor = tree.path("prefix/bin").string();  // paths holds a view of it
  const InstalledIndexPaths paths{anchor, "../share/pmucat/pmu-events-index"};
  const std::string installed = tree.path("prefix/share/pmucat/pmu-events-index").string();
  for (const ReleaseInfo& release : perf_releases()) {
    const std::optional<std::string> found = installed_vendor_index(release.release, paths);
    if (release.name == PMUCAT_EVENTS_VERSION) {
      EXPECT_EQ(found, fs::path(installed).lexically_normal().string()) << release.name;
      continue;
    }
    const std::string own = "pmu-events-index-" + std::string(release.name);
    if (release.name == "6.1") {
      EXPECT_EQ(found, fs::path(installed + "-6.1").lexically_normal().string());
      continue;
    }
    // Not installed here: the build's own set of that release, or nothing; never another's.
    if (found) {
      EXPECT_EQ(fs::path(*found).filename().string(), own) << release.name;
    } else {
      EXPECT_FALSE(
          fs::exists(std::string(PMUCAT_EVENTS_DIR_BUILD) + "-" + std::string(release.name)))
          << release.name;
    }
  }
}

TEST(InstalledVendorIndex, AFileOrNothingBesideTheAnchorIsNotAnIndex) {
  TempTree tree("installed-index");
  tree.mkdir("prefix/bin");
  tree.write("prefix/share/pmucat/pmu-events-index", "a file, not an index\n");
  const std::string anchor = tree.path("prefix/bin").string();
  const fs::path under = tree.root();
  for (const InstalledIndexPaths& paths :
       {InstalledIndexPaths{anchor, "../share/pmucat/pmu-events-index"},
        InstalledIndexPaths{anchor, "../share/missing"},
        InstalledIndexPaths{"", "../share/pmucat/pmu-events-index"},
        InstalledIndexPaths{anchor, ""}}) {
    // What is left is the build's own index, if it has one: never a path in this tree.
    const auto found = installed_vendor_index(std::nullopt, paths);
    if (found) {
      EXPECT_EQ(found->rfind(under.string(), 0), std::string::npos) << *found;
      EXPECT_TRUE(fs::is_directory(*found)) << *found;
    }
  }
}

// Every release's set lies beside the default one, named after the kernel release of its tables
// (the release table's `tables` column): `pmu-events-index-6.1` for perf 6.1. The default set
// serves its own release only.
TEST(InstalledVendorIndex, EachReleaseReadsItsTableSetBesideTheDefaultOne) {
  TempTree tree("installed-index");
  tree.mkdir("prefix/bin");
  tree.mkdir("prefix/share/pmucat/pmu-events-index");
  for (const ReleaseInfo& release : perf_releases()) {
    tree.mkdir("prefix/share/pmucat/pmu-events-index-" +
               std::string(release.tables.substr(release.tables.find(' ') + 1)));
  }
  const std::string anchor = tree.path("prefix/bin").string();
  const InstalledIndexPaths paths{anchor, "../share/pmucat/pmu-events-index"};
  const std::optional<PerfRelease> default_set = parse_perf_release(PMUCAT_EVENTS_VERSION);
  ASSERT_TRUE(default_set.has_value()) << PMUCAT_EVENTS_VERSION;
  for (const ReleaseInfo& release : perf_releases()) {
    const std::string expected =
        release.release != *default_set
            ? "prefix/share/pmucat/pmu-events-index-" + std::string(release.name)
            : "prefix/share/pmucat/pmu-events-index";
    EXPECT_EQ(installed_vendor_index(release.release, paths),
              tree.path(expected).lexically_normal().string())
        << release.name;
  }
  // perf 6.1's set, by its name in the table, as the tools asked for it with two sets.
  if (*default_set != PerfRelease::v6_1) {
    EXPECT_EQ(installed_vendor_index(PerfRelease::v6_1, paths),
              tree.path("prefix/share/pmucat/pmu-events-index-6.1").lexically_normal().string());
  }
}

TEST(InstalledVendorIndex, ExecutableDirHoldsThisTest) {
  const std::string dir = executable_dir();
  ASSERT_FALSE(dir.empty());
  EXPECT_TRUE(fs::exists(fs::path(dir) / "pmu_events_index_tests"));
}

}  // namespace
PMUCAT_END_NAMESPACE
