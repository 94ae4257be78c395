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

namespace pmucat {
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
// looking up the PMU of one event, must not read its entries (issue 12: one-event encode grew
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
}  // namespace pmucat
