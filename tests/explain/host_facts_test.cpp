// read_host_facts(): the facts of a root laid out like `/`, each unknown when its file is
// missing or garbled.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include "pmucat/explain.h"
#include "support/temp_tree.h"

namespace {

using pmucat::HostFacts;
using pmucat::testing::TempTree;

TEST(HostFacts, ReadFromARoot) {
  TempTree root("facts");
  root.write("proc/sys/kernel/perf_event_paranoid", "2\n");
  root.write("proc/sys/kernel/nmi_watchdog", "1\n");
  root.write("proc/sys/kernel/osrelease", "6.1.0-18-amd64\n");
  root.write("proc/sys/kernel/perf_event_max_sample_rate", "25000\n");
  root.write("proc/self/status",
             "Name:\tpmuencode\nUid:\t1000\t1001\t1000\t1000\nCapEff:\t0000004000000000\n");
  root.write("sys/kernel/tracing/events/sched/sched_switch/id", "316\n");
  ASSERT_EQ(::chmod(root.path("sys/kernel/tracing").c_str(), 0700), 0);
  const HostFacts facts = pmucat::read_host_facts(root.root());
  EXPECT_EQ(facts.perf_event_paranoid, 2);
  EXPECT_EQ(facts.nmi_watchdog, true);
  EXPECT_EQ(facts.kernel_release, "6.1.0-18-amd64");
  EXPECT_EQ(facts.max_sample_rate, 25000u);
  EXPECT_EQ(facts.capabilities, std::uint64_t{1} << pmucat::kCapPerfmon);
  EXPECT_EQ(facts.uid, 1001u);
  EXPECT_EQ(facts.tracefs, "/sys/kernel/tracing");
  EXPECT_EQ(facts.tracefs_mode, 0700u);
}

TEST(HostFacts, MissingOrGarbledFilesAreUnknown) {
  TempTree root("facts");
  root.write("proc/sys/kernel/perf_event_paranoid", "two\n");
  root.write("proc/self/status", "CapEff:\tzz\n");
  root.mkdir("sys/kernel/tracing");  // a mount point with nothing mounted
  const HostFacts facts = pmucat::read_host_facts(root.root());
  EXPECT_EQ(facts, HostFacts{});
}

// A FIFO where a fact belongs (a hostile capture) is left unread: the reader does not block.
TEST(HostFacts, AFifoIsNotRead) {
  TempTree root("facts");
  root.mkdir("proc/sys/kernel");
  root.fifo("proc/sys/kernel/perf_event_paranoid");
  root.write("proc/sys/kernel/osrelease", "6.12.9\n");
  const HostFacts facts = pmucat::read_host_facts(root.root());
  EXPECT_FALSE(facts.perf_event_paranoid.has_value());
  EXPECT_EQ(facts.kernel_release, "6.12.9");
}

TEST(HostFacts, NegativeParanoidAndDebugfsTracing) {
  TempTree root("facts");
  root.write("proc/sys/kernel/perf_event_paranoid", "-1\n");
  root.write("sys/kernel/debug/tracing/events/sched/sched_switch/id", "316\n");
  const HostFacts facts = pmucat::read_host_facts(root.root());
  EXPECT_EQ(facts.perf_event_paranoid, -1);
  EXPECT_EQ(facts.tracefs, "/sys/kernel/debug/tracing");
}

}  // namespace
