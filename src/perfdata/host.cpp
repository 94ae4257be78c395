// Host facts for perf.data metadata features (uname, /proc, /sys of this machine), read once per
// call.
#include <fmt/format.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <algorithm>
#include <sstream>

#include "host/host_root.h"
#include "pmucat/perfdata.h"
#include "pmucat/perfdata_host.h"
#include "pmucat/version.h"

PMUCAT_BEGIN_NAMESPACE
namespace {

// "key : value" lines of /proc/cpuinfo for the first processor.
std::map<std::string, std::string> cpuinfo(const host::Root& root) {
  std::map<std::string, std::string> out;
  const auto text = host::cpuinfo_first_processor(root);
  if (!text) return out;
  std::string_view rest = *text;
  while (!rest.empty()) {
    const std::string_view line = host::first_line(rest);
    rest.remove_prefix(std::min(rest.size(), line.size() + 1));
    if (line.empty()) break;
    if (auto field = host::cpuinfo_field(line)) out.emplace(field->first, field->second);
  }
  return out;
}

std::optional<CpuTopology> read_cpu_topology(const host::Root& root, std::uint32_t cpus) {
  CpuTopology t;
  std::vector<std::string> cores, threads;
  for (std::uint32_t cpu = 0; cpu < cpus; ++cpu) {
    const std::string dir = fmt::format("sys/devices/system/cpu/cpu{}/topology/", cpu);
    const std::string core_list = root.read_line(dir + "core_siblings_list").value_or("");
    const std::string thread_list = root.read_line(dir + "thread_siblings_list").value_or("");
    const std::string core_id = root.read_line(dir + "core_id").value_or("");
    const std::string socket_id = root.read_line(dir + "physical_package_id").value_or("");
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

std::vector<NumaNode> read_numa_nodes(const host::Root& root) {
  std::vector<NumaNode> nodes;
  for (std::uint32_t node = 0; node < 1024; ++node) {
    const std::string dir = fmt::format("sys/devices/system/node/node{}/", node);
    const auto meminfo = root.read(dir + "meminfo");
    if (!meminfo) break;
    NumaNode n;
    n.node = node;
    std::istringstream lines(*meminfo);
    std::string line;
    while (std::getline(lines, line)) {
      std::istringstream words(line);
      std::string node_word, index, key;
      std::uint64_t value = 0;
      words >> node_word >> index >> key >> value;
      if (key == "MemTotal:") n.mem_total_kb = value;
      if (key == "MemFree:") n.mem_free_kb = value;
    }
    n.cpus = root.read_line(dir + "cpulist").value_or("");
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
  const host::Root root;
  const auto info = cpuinfo(root);
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
  if (const auto meminfo = root.read("proc/meminfo")) {
    std::istringstream words(*meminfo);
    std::string key;
    std::uint64_t kb = 0;
    if (words >> key >> kb && key == "MemTotal:") host.mem_total_kb = kb;
  }
  host.cmdline = std::move(cmdline);
  host.cpu_topology = read_cpu_topology(root, host.cpus_available);
  host.numa_nodes = read_numa_nodes(root);
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

PMUCAT_END_NAMESPACE
