// Host facts for perf.data metadata features (uname, /proc, /sys), read once per call.
#include <fmt/format.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "pmucat/perfdata.h"
#include "pmucat/perfdata_host.h"
#include "pmucat/version.h"

namespace pmucat {
namespace {

std::string first_line(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  return line;
}

// "key : value" lines of /proc/cpuinfo for the first processor.
std::map<std::string, std::string> cpuinfo() {
  std::map<std::string, std::string> out;
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty()) break;
    const auto colon = line.find(':');
    if (colon == std::string::npos) continue;
    auto trim = [](std::string s) {
      const auto b = s.find_first_not_of(" \t");
      const auto e = s.find_last_not_of(" \t");
      return b == std::string::npos ? std::string() : s.substr(b, e - b + 1);
    };
    out.emplace(trim(line.substr(0, colon)), trim(line.substr(colon + 1)));
  }
  return out;
}

std::optional<CpuTopology> read_cpu_topology(std::uint32_t cpus) {
  CpuTopology t;
  std::vector<std::string> cores, threads;
  for (std::uint32_t cpu = 0; cpu < cpus; ++cpu) {
    const std::filesystem::path dir = fmt::format("/sys/devices/system/cpu/cpu{}/topology", cpu);
    const std::string core_list = first_line(dir / "core_siblings_list");
    const std::string thread_list = first_line(dir / "thread_siblings_list");
    const std::string core_id = first_line(dir / "core_id");
    const std::string socket_id = first_line(dir / "physical_package_id");
    // An offline or missing cpu makes the per-cpu table unreliable: write no topology.
    if (core_list.empty() || thread_list.empty() || core_id.empty() || socket_id.empty()) {
      return std::nullopt;
    }
    if (std::find(cores.begin(), cores.end(), core_list) == cores.end()) cores.push_back(core_list);
    if (std::find(threads.begin(), threads.end(), thread_list) == threads.end()) {
      threads.push_back(thread_list);
    }
    try {
      t.cpus.push_back({static_cast<std::uint32_t>(std::stoul(core_id)),
                        static_cast<std::uint32_t>(std::stoul(socket_id))});
    } catch (const std::exception&) {
      return std::nullopt;
    }
  }
  t.core_siblings = std::move(cores);
  t.thread_siblings = std::move(threads);
  return t;
}

std::vector<NumaNode> read_numa_nodes() {
  std::vector<NumaNode> nodes;
  for (std::uint32_t node = 0; node < 1024; ++node) {
    const std::filesystem::path dir = fmt::format("/sys/devices/system/node/node{}", node);
    std::ifstream meminfo(dir / "meminfo");
    if (!meminfo) break;
    NumaNode n;
    n.node = node;
    std::string line;
    while (std::getline(meminfo, line)) {
      std::istringstream words(line);
      std::string node_word, index, key;
      std::uint64_t value = 0;
      words >> node_word >> index >> key >> value;
      if (key == "MemTotal:") n.mem_total_kb = value;
      if (key == "MemFree:") n.mem_free_kb = value;
    }
    n.cpus = first_line(dir / "cpulist");
    nodes.push_back(std::move(n));
  }
  return nodes;
}

}  // namespace

HostMetadata collect_host_metadata(std::vector<std::string> cmdline) {
  HostMetadata host;
  utsname names{};
  if (::uname(&names) == 0) {
    host.hostname = names.nodename;
    host.os_release = names.release;
    host.arch = names.machine;
  }
  const auto info = cpuinfo();
  auto get = [&info](const char* key) {
    const auto it = info.find(key);
    return it == info.end() ? std::string() : it->second;
  };
  host.cpu_description = get("model name");
  if (!get("vendor_id").empty()) {
    // perf's x86 CPUID string: vendor,family,model,stepping.
    host.cpuid = fmt::format("{},{},{},{}", get("vendor_id"), get("cpu family"), get("model"),
                             get("stepping"));
  }
  host.perf_version = fmt::format("pmucat {}", kVersion);
  const long configured = ::sysconf(_SC_NPROCESSORS_CONF);
  const long online = ::sysconf(_SC_NPROCESSORS_ONLN);
  host.cpus_available = configured > 0 ? static_cast<std::uint32_t>(configured) : 1;
  host.cpus_online = online > 0 ? static_cast<std::uint32_t>(online) : 1;
  std::ifstream meminfo("/proc/meminfo");
  std::string key;
  std::uint64_t kb = 0;
  if (meminfo >> key >> kb && key == "MemTotal:") host.mem_total_kb = kb;
  host.cmdline = std::move(cmdline);
  host.cpu_topology = read_cpu_topology(host.cpus_available);
  host.numa_nodes = read_numa_nodes();
  return host;
}

std::map<std::uint32_t, std::vector<std::byte>> host_features(const HostMetadata& host) {
  std::map<std::uint32_t, std::vector<std::byte>> out;
  auto string_feature = [&out](std::uint32_t id, const std::string& value) {
    if (!value.empty()) out[id] = encode_feature_string(value);
  };
  string_feature(feature::hostname, host.hostname);
  string_feature(feature::osrelease, host.os_release);
  string_feature(feature::version, host.perf_version);
  string_feature(feature::arch, host.arch);
  string_feature(feature::cpudesc, host.cpu_description);
  string_feature(feature::cpuid, host.cpuid);
  if (host.cpus_available != 0) {
    out[feature::nrcpus] = encode_nrcpus(host.cpus_available, host.cpus_online);
  }
  if (host.mem_total_kb != 0) out[feature::total_mem] = encode_total_mem(host.mem_total_kb);
  if (!host.cmdline.empty()) out[feature::cmdline] = encode_feature_string_list(host.cmdline);
  if (host.cpu_topology && host.cpu_topology->cpus.size() == host.cpus_available) {
    out[feature::cpu_topology] = encode_cpu_topology(*host.cpu_topology);
  }
  if (!host.numa_nodes.empty()) out[feature::numa_topology] = encode_numa_topology(host.numa_nodes);
  return out;
}

}  // namespace pmucat
