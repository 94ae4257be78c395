// The host values perf 6.1 gives metric literals, and its NMI watchdog setting (perf's
// util/expr.c expr__get_literal, util/smt.c, util/cputopo.c, arch/x86/util/tsc.c: facts).
#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <set>
#include <string>
#include <vector>

#include "host/host_root.h"
#include "pmucat/metrics.h"

PMUCAT_BEGIN_NAMESPACE

namespace {

// The frequency an x86 /proc/cpuinfo's model name states ("... @ 2.00GHz"), or 0: the first
// processor's (every x86 CPU of a machine has the same).
[[maybe_unused]] double cpuinfo_tsc_frequency(const host::Root& root) {
  const auto text = host::cpuinfo_first_processor(root);
  if (!text) return 0;
  std::string_view rest = *text;
  while (!rest.empty()) {
    const std::string_view line = host::first_line(rest);
    rest.remove_prefix(std::min(rest.size(), line.size() + 1));
    if (!line.starts_with("model name")) continue;
    const auto at = line.find(" @ ", 11);
    if (at == std::string_view::npos) continue;
    double ghz = 0;
    if (std::sscanf(std::string(line.substr(at)).c_str(), " @ %lfGHz", &ghz) == 1) {
      return ghz * 1e9;
    }
  }
  return 0;
}

double tsc_frequency(const host::Root& root) {
#if defined(__x86_64__) || defined(__i386__)
  // CPUID describes this machine: another root (a capture) has only its /proc/cpuinfo.
  if (!root.is_live()) return cpuinfo_tsc_frequency(root);
  const std::optional<host::X86Cpuid> cpu = host::x86_cpuid();
  if (!cpu || cpu->vendor.find("Intel") == std::string::npos) return 0;
  if (cpu->tsc_hz != 0) return cpu->tsc_hz;
  return cpuinfo_tsc_frequency(root);
#else
  (void)root;
  return 0;
#endif
}

}  // namespace

MetricLiterals host_metric_literals(const std::filesystem::path& root_path) {
  const host::Root root(root_path);
  MetricLiterals lit;
  const std::string cpu = "sys/devices/system/cpu/";
  if (const auto present = root.read_line(cpu + "present")) {
    // The highest CPU present + 1.
    const std::vector<unsigned> cpus = host::parse_cpu_list(*present);
    if (!cpus.empty()) lit.num_cpus = *std::max_element(cpus.begin(), cpus.end()) + 1.0;
  }
  // perf's topology: the distinct core/die/package CPU lists of the online CPUs.
  std::set<std::string> cores;
  std::set<std::string> dies;
  std::set<std::string> packages;
  bool any_thread_siblings = false;
  if (const auto online = root.read_line(cpu + "online")) {
    const std::vector<unsigned> online_cpus = host::parse_cpu_list(*online);
    for (unsigned c : online_cpus) {
      const std::string topo = fmt::format("{}cpu{}/topology/", cpu, c);
      if (auto s = root.read_line(topo + "core_cpus_list")) {
        cores.insert(*s);
      } else if (auto t = root.read_line(topo + "thread_siblings_list")) {
        cores.insert(*t);
      }
      if (auto s = root.read_line(topo + "die_cpus_list")) dies.insert(*s);
      if (auto s = root.read_line(topo + "package_cpus_list")) {
        packages.insert(*s);
      } else if (auto t = root.read_line(topo + "core_siblings_list")) {
        packages.insert(*t);
      }
      if (auto t = root.read_line(topo + "thread_siblings_list")) {
        if (host::parse_cpu_list(*t).size() > 1) any_thread_siblings = true;
      }
    }
    lit.num_cpus_online = static_cast<double>(online_cpus.size());
  }
  // perf 6.12: the ACPI NFIT table in sysfs means persistent memory.
  lit.has_pmem = root.exists("sys/firmware/acpi/tables/NFIT") ? 1.0 : 0.0;
  if (!cores.empty()) lit.num_cores = static_cast<double>(cores.size());
  if (!dies.empty()) lit.num_dies = static_cast<double>(dies.size());
  if (!packages.empty()) lit.num_packages = static_cast<double>(packages.size());
  if (auto active = root.read_line(cpu + "smt/active")) {
    lit.smt_on = std::strtol(active->c_str(), nullptr, 10) == 1 ? 1.0 : 0.0;
  } else {
    lit.smt_on = any_thread_siblings ? 1.0 : 0.0;
  }
  lit.core_wide = 0;   // perf stat without -a: never core-wide
  lit.target_cpu = 0;  // perf stat of a command, not of CPUs (-a, -C)
  lit.system_tsc_freq = tsc_frequency(root);
  return lit;
}

metric_expr::Literals evaluation_literals(const MetricLiterals& literals) {
  using metric_expr::Literal;
  metric_expr::Literals out;
  out[Literal::num_cpus] = literals.num_cpus;
  out[Literal::system_tsc_freq] = literals.system_tsc_freq;
  out[Literal::smt_on] = literals.smt_on;
  out[Literal::core_wide] = literals.core_wide;
  out[Literal::num_packages] = literals.num_packages;
  out[Literal::num_dies] = literals.num_dies;
  out[Literal::num_cores] = literals.num_cores;
  out[Literal::num_cpus_online] = literals.num_cpus_online;
  out[Literal::has_pmem] = literals.has_pmem;
  out[Literal::slots] = literals.slots;
  out[Literal::target_cpu] = literals.target_cpu;
  return out;
}

bool host_nmi_watchdog(const std::filesystem::path& root) {
  const auto text = host::Root(root).read_line("proc/sys/kernel/nmi_watchdog");
  return text && std::strtol(text->c_str(), nullptr, 10) != 0;
}

PMUCAT_END_NAMESPACE
