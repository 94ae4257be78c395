// Streaming perf.data writer: file mode (the header written last, at offset 0) and pipe mode.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <optional>
#include <set>

#include "perfdata/bytes.h"
#include "perfdata/problems.h"
#include "perfdata/record_framing.h"
#include "pmucat/diagnostic_ids.h"
#include "pmucat/output_file.h"
#include "pmucat/perfdata.h"

PMUCAT_BEGIN_NAMESPACE
namespace {

using perfdata::ByteReader;
using perfdata::ByteWriter;
using perfdata::io_error;

constexpr std::uint64_t kFileHeaderSize = 104;
constexpr std::size_t kBufferSize = std::size_t{1} << 20;

struct FieldEnd {
  std::string_view name;
  std::uint32_t end;  // the attr must be at least this long to hold the field
  bool set;
  std::string_view readers = {};  // which perfs cannot read the field, where that matters
};

}  // namespace

std::optional<Diagnostic> check_attr_fits(const Attr& attr, std::uint32_t attr_size,
                                          std::string_view event_name) {
  auto error = [&](std::string message) {
    Diagnostic d;
    set_id(d, DiagId::perfdata_attr_size);
    d.range.file = std::string(event_name);
    d.message = std::move(message);
    return d;
  };
  if (attr_size < kAttrSizeVer0 || attr_size > kAttrSizeVer9 || attr_size % 8 != 0) {
    return error(
        fmt::format("attr size {} is not a perf_event_attr ABI size (64..144, a "
                    "multiple of 8)",
                    attr_size));
  }
  if (attr.reserved_flags != 0) {
    return error(fmt::format("reserved flag bits {:#x} are set; perf rejects such attrs",
                             attr.reserved_flags));
  }
  const FieldEnd fields[] = {
      {"config2", 72, attr.config[2] != 0},
      {"branch_sample_type", 80, attr.branch_sample_type != 0},
      {"sample_regs_user", 88, attr.sample_regs_user != 0},
      {"sample_stack_user", 92, attr.sample_stack_user != 0},
      {"clockid", 96, attr.clockid != 0},
      {"sample_regs_intr", 104, attr.sample_regs_intr != 0},
      {"aux_watermark", 108, attr.aux_watermark != 0},
      {"sample_max_stack", 110, attr.sample_max_stack != 0},
      {"aux_sample_size", 116, attr.aux_sample_size != 0},
      {"sig_data", 128, attr.sig_data != 0},
      {"config3", 136, attr.config[3] != 0, "; perf <= 6.2 cannot read config3"},
      {"config4", 144, attr.config[4] != 0, "; perf <= 6.12 cannot read config4"},
  };
  for (const auto& f : fields) {
    if (f.set && attr_size < f.end) {
      return error(fmt::format("{} is set but a {}-byte attr cannot hold it (needs {} bytes{})",
                               f.name, attr_size, (f.end + 7) / 8 * 8, f.readers));
    }
  }
  return std::nullopt;
}

namespace {

// Pipe mode carries BUILD_ID as HEADER_BUILD_ID records, one per entry (what perf writes there;
// quipper refuses it as a FEATURE record): each entry of the feature payload is such a record
// with type 0. nullopt when the payload is not a run of type-0 entries; it then goes as a
// FEATURE record, which perf reads too.
std::optional<std::vector<Record>> build_id_records(std::span<const std::byte> payload) {
  std::vector<Record> out;
  ByteReader in(payload, false);
  while (!in.at_end()) {
    const auto type = in.read<std::uint32_t>();
    const auto misc = in.read<std::uint16_t>();
    const auto size = in.read<std::uint16_t>();
    if (!type || !misc || !size || *type != 0 || *size < 8) return std::nullopt;
    const auto body = in.take(*size - 8u);
    if (!body) return std::nullopt;
    Record r;
    r.type = record_type::header_build_id;
    r.misc = *misc;
    r.payload.assign(body->begin(), body->end());
    out.push_back(std::move(r));
  }
  if (out.empty()) return std::nullopt;  // no record would say the feature is there
  return out;
}

}  // namespace

struct PerfDataWriter::State {
  std::filesystem::path path;
  std::optional<OutputFile> out;
  WriterOptions options;
  std::vector<PerfEventEntry> events;
  std::map<std::uint32_t, std::vector<std::byte>> features;
  std::uint64_t attrs_offset = 0, data_offset = 0, position = 0;
  std::uint64_t records = 0;
  std::vector<std::byte> buffer;  // written out whenever it reaches kBufferSize
  bool failed = false, finished = false;
  bool other_records = false;  // a record other than HEADER_BUILD_ID was written

  std::optional<Diagnostic> flush() {
    if (buffer.empty()) return std::nullopt;
    auto e = out->write(buffer);
    buffer.clear();
    if (e) failed = true;
    return e;
  }

  std::optional<Diagnostic> put(std::span<const std::byte> bytes) {
    if (failed) return io_error(path.string(), "an earlier write failed");
    buffer.insert(buffer.end(), bytes.begin(), bytes.end());
    position += bytes.size();
    if (buffer.size() >= kBufferSize) return flush();
    return std::nullopt;
  }

  // Pipe mode: the HEADER_ATTR and HEADER_FEATURE records, in options.pipe_header's order
  // first (entries naming nothing written are skipped), then whatever it left out.
  std::optional<Diagnostic> put_pipe_header() {
    std::vector<bool> attr_done(events.size(), false);
    std::set<std::uint32_t> features_done;
    bool marker_done = !options.pipe_end_marker;
    using Kind = PipeHeaderRecord::Kind;
    const auto put_attr = [&](std::size_t index, std::uint16_t misc) {
      attr_done[index] = true;
      ByteWriter body;
      body.put_bytes(to_bytes(events[index].attr));
      for (auto id : events[index].ids) body.put(id);
      return put_record(record_type::header_attr, misc, body.bytes(), {});
    };
    bool tracing_data = false;
    // TRACING_DATA stays a FEATURE record only where the header order places it (a stream that
    // had one); perf itself never writes it so.
    const auto put_feature = [&](std::uint32_t id, std::uint16_t misc, bool placed) {
      features_done.insert(id);
      if (id == feature::tracing_data && !placed) {
        tracing_data = true;  // a record of its own, after the header (below)
        return std::optional<Diagnostic>{};
      }
      if (id == feature::build_id) {
        if (auto entries = build_id_records(features.at(id))) {
          for (const auto& r : *entries) {
            if (auto e = put_record(record_type::header_build_id, r.misc, r.payload, {})) return e;
          }
          return std::optional<Diagnostic>{};
        }
      }
      ByteWriter body;
      body.put(std::uint64_t{id}).put_bytes(features.at(id));
      return put_record(record_type::header_feature, misc, body.bytes(), {});
    };
    const auto put_marker = [&](std::uint16_t misc) {
      marker_done = true;
      ByteWriter body;
      body.put(*options.pipe_end_marker);
      return put_record(record_type::header_feature, misc, body.bytes(), {});
    };
    for (const auto& h : options.pipe_header) {
      std::optional<Diagnostic> e;
      if (h.kind == Kind::attr && h.id < events.size() && !attr_done[h.id]) {
        e = put_attr(static_cast<std::size_t>(h.id), h.misc);
      } else if (h.kind == Kind::feature && h.id < 256 &&
                 features.count(static_cast<std::uint32_t>(h.id)) != 0 &&
                 features_done.count(static_cast<std::uint32_t>(h.id)) == 0) {
        e = put_feature(static_cast<std::uint32_t>(h.id), h.misc, true);
      } else if (h.kind == Kind::end_marker && !marker_done && h.id == *options.pipe_end_marker) {
        e = put_marker(h.misc);
      }
      if (e) return e;
    }
    for (std::size_t i = 0; i < events.size(); ++i) {
      if (attr_done[i]) continue;
      if (auto e = put_attr(i, 0)) return e;
    }
    for (const auto& [id, payload] : features) {
      if (features_done.count(id) != 0) continue;
      if (auto e = put_feature(id, 0, false)) return e;
    }
    if (!marker_done) {
      if (auto e = put_marker(0)) return e;
    }
    if (!tracing_data) return std::nullopt;
    other_records = true;  // to the reader, the header ends before it
    return put_tracing_data(features.at(feature::tracing_data));
  }

  // Pipe mode carries TRACING_DATA as a HEADER_TRACING_DATA record after the header records,
  // as perf writes it (quipper refuses it as a FEATURE record): a u32 size and 4 zero bytes,
  // then that many bytes outside the record, the data padded with zeros to 8 bytes.
  std::optional<Diagnostic> put_tracing_data(const std::vector<std::byte>& data) {
    const std::uint64_t aligned = (std::uint64_t{data.size()} + 7) / 8 * 8;
    if (aligned > UINT32_MAX) {
      return io_error(path.string(),
                      fmt::format("TRACING_DATA of {} bytes does not fit a pipe-mode "
                                  "HEADER_TRACING_DATA record",
                                  data.size()));
    }
    ByteWriter body;
    body.put(static_cast<std::uint32_t>(aligned)).put(std::uint32_t{0});
    std::vector<std::byte> trailer(data);
    trailer.resize(static_cast<std::size_t>(aligned), std::byte{0});
    return put_record(record_type::header_tracing_data, 0, body.bytes(), trailer);
  }

  std::optional<Diagnostic> put_record(std::uint32_t type, std::uint16_t misc,
                                       std::span<const std::byte> payload,
                                       std::span<const std::byte> trailer) {
    if (payload.size() + 8 > 0xffff) {
      return io_error(path.string(), fmt::format("{} record of {} bytes exceeds the 65535-byte "
                                                 "record limit",
                                                 record_type_name(type), payload.size() + 8));
    }
    // Little-endian like ByteWriter, without a buffer per record.
    const auto size = static_cast<std::uint16_t>(payload.size() + 8);
    const std::array<std::byte, 8> header = {
        std::byte(type & 0xff), std::byte((type >> 8) & 0xff), std::byte((type >> 16) & 0xff),
        std::byte(type >> 24),  std::byte(misc & 0xff),        std::byte(misc >> 8),
        std::byte(size & 0xff), std::byte(size >> 8)};
    if (auto e = put(header)) return e;
    if (auto e = put(payload)) return e;
    if (trailer.empty()) return std::nullopt;
    return put(trailer);
  }
};

PerfDataWriter::PerfDataWriter(std::unique_ptr<State> state) : state_(std::move(state)) {}
PerfDataWriter::PerfDataWriter(PerfDataWriter&&) noexcept = default;
PerfDataWriter& PerfDataWriter::operator=(PerfDataWriter&&) noexcept = default;
PerfDataWriter::~PerfDataWriter() = default;

Expected<PerfDataWriter> PerfDataWriter::create(
    const std::filesystem::path& path, std::vector<PerfEventEntry> events,
    std::map<std::uint32_t, std::vector<std::byte>> features, const WriterOptions& options) {
  for (auto& e : events) {
    if (auto d =
            check_attr_fits(e.attr, options.attr_size, e.name.empty() ? path.string() : e.name)) {
      return unexpected(std::move(*d));
    }
    e.attr.size = options.attr_size;
  }
  for (const auto& [id, payload] : features) {
    if (id >= 256)
      return unexpected(io_error(path.string(), fmt::format("feature id {} >= 256", id)));
  }
  auto state = std::make_unique<State>();
  state->path = path;
  state->options = options;
  state->events = std::move(events);
  state->features = std::move(features);

  // Validated before the output is touched: a rejected event leaves the target as it was.
  auto out = OutputFile::open(path);
  if (!out) return unexpected(std::move(out).error());
  if (out->streaming() && state->options.mode == PerfDataMode::file) {
    // A FIFO, device or standard output cannot be seeked back into for the header: perf
    // itself writes pipe mode there, and reads it from there.
    state->options.mode = PerfDataMode::pipe;
    if (!state->options.pipe_end_marker) state->options.pipe_end_marker = feature::last;
  }
  state->out = std::move(*out);
  state->buffer.reserve(kBufferSize);

  ByteWriter head;
  if (state->options.mode == PerfDataMode::pipe) {
    head.put(std::uint64_t{0x32454c4946524550}).put(std::uint64_t{16});
    if (auto e = state->put(head.bytes())) return unexpected(std::move(*e));
    if (auto e = state->put_pipe_header()) return unexpected(std::move(*e));
  } else {
    // A zeroed header until finish(): an unfinished file has no magic and reads as invalid.
    head.bytes().resize(kFileHeaderSize);
    for (const auto& ev : state->events) {
      for (auto id : ev.ids) head.put(id);
    }
    state->attrs_offset = head.size();
    std::uint64_t ids_offset = kFileHeaderSize;
    for (const auto& ev : state->events) {
      head.put_bytes(to_bytes(ev.attr));
      head.put(ids_offset).put(std::uint64_t{8 * ev.ids.size()});
      ids_offset += 8 * ev.ids.size();
    }
    if (auto e = state->put(head.bytes())) return unexpected(std::move(*e));
  }
  state->data_offset = state->position;
  return PerfDataWriter(std::move(state));
}

std::optional<Diagnostic> PerfDataWriter::write(const Record& record) {
  return write(RecordView(record));
}

std::optional<Diagnostic> PerfDataWriter::write(const RecordView& record) {
  if (state_->finished) return io_error(state_->path.string(), "write after finish");
  // A HEADER_ATTR record (a pipe stream's attr, or one a proto carried) must hold an attr the
  // reader takes back: at least PERF_ATTR_SIZE_VER0 bytes, its attr.size inside the record and
  // the ids after it whole. Written otherwise, the file could not be read again.
  if (record.type == record_type::header_attr) {
    const auto bytes = record.payload.size();
    std::uint32_t size = 0;
    if (bytes >= kAttrSizeVer0) std::memcpy(&size, record.payload.data() + 4, sizeof size);
    if (size == 0) size = kAttrSizeVer0;
    if (bytes < kAttrSizeVer0 || size > bytes || (bytes - size) % 8 != 0) {
      return io_error(state_->path.string(),
                      fmt::format("HEADER_ATTR record of {} bytes does not hold an attr perf can "
                                  "read (attr.size {}); not written",
                                  bytes + 8, size));
    }
  }
  // The reader would take it into the header, with the ones the writer puts first.
  if (state_->options.mode == PerfDataMode::pipe && perfdata::is_pipe_header_record(record.type)) {
    return io_error(
        state_->path.string(),
        fmt::format("record index {} (a {} record) would be read as part of a pipe-mode "
                    "stream's header; not written",
                    state_->records, record_type_name(record.type)));
  }
  // HEADER_BUILD_ID records before any other record are the BUILD_ID feature to the reader.
  if (state_->options.mode == PerfDataMode::pipe && !state_->other_records &&
      record.type == record_type::header_build_id) {
    return io_error(state_->path.string(),
                    fmt::format("record index {} (a HEADER_BUILD_ID record before any other "
                                "record) would be read as the BUILD_ID feature of a pipe-mode "
                                "stream; not written",
                                state_->records));
  }
  if (record.type != record_type::header_build_id) state_->other_records = true;
  // The reader finds the end of a record's trailer by the size its payload declares; a record
  // whose trailer is another length (a proto may say anything) would be read as other records.
  const auto declared = perfdata::declared_trailer_size(record.type, record.payload, false);
  if (!declared) {
    return io_error(
        state_->path.string(),
        fmt::format("record index {} ({}, {} bytes) is too short for its data size field; "
                    "not written",
                    state_->records, record_type_name(record.type), record.size()));
  }
  if (*declared != record.trailer.size()) {
    return io_error(
        state_->path.string(),
        fmt::format("record index {} ({}) declares {} bytes of data after it but carries {}; "
                    "not written",
                    state_->records, record_type_name(record.type), *declared,
                    record.trailer.size()));
  }
  if (auto e = state_->put_record(record.type, record.misc, record.payload, record.trailer)) {
    return e;
  }
  ++state_->records;
  return std::nullopt;
}

std::optional<Diagnostic> PerfDataWriter::add_feature(std::uint32_t id,
                                                      std::vector<std::byte> payload) {
  if (state_->options.mode == PerfDataMode::pipe) {
    return io_error(state_->path.string(), "pipe mode writes features before the records");
  }
  if (id >= 256) return io_error(state_->path.string(), fmt::format("feature id {} >= 256", id));
  state_->features[id] = std::move(payload);
  return std::nullopt;
}

std::optional<Diagnostic> PerfDataWriter::finish() {
  State& s = *state_;
  if (s.finished) return io_error(s.path.string(), "finish called twice");
  if (s.options.mode == PerfDataMode::file) {
    const std::uint64_t data_size = s.position - s.data_offset;
    ByteWriter index;
    const std::uint32_t gap = std::min(s.options.feature_gap, kMaxFeatureGap);
    std::uint64_t payload_offset = s.position + 16 * s.features.size() + gap;
    std::array<std::uint64_t, 4> bitmap{};
    for (const auto& [id, payload] : s.features) {
      index.put(payload_offset).put(std::uint64_t{payload.size()});
      payload_offset += payload.size();
      bitmap[id / 64] |= std::uint64_t{1} << (id % 64);
    }
    index.bytes().resize(index.size() + gap, std::byte{0});
    if (auto e = s.put(index.bytes())) return e;
    for (const auto& [id, payload] : s.features) {
      if (auto e = s.put(payload)) return e;
    }
    ByteWriter header;
    header.put(std::uint64_t{0x32454c4946524550}).put(kFileHeaderSize);
    header.put(std::uint64_t{s.options.attr_size} + 16);
    header.put(s.attrs_offset).put(std::uint64_t{(s.options.attr_size + 16ull) * s.events.size()});
    header.put(s.data_offset).put(data_size);
    header.put(std::uint64_t{0}).put(std::uint64_t{0});
    for (auto w : bitmap) header.put(w);
    // The header goes in last, so a temporary is never a valid perf.data before this point.
    if (auto e = s.flush()) return e;
    if (auto e = s.out->write_at(header.bytes(), 0)) {
      s.failed = true;
      return e;
    }
  } else if (auto e = s.flush()) {
    return e;
  }
  if (auto e = s.out->commit()) {
    s.failed = true;
    return e;
  }
  s.finished = true;
  return std::nullopt;
}

PerfDataMode PerfDataWriter::mode() const {
  return state_->options.mode;
}
std::uint64_t PerfDataWriter::records_written() const {
  return state_->records;
}
std::uint64_t PerfDataWriter::bytes_written() const {
  return state_->position;
}

std::optional<Diagnostic> write_perf_data(const std::filesystem::path& path, const PerfData& data,
                                          const WriterOptions& options) {
  if (data.other_endian) {
    return io_error(path.string(),
                    "cannot write a model read from an other-endian file (its "
                    "records are kept in that byte order)");
  }
  auto writer = PerfDataWriter::create(path, data.events, data.features, options);
  if (!writer) return std::move(writer).error();
  for (const auto& r : data.records) {
    if (auto e = writer->write(r)) return e;
  }
  return writer->finish();
}

WriterOptions options_like(const PerfData& data) {
  WriterOptions options;
  options.mode = data.mode;
  options.pipe_end_marker = data.pipe_end_marker;
  options.pipe_header = data.pipe_header;
  if (data.mode == PerfDataMode::file) options.feature_gap = data.feature_gap;
  if (!data.events.empty()) options.attr_size = data.events.front().attr.size;
  return options;
}

PMUCAT_END_NAMESPACE
