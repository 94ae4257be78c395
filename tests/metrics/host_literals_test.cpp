// host_metric_literals() and host_nmi_watchdog() on a root laid out like `/` (a capture's): the
// topology perf's literals count, and what a missing or hostile file leaves unknown.
#include <gtest/gtest.h>

#include "pmucat/metrics.h"
#include "support/temp_tree.h"

namespace {

using pmucat::MetricLiterals;
using pmucat::testing::TempTree;

constexpr std::string_view kCpu = "sys/devices/system/cpu/";

// Two packages of two cores of two threads: CPUs 0-7, thread siblings {n, n+4}.
void write_topology(const TempTree& root) {
  root.write(std::string(kCpu) + "present", "0-7\n");
  root.write(std::string(kCpu) + "online", "0-7\n");
  for (int cpu = 0; cpu < 8; ++cpu) {
    const std::string topology = std::string(kCpu) + "cpu" + std::to_string(cpu) + "/topology/";
    const int core = cpu % 4;
    const int package = core / 2;
    root.write(topology + "core_cpus_list",
               std::to_string(core) + "," + std::to_string(core + 4) + "\n");
    root.write(topology + "thread_siblings_list",
               std::to_string(core) + "," + std::to_string(core + 4) + "\n");
    root.write(topology + "die_cpus_list", package == 0 ? "0-1,4-5\n" : "2-3,6-7\n");
    root.write(topology + "package_cpus_list", package == 0 ? "0-1,4-5\n" : "2-3,6-7\n");
  }
}

TEST(HostLiterals, TopologyOfARoot) {
  TempTree root("host");
  write_topology(root);
  root.write("proc/cpuinfo", "processor\t: 0\nmodel name\t: Test CPU @ 2.50GHz\n\n");
  const MetricLiterals literals = pmucat::host_metric_literals(root.root());
  EXPECT_EQ(literals.num_cpus, 8.0);
  EXPECT_EQ(literals.num_cpus_online, 8.0);
  EXPECT_EQ(literals.num_cores, 4.0);
  EXPECT_EQ(literals.num_dies, 2.0);
  EXPECT_EQ(literals.num_packages, 2.0);
  EXPECT_EQ(literals.smt_on, 1.0);  // no smt/active: thread siblings decide
  EXPECT_EQ(literals.has_pmem, 0.0);
#if defined(__x86_64__) || defined(__i386__)
  // A capture's TSC comes from its /proc/cpuinfo, never from this machine's CPUID.
  EXPECT_EQ(literals.system_tsc_freq, 2.5e9);
#endif
}

TEST(HostLiterals, SmtActiveAndPresentListDecide) {
  TempTree root("host");
  root.write(std::string(kCpu) + "present", "0-3,8\n");
  root.write(std::string(kCpu) + "smt/active", "0\n");
  root.write("sys/firmware/acpi/tables/NFIT", "");
  const MetricLiterals literals = pmucat::host_metric_literals(root.root());
  EXPECT_EQ(literals.num_cpus, 9.0);  // the highest CPU present, plus one
  EXPECT_FALSE(literals.num_cpus_online.has_value());
  EXPECT_FALSE(literals.num_cores.has_value());
  EXPECT_EQ(literals.smt_on, 0.0);
  EXPECT_EQ(literals.has_pmem, 1.0);
}

// A FIFO where a fact belongs (a hostile capture) is left unread: the reader does not block.
TEST(HostLiterals, AFifoIsNotRead) {
  TempTree root("host");
  root.mkdir(std::string(kCpu));
  root.fifo(std::string(kCpu) + "online");
  root.write(std::string(kCpu) + "present", "0-1\n");
  root.mkdir("proc/sys/kernel");
  root.fifo("proc/sys/kernel/nmi_watchdog");
  const MetricLiterals literals = pmucat::host_metric_literals(root.root());
  EXPECT_EQ(literals.num_cpus, 2.0);
  EXPECT_FALSE(literals.num_cpus_online.has_value());
  EXPECT_FALSE(pmucat::host_nmi_watchdog(root.root()));
}

TEST(HostLiterals, NmiWatchdog) {
  TempTree root("host");
  root.write("proc/sys/kernel/nmi_watchdog", "1\n");
  EXPECT_TRUE(pmucat::host_nmi_watchdog(root.root()));
  root.write("proc/sys/kernel/nmi_watchdog", "0\n");
  EXPECT_FALSE(pmucat::host_nmi_watchdog(root.root()));
}

}  // namespace
