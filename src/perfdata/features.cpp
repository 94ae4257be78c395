// Feature section payloads: names, encoders and bounds-checked decoders.
#include <fmt/format.h>

#include <algorithm>

#include "perfdata/bytes.h"
#include "pmucat/perfdata.h"
#include "pmucat/perfdata_features.h"

PMUCAT_BEGIN_NAMESPACE
namespace {

using perfdata::ByteReader;
using perfdata::ByteWriter;

// Nothing of a well-formed payload may be left over, but for the zero bytes perf >= 6.12 pads
// a pipe-mode FEATURE record with to a multiple of 8 (fewer than 8): a decoder that stops
// earlier than that is misreading.
template <class T>
std::optional<T> whole(ByteReader& in, T value) {
  if (in.remaining() >= 8) return std::nullopt;
  const auto rest = in.take(in.remaining());
  if (!rest) return std::nullopt;
  for (std::byte b : *rest) {
    if (b != std::byte{0}) return std::nullopt;
  }
  return value;
}

std::optional<std::vector<std::string>> read_string_list(ByteReader& in) {
  const auto nr = in.read<std::uint32_t>();
  // Each string takes at least its 4-byte length: a larger count cannot be honest.
  if (!nr || *nr > in.remaining() / 4) return std::nullopt;
  std::vector<std::string> out;
  for (std::uint32_t i = 0; i < *nr; ++i) {
    auto s = in.read_header_string();
    if (!s) return std::nullopt;
    out.push_back(std::move(*s));
  }
  return out;
}

void put_string_list(ByteWriter& out, std::span<const std::string> items) {
  out.put(static_cast<std::uint32_t>(items.size()));
  for (const auto& s : items) out.put_header_string(s);
}

}  // namespace

std::string feature_name(std::uint32_t id) {
  static constexpr std::string_view kNames[] = {
      "RESERVED",        "TRACING_DATA", "BUILD_ID",     "HOSTNAME",     "OSRELEASE",
      "VERSION",         "ARCH",         "NRCPUS",       "CPUDESC",      "CPUID",
      "TOTAL_MEM",       "CMDLINE",      "EVENT_DESC",   "CPU_TOPOLOGY", "NUMA_TOPOLOGY",
      "BRANCH_STACK",    "PMU_MAPPINGS", "GROUP_DESC",   "AUXTRACE",     "STAT",
      "CACHE",           "SAMPLE_TIME",  "MEM_TOPOLOGY", "CLOCKID",      "DIR_FORMAT",
      "BPF_PROG_INFO",   "BPF_BTF",      "COMPRESSED",   "CPU_PMU_CAPS", "CLOCK_DATA",
      "HYBRID_TOPOLOGY", "PMU_CAPS"};
  if (id < std::size(kNames)) return std::string(kNames[id]);
  return fmt::format("FEATURE({})", id);
}

std::vector<std::byte> encode_feature_string(std::string_view text) {
  ByteWriter out;
  out.put_header_string(text);
  return out.take();
}

std::vector<std::byte> encode_feature_string_list(std::span<const std::string> items) {
  ByteWriter out;
  put_string_list(out, items);
  return out.take();
}

std::vector<std::byte> encode_nrcpus(std::uint32_t available, std::uint32_t online) {
  ByteWriter out;
  out.put(available).put(online);
  return out.take();
}

std::vector<std::byte> encode_total_mem(std::uint64_t kilobytes) {
  ByteWriter out;
  out.put(kilobytes);
  return out.take();
}

std::vector<std::byte> encode_event_desc(std::span<const PerfEventEntry> events,
                                         std::uint32_t attr_size) {
  ByteWriter out;
  out.put(static_cast<std::uint32_t>(events.size())).put(attr_size);
  for (const auto& e : events) {
    Attr attr = e.attr;
    attr.size = attr_size;
    out.put_bytes(to_bytes(attr));
    out.put(static_cast<std::uint32_t>(e.ids.size())).put_header_string(e.name);
    for (auto id : e.ids) out.put(id);
  }
  return out.take();
}

std::vector<std::byte> encode_pmu_mappings(std::span<const PmuMapping> pmus) {
  ByteWriter out;
  out.put(static_cast<std::uint32_t>(pmus.size()));
  for (const auto& p : pmus) out.put(p.type).put_header_string(p.name);
  return out.take();
}

std::vector<std::byte> encode_group_desc(std::span<const GroupDesc> groups) {
  ByteWriter out;
  out.put(static_cast<std::uint32_t>(groups.size()));
  for (const auto& g : groups) out.put_header_string(g.name).put(g.leader_index).put(g.members);
  return out.take();
}

std::vector<std::byte> encode_cpu_topology(const CpuTopology& topology) {
  ByteWriter out;
  put_string_list(out, topology.core_siblings);
  put_string_list(out, topology.thread_siblings);
  for (const auto& cpu : topology.cpus) out.put(cpu.core_id).put(cpu.socket_id);
  out.put_bytes(topology.extra);
  return out.take();
}

std::vector<std::byte> encode_numa_topology(std::span<const NumaNode> nodes) {
  ByteWriter out;
  out.put(static_cast<std::uint32_t>(nodes.size()));
  for (const auto& n : nodes) {
    out.put(n.node).put(n.mem_total_kb).put(n.mem_free_kb).put_header_string(n.cpus);
  }
  return out.take();
}

std::vector<std::byte> encode_hybrid_topology(std::span<const HybridNode> nodes) {
  ByteWriter out;
  out.put(static_cast<std::uint32_t>(nodes.size()));
  for (const auto& n : nodes) out.put_header_string(n.pmu_name).put_header_string(n.cpus);
  return out.take();
}

std::vector<std::byte> encode_build_ids(std::span<const BuildId> build_ids) {
  ByteWriter out;
  for (const auto& b : build_ids) {
    const std::size_t name_len = (b.filename.size() + 1 + 63) / 64 * 64;
    out.put(std::uint32_t{0}).put(b.misc).put(static_cast<std::uint16_t>(36 + name_len));
    out.put(b.pid);
    std::vector<std::byte> area(24);
    std::copy_n(b.id.begin(), std::min<std::size_t>(b.id.size(), 20), area.begin());
    if (b.misc & 0x8000) area[20] = static_cast<std::byte>(std::min<std::size_t>(b.id.size(), 20));
    out.put_bytes(area).put_padded_string(b.filename, 64);
  }
  return out.take();
}

std::optional<std::string> decode_feature_string(std::span<const std::byte> payload) {
  ByteReader in(payload, false);
  auto s = in.read_header_string();
  if (!s) return std::nullopt;
  return whole(in, std::move(*s));
}

std::optional<std::vector<std::string>> decode_feature_string_list(
    std::span<const std::byte> payload) {
  ByteReader in(payload, false);
  auto list = read_string_list(in);
  if (!list) return std::nullopt;
  return whole(in, std::move(*list));
}

std::optional<std::pair<std::uint32_t, std::uint32_t>> decode_nrcpus(
    std::span<const std::byte> payload) {
  ByteReader in(payload, false);
  const auto available = in.read<std::uint32_t>();
  const auto online = in.read<std::uint32_t>();
  if (!available || !online) return std::nullopt;
  return whole(in, std::pair{*available, *online});
}

std::optional<std::uint64_t> decode_total_mem(std::span<const std::byte> payload) {
  ByteReader in(payload, false);
  const auto kb = in.read<std::uint64_t>();
  if (!kb) return std::nullopt;
  return whole(in, *kb);
}

std::optional<std::vector<PerfEventEntry>> decode_event_desc(std::span<const std::byte> payload) {
  ByteReader in(payload, false);
  const auto nr = in.read<std::uint32_t>();
  const auto attr_size = in.read<std::uint32_t>();
  if (!nr || !attr_size || *attr_size < kAttrSizeVer0) return std::nullopt;
  if (*nr > in.remaining() / (*attr_size + 8ull)) return std::nullopt;
  std::vector<PerfEventEntry> out;
  for (std::uint32_t i = 0; i < *nr; ++i) {
    const auto bytes = in.take(*attr_size);
    const auto nr_ids = in.read<std::uint32_t>();
    if (!bytes || !nr_ids) return std::nullopt;
    auto attr = attr_from_bytes(*bytes);
    auto name = in.read_header_string();
    if (!attr || !name || *nr_ids > in.remaining() / 8) return std::nullopt;
    PerfEventEntry e{*attr, {}, std::move(*name)};
    for (std::uint32_t k = 0; k < *nr_ids; ++k) e.ids.push_back(*in.read<std::uint64_t>());
    out.push_back(std::move(e));
  }
  return whole(in, std::move(out));
}

std::optional<std::vector<PmuMapping>> decode_pmu_mappings(std::span<const std::byte> payload) {
  ByteReader in(payload, false);
  const auto nr = in.read<std::uint32_t>();
  if (!nr || *nr > in.remaining() / 8) return std::nullopt;
  std::vector<PmuMapping> out;
  for (std::uint32_t i = 0; i < *nr; ++i) {
    const auto type = in.read<std::uint32_t>();
    auto name = in.read_header_string();
    if (!type || !name) return std::nullopt;
    out.push_back({*type, std::move(*name)});
  }
  // Pipe-mode FEATURE records of newer perf are padded to 8 bytes after the last entry.
  if (in.remaining() >= 8) return std::nullopt;
  return out;
}

std::optional<std::vector<GroupDesc>> decode_group_desc(std::span<const std::byte> payload) {
  ByteReader in(payload, false);
  const auto nr = in.read<std::uint32_t>();
  if (!nr || *nr > in.remaining() / 12) return std::nullopt;
  std::vector<GroupDesc> out;
  for (std::uint32_t i = 0; i < *nr; ++i) {
    auto name = in.read_header_string();
    const auto leader = in.read<std::uint32_t>();
    const auto members = in.read<std::uint32_t>();
    if (!name || !leader || !members) return std::nullopt;
    out.push_back({std::move(*name), *leader, *members});
  }
  return out;
}

std::optional<CpuTopology> decode_cpu_topology(std::span<const std::byte> payload,
                                               std::uint32_t nr_cpus) {
  ByteReader in(payload, false);
  CpuTopology t;
  auto cores = read_string_list(in);
  auto threads = cores ? read_string_list(in) : std::nullopt;
  if (!cores || !threads) return std::nullopt;
  t.core_siblings = std::move(*cores);
  t.thread_siblings = std::move(*threads);
  // Old perf wrote only the two lists; the per-cpu ids are an optional tail.
  if (in.remaining() >= 8ull * nr_cpus) {
    for (std::uint32_t i = 0; i < nr_cpus; ++i) {
      const auto core = in.read<std::uint32_t>();
      const auto socket = in.read<std::uint32_t>();
      t.cpus.push_back({*core, *socket});
    }
  }
  const auto extra = in.take(in.remaining());
  t.extra.assign(extra->begin(), extra->end());
  return t;
}

std::optional<std::vector<NumaNode>> decode_numa_topology(std::span<const std::byte> payload) {
  ByteReader in(payload, false);
  const auto nr = in.read<std::uint32_t>();
  if (!nr || *nr > in.remaining() / 24) return std::nullopt;
  std::vector<NumaNode> out;
  for (std::uint32_t i = 0; i < *nr; ++i) {
    const auto node = in.read<std::uint32_t>();
    const auto total = in.read<std::uint64_t>();
    const auto free = in.read<std::uint64_t>();
    auto cpus = in.read_header_string();
    if (!node || !total || !free || !cpus) return std::nullopt;
    out.push_back({*node, *total, *free, std::move(*cpus)});
  }
  return whole(in, std::move(out));
}

std::optional<std::vector<HybridNode>> decode_hybrid_topology(std::span<const std::byte> payload) {
  ByteReader in(payload, false);
  const auto nr = in.read<std::uint32_t>();
  // Each node holds two strings of at least their 4-byte length.
  if (!nr || *nr > in.remaining() / 8) return std::nullopt;
  std::vector<HybridNode> out;
  for (std::uint32_t i = 0; i < *nr; ++i) {
    auto name = in.read_header_string();
    auto cpus = in.read_header_string();
    if (!name || !cpus) return std::nullopt;
    out.push_back({std::move(*name), std::move(*cpus)});
  }
  return whole(in, std::move(out));
}

std::optional<std::vector<BuildId>> decode_build_ids(std::span<const std::byte> payload) {
  ByteReader in(payload, false);
  std::vector<BuildId> out;
  while (!in.at_end()) {
    const auto type = in.read<std::uint32_t>();
    const auto misc = in.read<std::uint16_t>();
    const auto size = in.read<std::uint16_t>();
    if (!type || !misc || !size || *size < 36) return std::nullopt;
    const auto pid = in.read<std::int32_t>();
    const auto area = in.take(24);
    const auto name = in.take(*size - 36u);
    if (!pid || !area || !name) return std::nullopt;
    BuildId b;
    b.misc = *misc;
    b.pid = *pid;
    const std::size_t id_size =
        (*misc & 0x8000) ? std::min<std::size_t>(std::to_integer<std::size_t>((*area)[20]), 20)
                         : 20;
    b.id.assign(area->begin(), area->begin() + static_cast<std::ptrdiff_t>(id_size));
    for (std::byte c : *name) {
      if (c == std::byte{0}) break;
      b.filename += static_cast<char>(c);
    }
    out.push_back(std::move(b));
  }
  return out;
}

PMUCAT_END_NAMESPACE
