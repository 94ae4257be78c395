// installed_vendor_index (vendor_index_install.h), the one lookup of the default tables the tools
// and the Python package share: the index beside the caller's anchor first, by table set (each
// release's from the release table), and nothing that is not a directory.
#include "pmucat/vendor_index_install.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <optional>
#include <string>

#include "support/temp_tree.h"

namespace pmucat {
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
  // The newest set is the default; naming it gives the same.
  EXPECT_EQ(
      installed_vendor_index(kNewestPerfRelease, {anchor, "../share/pmucat/pmu-events-index"}),
      found);
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
// (the build's newest) serves its own release and the later ones.
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
  bool before_default = true;
  for (const ReleaseInfo& release : perf_releases()) {
    if (release.release == *default_set) before_default = false;
    const std::string expected =
        before_default ? "prefix/share/pmucat/pmu-events-index-" + std::string(release.name)
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
}  // namespace pmucat
