// Records <-> PerfEvent messages (see proto_records.h).
#include "perfdata_proto/proto_records.h"

#include <google/protobuf/io/zero_copy_stream_impl_lite.h>
#include <google/protobuf/wire_format_lite.h>

#include <algorithm>
#include <cstdint>
#include <cstring>

#include "perfdata/bytes.h"
#include "pmucat/version.h"

PMUCAT_BEGIN_NAMESPACE
namespace perfdata {
namespace {

using Proto = quipper::PerfDataProto;

std::string c_string(std::span<const std::byte> bytes) {
  std::string out;
  for (std::byte b : bytes) {
    if (b == std::byte{0}) break;
    out += static_cast<char>(b);
  }
  return out;
}

std::vector<std::byte> to_bytes_of(const std::string& s) {
  std::vector<std::byte> out(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) out[i] = static_cast<std::byte>(s[i]);
  return out;
}

// MMAP2 with PERF_RECORD_MISC_MMAP_BUILD_ID carries a build id where maj ... ino_generation are.
constexpr std::uint16_t kMmapBuildIdMisc = 0x4000;
constexpr std::size_t kMmapBuildIdBytes = 20;
// AUXTRACE_ERROR's message field, and KSYMBOL/BPF_METADATA's name fields (perf's sizes).
constexpr std::size_t kAuxtraceErrorMsgBytes = 64;
constexpr std::size_t kBpfProgNameBytes = 512;
constexpr std::size_t kBpfKeyBytes = 64, kBpfValueBytes = 256;
// perf-tool record type of BPF_METADATA (newer than the types perf 6.1 knows).
constexpr std::uint32_t kBpfMetadataType = 84;

std::string hex_of(std::span<const std::byte> bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  for (std::byte b : bytes) {
    out += kDigits[std::to_integer<unsigned>(b) >> 4];
    out += kDigits[std::to_integer<unsigned>(b) & 0xf];
  }
  return out;
}

// Lower- or upper-case hex to bytes; nullopt for an odd length or another character.
std::optional<std::vector<std::byte>> bytes_of_hex(const std::string& hex) {
  if (hex.size() % 2 != 0) return std::nullopt;
  auto digit = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  std::vector<std::byte> out;
  for (std::size_t i = 0; i < hex.size(); i += 2) {
    const int hi = digit(hex[i]), lo = digit(hex[i + 1]);
    if (hi < 0 || lo < 0) return std::nullopt;
    out.push_back(static_cast<std::byte>(hi * 16 + lo));
  }
  return out;
}

// `text` in a NUL-padded field of exactly `size` bytes (cut to leave room for the NUL).
void put_fixed_string(ByteWriter& out, const std::string& text, std::size_t size) {
  std::string field = text.substr(0, size - 1);
  field.resize(size, '\0');
  out.put_bytes(to_bytes_of(field));
}

// The sample_id_all trailer, split off the payload.
struct Split {
  std::span<const std::byte> body;
  std::optional<SampleFields> id;
};

Split split_trailer(const Record& r, const Attr* attr) {
  const std::size_t n = attr ? sample_id_size(*attr) : 0;
  if (n == 0 || r.payload.size() < n || r.type >= 64 || r.type == record_type::sample) {
    return {r.payload, std::nullopt};
  }
  ByteReader in(std::span(r.payload).subspan(r.payload.size() - n), false);
  SampleFields f;
  const std::uint64_t t = attr->sample_type;
  if (t & sample::tid) f.pid = *in.read<std::uint32_t>(), f.tid = *in.read<std::uint32_t>();
  if (t & sample::time) f.time = *in.read<std::uint64_t>();
  if (t & sample::id) f.id = *in.read<std::uint64_t>();
  if (t & sample::stream_id) f.stream_id = *in.read<std::uint64_t>();
  if (t & sample::cpu)
    f.cpu = *in.read<std::uint32_t>(), f.cpu_reserved = *in.read<std::uint32_t>();
  if (t & sample::identifier) f.identifier = *in.read<std::uint64_t>();
  return {std::span(r.payload).first(r.payload.size() - n), f};
}

void fill_info(const SampleFields& f, const Attr& attr, Proto::SampleInfo& info) {
  const std::uint64_t t = attr.sample_type;
  if (t & sample::tid) info.set_pid(f.pid), info.set_tid(f.tid);
  if (t & sample::time) info.set_sample_time_ns(f.time);
  if (t & sample::id) info.set_id(f.id);
  if (t & sample::identifier) info.set_id(f.identifier);
  if (t & sample::stream_id) info.set_stream_id(f.stream_id);
  if (t & sample::cpu) info.set_cpu(f.cpu);
}

SampleFields fields_of(const Proto::SampleInfo& info) {
  SampleFields f;
  f.pid = info.pid();
  f.tid = info.tid();
  f.time = info.sample_time_ns();
  f.id = f.identifier = info.id();
  f.stream_id = info.stream_id();
  f.cpu = info.cpu();
  return f;
}

// Typed body of a non-sample record; false when quipper has no message for it.
bool body_to_proto(const Record& r, std::span<const std::byte> body, Proto::PerfEvent& out,
                   Proto::SampleInfo*& info) {
  ByteReader in(body, false);
  auto u32 = [&in]() { return in.read<std::uint32_t>().value_or(0); };
  auto u64 = [&in]() { return in.read<std::uint64_t>().value_or(0); };
  auto text = [&in]() { return c_string(*in.take(in.remaining())); };
  switch (r.type) {
    case record_type::mmap:
    case record_type::mmap2: {
      auto& m = *out.mutable_mmap_event();
      m.set_pid(u32()), m.set_tid(u32()), m.set_start(u64()), m.set_len(u64()), m.set_pgoff(u64());
      if (r.type == record_type::mmap2 && (r.misc & kMmapBuildIdMisc)) {
        const auto size = in.read<std::uint8_t>().value_or(0);
        in.skip(3);  // reserved
        const auto id = in.take(kMmapBuildIdBytes);
        if (!id || size > kMmapBuildIdBytes) return false;
        m.set_build_id(hex_of(id->first(size)));
        m.set_prot(u32()), m.set_flags(u32());
      } else if (r.type == record_type::mmap2) {
        m.set_maj(u32()), m.set_min(u32()), m.set_ino(u64()), m.set_ino_generation(u64());
        m.set_prot(u32()), m.set_flags(u32());
      }
      m.set_filename(text());
      info = m.mutable_sample_info();
      return true;
    }
    case record_type::comm: {
      auto& c = *out.mutable_comm_event();
      c.set_pid(u32()), c.set_tid(u32()), c.set_comm(text());
      info = c.mutable_sample_info();
      return true;
    }
    case record_type::fork:
    case record_type::exit: {
      auto& f = r.type == record_type::fork ? *out.mutable_fork_event() : *out.mutable_exit_event();
      f.set_pid(u32()), f.set_ppid(u32()), f.set_tid(u32()), f.set_ptid(u32());
      f.set_fork_time_ns(u64());
      info = f.mutable_sample_info();
      return true;
    }
    case record_type::lost: {
      auto& l = *out.mutable_lost_event();
      l.set_id(u64()), l.set_lost(u64());
      info = l.mutable_sample_info();
      return true;
    }
    case record_type::throttle:
    case record_type::unthrottle: {
      auto& t = *out.mutable_throttle_event();
      t.set_time_ns(u64()), t.set_id(u64()), t.set_stream_id(u64());
      info = t.mutable_sample_info();
      return true;
    }
    case record_type::lost_samples: {
      auto& l = *out.mutable_lost_samples_event();
      l.set_num_lost(u64());
      info = l.mutable_sample_info();
      return true;
    }
    case record_type::switch_:
    case record_type::switch_cpu_wide: {
      auto& s = *out.mutable_context_switch_event();
      s.set_is_out(r.misc & 0x2000);
      if (r.type == record_type::switch_cpu_wide)
        s.set_next_prev_pid(u32()), s.set_next_prev_tid(u32());
      info = s.mutable_sample_info();
      return true;
    }
    case record_type::namespaces: {
      auto& n = *out.mutable_namespaces_event();
      n.set_pid(u32()), n.set_tid(u32());
      const std::uint64_t nr = u64();
      if (nr > in.remaining() / 16) return false;
      for (std::uint64_t i = 0; i < nr; ++i) {
        auto* link = n.add_link_info();
        link->set_dev(u64()), link->set_ino(u64());
      }
      info = n.mutable_sample_info();
      return true;
    }
    case record_type::cgroup: {
      auto& c = *out.mutable_cgroup_event();
      c.set_id(u64()), c.set_path(text());
      info = c.mutable_sample_info();
      return true;
    }
    case record_type::itrace_start: {
      auto& i = *out.mutable_itrace_start_event();
      i.set_pid(u32()), i.set_tid(u32());
      info = i.mutable_sample_info();
      return true;
    }
    case record_type::aux: {
      auto& a = *out.mutable_aux_event();
      a.set_aux_offset(u64()), a.set_aux_size(u64());
      const std::uint64_t flags = u64();
      a.set_is_truncated(flags & 1), a.set_is_overwrite(flags & 2), a.set_is_partial(flags & 4);
      info = a.mutable_sample_info();
      return true;
    }
    case record_type::thread_map: {
      auto& t = *out.mutable_thread_map_event();
      const std::uint64_t nr = u64();
      if (nr > in.remaining() / 24) return false;
      for (std::uint64_t i = 0; i < nr; ++i) {
        auto* e = t.add_entries();
        e->set_pid(u64());
        e->set_comm(c_string(*in.take(16)));
      }
      return true;
    }
    case record_type::stat_round: {
      auto& s = *out.mutable_stat_round_event();
      s.set_type(u64()), s.set_time(u64());
      return true;
    }
    case record_type::ksymbol: {
      auto& k = *out.mutable_ksymbol_event();
      k.set_addr(u64()), k.set_len(u32());
      k.set_ksym_type(in.read<std::uint16_t>().value_or(0));
      k.set_flags(in.read<std::uint16_t>().value_or(0));
      k.set_name(text());
      info = k.mutable_sample_info();
      return true;
    }
    case record_type::time_conv: {
      auto& t = *out.mutable_time_conv_event();
      t.set_time_shift(u64()), t.set_time_mult(u64()), t.set_time_zero(u64());
      // perf >= 5.10 adds the cycle fields; older records end here.
      if (in.at_end()) return true;
      t.set_time_cycles(u64()), t.set_time_mask(u64());
      t.set_cap_user_time_zero(in.read<std::uint8_t>().value_or(0) != 0);
      t.set_cap_user_time_short(in.read<std::uint8_t>().value_or(0) != 0);
      return true;
    }
    case record_type::id_index: {
      auto& x = *out.mutable_id_index_event();
      const std::uint64_t nr = u64();
      if (nr > in.remaining() / 32) return false;
      for (std::uint64_t i = 0; i < nr; ++i) {
        auto* e = x.add_entries();
        e->set_id(u64()), e->set_idx(u64()), e->set_cpu(u64()), e->set_tid(u64());
      }
      return true;
    }
    case record_type::stat_config: {
      auto& c = *out.mutable_stat_config_event();
      const std::uint64_t nr = u64();
      if (nr > in.remaining() / 16) return false;
      for (std::uint64_t i = 0; i < nr; ++i) {
        auto* e = c.add_data();
        e->set_tag(u64()), e->set_val(u64());
      }
      return true;
    }
    case record_type::stat: {
      auto& s = *out.mutable_stat_event();
      s.set_id(u64()), s.set_cpu(u32()), s.set_thread(u32());
      s.set_value(u64()), s.set_enabled(u64()), s.set_running(u64());
      return true;
    }
    case record_type::auxtrace_info: {
      auto& a = *out.mutable_auxtrace_info_event();
      a.set_type(u32());
      u32();  // alignment
      while (in.remaining() >= 8) a.add_unparsed_binary_blob_priv_data(u64());
      return true;
    }
    case record_type::auxtrace_error: {
      auto& a = *out.mutable_auxtrace_error_event();
      a.set_type(u32()), a.set_code(u32()), a.set_cpu(u32()), a.set_pid(u32()), a.set_tid(u32());
      u32();  // alignment
      a.set_ip(u64());
      const auto msg = in.take(std::min(in.remaining(), kAuxtraceErrorMsgBytes));
      a.set_msg(c_string(*msg));
      return true;
    }
    case kBpfMetadataType: {
      auto& b = *out.mutable_bpf_metadata_event();
      const auto name = in.take(kBpfProgNameBytes);
      if (!name) return false;
      b.set_prog_name(c_string(*name));
      const std::uint64_t nr = u64();
      if (nr > in.remaining() / (kBpfKeyBytes + kBpfValueBytes)) return false;
      for (std::uint64_t i = 0; i < nr; ++i) {
        std::string key = c_string(*in.take(kBpfKeyBytes));
        (*b.mutable_metadata())[std::move(key)] = c_string(*in.take(kBpfValueBytes));
      }
      return true;
    }
    case record_type::auxtrace: {
      auto& a = *out.mutable_auxtrace_event();
      a.set_size(u64()), a.set_offset(u64()), a.set_reference(u64());
      a.set_idx(u32()), a.set_tid(u32()), a.set_cpu(u32());
      a.set_trace_data(
          std::string(reinterpret_cast<const char*>(r.trailer.data()), r.trailer.size()));
      return true;
    }
    case record_type::finished_round:
    case record_type::finished_init:
      return true;  // header only
    default:
      return false;
  }
}

// Re-encodes a typed message's body (the inverse of body_to_proto).
std::optional<std::vector<std::byte>> body_from_proto(const Proto::PerfEvent& e, Record& r,
                                                      const Proto::SampleInfo*& info) {
  ByteWriter out;
  switch (e.event_type_case()) {
    case Proto::PerfEvent::kMmapEvent: {
      const auto& m = e.mmap_event();
      out.put(m.pid()).put(m.tid()).put(m.start()).put(m.len()).put(m.pgoff());
      if (r.type == record_type::mmap2 && m.has_build_id()) {
        auto id = bytes_of_hex(m.build_id());
        if (!id || id->size() > kMmapBuildIdBytes) return std::nullopt;
        out.put(static_cast<std::uint8_t>(id->size())).put(std::uint8_t{0}).put(std::uint16_t{0});
        id->resize(kMmapBuildIdBytes);
        out.put_bytes(*id).put(m.prot()).put(m.flags());
      } else if (r.type == record_type::mmap2) {
        out.put(m.maj())
            .put(m.min())
            .put(m.ino())
            .put(m.ino_generation())
            .put(m.prot())
            .put(m.flags());
      }
      out.put_padded_string(m.filename(), 8);
      info = &m.sample_info();
      break;
    }
    case Proto::PerfEvent::kCommEvent: {
      const auto& c = e.comm_event();
      out.put(c.pid()).put(c.tid()).put_padded_string(c.comm(), 8);
      info = &c.sample_info();
      break;
    }
    case Proto::PerfEvent::kForkEvent:
    case Proto::PerfEvent::kExitEvent: {
      const auto& f = e.has_fork_event() ? e.fork_event() : e.exit_event();
      out.put(f.pid()).put(f.ppid()).put(f.tid()).put(f.ptid()).put(f.fork_time_ns());
      info = &f.sample_info();
      break;
    }
    case Proto::PerfEvent::kLostEvent:
      out.put(e.lost_event().id()).put(e.lost_event().lost());
      info = &e.lost_event().sample_info();
      break;
    case Proto::PerfEvent::kThrottleEvent: {
      const auto& t = e.throttle_event();
      out.put(t.time_ns()).put(t.id()).put(t.stream_id());
      info = &t.sample_info();
      break;
    }
    case Proto::PerfEvent::kLostSamplesEvent:
      out.put(e.lost_samples_event().num_lost());
      info = &e.lost_samples_event().sample_info();
      break;
    case Proto::PerfEvent::kContextSwitchEvent: {
      const auto& s = e.context_switch_event();
      if (r.type == record_type::switch_cpu_wide) out.put(s.next_prev_pid()).put(s.next_prev_tid());
      info = &s.sample_info();
      break;
    }
    case Proto::PerfEvent::kNamespacesEvent: {
      const auto& n = e.namespaces_event();
      out.put(n.pid()).put(n.tid()).put(static_cast<std::uint64_t>(n.link_info_size()));
      for (const auto& l : n.link_info()) out.put(l.dev()).put(l.ino());
      info = &n.sample_info();
      break;
    }
    case Proto::PerfEvent::kCgroupEvent:
      out.put(e.cgroup_event().id()).put_padded_string(e.cgroup_event().path(), 8);
      info = &e.cgroup_event().sample_info();
      break;
    case Proto::PerfEvent::kItraceStartEvent:
      out.put(e.itrace_start_event().pid()).put(e.itrace_start_event().tid());
      info = &e.itrace_start_event().sample_info();
      break;
    case Proto::PerfEvent::kAuxEvent: {
      const auto& a = e.aux_event();
      out.put(a.aux_offset()).put(a.aux_size());
      out.put(std::uint64_t{a.is_truncated()} | std::uint64_t{a.is_overwrite()} << 1 |
              std::uint64_t{a.is_partial()} << 2);
      info = &a.sample_info();
      break;
    }
    case Proto::PerfEvent::kThreadMapEvent:
      out.put(static_cast<std::uint64_t>(e.thread_map_event().entries_size()));
      for (const auto& t : e.thread_map_event().entries()) {
        out.put(t.pid());
        std::string comm = t.comm().substr(0, 15);
        comm.resize(16, '\0');
        out.put_bytes(to_bytes_of(comm));
      }
      break;
    case Proto::PerfEvent::kStatRoundEvent:
      out.put(e.stat_round_event().type()).put(e.stat_round_event().time());
      break;
    case Proto::PerfEvent::kKsymbolEvent: {
      const auto& k = e.ksymbol_event();
      out.put(k.addr()).put(k.len());
      out.put(static_cast<std::uint16_t>(k.ksym_type())).put(static_cast<std::uint16_t>(k.flags()));
      out.put_padded_string(k.name(), 8);
      info = &k.sample_info();
      break;
    }
    case Proto::PerfEvent::kTimeConvEvent: {
      const auto& t = e.time_conv_event();
      out.put(t.time_shift()).put(t.time_mult()).put(t.time_zero());
      if (t.has_time_cycles() || t.has_time_mask() || t.has_cap_user_time_zero() ||
          t.has_cap_user_time_short()) {
        out.put(t.time_cycles()).put(t.time_mask());
        out.put(std::uint8_t{t.cap_user_time_zero()}).put(std::uint8_t{t.cap_user_time_short()});
        out.pad_to(8);
      }
      break;
    }
    case Proto::PerfEvent::kIdIndexEvent:
      out.put(static_cast<std::uint64_t>(e.id_index_event().entries_size()));
      for (const auto& x : e.id_index_event().entries())
        out.put(x.id()).put(x.idx()).put(x.cpu()).put(x.tid());
      break;
    case Proto::PerfEvent::kStatConfigEvent:
      out.put(static_cast<std::uint64_t>(e.stat_config_event().data_size()));
      for (const auto& x : e.stat_config_event().data()) out.put(x.tag()).put(x.val());
      break;
    case Proto::PerfEvent::kStatEvent: {
      const auto& s = e.stat_event();
      out.put(s.id()).put(s.cpu()).put(s.thread()).put(s.value()).put(s.enabled()).put(s.running());
      break;
    }
    case Proto::PerfEvent::kAuxtraceInfoEvent:
      out.put(e.auxtrace_info_event().type()).put(std::uint32_t{0});
      for (auto w : e.auxtrace_info_event().unparsed_binary_blob_priv_data()) out.put(w);
      break;
    case Proto::PerfEvent::kAuxtraceErrorEvent: {
      const auto& a = e.auxtrace_error_event();
      out.put(a.type()).put(a.code()).put(a.cpu()).put(a.pid()).put(a.tid()).put(std::uint32_t{0});
      out.put(a.ip());
      put_fixed_string(out, a.msg(), kAuxtraceErrorMsgBytes);
      break;
    }
    case Proto::PerfEvent::kBpfMetadataEvent: {
      const auto& b = e.bpf_metadata_event();
      put_fixed_string(out, b.prog_name(), kBpfProgNameBytes);
      out.put(static_cast<std::uint64_t>(b.metadata_size()));
      // A proto map has no order: keys are written sorted, so the bytes do not depend on it.
      std::map<std::string, std::string> sorted(b.metadata().begin(), b.metadata().end());
      for (const auto& [key, value] : sorted) {
        put_fixed_string(out, key, kBpfKeyBytes);
        put_fixed_string(out, value, kBpfValueBytes);
      }
      info = &b.sample_info();
      break;
    }
    case Proto::PerfEvent::kAuxtraceEvent: {
      const auto& a = e.auxtrace_event();
      out.put(a.size()).put(a.offset()).put(a.reference()).put(a.idx()).put(a.tid()).put(a.cpu());
      out.put(std::uint32_t{0});
      r.trailer = to_bytes_of(a.trace_data());
      break;
    }
    case Proto::PerfEvent::EVENT_TYPE_NOT_SET:
      // quipper writes records it has no message for as a bare header; one of 8 bytes has
      // nothing else to give back, whatever its type.
      if (r.type != record_type::finished_round && r.type != record_type::finished_init &&
          e.header().size() != 8) {
        return std::nullopt;
      }
      break;
    default:
      return std::nullopt;
  }
  return out.take();
}

// quipper writes back an event it has a message for, and FINISHED_ROUND (header only); it
// refuses every other one (FINISHED_INIT, CPU_MAP, ...), whose raw bytes go to pmucat_events.
bool belongs_in_events(const Proto::PerfEvent& e, const Record& r) {
  return e.event_type_case() != Proto::PerfEvent::EVENT_TYPE_NOT_SET ||
         r.type == record_type::finished_round;
}

}  // namespace

AttrLookup::AttrLookup(const std::vector<PerfEventEntry>& events) : events_(events) {
  for (std::size_t i = 0; i < events.size(); ++i) {
    for (auto id : events[i].ids) by_id_.emplace(id, i);
  }
}

const Attr* AttrLookup::find(const Record& r) const {
  if (events_.empty()) return nullptr;
  if (events_.size() == 1) return &events_.front().attr;
  const Attr& first = events_.front().attr;
  if (!(first.sample_type & sample::identifier) || r.payload.size() < 8) return &first;
  if (r.type != record_type::sample && (r.type >= 64 || !first.sample_id_all)) return &first;
  ByteReader in(
      r.type == record_type::sample ? std::span(r.payload).first(8) : std::span(r.payload).last(8),
      false);
  const auto it = by_id_.find(*in.read<std::uint64_t>());
  return it == by_id_.end() ? &first : &events_[it->second].attr;
}

bool record_to_proto(const Record& r, const Attr* attr, const std::vector<PerfEventEntry>& events,
                     Proto::PerfEvent& out, bool always_compare) {
  out.mutable_header()->set_type(r.type);
  out.mutable_header()->set_misc(r.misc);
  out.mutable_header()->set_size(r.size());
  bool typed = false;
  bool exact = false;
  if (attr != nullptr) {
    if (r.type == record_type::sample) {
      std::uint64_t timestamp = 0;
      typed = sample_to_proto(r.payload, *attr, *out.mutable_sample_event(), timestamp, exact);
      if (typed && (attr->sample_type & sample::time)) out.set_timestamp(timestamp);
      exact = exact && typed && r.trailer.empty() && attr_for_proto_event(out, events) == attr;
    } else {
      const Split split = split_trailer(r, attr);
      Proto::SampleInfo* info = nullptr;
      typed = body_to_proto(r, split.body, out, info);
      if (typed && info != nullptr && split.id) {
        fill_info(*split.id, *attr, *info);
        if (attr->sample_type & sample::time) out.set_timestamp(split.id->time);
      }
    }
  }
  // The typed form alone is enough when it gives back exactly these bytes, decoded with the
  // attr the reader will pick: the typed ids may name another event than the one `attr` came
  // from (a SAMPLE_ID without IDENTIFIER is found by position in the first attr's layout).
  // Otherwise the raw bytes go beside it: quipper reads the typed message (its parser needs
  // every MMAP's range), we read the raw bytes.
  if (typed && exact && !always_compare) return belongs_in_events(out, r);
  if (typed) {
    const auto back = record_from_proto(out, attr_for_proto_event(out, events));
    if (back && *back == r) return belongs_in_events(out, r);
    if (back && back->size() <= 0xffff) out.mutable_header()->set_size(back->size());
  } else {
    out.clear_event_type();
    out.clear_timestamp();
  }
  auto& raw = *out.mutable_pmucat_raw();
  raw.set_payload(std::string(reinterpret_cast<const char*>(r.payload.data()), r.payload.size()));
  if (!r.trailer.empty()) {
    raw.set_trailer(std::string(reinterpret_cast<const char*>(r.trailer.data()), r.trailer.size()));
  }
  return belongs_in_events(out, r);
}

std::optional<Record> record_from_proto(const Proto::PerfEvent& e, const Attr* attr) {
  Record r;
  r.type = e.header().type();
  r.misc = static_cast<std::uint16_t>(e.header().misc());
  if (e.has_pmucat_raw()) {
    r.payload = to_bytes_of(e.pmucat_raw().payload());
    r.trailer = to_bytes_of(e.pmucat_raw().trailer());
    return r;
  }
  if (e.has_sample_event()) {
    if (attr == nullptr) return std::nullopt;
    r.payload = sample_from_proto(e.sample_event(), *attr);
    return r;
  }
  const Proto::SampleInfo* info = nullptr;
  auto body = body_from_proto(e, r, info);
  if (!body) return std::nullopt;
  r.payload = std::move(*body);
  if (attr != nullptr && info != nullptr && r.type < 64) {
    const auto trailer = encode_sample_id(fields_of(*info), *attr);
    r.payload.insert(r.payload.end(), trailer.begin(), trailer.end());
  }
  return r;
}

const Attr* attr_for_proto_event(const Proto::PerfEvent& e,
                                 const std::vector<PerfEventEntry>& events) {
  if (events.empty()) return nullptr;
  if (events.size() == 1) return &events.front().attr;
  std::optional<std::uint64_t> id;
  if (e.has_sample_event() && e.sample_event().has_id()) id = e.sample_event().id();
  if (!id) {
    // Every typed message with a trailer keeps it in a field named sample_info.
    const google::protobuf::Reflection* reflection = e.GetReflection();
    const auto* oneof = e.GetDescriptor()->FindOneofByName("event_type");
    if (const auto* field = reflection->GetOneofFieldDescriptor(e, oneof)) {
      const auto& message = reflection->GetMessage(e, field);
      const auto* info_field = message.GetDescriptor()->FindFieldByName("sample_info");
      if (info_field != nullptr && message.GetReflection()->HasField(message, info_field)) {
        const auto& info = static_cast<const Proto::SampleInfo&>(
            message.GetReflection()->GetMessage(message, info_field));
        if (info.has_id()) id = info.id();
      }
    }
  }
  if (id) {
    for (const auto& ev : events) {
      if (std::find(ev.ids.begin(), ev.ids.end(), *id) != ev.ids.end()) return &ev.attr;
    }
  }
  return &events.front().attr;
}

namespace {
constexpr std::size_t kMessageArenaBlock = 64 << 10;
// What one record's messages are guessed to take on the arena besides twice its bytes.
constexpr std::size_t kMessageGuessBase = 1024;
google::protobuf::ArenaOptions arena_options(char* block) {
  google::protobuf::ArenaOptions o;
  o.initial_block = block;
  o.initial_block_size = kMessageArenaBlock;
  return o;
}
}  // namespace

ProtoFieldWriter::ProtoFieldWriter(const std::vector<PerfEventEntry>& events)
    : events_(events),
      lookup_(events),
      arena_block_(std::make_unique_for_overwrite<char[]>(kMessageArenaBlock)),
      message_arena_(arena_options(arena_block_.get())),
      order_(all_events_timed(events)) {}

std::optional<std::string> ProtoFieldWriter::prefix() const {
  Proto proto;
  PerfData one;
  one.events = events_;
  header_to_proto(one, proto);
  Proto attrs;
  attrs.mutable_file_attrs()->Swap(proto.mutable_file_attrs());
  std::string out;
  if (!attrs.SerializeToString(&out)) return std::nullopt;
  return out;
}

void ProtoFieldWriter::put(const Record& record, google::protobuf::io::CodedOutputStream& out) {
  using google::protobuf::internal::WireFormatLite;
  // BPF_METADATA's map would otherwise come out in hash order.
  out.SetSerializationDeterministic(true);
  if (record.type == record_type::header_tracing_data && !pipe_tracing_) {
    pipe_tracing_.emplace(reinterpret_cast<const char*>(record.trailer.data()),
                          record.trailer.size());
  }
  // Reset once the messages built since the last reset may fill the first block (a guess:
  // past it the arena takes heap blocks, which the next reset frees).
  const std::size_t guess = kMessageGuessBase + 2 * (record.payload.size() + record.trailer.size());
  if (arena_guess_ + guess > kMessageArenaBlock) {
    message_arena_.Reset();
    arena_guess_ = 0;
  }
  arena_guess_ += guess;
  event_ = google::protobuf::Arena::CreateMessage<Proto::PerfEvent>(&message_arena_);
  if (!record_to_proto(record, lookup_.find(record), events_, *event_)) {
    // Written where it falls in the stream; its position (in file order) places it for a
    // reader that parses the whole message (where the two repeated fields do not interleave).
    placed_.Clear();
    placed_.set_position(in_events_);
    placed_.mutable_event()->CopyFrom(*event_);
    out.WriteTag(WireFormatLite::MakeTag(Proto::kPmucatEventsFieldNumber,
                                         WireFormatLite::WIRETYPE_LENGTH_DELIMITED));
    out.WriteVarint32(static_cast<std::uint32_t>(placed_.ByteSizeLong()));
    placed_.SerializeWithCachedSizes(&out);
    return;
  }
  ++in_events_;
  const std::size_t size = event_->ByteSizeLong();
  if (!order_.active()) {
    // Already in file order: straight to the output.
    ++last_index_;
    out.WriteTag(WireFormatLite::MakeTag(Proto::kEventsFieldNumber,
                                         WireFormatLite::WIRETYPE_LENGTH_DELIMITED));
    out.WriteVarint32(static_cast<std::uint32_t>(size));
    event_->SerializeWithCachedSizes(&out);
    return;
  }
  const Held held{arena_.size(), size};
  char* room = arena_.append(size);
  {
    google::protobuf::io::ArrayOutputStream array(room, static_cast<int>(size));
    google::protobuf::io::CodedOutputStream coded(&array);
    coded.SetSerializationDeterministic(true);
    event_->SerializeWithCachedSizes(&coded);
  }
  // The proto's timestamp is what quipper sorts by (0 where the typed message has none).
  order_.add(held, event_->timestamp(), size + kHeldItemOverhead,
             record.type == record_type::finished_round,
             [this, &out](Held h, std::uint64_t index) { write_event(out, h, index); });
  release_arena();
}

char* ByteArena::append(std::size_t n) {
  if (n > capacity_ - size_) {
    const std::size_t capacity = std::max({2 * capacity_, size_ + n, std::size_t{1} << 16});
    auto bigger = std::make_unique_for_overwrite<char[]>(capacity);
    if (size_ != 0) std::memcpy(bigger.get(), data_.get(), size_);
    data_ = std::move(bigger);
    capacity_ = capacity;
  }
  char* room = data_.get() + size_;
  size_ += n;
  return room;
}

// Keeps the arena as small as what is held: emptied when nothing is, compacted when most of it
// has been written.
void ProtoFieldWriter::release_arena() {
  if (order_.held() == 0) {
    arena_.clear();
    return;
  }
  // held_bytes() counts each item's overhead too: an upper bound of its bytes here.
  if (arena_.size() < (std::size_t{1} << 20) || order_.held_bytes() * 2 > arena_.size()) return;
  // In place, keeping the capacity (growing a fresh arena again would copy it over and over):
  // the held items come in arrival order, so each one moves down, never over one still to move.
  std::size_t at = 0;
  order_.for_each_held([&](Held& h) {
    std::memmove(arena_.data() + at, arena_.data() + h.offset, h.size);
    h.offset = at;
    at += h.size;
  });
  arena_.truncate(at);
}

void ProtoFieldWriter::flush(google::protobuf::io::CodedOutputStream& out) {
  out.SetSerializationDeterministic(true);
  order_.flush([this, &out](Held h, std::uint64_t index) { write_event(out, h, index); });
  arena_.clear();
}

void ProtoFieldWriter::write_event(google::protobuf::io::CodedOutputStream& out, Held held,
                                   std::uint64_t index) {
  using google::protobuf::internal::WireFormatLite;
  using google::protobuf::io::CodedOutputStream;
  const std::int64_t skip = static_cast<std::int64_t>(index) - (last_index_ + 1);
  last_index_ = static_cast<std::int64_t>(index);
  const std::uint32_t skip_tag = WireFormatLite::MakeTag(
      Proto::PerfEvent::kPmucatOrderSkipFieldNumber, WireFormatLite::WIRETYPE_VARINT);
  const std::uint64_t zigzag = WireFormatLite::ZigZagEncode64(skip);
  const std::size_t extra = skip == 0 ? 0
                                      : CodedOutputStream::VarintSize32(skip_tag) +
                                            CodedOutputStream::VarintSize64(zigzag);
  out.WriteTag(WireFormatLite::MakeTag(Proto::kEventsFieldNumber,
                                       WireFormatLite::WIRETYPE_LENGTH_DELIMITED));
  out.WriteVarint32(static_cast<std::uint32_t>(held.size + extra));
  out.WriteRaw(arena_.data() + held.offset, static_cast<int>(held.size));
  if (skip != 0) {
    out.WriteVarint32(skip_tag);
    out.WriteVarint64(zigzag);
  }
}

std::optional<std::uint64_t> next_file_index(std::int64_t previous, std::int64_t skip,
                                             std::uint64_t count) {
  // previous is in [-1, count): the sum stays in range whenever skip is within (-count, count].
  const auto n = static_cast<std::int64_t>(std::min<std::uint64_t>(count, INT64_MAX / 2));
  if (skip > n || skip < -n) return std::nullopt;
  const std::int64_t index = previous + 1 + skip;
  if (index < 0 || index >= n) return std::nullopt;
  return static_cast<std::uint64_t>(index);
}

std::optional<std::string> ProtoFieldWriter::suffix(const PerfData& header) const {
  Proto proto;
  header_to_proto(header, proto);
  proto.clear_file_attrs();
  features_to_proto(header, proto);
  if (pipe_tracing_) pipe_tracing_data_to_proto(*pipe_tracing_, header, proto);
  std::string out;
  if (!proto.SerializeToString(&out)) return std::nullopt;
  return out;
}

}  // namespace perfdata
PMUCAT_END_NAMESPACE
