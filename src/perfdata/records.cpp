// Record type names, the SAMPLE body layout, sample_id_all trailers and record builders.
#include <fmt/format.h>

#include "perfdata/bytes.h"
#include "pmucat/perfdata.h"
#include "pmucat/perfdata_records.h"

PMUCAT_BEGIN_NAMESPACE
namespace {

using perfdata::ByteReader;
using perfdata::ByteWriter;

// Words of a READ block as the attr's read_format lays it out, or nullopt when it cannot fit.
std::optional<std::vector<std::uint64_t>> read_read_block(ByteReader& in, std::uint64_t format) {
  std::vector<std::uint64_t> words;
  auto word = [&]() -> bool {
    const auto v = in.read<std::uint64_t>();
    if (!v) return false;
    words.push_back(*v);
    return true;
  };
  const int extras = ((format & read_fmt::total_time_enabled) ? 1 : 0) +
                     ((format & read_fmt::total_time_running) ? 1 : 0);
  const int per_value = 1 + ((format & read_fmt::id) ? 1 : 0) + ((format & read_fmt::lost) ? 1 : 0);
  if (format & read_fmt::group) {
    if (!word()) return std::nullopt;
    const std::uint64_t nr = words.front();
    for (int i = 0; i < extras; ++i) {
      if (!word()) return std::nullopt;
    }
    // Checked before the loop so a hostile `nr` cannot make us spin or allocate.
    if (nr > in.remaining() / 8 / static_cast<std::uint64_t>(per_value)) return std::nullopt;
    for (std::uint64_t i = 0; i < nr * static_cast<std::uint64_t>(per_value); ++i) {
      if (!word()) return std::nullopt;
    }
  } else {
    for (int i = 0; i < 1 + extras + per_value - 1; ++i) {
      if (!word()) return std::nullopt;
    }
  }
  return words;
}

}  // namespace

std::string record_type_name(std::uint32_t type) {
  static constexpr std::string_view kKernel[] = {"",
                                                 "MMAP",
                                                 "LOST",
                                                 "COMM",
                                                 "EXIT",
                                                 "THROTTLE",
                                                 "UNTHROTTLE",
                                                 "FORK",
                                                 "READ",
                                                 "SAMPLE",
                                                 "MMAP2",
                                                 "AUX",
                                                 "ITRACE_START",
                                                 "LOST_SAMPLES",
                                                 "SWITCH",
                                                 "SWITCH_CPU_WIDE",
                                                 "NAMESPACES",
                                                 "KSYMBOL",
                                                 "BPF_EVENT",
                                                 "CGROUP",
                                                 "TEXT_POKE",
                                                 "AUX_OUTPUT_HW_ID"};
  static constexpr std::string_view kUser[] = {
      "ATTR",      "EVENT_TYPE",    "TRACING_DATA", "BUILD_ID",       "FINISHED_ROUND",
      "ID_INDEX",  "AUXTRACE_INFO", "AUXTRACE",     "AUXTRACE_ERROR", "THREAD_MAP",
      "CPU_MAP",   "STAT_CONFIG",   "STAT",         "STAT_ROUND",     "EVENT_UPDATE",
      "TIME_CONV", "FEATURE",       "COMPRESSED",   "FINISHED_INIT",  "COMPRESSED2"};
  if (type >= 1 && type < std::size(kKernel)) return std::string(kKernel[type]);
  if (type >= 64 && type - 64 < std::size(kUser)) return std::string(kUser[type - 64]);
  return fmt::format("UNKNOWN({})", type);
}

std::vector<std::byte> encode_sample(const SampleFields& s, const Attr& attr) {
  ByteWriter out;
  out.bytes().reserve(128 + 8 * (s.callchain.size() + s.read_values.size()));
  const std::uint64_t t = attr.sample_type;
  if (t & sample::identifier) out.put(s.identifier);
  if (t & sample::ip) out.put(s.ip);
  if (t & sample::tid) out.put(s.pid).put(s.tid);
  if (t & sample::time) out.put(s.time);
  if (t & sample::addr) out.put(s.addr);
  if (t & sample::id) out.put(s.id);
  if (t & sample::stream_id) out.put(s.stream_id);
  if (t & sample::cpu) out.put(s.cpu).put(s.cpu_reserved);
  if (t & sample::period) out.put(s.period);
  if (t & sample::read) {
    for (auto w : s.read_values) out.put(w);
  }
  if (t & sample::callchain) {
    out.put(static_cast<std::uint64_t>(s.callchain.size()));
    out.put_array(std::span<const std::uint64_t>(s.callchain));
  }
  if (t & sample::raw) {
    // The kernel pads RAW data so that the u32 size and the data end 8-aligned.
    std::size_t n = s.raw.size();
    while ((n + 4) % 8 != 0) ++n;
    out.put(static_cast<std::uint32_t>(n)).put_bytes(s.raw);
    for (std::size_t i = s.raw.size(); i < n; ++i) out.put(std::uint8_t{0});
  }
  if (t & sample::branch_stack) {
    out.put(s.branch_nr);
    out.put_array(std::span<const std::uint64_t>(s.branch_stack));
  }
  out.put_bytes(s.rest);
  return out.take();
}

std::optional<SampleFields> decode_sample(std::span<const std::byte> payload, const Attr& attr) {
  ByteReader in(payload, false);
  SampleFields s;
  const std::uint64_t t = attr.sample_type;
  auto u64 = [&in](std::uint64_t& v) {
    auto r = in.read<std::uint64_t>();
    if (r) v = *r;
    return r.has_value();
  };
  auto u32 = [&in](std::uint32_t& v) {
    auto r = in.read<std::uint32_t>();
    if (r) v = *r;
    return r.has_value();
  };
  if ((t & sample::identifier) && !u64(s.identifier)) return std::nullopt;
  if ((t & sample::ip) && !u64(s.ip)) return std::nullopt;
  if ((t & sample::tid) && !(u32(s.pid) && u32(s.tid))) return std::nullopt;
  if ((t & sample::time) && !u64(s.time)) return std::nullopt;
  if ((t & sample::addr) && !u64(s.addr)) return std::nullopt;
  if ((t & sample::id) && !u64(s.id)) return std::nullopt;
  if ((t & sample::stream_id) && !u64(s.stream_id)) return std::nullopt;
  if ((t & sample::cpu) && !(u32(s.cpu) && u32(s.cpu_reserved))) return std::nullopt;
  if ((t & sample::period) && !u64(s.period)) return std::nullopt;
  if (t & sample::read) {
    auto words = read_read_block(in, attr.read_format);
    if (!words) return std::nullopt;
    s.read_values = std::move(*words);
  }
  if (t & sample::callchain) {
    std::uint64_t nr = 0;
    if (!u64(nr) || !in.read_array(s.callchain, nr)) return std::nullopt;
  }
  if (t & sample::raw) {
    std::uint32_t size = 0;
    if (!u32(size)) return std::nullopt;
    const auto raw = in.take(size);
    if (!raw) return std::nullopt;
    s.raw.assign(raw->begin(), raw->end());
  }
  if (t & sample::branch_stack) {
    if (!u64(s.branch_nr)) return std::nullopt;
    const std::uint64_t hw_index = (attr.branch_sample_type & branch::hw_index) ? 1 : 0;
    if (s.branch_nr > in.remaining() / 24) return std::nullopt;
    const std::uint64_t words = hw_index + 3 * s.branch_nr;
    if (!in.read_array(s.branch_stack, words)) return std::nullopt;
  }
  const auto rest = in.take(in.remaining());
  s.rest.assign(rest->begin(), rest->end());
  return s;
}

std::vector<std::byte> encode_sample_id(const SampleFields& id, const Attr& attr) {
  ByteWriter out;
  if (!attr.sample_id_all) return {};
  const std::uint64_t t = attr.sample_type;
  if (t & sample::tid) out.put(id.pid).put(id.tid);
  if (t & sample::time) out.put(id.time);
  if (t & sample::id) out.put(id.id);
  if (t & sample::stream_id) out.put(id.stream_id);
  if (t & sample::cpu) out.put(id.cpu).put(id.cpu_reserved);
  if (t & sample::identifier) out.put(id.identifier);
  return out.take();
}

std::size_t sample_id_size(const Attr& attr) {
  if (!attr.sample_id_all) return 0;
  const std::uint64_t t = attr.sample_type;
  std::size_t n = 0;
  for (std::uint64_t bit : {sample::tid, sample::time, sample::id, sample::stream_id, sample::cpu,
                            sample::identifier}) {
    if (t & bit) n += 8;
  }
  return n;
}

namespace {

Record finish_record(std::uint32_t type, std::uint16_t misc, ByteWriter body,
                     const SampleFields& id, const Attr& id_attr) {
  body.put_bytes(encode_sample_id(id, id_attr));
  Record r;
  r.type = type;
  r.misc = misc;
  r.payload = body.take();
  return r;
}

}  // namespace

Record make_comm_record(std::uint32_t pid, std::uint32_t tid, std::string_view comm, bool exec,
                        const SampleFields& id, const Attr& id_attr) {
  ByteWriter body;
  body.put(pid).put(tid).put_padded_string(comm, 8);
  return finish_record(record_type::comm, exec ? 0x2000 : 0, std::move(body), id, id_attr);
}

Record make_mmap_record(std::uint32_t pid, std::uint32_t tid, std::uint64_t start,
                        std::uint64_t len, std::uint64_t pgoff, std::string_view filename,
                        std::uint16_t cpumode, const SampleFields& id, const Attr& id_attr) {
  ByteWriter body;
  body.put(pid).put(tid).put(start).put(len).put(pgoff).put_padded_string(filename, 8);
  return finish_record(record_type::mmap, cpumode, std::move(body), id, id_attr);
}

Record make_fork_record(bool exit, std::uint32_t pid, std::uint32_t ppid, std::uint32_t tid,
                        std::uint32_t ptid, std::uint64_t time, const SampleFields& id,
                        const Attr& id_attr) {
  ByteWriter body;
  body.put(pid).put(ppid).put(tid).put(ptid).put(time);
  return finish_record(exit ? record_type::exit : record_type::fork, 0, std::move(body), id,
                       id_attr);
}

Record make_sample_record(const SampleFields& s, const Attr& attr, std::uint16_t cpumode) {
  Record r;
  r.type = record_type::sample;
  r.misc = cpumode;
  r.payload = encode_sample(s, attr);
  return r;
}

Record make_finished_round_record() {
  Record r;
  r.type = record_type::finished_round;
  return r;
}

PMUCAT_END_NAMESPACE
