// Builds small, valid perf.data models for tests: events, a COMM, samples, features.
#pragma once

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "pmucat/perfdata.h"
#include "pmucat/perfdata_features.h"
#include "pmucat/perfdata_records.h"

PMUCAT_BEGIN_NAMESPACE
namespace test {

struct ModelSpec {
  std::uint32_t events = 1;
  std::uint32_t samples = 2;
  std::uint32_t type = 1;  // PERF_TYPE_SOFTWARE, config 0 = cpu-clock
  std::uint64_t config = 0;
  PerfDataMode mode = PerfDataMode::file;
  bool host_metadata = true;
};

// A pipe stream's HEADER_FEATURE record payload: the u64 feature id, then the feature's bytes.
inline std::vector<std::byte> header_feature_payload(std::uint64_t id,
                                                     const std::vector<std::byte>& bytes) {
  // Sized once and filled in place: growing it with insert() trips GCC 12's -Warray-bounds at -O3.
  std::vector<std::byte> payload(8 + bytes.size());
  for (std::size_t i = 0; i < 8; ++i) payload[i] = static_cast<std::byte>(id >> (8 * i));
  std::copy(bytes.begin(), bytes.end(), payload.begin() + 8);
  return payload;
}

inline Attr demo_attr(const ModelSpec& spec, std::uint32_t index) {
  Attr a;
  a.type = spec.type;
  a.size = kAttrSizeVer7;
  a.config[0] = spec.config + index;
  a.sample_period = 1000;
  a.sample_type = sample::ip | sample::tid | sample::time | sample::period;
  if (spec.events > 1) a.sample_type |= sample::identifier;
  a.read_format = read_fmt::id;
  a.disabled = a.inherit = a.exclude_kernel = a.exclude_hv = a.sample_id_all = true;
  return a;
}

inline PerfData demo_model(const ModelSpec& spec) {
  PerfData data;
  data.mode = spec.mode;
  for (std::uint32_t i = 0; i < spec.events; ++i) {
    data.events.push_back({demo_attr(spec, i), {100 + i}, "event" + std::to_string(i)});
  }
  const Attr& first = data.events.front().attr;
  SampleFields id;
  id.pid = id.tid = 4242;
  id.time = 1'000'000'000;
  id.identifier = 100;
  data.records.push_back(make_comm_record(4242, 4242, "demo", false, id, first));
  for (std::uint32_t s = 0; s < spec.samples; ++s) {
    const std::uint32_t e = s % spec.events;
    SampleFields f;
    f.identifier = 100 + e;
    f.ip = 0x400000 + 16 * s;
    f.pid = f.tid = 4242;
    f.time = 1'000'000'001 + s;
    f.period = 1000;
    data.records.push_back(make_sample_record(f, data.events[e].attr, 2));
  }
  data.records.push_back(make_finished_round_record());
  data.features[feature::event_desc] = encode_event_desc(data.events, kAttrSizeVer7);
  const std::vector<PmuMapping> pmus = {{1, "software"}, {4, "cpu"}};
  data.features[feature::pmu_mappings] = encode_pmu_mappings(pmus);
  if (spec.host_metadata) {
    data.features[feature::hostname] = encode_feature_string("testhost");
    data.features[feature::osrelease] = encode_feature_string("6.1.0-test");
    data.features[feature::version] = encode_feature_string("pmucat-test");
    data.features[feature::arch] = encode_feature_string("x86_64");
    data.features[feature::nrcpus] = encode_nrcpus(2, 2);
    data.features[feature::cpudesc] = encode_feature_string("Test CPU");
    data.features[feature::cpuid] = encode_feature_string("GenuineIntel,6,85,4");
    data.features[feature::total_mem] = encode_total_mem(1024 * 1024);
    const std::vector<std::string> cmdline = {"/usr/bin/pmucat", "record"};
    data.features[feature::cmdline] = encode_feature_string_list(cmdline);
    CpuTopology topo;
    topo.core_siblings = {"0-1"};
    topo.thread_siblings = {"0", "1"};
    topo.cpus = {{0, 0}, {1, 0}};
    data.features[feature::cpu_topology] = encode_cpu_topology(topo);
    const std::vector<NumaNode> nodes = {{0, 1024 * 1024, 512 * 1024, "0-1"}};
    data.features[feature::numa_topology] = encode_numa_topology(nodes);
    if (spec.events > 1) {
      const std::vector<GroupDesc> groups = {{"{anon_group}", 0, spec.events}};
      data.features[feature::group_desc] = encode_group_desc(groups);
    }
    BuildId b;
    b.misc = 0x8000 | 1;
    b.pid = -1;
    for (int i = 0; i < 20; ++i) b.id.push_back(static_cast<std::byte>(i + 1));
    b.filename = "[kernel.kallsyms]";
    data.features[feature::build_id] = encode_build_ids(std::span(&b, 1));
  }
  if (spec.mode == PerfDataMode::pipe) data.pipe_end_marker = feature::last;
  return data;
}

// A visitor that keeps every record the reader streams to it.
struct RecordCollector : PerfDataVisitor {
  std::optional<Diagnostic> begin(const PerfData&) override { return std::nullopt; }
  std::optional<Diagnostic> record(const Record& r) override {
    records.push_back(r);
    return std::nullopt;
  }
  std::vector<Record> records;
};

}  // namespace test
PMUCAT_END_NAMESPACE
