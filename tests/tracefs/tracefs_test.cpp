// Tracefs: lazy listings, id reads, perf's glob, and trees that try to hang or confuse the reader.
#include "pmucat/tracefs.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "support/command.h"
#include "support/temp_tree.h"

PMUCAT_BEGIN_NAMESPACE
namespace {

using testing::TempTree;

TEST(TracefsGlob, MatchesLikePerfStrglobmatch) {
  EXPECT_TRUE(tracepoint_glob_match("sched_switch", "sched_*"));
  EXPECT_TRUE(tracepoint_glob_match("sched_switch", "*"));
  EXPECT_TRUE(tracepoint_glob_match("sched_switch", "sched_s?itch"));
  EXPECT_TRUE(tracepoint_glob_match("sched_switch", "sched_s[vwx]*"));
  EXPECT_TRUE(tracepoint_glob_match("sched_switch", "sched_s[a-z]itch"));
  EXPECT_FALSE(tracepoint_glob_match("sched_switch", "sched_s[!w]*"));
  EXPECT_FALSE(tracepoint_glob_match("sched_switch", "sched_"));
  EXPECT_FALSE(tracepoint_glob_match("sched_switch", "*x"));
  EXPECT_TRUE(tracepoint_glob_match("a*b", "a\\*b"));
  EXPECT_FALSE(tracepoint_glob_match("axb", "a\\*b"));
  EXPECT_TRUE(tracepoint_glob_match("", "*"));
  EXPECT_FALSE(tracepoint_glob_match("ab", "a[b"));  // an unclosed class matches nothing
}

TEST(Tracefs, ListsSystemsEventsAndIdsSorted) {
  auto tracefs = Tracefs::open(testing::source_dir() + "/fixtures/tracefs/basic");
  ASSERT_TRUE(tracefs) << tracefs.error().message;
  auto systems = tracefs->systems();
  ASSERT_TRUE(systems);
  const std::vector<std::string> expected = {"block",        "irq",   "probe-libc",
                                             "raw_syscalls", "sched", "syscalls"};
  EXPECT_EQ(*systems, expected);
  auto all = tracefs->list();
  ASSERT_TRUE(all);
  EXPECT_EQ(all->size(), 12u);
  EXPECT_EQ(all->front(), (Tracepoint{"block", "block_rq_issue", 1180}));
  auto sched = tracefs->match("sched", "sched_s*");
  ASSERT_TRUE(sched);
  ASSERT_EQ(sched->size(), 2u);
  EXPECT_EQ((*sched)[1], (Tracepoint{"sched", "sched_switch", 316}));
  EXPECT_TRUE(tracefs->match("nosuch", "x")->empty());
  EXPECT_TRUE(tracefs->match("sched", "nosuch")->empty());
}

TEST(Tracefs, OpenNeedsAnEventsDirectory) {
  TempTree tree;
  tree.write("README", "x\n");
  auto tracefs = Tracefs::open(tree.root().string());
  ASSERT_FALSE(tracefs);
  EXPECT_EQ(tracefs.error().id, "tracepoint-no-tracefs");
  EXPECT_EQ(Tracefs::live_candidates().front(), "/sys/kernel/tracing");
}

TEST(Tracefs, HostileTreesGiveLocatedErrorsAndNeverHang) {
  TempTree tree;
  tree.write("events/ok/good/id", "7\n");
  tree.fifo("events/ok/fifo/id");
  tree.write("events/ok/huge/id", std::string(1 << 20, '7'));
  tree.write("events/ok/text/id", "0x10\n");
  tree.write("events/ok/neg/id", "-1\n");
  tree.write("events/ok/over/id", "18446744073709551616\n");
  tree.symlink("loop", "events/ok/loop");  // a self-loop: not a directory, skipped
  tree.symlink("ok", "events/linked");     // a symlinked system counts
  tree.symlink("selfid", "events/ok/selfid/id");
  auto tracefs = Tracefs::open(tree.root().string());
  ASSERT_TRUE(tracefs);
  EXPECT_EQ(*tracefs->id("ok", "good"), 7u);
  for (const char* event : {"fifo", "huge", "text", "neg", "over", "selfid"}) {
    auto id = tracefs->id("ok", event);
    ASSERT_FALSE(id) << event;
    EXPECT_EQ(id.error().id, "tracepoint-bad-id") << event;
    EXPECT_NE(id.error().range.file.find(std::string("/events/ok/") + event + "/id"),
              std::string::npos);
  }
  auto events = tracefs->events("ok");
  ASSERT_TRUE(events);
  EXPECT_EQ(std::count(events->begin(), events->end(), "loop"), 0);
  auto systems = tracefs->systems();
  ASSERT_TRUE(systems);
  EXPECT_EQ(*systems, (std::vector<std::string>{"linked", "ok"}));
  EXPECT_EQ(tracefs->match("linked", "good")->size(), 1u);
  // A glob over a system with a bad id fails on that id, located.
  auto glob = tracefs->match("ok", "*");
  ASSERT_FALSE(glob);
  EXPECT_EQ(glob.error().id, "tracepoint-bad-id");
}

}  // namespace
PMUCAT_END_NAMESPACE
