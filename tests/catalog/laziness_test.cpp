// Laziness and thread safety, shown through the file system rather than timing: what a part
// holds is the state of the disk when it was first used, and using one part or one PMU does not
// read another.
#include <fmt/core.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/inotify.h>
#include <unistd.h>

#include <atomic>
#include <cstring>
#include <thread>

#include "pmucat/catalog.h"
#include "support/temp_tree.h"

PMUCAT_BEGIN_NAMESPACE
namespace {

using testing::TempTree;

void write_pmu(const TempTree& tree, const std::string& name, int type) {
  tree.write("devices/" + name + "/type", fmt::format("{}\n", type));
  tree.write("devices/" + name + "/cpumask", "0\n");
  tree.write("devices/" + name + "/format/event", "config:0-7\n");
  tree.write("devices/" + name + "/events/clockticks", "event=0xff\n");
  tree.write("devices/" + name + "/events/clockticks.unit", "ticks\n");
}

// Counts reads of one directory's entries: the kernel reports IN_ACCESS on the watched
// directory itself for each getdents() call (not for opens, stats or files below it).
class DirectoryReads {
 public:
  explicit DirectoryReads(const std::string& dir) : fd_(inotify_init1(IN_NONBLOCK | IN_CLOEXEC)) {
    watch_ = inotify_add_watch(fd_, dir.c_str(), IN_ACCESS | IN_ONLYDIR);
  }
  ~DirectoryReads() { ::close(fd_); }
  DirectoryReads(const DirectoryReads&) = delete;
  DirectoryReads& operator=(const DirectoryReads&) = delete;

  bool watching() const { return fd_ >= 0 && watch_ >= 0; }
  // IN_ACCESS events on the directory itself (no name) since the last call.
  int count() {
    alignas(inotify_event) char buffer[4096];
    int reads = 0;
    for (;;) {
      ssize_t got = ::read(fd_, buffer, sizeof buffer);
      if (got <= 0) return reads;
      for (ssize_t at = 0; at < got;) {
        inotify_event event;
        std::memcpy(&event, buffer + at, sizeof event);
        if ((event.mask & IN_ACCESS) != 0 && event.len == 0) ++reads;
        at += static_cast<ssize_t>(sizeof event + event.len);
      }
    }
  }

 private:
  int fd_;
  int watch_ = -1;
};

// A devices directory copied under another name holds 600 PMUs: deciding that it is one, and
// looking up the PMU of one event, must not read its entries (a one-event encode must not grow
// with the number of PMUs).
TEST(Laziness, DevicesDirUnderAnotherNameIsNotListedForOnePmu) {
  TempTree tree;
  write_pmu(tree, "cpu", 4);
  for (int i = 0; i < 600; ++i) write_pmu(tree, fmt::format("uncore_cha_{}", i), 100 + i);
  const std::string pmus = tree.path("pmus");
  ASSERT_EQ(::symlink(tree.path("devices").c_str(), pmus.c_str()), 0);
  DirectoryReads reads(tree.path("devices"));
  ASSERT_TRUE(reads.watching());
  ASSERT_EQ(reads.count(), 0);

  auto catalog = Catalog::open(pmus);
  ASSERT_TRUE(catalog) << catalog.error().message;
  const Pmu* cpu = catalog->find_pmu("cpu");
  ASSERT_NE(cpu, nullptr);
  EXPECT_EQ(cpu->type(), 4u);
  EXPECT_NE(cpu->find_format("event"), nullptr);
  EXPECT_NE(cpu->find_event("clockticks"), nullptr);
  EXPECT_EQ(reads.count(), 0) << "the devices directory was listed";

  // Asking for every PMU is what lists it.
  EXPECT_EQ(catalog->pmus().size(), 601u);
  EXPECT_GT(reads.count(), 0);
}

// Without a PMU every kernel has, the first entries decide, not a listing of all of them.
TEST(Laziness, DevicesDirOfUncorePmusOnlyIsRecognised) {
  TempTree tree;
  for (int i = 0; i < 300; ++i) write_pmu(tree, fmt::format("uncore_imc_{}", i), 100 + i);
  const std::string pmus = tree.path("pmus");
  ASSERT_EQ(::symlink(tree.path("devices").c_str(), pmus.c_str()), 0);
  auto catalog = Catalog::open(pmus);
  ASSERT_TRUE(catalog) << catalog.error().message;
  EXPECT_NE(catalog->find_pmu("uncore_imc_7"), nullptr);
  EXPECT_EQ(catalog->pmus().size(), 300u);
}

TEST(Laziness, OpenReadsOnlyTheListing) {
  TempTree tree;
  write_pmu(tree, "pmu_a", 10);
  auto catalog = Catalog::open(tree.path("devices"));
  ASSERT_TRUE(catalog);
  // Changed after open, before first use: the new content is what gets read.
  tree.write("devices/pmu_a/type", "11\n");
  tree.write("devices/pmu_a/format/event", "config:0-15\n");
  tree.write("devices/pmu_a/events/clockticks", "event=0xfe\n");
  const Pmu* pmu = catalog->find_pmu("pmu_a");
  EXPECT_EQ(pmu->type(), 11u);
  EXPECT_EQ(pmu->find_format("event")->spec.mask, 0xffffu);
  EXPECT_EQ(pmu->find_event("clockticks")->terms.terms[0].value, 0xfeu);
}

TEST(Laziness, EachPartIsCachedAtFirstUse) {
  TempTree tree;
  write_pmu(tree, "pmu_a", 10);
  auto catalog = Catalog::open(tree.path("devices"));
  const Pmu* pmu = catalog->find_pmu("pmu_a");
  EXPECT_EQ(pmu->attributes().type, 10u);
  EXPECT_EQ(pmu->formats().size(), 1u);
  EXPECT_EQ(pmu->events().size(), 1u);
  // Deleting everything afterwards changes nothing: the parts are cached.
  tree.remove("devices/pmu_a");
  EXPECT_EQ(pmu->type(), 10u);
  EXPECT_EQ(pmu->attributes().cpumask->text, "0");
  EXPECT_EQ(pmu->formats().size(), 1u);
  ASSERT_NE(pmu->find_event("clockticks"), nullptr);
  EXPECT_EQ(pmu->find_event("clockticks")->unit, "ticks");
  EXPECT_TRUE(pmu->diagnostics().empty());
}

TEST(Laziness, PartsLoadIndependently) {
  TempTree tree;
  write_pmu(tree, "pmu_a", 10);
  auto catalog = Catalog::open(tree.path("devices"));
  const Pmu* pmu = catalog->find_pmu("pmu_a");
  EXPECT_EQ(pmu->type(), 10u);
  // Attributes are loaded; format/ and events/ are not read until used.
  tree.remove("devices/pmu_a/format");
  tree.write("devices/pmu_a/events/added_later", "event=0x1\n");
  EXPECT_TRUE(pmu->formats().empty());
  EXPECT_EQ(pmu->events().size(), 2u);
  tree.write("devices/pmu_a/type", "99\n");
  EXPECT_EQ(pmu->type(), 10u);
}

TEST(Laziness, UsingOnePmuNeverReadsAnother) {
  TempTree tree;
  write_pmu(tree, "pmu_a", 10);
  write_pmu(tree, "pmu_b", 20);
  write_pmu(tree, "pmu_c", 30);
  auto catalog = Catalog::open(tree.path("devices"));
  ASSERT_EQ(catalog->pmus().size(), 3u);
  tree.remove("devices/pmu_c");
  const Pmu* a = catalog->find_pmu("pmu_a");
  EXPECT_EQ(a->type(), 10u);
  EXPECT_EQ(a->kind(), PmuKind::uncore);
  EXPECT_EQ(a->formats().size(), 1u);
  EXPECT_EQ(a->events().size(), 1u);
  EXPECT_NE(a->find_event("clockticks"), nullptr);
  EXPECT_TRUE(a->diagnostics().empty());
  EXPECT_EQ(catalog->match_pmus("pmu_a").size(), 1u);
  EXPECT_EQ(catalog->match_pmus("pmu_*").size(), 3u);  // names come from the listing alone
  // pmu_b was not read while pmu_a was used: it shows what is on disk now.
  tree.write("devices/pmu_b/type", "21\n");
  tree.write("devices/pmu_b/events/clockticks", "event=0x77\n");
  const Pmu* b = catalog->find_pmu("pmu_b");
  EXPECT_EQ(b->type(), 21u);
  EXPECT_EQ(b->find_event("clockticks")->terms.terms[0].value, 0x77u);
  // pmu_c vanished before its first use and says so.
  const Pmu* c = catalog->find_pmu("pmu_c");
  EXPECT_FALSE(c->type());
  ASSERT_EQ(c->diagnostics().size(), 1u);
  EXPECT_EQ(c->diagnostics()[0].id, "pmu-dir-unreadable");
}

TEST(Laziness, FindEventProbesWithoutListing) {
  TempTree tree;
  write_pmu(tree, "pmu_a", 10);
  tree.write("devices/pmu_a/events/UPPER_EVENT", "event=0x2\n");
  auto catalog = Catalog::open(tree.path("devices"));
  const Pmu* pmu = catalog->find_pmu("pmu_a");
  const Event* probed = pmu->find_event("CLOCKTICKS");
  ASSERT_NE(probed, nullptr);
  EXPECT_EQ(probed->name, "clockticks");
  EXPECT_FALSE(probed->metadata_loaded);  // probes never look for .unit/.scale
  EXPECT_FALSE(probed->unit);
  ASSERT_NE(pmu->find_event("upper_event"), nullptr);
  // Files added after the probes are only seen if the directory was never listed: so far
  // it was not.
  tree.write("devices/pmu_a/events/late", "event=0x3\n");
  EXPECT_NE(pmu->find_event("late"), nullptr);
  EXPECT_EQ(pmu->events().size(), 3u);
  // The listing is now cached: a file added later is not seen, a probe hit stays valid.
  tree.write("devices/pmu_a/events/later_still", "event=0x4\n");
  EXPECT_EQ(pmu->find_event("later_still"), nullptr);
  EXPECT_EQ(probed->name, "clockticks");
  EXPECT_EQ(pmu->find_event("clockticks")->unit, "ticks");  // the listed one has metadata
}

TEST(Laziness, MixedCaseNameNeedsTheListing) {
  TempTree tree;
  write_pmu(tree, "pmu_a", 10);
  tree.write("devices/pmu_a/events/Mixed_Case", "event=0x5\n");
  auto catalog = Catalog::open(tree.path("devices"));
  const Pmu* pmu = catalog->find_pmu("pmu_a");
  // Both probes miss (mixed_case, MIXED_CASE), so the directory is listed and that name's
  // variants read (with metadata), and only they: the other events are not loaded, so a file
  // removed afterwards is not found, while the variant found stays cached.
  const Event* event = pmu->find_event("mixed_case");
  ASSERT_NE(event, nullptr);
  EXPECT_EQ(event->name, "Mixed_Case");
  EXPECT_TRUE(event->metadata_loaded);
  tree.remove("devices/pmu_a/events/clockticks");
  tree.remove("devices/pmu_a/events/Mixed_Case");
  EXPECT_EQ(pmu->find_event("clockticks"), nullptr);
  EXPECT_EQ(pmu->find_event("MIXED_case"), event);
}

// An encode names a few fields: find_format reads those files alone. A field file the listing
// would report (a FIFO here) is then never touched, and no diagnostic mentions it until
// formats() lists the directory.
TEST(Laziness, FindFormatReadsOnlyTheNamedField) {
  TempTree tree;
  write_pmu(tree, "pmu_a", 10);
  tree.write("devices/pmu_a/format/umask", "config:8-15\n");
  tree.fifo("devices/pmu_a/format/stuck");
  DirectoryReads reads(tree.path("devices/pmu_a/format").string());
  ASSERT_TRUE(reads.watching());
  auto catalog = Catalog::open(tree.path("devices"));
  const Pmu* pmu = catalog->find_pmu("pmu_a");
  const Format* umask = pmu->find_format("umask");
  ASSERT_NE(umask, nullptr);
  EXPECT_EQ(umask->spec.mask, 0xff00u);
  EXPECT_EQ(umask->path, tree.path("devices/pmu_a/format/umask").string());
  EXPECT_EQ(pmu->find_format("absent"), nullptr);
  EXPECT_EQ(pmu->find_format("umask"), umask);  // answered again from what was read
  EXPECT_EQ(reads.count(), 0);                  // format/ was not listed
  EXPECT_TRUE(pmu->diagnostics().empty());
  // The listing, once read, answers, with the FIFO reported and listed as an unusable field.
  ASSERT_EQ(pmu->formats().size(), 3u);
  EXPECT_GT(reads.count(), 0);
  const Format* listed = pmu->find_format("umask");
  EXPECT_EQ(listed, &pmu->formats()[2]);
  EXPECT_EQ(listed->spec, umask->spec);
  EXPECT_EQ(umask->spec.mask, 0xff00u);  // the one read alone stays valid
  ASSERT_NE(pmu->find_format("stuck"), nullptr);
  EXPECT_EQ(pmu->find_format("stuck")->spec.mask, 0u);
  ASSERT_EQ(pmu->diagnostics().size(), 1u);
}

// Whatever format/ holds under a name, find_format answers as the listing does: a field read
// alone equals the listed one, and a file the listing reports a problem with is answered (and
// reported) by the listing.
TEST(Laziness, FindFormatAnswersAsTheListingDoes) {
  TempTree tree;
  write_pmu(tree, "pmu_a", 10);
  tree.write("devices/pmu_a/format/two_terms", "config:0-3 config1:4-7\n");
  tree.write("devices/pmu_a/format/unparsable", "confg:0-3\n");
  tree.write("devices/pmu_a/format/no_newline", "config1:0-63");
  tree.write("devices/pmu_a/format/config4_word", "config4:0-7\n");
  tree.symlink("event", "devices/pmu_a/format/linked");
  tree.symlink("nowhere", "devices/pmu_a/format/dangling");
  tree.symlink("looped", "devices/pmu_a/format/looped");
  tree.mkdir("devices/pmu_a/format/subdir");
  tree.fifo("devices/pmu_a/format/fifo");
  write_pmu(tree, "pmu_b", 11);
  tree.remove("devices/pmu_b/format");
  tree.write("devices/pmu_b/format", "not a directory\n");
  write_pmu(tree, "pmu_c", 12);
  tree.remove("devices/pmu_c/format");
  const std::vector<std::string> names = {
      "event",  "two_terms", "unparsable", "no_newline", "config4_word",
      "linked", "dangling",  "looped",     "subdir",     "fifo",
      "absent", "a/b",       "..",         "",           std::string(300, 'x')};
  for (const char* pmu_name : {"pmu_a", "pmu_b", "pmu_c"}) {
    auto listed_catalog = Catalog::open(tree.path("devices"));
    const Pmu* listed = listed_catalog->find_pmu(pmu_name);
    ASSERT_NE(listed, nullptr);
    (void)listed->formats();
    for (const std::string& name : names) {
      SCOPED_TRACE(fmt::format("{}: '{}'", pmu_name, name));
      auto catalog = Catalog::open(tree.path("devices"));
      const Pmu* pmu = catalog->find_pmu(pmu_name);
      const Format* alone = pmu->find_format(name);
      const Format* expected = listed->find_format(name);
      ASSERT_EQ(alone == nullptr, expected == nullptr);
      if (expected == nullptr) continue;
      EXPECT_EQ(alone->name, expected->name);
      EXPECT_EQ(alone->path, expected->path);
      EXPECT_EQ(alone->text, expected->text);
      EXPECT_EQ(alone->spec, expected->spec);
      EXPECT_EQ(alone->last_term, expected->last_term);
      // A problem with the file is reported exactly as the listing reports it.
      std::vector<std::string> reported;
      for (const Diagnostic& d : pmu->diagnostics()) reported.push_back(d.message);
      std::vector<std::string> about_it;
      for (const Diagnostic& d : listed->diagnostics()) {
        if (d.range.file == expected->path) about_it.push_back(d.message);
      }
      for (const std::string& message : about_it)
        EXPECT_THAT(reported, ::testing::Contains(message));
    }
  }
}

// A PMU whose directory listing (read with its attributes) shows no format/ has no field, without
// a failing open.
TEST(Laziness, FindFormatAfterAListingWithoutFormatDir) {
  TempTree tree;
  write_pmu(tree, "pmu_a", 10);
  tree.remove("devices/pmu_a/format");
  auto catalog = Catalog::open(tree.path("devices"));
  const Pmu* pmu = catalog->find_pmu("pmu_a");
  EXPECT_EQ(pmu->attributes().type, 10u);
  tree.write("devices/pmu_a/format/event", "config:0-7\n");  // after the listing: not seen
  EXPECT_EQ(pmu->find_format("event"), nullptr);
  EXPECT_TRUE(pmu->formats().empty());
}

// Past a few names on one PMU, the listing (read once) answers instead of a probe per name.
TEST(Laziness, FindFormatListsAfterAFewNames) {
  TempTree tree;
  write_pmu(tree, "pmu_a", 10);
  for (int i = 0; i < 12; ++i) {
    tree.write(fmt::format("devices/pmu_a/format/f{}", i), fmt::format("config:{}\n", i));
  }
  DirectoryReads reads(tree.path("devices/pmu_a/format").string());
  ASSERT_TRUE(reads.watching());
  auto catalog = Catalog::open(tree.path("devices"));
  const Pmu* pmu = catalog->find_pmu("pmu_a");
  for (int i = 0; i < 8; ++i) ASSERT_NE(pmu->find_format(fmt::format("f{}", i)), nullptr);
  EXPECT_EQ(reads.count(), 0);
  const Format* ninth = pmu->find_format("f8");
  ASSERT_NE(ninth, nullptr);
  EXPECT_GT(reads.count(), 0);
  EXPECT_EQ(ninth, &pmu->formats()[9]);  // natural order: event, f0, f1, ..., f8
}

TEST(ThreadSafety, ManyThreadsShareOneCatalog) {
  TempTree tree;
  constexpr int kPmus = 8;
  constexpr int kEvents = 50;
  for (int p = 0; p < kPmus; ++p) {
    std::string pmu = fmt::format("uncore_box_{}", p);
    tree.write("devices/" + pmu + "/type", fmt::format("{}\n", 100 + p));
    tree.write("devices/" + pmu + "/format/event", "config:0-7\n");
    tree.write("devices/" + pmu + "/format/umask", "config:8-15\n");
    for (int e = 0; e < kEvents; ++e) {
      tree.write(fmt::format("devices/{}/events/ev_{}", pmu, e), fmt::format("event=0x{:x}\n", e));
    }
  }
  auto catalog = Catalog::open(tree.path("devices"));
  ASSERT_TRUE(catalog);
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 16; ++t) {
    threads.emplace_back([&, t] {
      for (int round = 0; round < 4; ++round) {
        for (int p = 0; p < kPmus; ++p) {
          const Pmu* pmu = catalog->find_pmu(fmt::format("uncore_box_{}", (p + t) % kPmus));
          if (pmu == nullptr) {
            ++failures;
            continue;
          }
          // Threads mix the entry points so probes, listings and formats race each other.
          int e = (t * 7 + round) % kEvents;
          const Event* event = pmu->find_event(fmt::format("EV_{}", e));
          if (event == nullptr || event->terms.terms.empty() ||
              event->terms.terms[0].value != static_cast<std::uint64_t>(e)) {
            ++failures;
          }
          if ((t + round) % 2 == 0 && pmu->events().size() != kEvents) ++failures;
          if (pmu->formats().size() != 2 || pmu->find_format("umask") == nullptr) ++failures;
          if (pmu->type() != static_cast<std::uint32_t>(100 + (p + t) % kPmus)) ++failures;
          if (!pmu->diagnostics().empty()) ++failures;
        }
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(failures.load(), 0);
}

}  // namespace
PMUCAT_END_NAMESPACE
