// The host a perf.data is written on, as its metadata feature sections (what perf record puts
// in HOSTNAME, OSRELEASE, NRCPUS, CPU_TOPOLOGY ...). Reads uname, /proc, /sys and sysconf.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "pmucat/perfdata_features.h"
#include "pmucat/version.h"

PMUCAT_BEGIN_NAMESPACE

// Host facts for the metadata features, read from uname, /proc and sysconf.
struct HostMetadata {
  std::string hostname, os_release, arch, cpu_description, cpuid, perf_version;
  std::uint32_t cpus_available = 0, cpus_online = 0;
  std::uint64_t mem_total_kb = 0;
  std::vector<std::string> cmdline;
  std::optional<CpuTopology> cpu_topology;
  std::vector<NumaNode> numa_nodes;
};
HostMetadata collect_host_metadata(std::vector<std::string> cmdline);
// HOSTNAME, OSRELEASE, VERSION, ARCH, NRCPUS, CPUDESC, CPUID, TOTAL_MEM, CMDLINE and the
// topologies, as feature payloads.
std::map<std::uint32_t, std::vector<std::byte>> host_features(const HostMetadata& host);

PMUCAT_END_NAMESPACE
