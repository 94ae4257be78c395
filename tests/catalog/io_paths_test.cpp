// The reader's shortcuts must not weaken its safety: `type` is read on its own, listed regular
// files skip fstat(), a short read ends the file, and metadata presence comes from the events/
// listing. Each shortcut is checked against the cases it could get wrong.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <string>
#include <thread>
#include <vector>

#include "pmucat/catalog.h"
#include "support/temp_tree.h"

PMUCAT_BEGIN_NAMESPACE
namespace {

using testing::TempTree;

std::vector<std::string> ids(const std::vector<Diagnostic>& diagnostics) {
  std::vector<std::string> result;
  for (const Diagnostic& d : diagnostics) result.push_back(d.id);
  return result;
}

Catalog open_tree(const TempTree& tree) {
  auto catalog = Catalog::open(tree.path("devices"));
  EXPECT_TRUE(catalog) << catalog.error().message;
  return std::move(catalog).value();
}

TEST(TypeAlone, TypeDoesNotReadTheOtherAttributes) {
  TempTree tree;
  tree.write("devices/box/type", "7\n");
  Catalog catalog = open_tree(tree);
  const Pmu* box = catalog.find_pmu("box");
  EXPECT_EQ(box->type(), 7u);
  // Written after type() and before attributes(): only a later read can see it.
  tree.write("devices/box/cpumask", "3\n");
  tree.write("devices/box/type", "8\n");
  const PmuAttributes& attributes = box->attributes();
  ASSERT_TRUE(attributes.cpumask);
  EXPECT_EQ(attributes.cpumask->text, "3");
  // `type` itself is read once: attributes() reuses what type() read.
  EXPECT_EQ(attributes.type, 7u);
  EXPECT_EQ(attributes.type_text, "7");
  EXPECT_EQ(box->type(), 7u);
}

TEST(TypeAlone, MissingTypeIsReportedOnceWhicheverPartIsAskedFirst) {
  TempTree tree;
  tree.write("devices/box/cpumask", "0\n");
  Catalog catalog = open_tree(tree);
  const Pmu* box = catalog.find_pmu("box");
  EXPECT_FALSE(box->type());
  EXPECT_THAT(ids(box->diagnostics()), ::testing::ElementsAre("pmu-type-missing"));
  EXPECT_EQ(box->attributes().cpumask->text, "0");
  EXPECT_THAT(ids(box->diagnostics()), ::testing::ElementsAre("pmu-type-missing"));
}

TEST(TypeAlone, DanglingPmuLinkIsReportedOnce) {
  TempTree tree;
  tree.symlink("../nowhere/box", "devices/box");
  Catalog catalog = open_tree(tree);
  const Pmu* box = catalog.find_pmu("box");
  ASSERT_NE(box, nullptr);
  EXPECT_FALSE(box->type());
  EXPECT_THAT(ids(box->diagnostics()), ::testing::ElementsAre("pmu-dir-unreadable"));
  EXPECT_FALSE(box->attributes().cpumask);
  EXPECT_THAT(ids(box->diagnostics()), ::testing::ElementsAre("pmu-dir-unreadable"));
}

TEST(TypeAlone, TypeThatIsAFifoOrADirectoryIsNotRead) {
  TempTree tree;
  tree.fifo("devices/piped/type");
  tree.mkdir("devices/folder/type");
  tree.write("devices/folder/cpumask", "0\n");
  Catalog catalog = open_tree(tree);
  for (const char* name : {"piped", "folder"}) {
    const Pmu* pmu = catalog.find_pmu(name);
    EXPECT_FALSE(pmu->type()) << name;
    EXPECT_THAT(ids(pmu->diagnostics()), ::testing::ElementsAre("file-not-regular")) << name;
  }
  EXPECT_EQ(catalog.find_pmu("folder")->attributes().cpumask->text, "0");
}

TEST(ListedMetadata, FifoAndDirectoryMetadataAreReportedNotHungOn) {
  TempTree tree;
  tree.write("devices/box/type", "7\n");
  tree.write("devices/box/events/reads", "event=0x1\n");
  tree.fifo("devices/box/events/reads.unit");
  tree.mkdir("devices/box/events/reads.scale");
  tree.write("devices/box/events/writes", "event=0x2\n");
  tree.write("devices/box/events/writes.unit", "MiB\n");
  tree.fifo("devices/box/events/writes.per-pkg");
  Catalog catalog = open_tree(tree);
  const Pmu* box = catalog.find_pmu("box");
  ASSERT_EQ(box->events().size(), 2u);
  const Event* reads = box->find_event("reads");
  EXPECT_FALSE(reads->error);
  EXPECT_FALSE(reads->unit);
  EXPECT_FALSE(reads->scale);
  EXPECT_THAT(ids(reads->diagnostics),
              ::testing::UnorderedElementsAre("file-not-regular", "file-not-regular"));
  const Event* writes = box->find_event("writes");
  EXPECT_EQ(writes->unit, "MiB");
  // perf treats a flag file's presence as true even when it cannot be read.
  EXPECT_TRUE(writes->per_pkg);
  EXPECT_THAT(ids(writes->diagnostics), ::testing::ElementsAre("file-not-regular"));
}

TEST(ListedMetadata, SymlinkedMetadataIsCheckedBeforeReading) {
  TempTree tree;
  tree.write("devices/box/type", "7\n");
  tree.write("devices/box/events/reads", "event=0x1\n");
  tree.fifo("elsewhere/pipe");
  tree.symlink("../../../elsewhere/pipe", "devices/box/events/reads.unit");
  tree.write("elsewhere/scale", "0.5\n");
  tree.symlink("../../../elsewhere/scale", "devices/box/events/reads.scale");
  Catalog catalog = open_tree(tree);
  ASSERT_EQ(catalog.find_pmu("box")->events().size(), 1u);  // metadata comes with the listing
  const Event* reads = catalog.find_pmu("box")->find_event("reads");
  ASSERT_NE(reads, nullptr);
  EXPECT_FALSE(reads->unit);
  EXPECT_EQ(reads->scale, 0.5);
  EXPECT_THAT(ids(reads->diagnostics), ::testing::ElementsAre("file-not-regular"));
}

TEST(ShortReads, FilesAroundTheReadSizeAreReadWhole) {
  TempTree tree;
  tree.write("devices/box/type", "7\n");
  // One read() takes 1024 bytes: files just below, at and above it, several reads long, and
  // around a page (what sysfs hands over at once).
  for (std::size_t size : {1023u, 1024u, 1025u, 3072u, 4095u, 4096u, 4097u, 8192u, 12289u}) {
    std::string text = "event=0x1,umask=0x2";
    text += std::string(size - text.size() - 1, ' ');
    text += '\n';
    ASSERT_EQ(text.size(), size);
    tree.write("devices/box/events/e" + std::to_string(size), text);
    tree.write("devices/box/format/f" + std::to_string(size),
               "config:0-7" + std::string(size - 11, ' ') + "\n");
  }
  Catalog catalog = open_tree(tree);
  const Pmu* box = catalog.find_pmu("box");
  ASSERT_EQ(box->events().size(), 9u);
  for (const Event& event : box->events()) {
    EXPECT_EQ(event.text.size(), std::stoul(event.name.substr(1))) << event.name;
  }
  ASSERT_EQ(box->formats().size(), 9u);
  for (const Format& format : box->formats()) {
    EXPECT_EQ(format.text.size(), std::stoul(format.name.substr(1))) << format.name;
  }
  // The same files read one by one (Pmu::find_format before the listing).
  Catalog again = open_tree(tree);
  for (std::size_t size : {1025u, 4097u, 12289u}) {
    const Format* format = again.find_pmu("box")->find_format("f" + std::to_string(size));
    ASSERT_NE(format, nullptr);
    EXPECT_EQ(format->text.size(), size);
    EXPECT_EQ(format->spec.mask, 0xffu);
  }
}

TEST(LazyDevicesListing, ExactNamesAreFoundWithoutTheListing) {
  TempTree tree;
  tree.write("devices/pmu_a/type", "7\n");
  Catalog catalog = open_tree(tree);
  // Made after open: only a lookup of the one entry can see them.
  tree.write("devices/pmu_new/type", "8\n");
  tree.write("devices/README", "not a PMU\n");
  tree.symlink("../nowhere", "devices/dangling");
  const Pmu* added = catalog.find_pmu("pmu_new");
  ASSERT_NE(added, nullptr);
  EXPECT_EQ(added->type(), 8u);
  EXPECT_EQ(catalog.find_pmu("pmu_new"), added);   // one object per name
  EXPECT_EQ(catalog.find_pmu("README"), nullptr);  // files are not PMUs, as in the listing
  EXPECT_EQ(catalog.find_pmu("missing"), nullptr);
  EXPECT_EQ(catalog.find_pmu("pmu_a/.."), nullptr);
  EXPECT_EQ(catalog.find_pmu(".."), nullptr);
  const Pmu* dangling = catalog.find_pmu("dangling");
  ASSERT_NE(dangling, nullptr);
  EXPECT_FALSE(dangling->type());
  EXPECT_THAT(ids(dangling->diagnostics()), ::testing::ElementsAre("pmu-dir-unreadable"));
  EXPECT_EQ(catalog.core_pmu(), nullptr);
}

TEST(LazyDevicesListing, TheListingIsMadeOnceWhenFirstNeeded) {
  TempTree tree;
  tree.write("devices/pmu_a/type", "7\n");
  Catalog catalog = open_tree(tree);
  const Pmu* probed = catalog.find_pmu("pmu_a");
  ASSERT_NE(probed, nullptr);
  tree.write("devices/pmu_b/type", "8\n");
  tree.write("devices/README", "not a PMU\n");
  ASSERT_EQ(catalog.pmus().size(), 2u);
  EXPECT_EQ(catalog.pmus()[1].name(), "pmu_b");
  EXPECT_THAT(ids({catalog.diagnostics().begin(), catalog.diagnostics().end()}),
              ::testing::ElementsAre("catalog-stray-entry"));
  // From now on lookups answer from the listing; what was handed out earlier stays valid.
  EXPECT_EQ(catalog.find_pmu("pmu_a"), &catalog.pmus()[0]);
  EXPECT_EQ(probed->type(), 7u);
  tree.write("devices/pmu_c/type", "9\n");
  EXPECT_EQ(catalog.find_pmu("pmu_c"), nullptr);
  EXPECT_EQ(catalog.match_pmus("pmu_*").size(), 2u);
}

TEST(LazyDevicesListing, AFolderNotNamedDevicesIsListedOnFirstNeedToo) {
  TempTree tree;
  tree.write("capture/pmu_a/type", "7\n");
  auto catalog = Catalog::open(tree.path("capture"));
  ASSERT_TRUE(catalog);
  // Accepting the folder read at most its first entries, not a listing: what is there at first
  // use is what counts, as for a folder named devices.
  tree.write("capture/pmu_b/type", "8\n");
  EXPECT_NE(catalog->find_pmu("pmu_b"), nullptr);
  EXPECT_EQ(catalog->pmus().size(), 2u);
}

TEST(LazyDevicesListing, ThreadsShareTheFirstLookups) {
  TempTree tree;
  for (int i = 0; i < 16; ++i) tree.write("devices/box_" + std::to_string(i) + "/type", "7\n");
  Catalog catalog = open_tree(tree);
  std::vector<const Pmu*> seen(8);
  {
    std::vector<std::jthread> threads;
    for (std::size_t t = 0; t < seen.size(); ++t) {
      threads.emplace_back([&, t] {
        seen[t] = catalog.find_pmu("box_3");
        if (t % 2 == 0) {
          EXPECT_EQ(catalog.pmus().size(), 16u);
        }
      });
    }
  }
  for (const Pmu* pmu : seen) {
    ASSERT_NE(pmu, nullptr);
    EXPECT_EQ(pmu->name(), "box_3");
  }
}

// natural_less skips the common prefix; this is the order spelled out without that shortcut.
bool natural_less_reference(std::string_view a, std::string_view b) {
  auto digit = [](char c) { return c >= '0' && c <= '9'; };
  std::size_t i = 0;
  std::size_t j = 0;
  while (i < a.size() && j < b.size()) {
    if (digit(a[i]) && digit(b[j])) {
      std::size_t end_a = i;
      std::size_t end_b = j;
      while (end_a < a.size() && digit(a[end_a])) ++end_a;
      while (end_b < b.size() && digit(b[end_b])) ++end_b;
      std::string_view run_a = a.substr(i, end_a - i);
      std::string_view run_b = b.substr(j, end_b - j);
      while (run_a.size() > 1 && run_a.front() == '0') run_a.remove_prefix(1);
      while (run_b.size() > 1 && run_b.front() == '0') run_b.remove_prefix(1);
      if (run_a.size() != run_b.size()) return run_a.size() < run_b.size();
      if (run_a != run_b) return run_a < run_b;
      i = end_a;
      j = end_b;
      continue;
    }
    if (a[i] != b[j]) return static_cast<unsigned char>(a[i]) < static_cast<unsigned char>(b[j]);
    ++i;
    ++j;
  }
  if (a.size() - i != b.size() - j) return a.size() - i < b.size() - j;
  return a < b;
}

// Names made of a few letters, separators and digits, so prefixes and digit runs collide often.
rc::Gen<std::string> pmu_like_name() {
  return rc::gen::container<std::string>(rc::gen::element('a', 'b', '_', '0', '1', '2', '9'));
}

RC_GTEST_PROP(NaturalOrder, AgreesWithTheOrderSpelledOut, ()) {
  const std::string a = *pmu_like_name();
  const std::string b = *rc::gen::oneOf(rc::gen::just(a + *pmu_like_name()), pmu_like_name(),
                                        rc::gen::just(a.substr(0, a.size() / 2) + "10"));
  RC_ASSERT(natural_less(a, b) == natural_less_reference(a, b));
  RC_ASSERT(natural_less(b, a) == natural_less_reference(b, a));
  RC_ASSERT(!(natural_less(a, b) && natural_less(b, a)));
}

TEST(NaturalOrder, DigitRunsThatStartInTheCommonPrefix) {
  EXPECT_TRUE(natural_less("uncore_cha_12", "uncore_cha_100"));
  EXPECT_FALSE(natural_less("uncore_cha_100", "uncore_cha_12"));
  EXPECT_TRUE(natural_less("box_19_a", "box_109_a"));
  EXPECT_TRUE(natural_less("a001", "a01"));  // equal numbers: bytes decide, strictly
  EXPECT_FALSE(natural_less("a01", "a001"));
}

}  // namespace
PMUCAT_END_NAMESPACE
