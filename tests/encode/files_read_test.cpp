// What an encode reads of a PMU directory: the format files its spec names, and no other. Shown
// by a broken file beside them, which the PMU would report once read.
#include <gtest/gtest.h>

#include "pmucat/catalog.h"
#include "pmucat/encode.h"
#include "support/temp_tree.h"

PMUCAT_BEGIN_NAMESPACE
namespace {

struct BoxTree {
  BoxTree() {
    tree.write("devices/box/type", "42\n");
    tree.write("devices/box/format/event", "config:0-7\n");
    tree.write("devices/box/format/umask", "config:8-15\n");
    tree.write("devices/box/format/unrelated", "not a format\n");
    // A format file named like a special term: the special term wins, so it is never read.
    tree.write("devices/box/format/period", "not a format either\n");
  }
  testing::TempTree tree{"box"};
};

TEST(FilesRead, AnEncodeReadsOnlyTheFieldsItsSpecNames) {
  BoxTree box;
  auto catalog = Catalog::open(box.tree.path("devices"));
  ASSERT_TRUE(catalog);
  auto encoded = encode(*catalog, "box/event=0x3c,umask=0x1,period=0x3e8/");
  ASSERT_TRUE(encoded) << encoded.error().message;
  ASSERT_EQ(encoded->size(), 1u);
  EXPECT_EQ(encoded->front().attr.config[0], 0x13cu);
  EXPECT_EQ(encoded->front().attr.sample_period, 1000u);
  EXPECT_EQ(encoded->front().perf_string, "box/event=0x3c,umask=0x1,period=0x3e8/");
  EXPECT_TRUE(catalog->find_pmu("box")->diagnostics().empty());
}

// perf warns about an unusable config word on any event of the PMU, so perf semantics read every
// format file, and the broken ones are then reported (docs/perf-compat.md, difference 8).
TEST(FilesRead, PerfSemanticsReadEveryFormatFile) {
  BoxTree box;
  auto catalog = Catalog::open(box.tree.path("devices"));
  ASSERT_TRUE(catalog);
  EncodeOptions perf;
  perf.semantics = Profile::perf(PerfRelease::v6_1);
  auto encoded = encode(*catalog, "box/event=0x3c,umask=0x1/", perf);
  ASSERT_TRUE(encoded) << encoded.error().message;
  EXPECT_EQ(catalog->find_pmu("box")->diagnostics().size(), 2u);  // period, unrelated
}

}  // namespace
PMUCAT_END_NAMESPACE
