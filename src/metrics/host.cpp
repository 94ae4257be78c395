// The host values perf 6.1 gives metric literals, and its NMI watchdog setting (perf's
// util/expr.c expr__get_literal, util/smt.c, util/cputopo.c, arch/x86/util/tsc.c: facts).
#include <fmt/format.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#include "pmucat/metrics.h"

namespace pmucat {

namespace {

// The first line of a small regular file (sysfs and procfs files are; a FIFO or device under a
// host root is not read), at most 4 KiB of it.
std::optional<std::string> read_small(const std::filesystem::path& path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) return std::nullopt;
  std::ifstream in(path);
  if (!in) return std::nullopt;
  std::string text(4096, '\0');
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  text.resize(static_cast<std::size_t>(in.gcount()));
  if (const auto newline = text.find('\n'); newline != std::string::npos) text.resize(newline);
  return text;
}

// A CPU list (`0-3,8`) -> the highest CPU + 1, or nullopt.
std::optional<double> max_cpu_plus_one(const std::string& list) {
  long best = -1;
  std::stringstream ss(list);
  std::string part;
  while (std::getline(ss, part, ',')) {
    const auto dash = part.find('-');
    const std::string last = dash == std::string::npos ? part : part.substr(dash + 1);
    char* end = nullptr;
    const long v = std::strtol(last.c_str(), &end, 10);
    if (end != last.c_str() && v > best) best = v;
  }
  if (best < 0) return std::nullopt;
  return static_cast<double>(best + 1);
}

std::vector<long> cpus_of(const std::string& list) {
  std::vector<long> out;
  std::stringstream ss(list);
  std::string part;
  while (std::getline(ss, part, ',')) {
    const auto dash = part.find('-');
    const long a = std::strtol(part.c_str(), nullptr, 10);
    const long b =
        dash == std::string::npos ? a : std::strtol(part.c_str() + dash + 1, nullptr, 10);
    for (long c = a; c <= b && c - a < 65536; ++c) out.push_back(c);
  }
  return out;
}

// The frequency an x86 /proc/cpuinfo's model name states ("... @ 2.00GHz"), or 0.
[[maybe_unused]] double cpuinfo_tsc_frequency(const std::filesystem::path& root) {
  std::ifstream in(root / "proc/cpuinfo");
  std::string line;
  // A cpuinfo has a few thousand lines per CPU; a file that is not one is not read to its end.
  for (int lines = 0; lines < 1'000'000 && std::getline(in, line); ++lines) {
    if (line.rfind("model name", 0) != 0) continue;
    const auto at = line.find(" @ ", 11);
    if (at == std::string::npos) continue;
    double ghz = 0;
    if (std::sscanf(line.c_str() + at, " @ %lfGHz", &ghz) == 1) return ghz * 1e9;
  }
  return 0;
}

double tsc_frequency(const std::filesystem::path& root) {
#if defined(__x86_64__) || defined(__i386__)
  // CPUID describes this machine: another root (a capture) has only its /proc/cpuinfo.
  std::error_code ec;
  if (!std::filesystem::equivalent(root, "/", ec)) return cpuinfo_tsc_frequency(root);
  unsigned a = 0;
  unsigned b = 0;
  unsigned c = 0;
  unsigned d = 0;
  __cpuid(0, a, b, c, d);
  const unsigned level = a;
  char vendor[13] = {};
  std::memcpy(vendor, &b, 4);
  std::memcpy(vendor + 4, &d, 4);
  std::memcpy(vendor + 8, &c, 4);
  if (std::string_view(vendor).find("Intel") == std::string_view::npos) return 0;
  if (level >= 0x15) {
    __cpuid_count(0x15, 0, a, b, c, d);
    if (a != 0 && b != 0 && c != 0) return static_cast<double>(c) * b / a;
  }
  return cpuinfo_tsc_frequency(root);
#else
  (void)root;
  return 0;
#endif
}

}  // namespace

MetricLiterals host_metric_literals(const std::filesystem::path& root) {
  MetricLiterals lit;
  const auto cpu = root / "sys/devices/system/cpu";
  const auto present = read_small(cpu / "present");
  if (present) lit.num_cpus = max_cpu_plus_one(*present);
  // perf's topology: the distinct core/die/package CPU lists of the online CPUs.
  std::set<std::string> cores;
  std::set<std::string> dies;
  std::set<std::string> packages;
  bool any_thread_siblings = false;
  if (auto online = read_small(cpu / "online")) {
    for (long c : cpus_of(*online)) {
      const auto topo = cpu / fmt::format("cpu{}", c) / "topology";
      if (auto s = read_small(topo / "core_cpus_list")) {
        cores.insert(*s);
      } else if (auto t = read_small(topo / "thread_siblings_list")) {
        cores.insert(*t);
      }
      if (auto s = read_small(topo / "die_cpus_list")) dies.insert(*s);
      if (auto s = read_small(topo / "package_cpus_list")) {
        packages.insert(*s);
      } else if (auto t = read_small(topo / "core_siblings_list")) {
        packages.insert(*t);
      }
      if (auto t = read_small(topo / "thread_siblings_list")) {
        if (cpus_of(*t).size() > 1) any_thread_siblings = true;
      }
    }
  }
  if (auto online = read_small(cpu / "online"))
    lit.num_cpus_online = static_cast<double>(cpus_of(*online).size());
  // perf 6.12: the ACPI NFIT table in sysfs means persistent memory.
  std::error_code ec;
  lit.has_pmem = std::filesystem::exists(root / "sys/firmware/acpi/tables/NFIT", ec) ? 1.0 : 0.0;
  if (!cores.empty()) lit.num_cores = static_cast<double>(cores.size());
  if (!dies.empty()) lit.num_dies = static_cast<double>(dies.size());
  if (!packages.empty()) lit.num_packages = static_cast<double>(packages.size());
  if (auto active = read_small(cpu / "smt/active")) {
    lit.smt_on = std::strtol(active->c_str(), nullptr, 10) == 1 ? 1.0 : 0.0;
  } else {
    lit.smt_on = any_thread_siblings ? 1.0 : 0.0;
  }
  lit.core_wide = 0;  // perf stat without -a: never core-wide
  lit.system_tsc_freq = tsc_frequency(root);
  return lit;
}

bool host_nmi_watchdog(const std::filesystem::path& root) {
  const auto text = read_small(root / "proc/sys/kernel/nmi_watchdog");
  return text && std::strtol(text->c_str(), nullptr, 10) != 0;
}

}  // namespace pmucat
