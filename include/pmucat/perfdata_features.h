// perf.data feature section payloads (PerfData::features, keyed by pmucat::feature ids): typed
// values encoded into and decoded from the raw bytes, in the layouts perf 6.1 writes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "pmucat/perfdata.h"
#include "pmucat/version.h"

PMUCAT_BEGIN_NAMESPACE

// A perf_header_string, padded to 64 like perf (`len` = round_up(strlen + 1, 64)).
std::vector<std::byte> encode_feature_string(std::string_view text);
std::vector<std::byte> encode_feature_string_list(std::span<const std::string> items);
std::vector<std::byte> encode_nrcpus(std::uint32_t available, std::uint32_t online);
std::vector<std::byte> encode_total_mem(std::uint64_t kilobytes);
std::vector<std::byte> encode_event_desc(std::span<const PerfEventEntry> events,
                                         std::uint32_t attr_size);
struct PmuMapping {
  std::uint32_t type = 0;
  std::string name;
  friend bool operator==(const PmuMapping&, const PmuMapping&) = default;
};
std::vector<std::byte> encode_pmu_mappings(std::span<const PmuMapping> pmus);
struct GroupDesc {
  std::string name;  // "{anon_group}" when unnamed
  std::uint32_t leader_index = 0, members = 0;
  friend bool operator==(const GroupDesc&, const GroupDesc&) = default;
};
std::vector<std::byte> encode_group_desc(std::span<const GroupDesc> groups);
struct CpuTopology {
  std::vector<std::string> core_siblings, thread_siblings;
  struct Cpu {
    std::uint32_t core_id = 0, socket_id = 0;
    friend bool operator==(const Cpu&, const Cpu&) = default;
  };
  std::vector<Cpu> cpus;
  std::vector<std::byte> extra;  // newer optional tails (die lists, die ids), kept as bytes
  friend bool operator==(const CpuTopology&, const CpuTopology&) = default;
};
std::vector<std::byte> encode_cpu_topology(const CpuTopology& topology);
struct NumaNode {
  std::uint32_t node = 0;
  std::uint64_t mem_total_kb = 0, mem_free_kb = 0;
  std::string cpus;
  friend bool operator==(const NumaNode&, const NumaNode&) = default;
};
std::vector<std::byte> encode_numa_topology(std::span<const NumaNode> nodes);
// HYBRID_TOPOLOGY: one node per core PMU (cpu_core, cpu_atom) and its cpu list ("0-15").
struct HybridNode {
  std::string pmu_name, cpus;
  friend bool operator==(const HybridNode&, const HybridNode&) = default;
};
std::vector<std::byte> encode_hybrid_topology(std::span<const HybridNode> nodes);
struct BuildId {
  std::uint16_t misc = 0;  // cpumode; 0x8000 set when `id` holds its own size
  std::int32_t pid = -1;
  std::vector<std::byte> id;  // up to 20 bytes
  std::string filename;
  friend bool operator==(const BuildId&, const BuildId&) = default;
};
std::vector<std::byte> encode_build_ids(std::span<const BuildId> build_ids);

// Decoders (little-endian payloads); nullopt when the payload is malformed.
std::optional<std::string> decode_feature_string(std::span<const std::byte> payload);
std::optional<std::vector<std::string>> decode_feature_string_list(
    std::span<const std::byte> payload);
std::optional<std::pair<std::uint32_t, std::uint32_t>> decode_nrcpus(
    std::span<const std::byte> payload);
std::optional<std::uint64_t> decode_total_mem(std::span<const std::byte> payload);
// EVENT_DESC: one entry per event (attr, ids, name).
std::optional<std::vector<PerfEventEntry>> decode_event_desc(std::span<const std::byte> payload);
std::optional<std::vector<PmuMapping>> decode_pmu_mappings(std::span<const std::byte> payload);
std::optional<std::vector<GroupDesc>> decode_group_desc(std::span<const std::byte> payload);
// `nr_cpus` is NRCPUS' available count (how many core/socket pairs follow the lists).
std::optional<CpuTopology> decode_cpu_topology(std::span<const std::byte> payload,
                                               std::uint32_t nr_cpus);
std::optional<std::vector<NumaNode>> decode_numa_topology(std::span<const std::byte> payload);
std::optional<std::vector<HybridNode>> decode_hybrid_topology(std::span<const std::byte> payload);
std::optional<std::vector<BuildId>> decode_build_ids(std::span<const std::byte> payload);

PMUCAT_END_NAMESPACE
