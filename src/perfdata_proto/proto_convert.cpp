// perf.data model <-> PerfDataProto: attrs, features and the file layout (records are in
// proto_records.cpp).
#include <fmt/format.h>
#include <google/protobuf/io/tokenizer.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>
#include <google/protobuf/text_format.h>

#include <algorithm>
#include <set>

#include "perfdata/problems.h"
#include "perfdata_proto/proto_records.h"
#include "pmucat/diagnostic_ids.h"
#include "pmucat/perfdata_features.h"
#include "pmucat/perfdata_proto.h"

PMUCAT_BEGIN_NAMESPACE
namespace {

using Proto = quipper::PerfDataProto;
using perfdata::io_error;

// The perf.data reader's bound on attr_size: nothing larger is a perf_event_attr.
constexpr std::uint32_t kMaxAttrSize = 4096;

Diagnostic malformed(std::string_view file, std::string message) {
  Diagnostic d = io_error(file, std::move(message));
  set_id(d, DiagId::perfdata_malformed);
  return d;
}

// Keeps the text parser's first error for our diagnostic; protobuf's default collector would
// write every error to stderr, which a library must not do.
class FirstTextError : public google::protobuf::io::ErrorCollector {
 public:
  void AddError(int line, google::protobuf::io::ColumnNumber column,
                const std::string& message) override {
    if (first_.empty()) first_ = fmt::format("{}:{}: {}", line + 1, column + 1, message);
  }
  void AddWarning(int, google::protobuf::io::ColumnNumber, const std::string&) override {}
  const std::string& first() const { return first_; }

 private:
  std::string first_;
};

std::string as_string(std::span<const std::byte> bytes) {
  return std::string(reinterpret_cast<const char*>(bytes.data()), bytes.size());
}

std::vector<std::byte> as_bytes(const std::string& s) {
  std::vector<std::byte> out(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) out[i] = static_cast<std::byte>(s[i]);
  return out;
}

// quipper's perf_event_attr is the 96-byte VER3 struct: it writes `size` into the attrs it
// writes back as they are, so any other size makes perf misread them. The typed size is 96 like
// in quipper's own protos, the real one rides in pmucat_size.
constexpr std::uint32_t kQuipperAttrSize = 96;

void attr_to_proto(const Attr& a, Proto::PerfEventAttr& p) {
  p.set_type(a.type);
  p.set_size(kQuipperAttrSize);
  if (a.size != kQuipperAttrSize) p.set_pmucat_size(a.size);
  p.set_config(a.config[0]);
  // quipper stores the sample_period/sample_freq union in sample_period either way.
  p.set_sample_period(a.freq ? a.sample_freq : a.sample_period);
  if (a.freq) p.set_sample_freq(a.sample_freq);
  p.set_sample_type(a.sample_type);
  p.set_read_format(a.read_format);
  p.set_disabled(a.disabled), p.set_inherit(a.inherit), p.set_pinned(a.pinned);
  p.set_exclusive(a.exclusive), p.set_exclude_user(a.exclude_user);
  p.set_exclude_kernel(a.exclude_kernel), p.set_exclude_hv(a.exclude_hv);
  p.set_exclude_idle(a.exclude_idle), p.set_mmap(a.mmap), p.set_comm(a.comm), p.set_freq(a.freq);
  p.set_inherit_stat(a.inherit_stat), p.set_enable_on_exec(a.enable_on_exec), p.set_task(a.task);
  p.set_watermark(a.watermark), p.set_precise_ip(a.precise_ip), p.set_mmap_data(a.mmap_data);
  p.set_sample_id_all(a.sample_id_all), p.set_exclude_host(a.exclude_host);
  p.set_exclude_guest(a.exclude_guest);
  p.set_exclude_callchain_kernel(a.exclude_callchain_kernel);
  p.set_exclude_callchain_user(a.exclude_callchain_user), p.set_mmap2(a.mmap2);
  p.set_comm_exec(a.comm_exec), p.set_use_clockid(a.use_clockid);
  p.set_context_switch(a.context_switch), p.set_write_backward(a.write_backward);
  p.set_namespaces(a.namespaces), p.set_cgroup(a.cgroup), p.set_ksymbol(a.ksymbol);
  p.set_wakeup_events(a.watermark ? a.wakeup_watermark : a.wakeup_events);
  if (a.watermark) p.set_wakeup_watermark(a.wakeup_watermark);
  p.set_bp_type(a.bp_type);
  p.set_config1(a.config[1]);
  p.set_config2(a.config[2]);
  p.set_branch_sample_type(a.branch_sample_type);
  p.set_sample_regs_user(a.sample_regs_user);
  p.set_sample_stack_user(a.sample_stack_user);
  p.set_pmucat_flags(a.flags_word());
  if (a.clockid != 0) p.set_pmucat_clockid(a.clockid);
  if (a.sample_regs_intr != 0) p.set_pmucat_sample_regs_intr(a.sample_regs_intr);
  if (a.aux_watermark != 0) p.set_pmucat_aux_watermark(a.aux_watermark);
  if (a.sample_max_stack != 0) p.set_pmucat_sample_max_stack(a.sample_max_stack);
  if (a.aux_sample_size != 0) p.set_pmucat_aux_sample_size(a.aux_sample_size);
  if (a.sig_data != 0) p.set_pmucat_sig_data(a.sig_data);
  if (a.config[3] != 0) p.set_pmucat_config3(a.config[3]);
  if (a.config[4] != 0) p.set_pmucat_config4(a.config[4]);
}

Attr attr_from_proto(const Proto::PerfEventAttr& p) {
  Attr a;
  a.type = p.type();
  a.size = p.has_pmucat_size() ? p.pmucat_size() : p.size();
  a.config[0] = p.config();
  a.sample_type = p.sample_type();
  a.read_format = p.read_format();
  if (p.has_pmucat_flags()) {
    a.set_flags_word(p.pmucat_flags());
  } else {
    a.disabled = p.disabled(), a.inherit = p.inherit(), a.pinned = p.pinned();
    a.exclusive = p.exclusive(), a.exclude_user = p.exclude_user();
    a.exclude_kernel = p.exclude_kernel(), a.exclude_hv = p.exclude_hv();
    a.exclude_idle = p.exclude_idle(), a.mmap = p.mmap(), a.comm = p.comm(), a.freq = p.freq();
    a.inherit_stat = p.inherit_stat(), a.enable_on_exec = p.enable_on_exec(), a.task = p.task();
    a.watermark = p.watermark(), a.precise_ip = static_cast<std::uint8_t>(p.precise_ip() & 3);
    a.mmap_data = p.mmap_data(), a.sample_id_all = p.sample_id_all();
    a.exclude_host = p.exclude_host(), a.exclude_guest = p.exclude_guest();
    a.exclude_callchain_kernel = p.exclude_callchain_kernel();
    a.exclude_callchain_user = p.exclude_callchain_user(), a.mmap2 = p.mmap2();
    a.comm_exec = p.comm_exec(), a.use_clockid = p.use_clockid();
    a.context_switch = p.context_switch(), a.write_backward = p.write_backward();
    a.namespaces = p.namespaces(), a.cgroup = p.cgroup(), a.ksymbol = p.ksymbol();
  }
  if (a.freq) {
    a.sample_freq = p.has_sample_freq() ? p.sample_freq() : p.sample_period();
  } else {
    a.sample_period = p.sample_period();
  }
  if (a.watermark) {
    a.wakeup_watermark = p.has_wakeup_watermark() ? p.wakeup_watermark() : p.wakeup_events();
  } else {
    a.wakeup_events = p.wakeup_events();
  }
  a.bp_type = p.bp_type();
  a.config[1] = p.has_config1() ? p.config1() : p.bp_addr();
  a.config[2] = p.has_config2() ? p.config2() : p.bp_len();
  a.branch_sample_type = p.branch_sample_type();
  a.sample_regs_user = p.sample_regs_user();
  a.sample_stack_user = p.sample_stack_user();
  a.clockid = p.pmucat_clockid();
  a.sample_regs_intr = p.pmucat_sample_regs_intr();
  a.aux_watermark = p.pmucat_aux_watermark();
  a.sample_max_stack = static_cast<std::uint16_t>(p.pmucat_sample_max_stack());
  a.aux_sample_size = p.pmucat_aux_sample_size();
  a.sig_data = p.pmucat_sig_data();
  a.config[3] = p.pmucat_config3();
  a.config[4] = p.pmucat_config4();
  return a;
}

Proto::StringMetadata::StringAndMd5sumPrefix* string_slot(Proto& proto, std::uint32_t id) {
  auto& s = *proto.mutable_string_metadata();
  switch (id) {
    case feature::hostname:
      return s.mutable_hostname();
    case feature::osrelease:
      return s.mutable_kernel_version();
    case feature::version:
      return s.mutable_perf_version();
    case feature::arch:
      return s.mutable_architecture();
    case feature::cpudesc:
      return s.mutable_cpu_description();
    case feature::cpuid:
      return s.mutable_cpu_id();
    default:
      return nullptr;
  }
}

const Proto::StringMetadata::StringAndMd5sumPrefix* find_string(const Proto& proto,
                                                                std::uint32_t id) {
  if (!proto.has_string_metadata()) return nullptr;
  const auto& s = proto.string_metadata();
  switch (id) {
    case feature::hostname:
      return s.has_hostname() ? &s.hostname() : nullptr;
    case feature::osrelease:
      return s.has_kernel_version() ? &s.kernel_version() : nullptr;
    case feature::version:
      return s.has_perf_version() ? &s.perf_version() : nullptr;
    case feature::arch:
      return s.has_architecture() ? &s.architecture() : nullptr;
    case feature::cpudesc:
      return s.has_cpu_description() ? &s.cpu_description() : nullptr;
    case feature::cpuid:
      return s.has_cpu_id() ? &s.cpu_id() : nullptr;
    default:
      return nullptr;
  }
}

// A cpu list ("0-3,8,10-11") as its cpus, for quipper's cpu_list; empty when it does not
// parse. At most kMaxListedCpus are listed (the string itself is kept whole).
constexpr std::size_t kMaxListedCpus = 1 << 16;
std::vector<std::uint32_t> expand_cpu_list(std::string_view list) {
  std::vector<std::uint32_t> out;
  auto number = [&list](std::size_t& i, std::uint32_t& v) {
    const std::size_t start = i;
    v = 0;
    while (i < list.size() && list[i] >= '0' && list[i] <= '9' && i - start < 9) {
      v = v * 10 + static_cast<std::uint32_t>(list[i++] - '0');
    }
    return i > start;
  };
  std::size_t i = 0;
  while (i < list.size()) {
    std::uint32_t first = 0, last = 0;
    if (!number(i, first)) return {};
    last = first;
    if (i < list.size() && list[i] == '-') {
      ++i;
      if (!number(i, last) || last < first) return {};
    }
    if (last - first >= kMaxListedCpus - out.size()) return {};
    for (std::uint32_t c = first; c <= last; ++c) out.push_back(c);
    if (i < list.size() && list[i++] != ',') return {};
  }
  return out;
}

std::uint32_t nr_cpus_of(const PerfData& data) {
  const auto it = data.features.find(feature::nrcpus);
  if (it == data.features.end()) return 0;
  const auto n = decode_nrcpus(it->second);
  return n ? n->first : 0;
}

// Fills quipper's typed field for one feature; true when it alone rebuilds `payload` exactly.
bool feature_to_proto(std::uint32_t id, const std::vector<std::byte>& payload, const PerfData& data,
                      Proto& proto);

// Rebuilds a feature payload from quipper's typed fields; nullopt when they do not hold it.
std::optional<std::vector<std::byte>> feature_from_proto(std::uint32_t id, const Proto& proto,
                                                         const PerfData& data);

bool feature_to_proto(std::uint32_t id, const std::vector<std::byte>& payload, const PerfData& data,
                      Proto& proto) {
  if (id == feature::hostname || id == feature::osrelease || id == feature::version ||
      id == feature::arch || id == feature::cpudesc || id == feature::cpuid) {
    const auto value = decode_feature_string(payload);
    if (!value) return false;
    string_slot(proto, id)->set_value(*value);
  } else if (id == feature::nrcpus) {
    const auto n = decode_nrcpus(payload);
    if (!n) return false;
    auto* m = proto.add_uint32_metadata();
    m->set_type(id);
    m->add_data(n->first), m->add_data(n->second);
  } else if (id == feature::total_mem) {
    const auto kb = decode_total_mem(payload);
    if (!kb) return false;
    auto* m = proto.add_uint64_metadata();
    m->set_type(id);
    m->add_data(*kb);
  } else if (id == feature::cmdline) {
    const auto tokens = decode_feature_string_list(payload);
    if (!tokens) return false;
    auto& s = *proto.mutable_string_metadata();
    std::string whole;
    for (const auto& t : *tokens) {
      s.add_perf_command_line_token()->set_value(t);
      whole += (whole.empty() ? "" : " ") + t;
    }
    s.mutable_perf_command_line_whole()->set_value(whole);
  } else if (id == feature::pmu_mappings) {
    const auto pmus = decode_pmu_mappings(payload);
    if (!pmus) return false;
    for (const auto& p : *pmus) {
      auto* m = proto.add_pmu_mappings();
      m->set_type(p.type), m->set_name(p.name);
    }
  } else if (id == feature::group_desc) {
    const auto groups = decode_group_desc(payload);
    if (!groups) return false;
    for (const auto& g : *groups) {
      auto* m = proto.add_group_desc();
      m->set_name(g.name), m->set_leader_idx(g.leader_index), m->set_num_members(g.members);
    }
  } else if (id == feature::numa_topology) {
    const auto nodes = decode_numa_topology(payload);
    if (!nodes) return false;
    for (const auto& n : *nodes) {
      auto* m = proto.add_numa_topology();
      m->set_id(n.node), m->set_total_memory(n.mem_total_kb), m->set_free_memory(n.mem_free_kb);
      m->set_cpu_list(n.cpus);
    }
  } else if (id == feature::cpu_topology) {
    const auto topo = decode_cpu_topology(payload, nr_cpus_of(data));
    if (!topo) return false;
    auto& m = *proto.mutable_cpu_topology();
    for (const auto& s : topo->core_siblings) m.add_core_siblings(s);
    for (const auto& s : topo->thread_siblings) m.add_thread_siblings(s);
    for (const auto& c : topo->cpus) {
      auto* cpu = m.add_available_cpus();
      cpu->set_core_id(c.core_id), cpu->set_socket_id(c.socket_id);
    }
  } else if (id == feature::hybrid_topology) {
    const auto nodes = decode_hybrid_topology(payload);
    if (!nodes) return false;
    for (const auto& n : *nodes) {
      auto* m = proto.add_hybrid_topology();
      m->set_pmu_name(n.pmu_name), m->set_cpus(n.cpus);
      for (auto cpu : expand_cpu_list(n.cpus)) m->add_cpu_list(cpu);
    }
  } else if (id == feature::build_id) {
    const auto ids = decode_build_ids(payload);
    if (!ids) return false;
    for (const auto& b : *ids) {
      auto* m = proto.add_build_ids();
      m->set_misc(b.misc), m->set_pid(static_cast<std::uint32_t>(b.pid));
      m->set_build_id_hash(as_string(b.id)), m->set_filename(b.filename);
      if (b.misc & 0x8000) m->set_size(static_cast<std::uint32_t>(b.id.size()));
    }
  } else if (id == feature::tracing_data) {
    proto.mutable_tracing_data()->set_tracing_data(as_string(payload));
  } else if (id != feature::event_desc) {
    return false;
  }
  const auto rebuilt = feature_from_proto(id, proto, data);
  return rebuilt && *rebuilt == payload;
}

std::optional<std::vector<std::byte>> feature_from_proto(std::uint32_t id, const Proto& proto,
                                                         const PerfData& data) {
  if (const auto* s = find_string(proto, id)) return encode_feature_string(s->value());
  switch (id) {
    case feature::nrcpus:
      for (const auto& m : proto.uint32_metadata()) {
        if (m.type() == id && m.data_size() == 2) return encode_nrcpus(m.data(0), m.data(1));
      }
      return std::nullopt;
    case feature::total_mem:
      for (const auto& m : proto.uint64_metadata()) {
        if (m.type() == id && m.data_size() == 1) return encode_total_mem(m.data(0));
      }
      return std::nullopt;
    case feature::cmdline: {
      if (!proto.has_string_metadata()) return std::nullopt;
      std::vector<std::string> tokens;
      for (const auto& t : proto.string_metadata().perf_command_line_token())
        tokens.push_back(t.value());
      return encode_feature_string_list(tokens);
    }
    case feature::event_desc: {
      if (data.events.empty()) return std::nullopt;
      return encode_event_desc(data.events, data.events.front().attr.size);
    }
    case feature::pmu_mappings: {
      std::vector<PmuMapping> pmus;
      for (const auto& m : proto.pmu_mappings()) pmus.push_back({m.type(), m.name()});
      return encode_pmu_mappings(pmus);
    }
    case feature::group_desc: {
      std::vector<GroupDesc> groups;
      for (const auto& g : proto.group_desc())
        groups.push_back({g.name(), g.leader_idx(), g.num_members()});
      return encode_group_desc(groups);
    }
    case feature::numa_topology: {
      std::vector<NumaNode> nodes;
      for (const auto& n : proto.numa_topology()) {
        nodes.push_back({n.id(), n.total_memory(), n.free_memory(), n.cpu_list()});
      }
      return encode_numa_topology(nodes);
    }
    case feature::hybrid_topology: {
      std::vector<HybridNode> nodes;
      for (const auto& n : proto.hybrid_topology()) nodes.push_back({n.pmu_name(), n.cpus()});
      return encode_hybrid_topology(nodes);
    }
    case feature::cpu_topology: {
      if (!proto.has_cpu_topology()) return std::nullopt;
      const auto& m = proto.cpu_topology();
      CpuTopology t;
      t.core_siblings.assign(m.core_siblings().begin(), m.core_siblings().end());
      t.thread_siblings.assign(m.thread_siblings().begin(), m.thread_siblings().end());
      for (const auto& c : m.available_cpus()) t.cpus.push_back({c.core_id(), c.socket_id()});
      return encode_cpu_topology(t);
    }
    case feature::build_id: {
      std::vector<BuildId> ids;
      for (const auto& b : proto.build_ids()) {
        ids.push_back({static_cast<std::uint16_t>(b.misc()), static_cast<std::int32_t>(b.pid()),
                       as_bytes(b.build_id_hash()), b.filename()});
      }
      return encode_build_ids(ids);
    }
    case feature::tracing_data:
      if (!proto.has_tracing_data()) return std::nullopt;
      return as_bytes(proto.tracing_data().tracing_data());
    default:
      return std::nullopt;
  }
}

}  // namespace

namespace perfdata {

void header_to_proto(const PerfData& data, Proto& proto) {
  for (const auto& e : data.events) {
    auto* fa = proto.add_file_attrs();
    attr_to_proto(e.attr, *fa->mutable_attr());
    for (auto id : e.ids) fa->add_ids(id);
    proto.add_pmucat_event_names(e.name);
    if (!e.name.empty()) {
      auto* t = proto.add_event_types();
      t->set_id(e.attr.config[0]);
      t->set_name(e.name);
    }
  }
}

void features_to_proto(const PerfData& data, Proto& proto) {
  std::vector<std::uint64_t> mask;
  for (const auto& [id, payload] : data.features) {
    if (mask.size() <= id / 64) mask.resize(id / 64 + 1);
    mask[id / 64] |= std::uint64_t{1} << (id % 64);
    if (!feature_to_proto(id, payload, data, proto)) {
      auto* raw = proto.add_pmucat_features();
      raw->set_id(id);
      raw->set_payload(as_string(payload));
    }
  }
  for (auto w : mask) proto.add_metadata_mask(w);
  if (data.mode == PerfDataMode::pipe) proto.set_pmucat_pipe_mode(true);
  if (data.pipe_end_marker) proto.set_pmucat_pipe_end_marker(*data.pipe_end_marker);
  if (data.feature_gap != 0) proto.set_pmucat_feature_gap(data.feature_gap);
  for (const auto& h : data.pipe_header) {
    auto* p = proto.add_pmucat_pipe_header();
    p->set_kind(static_cast<std::uint32_t>(h.kind));
    p->set_id(h.id);
    if (h.misc != 0) p->set_misc(h.misc);
  }
}

void pipe_tracing_data_to_proto(const std::string& trailer, const PerfData& data, Proto& proto) {
  if (data.features.count(feature::tracing_data) != 0 || proto.has_tracing_data()) return;
  proto.mutable_tracing_data()->set_tracing_data(trailer);
  if (proto.metadata_mask_size() == 0) proto.add_metadata_mask(0);
  proto.set_metadata_mask(0, proto.metadata_mask(0) | (std::uint64_t{1} << feature::tracing_data));
  proto.add_pmucat_typed_only_features(feature::tracing_data);
}

Expected<PerfData> header_from_proto(const Proto& proto, std::string_view file) {
  PerfData data;
  data.mode = proto.pmucat_pipe_mode() ? PerfDataMode::pipe : PerfDataMode::file;
  if (proto.has_pmucat_pipe_end_marker()) data.pipe_end_marker = proto.pmucat_pipe_end_marker();
  if (proto.pmucat_feature_gap() > kMaxFeatureGap) {
    return unexpected(malformed(file, fmt::format("pmucat_feature_gap {} is larger than a feature "
                                                  "index ({} bytes at most)",
                                                  proto.pmucat_feature_gap(), kMaxFeatureGap)));
  }
  data.feature_gap = proto.pmucat_feature_gap();
  for (const auto& p : proto.pmucat_pipe_header()) {
    // The writer skips entries naming nothing it writes; unknown kinds and misc values that do
    // not fit a record header are refused here.
    if (p.kind() > 2 || p.misc() > 0xffff) {
      return unexpected(malformed(file, fmt::format("pmucat_pipe_header entry (kind {}, misc {}) "
                                                    "is out of range",
                                                    p.kind(), p.misc())));
    }
    data.pipe_header.push_back({static_cast<PipeHeaderRecord::Kind>(p.kind()), p.id(),
                                static_cast<std::uint16_t>(p.misc())});
  }
  for (int i = 0; i < proto.file_attrs_size(); ++i) {
    const auto& fa = proto.file_attrs(i);
    // attr.size decides how many bytes every attr is written as: a declared size is checked
    // before anything of that size is allocated.
    const std::uint32_t size =
        fa.attr().has_pmucat_size() ? fa.attr().pmucat_size() : fa.attr().size();
    if (size > kMaxAttrSize) {
      return unexpected(malformed(
          file, fmt::format("file_attrs[{}].attr.{} {} is larger than any perf_event_attr ({} "
                            "bytes at most)",
                            i, fa.attr().has_pmucat_size() ? "pmucat_size" : "size", size,
                            kMaxAttrSize)));
    }
    PerfEventEntry e;
    e.attr = attr_from_proto(fa.attr());
    e.ids.assign(fa.ids().begin(), fa.ids().end());
    if (proto.pmucat_event_names_size() == proto.file_attrs_size()) {
      e.name = proto.pmucat_event_names(i);
    } else if (i < proto.event_types_size()) {
      e.name = proto.event_types(i).name();
    }
    data.events.push_back(std::move(e));
  }
  std::map<std::uint32_t, std::vector<std::byte>> raw;
  for (const auto& f : proto.pmucat_features()) raw[f.id()] = as_bytes(f.payload());
  const std::set<std::uint32_t> typed_only(proto.pmucat_typed_only_features().begin(),
                                           proto.pmucat_typed_only_features().end());
  for (int w = 0; w < proto.metadata_mask_size(); ++w) {
    for (std::uint32_t bit = 0; bit < 64; ++bit) {
      if (!((proto.metadata_mask(w) >> bit) & 1)) continue;
      const std::uint32_t id = static_cast<std::uint32_t>(w) * 64 + bit;
      if (id >= 256 || typed_only.count(id) != 0) continue;
      if (auto it = raw.find(id); it != raw.end()) {
        data.features[id] = it->second;
      } else if (auto payload = feature_from_proto(id, proto, data)) {
        data.features[id] = std::move(*payload);
      }
    }
  }
  for (auto& [id, payload] : raw) data.features.emplace(id, std::move(payload));
  return data;
}

Diagnostic order_error(std::string_view file, std::uint64_t index, std::int64_t skip,
                       std::uint64_t events) {
  return malformed(file, fmt::format("events[{}].pmucat_order_skip {} names no free place among "
                                     "the {} events",
                                     index, skip, events));
}

Diagnostic event_error(std::string_view file, std::string_view field, std::uint64_t index,
                       std::uint32_t type) {
  return malformed(file, fmt::format("{}[{}] (type {}) cannot be turned back into a record", field,
                                     index, type));
}

PlacedEvents::PlacedEvents(const Proto& proto, std::uint64_t events)
    : proto_(proto), events_(events) {
  order_.resize(static_cast<std::size_t>(proto.pmucat_events_size()));
  for (std::size_t i = 0; i < order_.size(); ++i) order_[i] = static_cast<int>(i);
  // Stable: entries for the same position keep their order.
  std::stable_sort(order_.begin(), order_.end(), [&proto](int a, int b) {
    return proto.pmucat_events(a).position() < proto.pmucat_events(b).position();
  });
}

std::optional<int> PlacedEvents::before(std::uint64_t index) {
  if (next_ == order_.size()) return std::nullopt;
  const int i = order_[next_];
  // Positions past the last event count as "after the last event".
  const std::uint64_t at = std::min(proto_.pmucat_events(i).position(), events_);
  if (at > index) return std::nullopt;
  ++next_;
  return i;
}

}  // namespace perfdata

Expected<std::string> to_perf_data_proto(const PerfData& data, ProtoFormat format) {
  if (data.other_endian) {
    return unexpected(io_error("", "cannot convert an other-endian perf.data to a proto"));
  }
  if (format == ProtoFormat::binary) {
    // Field by field, as PerfDataProtoWriter writes it (the same bytes).
    perfdata::ProtoFieldWriter fields(data.events);
    const auto prefix = fields.prefix();
    if (!prefix) return unexpected(io_error("", "protobuf serialisation failed"));
    std::string out = *prefix;
    {
      google::protobuf::io::StringOutputStream stream(&out);
      google::protobuf::io::CodedOutputStream coded(&stream);
      for (const auto& r : data.records) fields.put(r, coded);
      fields.flush(coded);
    }
    // After the records: it may carry what they held (a pipe-mode tracing blob).
    const auto suffix = fields.suffix(data);
    if (!suffix) return unexpected(io_error("", "protobuf serialisation failed"));
    out += *suffix;
    return out;
  }
  Proto proto;
  perfdata::header_to_proto(data, proto);
  const perfdata::AttrLookup lookup(data.events);
  // The same order as ProtoFieldWriter's (see there).
  perfdata::TimeOrder<Proto::PerfEvent> order(perfdata::all_events_timed(data.events));
  std::int64_t last = -1;
  const auto emit = [&proto, &last](Proto::PerfEvent&& ev, std::uint64_t index) {
    const std::int64_t skip = static_cast<std::int64_t>(index) - (last + 1);
    last = static_cast<std::int64_t>(index);
    if (skip != 0) ev.set_pmucat_order_skip(skip);
    proto.add_events()->Swap(&ev);
  };
  std::uint64_t in_events = 0;
  std::optional<std::string> pipe_tracing;
  for (const auto& r : data.records) {
    if (r.type == record_type::header_tracing_data && !pipe_tracing) {
      pipe_tracing = as_string(r.trailer);
    }
    Proto::PerfEvent event;
    if (perfdata::record_to_proto(r, lookup.find(r), data.events, event)) {
      ++in_events;
      const std::uint64_t time = event.timestamp();
      const std::size_t held = event.ByteSizeLong() + perfdata::kHeldItemOverhead;
      order.add(std::move(event), time, held, r.type == record_type::finished_round, emit);
    } else {
      auto* placed = proto.add_pmucat_events();
      placed->set_position(in_events);
      placed->mutable_event()->Swap(&event);
    }
  }
  order.flush(emit);
  perfdata::features_to_proto(data, proto);
  if (pipe_tracing) perfdata::pipe_tracing_data_to_proto(*pipe_tracing, data, proto);
  std::string out;
  if (!google::protobuf::TextFormat::PrintToString(proto, &out)) {
    return unexpected(io_error("", "protobuf serialisation failed"));
  }
  return out;
}

Expected<PerfData> from_perf_data_proto(std::string_view bytes, ProtoFormat format,
                                        std::string_view file) {
  Proto proto;
  FirstTextError text_error;
  google::protobuf::TextFormat::Parser text_parser;
  text_parser.RecordErrorsTo(&text_error);
  const bool parsed = bytes.size() <= static_cast<std::size_t>(INT32_MAX) &&
                      (format == ProtoFormat::binary
                           ? proto.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))
                           : text_parser.ParseFromString(std::string(bytes), &proto));
  if (!parsed) {
    if (format == ProtoFormat::binary)
      return unexpected(malformed(file, "not a binary PerfDataProto"));
    return unexpected(malformed(
        file, text_error.first().empty()
                  ? std::string("not a text-format PerfDataProto")
                  : fmt::format("not a text-format PerfDataProto: {}", text_error.first())));
  }
  auto header = perfdata::header_from_proto(proto, file);
  if (!header) return header;
  PerfData data = std::move(*header);
  // events[at[i]] is the i-th event in file order.
  const auto count = static_cast<std::uint64_t>(proto.events_size());
  std::vector<int> at(static_cast<std::size_t>(count), -1);
  std::int64_t previous = -1;
  for (int i = 0; i < proto.events_size(); ++i) {
    const std::int64_t skip = proto.events(i).pmucat_order_skip();
    const auto index = perfdata::next_file_index(previous, skip, count);
    if (!index || at[*index] != -1) {
      return unexpected(perfdata::order_error(file, static_cast<std::uint64_t>(i), skip, count));
    }
    at[*index] = i;
    previous = static_cast<std::int64_t>(*index);
  }
  perfdata::PlacedEvents placed(proto, count);
  const auto take = [&](const Proto::PerfEvent& ev, std::string_view field,
                        std::uint64_t index) -> std::optional<Diagnostic> {
    auto record = perfdata::record_from_proto(ev, perfdata::attr_for_proto_event(ev, data.events));
    if (!record) return perfdata::event_error(file, field, index, ev.header().type());
    data.records.push_back(std::move(*record));
    return std::nullopt;
  };
  for (int i = 0; i <= proto.events_size(); ++i) {
    const auto index = static_cast<std::uint64_t>(i);
    for (auto p = placed.before(index); p; p = placed.before(index)) {
      if (auto e = take(proto.pmucat_events(*p).event(), "pmucat_events",
                        static_cast<std::uint64_t>(*p))) {
        return unexpected(std::move(*e));
      }
    }
    if (i == proto.events_size()) break;
    const int from = at[static_cast<std::size_t>(i)];
    if (auto e = take(proto.events(from), "events", static_cast<std::uint64_t>(from))) {
      return unexpected(std::move(*e));
    }
  }
  return data;
}

PMUCAT_END_NAMESPACE
