// read_host_facts(): the facts of a root laid out like `/`, each unknown when its file is
// missing or garbled, and reported when its text holds a NUL byte.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <string>
#include <string_view>
#include <vector>

#include "pmucat/diagnostic_ids.h"
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

// A hostile capture puts NUL bytes in the texts: perf reads each as a C string, only up to the
// NUL, so pmucat takes no fact from such a text (neither the part before the NUL, nor the whole
// with the NUL in it) and says which file it was and where.
TEST(HostFacts, ATextWithANulByteIsReportedNotTruncated) {
  using namespace std::string_view_literals;
  TempTree root("facts");
  root.write("proc/sys/kernel/perf_event_paranoid", "2\0-1\n"sv);
  root.write("proc/sys/kernel/osrelease", "6.1.0\0-evil\n"sv);
  root.write("proc/sys/kernel/nmi_watchdog", "1\n");
  root.write("proc/self/status", "Uid:\t0\t0\t0\t0\nCapEff:\t\0ffffffffff\n"sv);
  std::vector<pmucat::Diagnostic> problems;
  const HostFacts facts = pmucat::read_host_facts(root.root(), &problems);
  EXPECT_FALSE(facts.perf_event_paranoid.has_value());
  EXPECT_FALSE(facts.kernel_release.has_value());
  EXPECT_FALSE(facts.capabilities.has_value());
  EXPECT_FALSE(facts.uid.has_value());
  EXPECT_EQ(facts.nmi_watchdog, true);  // a clean text beside them still counts
  ASSERT_EQ(problems.size(), 3u);
  const std::string_view files[] = {"proc/sys/kernel/perf_event_paranoid",
                                    "proc/sys/kernel/osrelease", "proc/self/status"};
  const std::size_t offsets[] = {1, 5, 21};
  for (std::size_t i = 0; i < problems.size(); ++i) {
    EXPECT_EQ(problems[i].code, pmucat::DiagId::host_fact_nul);
    EXPECT_EQ(problems[i].severity, pmucat::Severity::warning);
    EXPECT_EQ(problems[i].range.file, root.path(files[i]).string());
    EXPECT_NE(problems[i].message.find("NUL byte at offset " + std::to_string(offsets[i])),
              std::string::npos)
        << problems[i].message;
  }
  // Without a place for the warnings the facts are the same.
  EXPECT_EQ(pmucat::read_host_facts(root.root()), facts);
}

}  // namespace
