// Streaming PerfDataProto: written field by field with CodedOutputStream (file_attrs, then one
// `events` entry per record as it comes, then the metadata) and read field by field with
// CodedInputStream, so neither side holds the events.
#include <fcntl.h>
#include <fmt/format.h>
#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>
#include <google/protobuf/wire_format_lite.h>
#include <sys/stat.h>
#include <unistd.h>

#include <climits>
#include <map>
#include <optional>

#include "perfdata/problems.h"
#include "perfdata_proto/proto_records.h"
#include "pmucat/diagnostic_ids.h"
#include "pmucat/output_file.h"
#include "pmucat/perfdata_proto.h"

PMUCAT_BEGIN_NAMESPACE
namespace {

using Proto = quipper::PerfDataProto;
using google::protobuf::internal::WireFormatLite;
using google::protobuf::io::CodedInputStream;
using google::protobuf::io::CodedOutputStream;

constexpr int kEventsField = Proto::kEventsFieldNumber;
// A CodedInputStream counts its position in an int: a fresh one is started well before 2 GiB.
constexpr int kRestartAfter = 256 << 20;

Diagnostic malformed(std::string_view file, std::string message) {
  Diagnostic d = perfdata::io_error(file, std::move(message));
  set_id(d, DiagId::perfdata_malformed);
  return d;
}

// Bytes from the CodedOutputStream go to the OutputFile.
class OutputFileStream : public google::protobuf::io::CopyingOutputStream {
 public:
  explicit OutputFileStream(OutputFile& out) : out_(out) {}
  bool Write(const void* buffer, int size) override {
    if (error_) return false;
    error_ = out_.write(
        std::span(static_cast<const std::byte*>(buffer), static_cast<std::size_t>(size)));
    return !error_;
  }
  std::optional<Diagnostic> error_;

 private:
  OutputFile& out_;
};

}  // namespace

struct PerfDataProtoWriter::State {
  explicit State(OutputFile f) : file(std::move(f)), sink(file), adaptor(&sink, 1 << 20) {}
  OutputFile file;
  OutputFileStream sink;
  google::protobuf::io::CopyingOutputStreamAdaptor adaptor;
  PerfData header;
  std::optional<perfdata::ProtoFieldWriter> fields;
  std::uint64_t records = 0;

  std::optional<Diagnostic> put(const std::string& bytes) {
    CodedOutputStream out(&adaptor);
    out.WriteRaw(bytes.data(), static_cast<int>(bytes.size()));
    if (out.HadError() || sink.error_) return failed();
    return std::nullopt;
  }
  Diagnostic failed() {
    if (sink.error_) return *sink.error_;
    return perfdata::io_error(file.path().string(), "protobuf output failed");
  }
};

PerfDataProtoWriter::PerfDataProtoWriter(std::unique_ptr<State> state) : state_(std::move(state)) {}
PerfDataProtoWriter::PerfDataProtoWriter(PerfDataProtoWriter&&) noexcept = default;
PerfDataProtoWriter& PerfDataProtoWriter::operator=(PerfDataProtoWriter&&) noexcept = default;
PerfDataProtoWriter::~PerfDataProtoWriter() = default;

Expected<PerfDataProtoWriter> PerfDataProtoWriter::create(const std::filesystem::path& path,
                                                          const PerfData& header) {
  if (header.other_endian) {
    return unexpected(
        perfdata::io_error("", "cannot convert an other-endian perf.data to a proto"));
  }
  auto file = OutputFile::open(path);
  if (!file) return unexpected(std::move(file).error());
  auto state = std::make_unique<State>(std::move(*file));
  state->header = header;
  state->header.records.clear();
  state->fields.emplace(state->header.events);
  const auto bytes = state->fields->prefix();
  if (!bytes) return unexpected(perfdata::io_error(path.string(), "protobuf serialisation failed"));
  if (auto error = state->put(*bytes)) return unexpected(std::move(*error));
  return PerfDataProtoWriter(std::move(state));
}

std::optional<Diagnostic> PerfDataProtoWriter::write(const Record& record) {
  State& s = *state_;
  CodedOutputStream out(&s.adaptor);
  s.fields->put(record, out);
  if (out.HadError() || s.sink.error_) return s.failed();
  ++s.records;
  return std::nullopt;
}

std::optional<Diagnostic> PerfDataProtoWriter::finish(const PerfData& header) {
  State& s = *state_;
  {
    CodedOutputStream out(&s.adaptor);
    s.fields->flush(out);
    if (out.HadError() || s.sink.error_) return s.failed();
  }
  const auto bytes = s.fields->suffix(header);
  if (!bytes) return perfdata::io_error(s.file.path().string(), "protobuf serialisation failed");
  if (auto error = s.put(*bytes)) return error;
  if (!s.adaptor.Flush() || s.sink.error_) return s.failed();
  return s.file.commit();
}

std::uint64_t PerfDataProtoWriter::records_written() const {
  return state_->records;
}

namespace {

// Walks the top-level fields of a binary PerfDataProto from `fd`, restarting the
// CodedInputStream before its int position could overflow.
class FieldWalker {
 public:
  FieldWalker(int fd, std::uint64_t size) : stream_(fd, 1 << 20), left_(size) { restart(); }

  CodedInputStream& in() { return *in_; }
  std::uint64_t offset() const {
    return done_ + static_cast<std::uint64_t>(in_->CurrentPosition());
  }

  // The next field's tag, 0 at the clean end of the input; nullopt when it is malformed.
  std::optional<std::uint32_t> next_tag() {
    if (in_->CurrentPosition() > kRestartAfter) restart();
    const std::uint32_t tag = in_->ReadTag();
    if (tag != 0) return tag;
    if (offset() == total_) return 0u;
    return std::nullopt;
  }

 private:
  void restart() {
    if (in_) {
      const auto consumed = static_cast<std::uint64_t>(in_->CurrentPosition());
      done_ += consumed;
      left_ -= consumed;
      in_.reset();  // hands the unread buffer back to the stream
    } else {
      total_ = left_;
    }
    in_.emplace(&stream_);
    // Declared lengths past the end of the file are refused without allocating for them.
    in_->SetTotalBytesLimit(static_cast<int>(std::min<std::uint64_t>(left_, INT_MAX)));
  }

  google::protobuf::io::FileInputStream stream_;
  std::optional<CodedInputStream> in_;
  std::uint64_t done_ = 0, left_ = 0, total_ = 0;
};

bool is_events_tag(std::uint32_t tag) {
  return tag == WireFormatLite::MakeTag(kEventsField, WireFormatLite::WIRETYPE_LENGTH_DELIMITED);
}

}  // namespace

Expected<StreamSummary> stream_perf_data_proto(const std::filesystem::path& path,
                                               PerfDataVisitor& visitor,
                                               const InputLimits& limits) {
  const std::string file = path.string();
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return unexpected(perfdata::io_error(file, std::strerror(errno)));
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    return unexpected(perfdata::io_error(file, "not a regular file (cannot be read twice)"));
  }
  StreamSummary summary;
  summary.size_bytes = static_cast<std::uint64_t>(st.st_size);
  const auto bad = [&](std::uint64_t at) {
    return malformed(file,
                     fmt::format("not a binary PerfDataProto (bad field at byte offset {})", at));
  };
  // Pass 1: everything but the events, into one small message (pmucat_events included: records
  // quipper has no message for are few, and bounded with the rest by limits.file_bytes).
  std::string header_bytes;
  std::uint64_t events = 0;
  {
    FieldWalker walker(fd, summary.size_bytes);
    google::protobuf::io::StringOutputStream header_stream(&header_bytes);
    CodedOutputStream header_out(&header_stream);
    while (true) {
      const std::uint64_t at = walker.offset();
      const auto tag = walker.next_tag();
      if (!tag) return unexpected(bad(at));
      if (*tag == 0) break;
      if (is_events_tag(*tag)) {
        std::uint32_t length = 0;
        if (!walker.in().ReadVarint32(&length) || !walker.in().Skip(static_cast<int>(length))) {
          return unexpected(bad(at));
        }
        ++events;
        continue;
      }
      if (!WireFormatLite::SkipField(&walker.in(), *tag, &header_out)) return unexpected(bad(at));
      if (static_cast<std::uint64_t>(header_out.ByteCount()) > limits.file_bytes) {
        return unexpected(malformed(file, fmt::format("the fields besides the events exceed {}",
                                                      format_byte_size(limits.file_bytes))));
      }
    }
  }
  Proto proto;
  if (!proto.ParseFromString(header_bytes)) {
    return unexpected(malformed(file, "not a binary PerfDataProto"));
  }
  header_bytes.clear();
  header_bytes.shrink_to_fit();
  auto header = perfdata::header_from_proto(proto, file);
  if (!header) return unexpected(std::move(header).error());
  summary.header = std::move(*header);
  if (auto stop = visitor.begin(summary.header)) return unexpected(std::move(*stop));
  // Pass 2: the events, one at a time.
  if (::lseek(fd, 0, SEEK_SET) != 0)
    return unexpected(perfdata::io_error(file, std::strerror(errno)));
  FieldWalker walker(fd, summary.size_bytes);
  Proto::PerfEvent event;
  perfdata::PlacedEvents placed(proto, events);
  std::uint64_t event_index = 0;  // file order: the next event the visitor gets
  std::uint64_t proto_index = 0;  // events read so far
  std::int64_t previous = -1;     // file-order index of the last event read
  std::map<std::uint64_t, Record> pending;
  const auto take_placed = [&]() -> std::optional<Diagnostic> {
    for (auto p = placed.before(event_index); p; p = placed.before(event_index)) {
      const auto& ev = proto.pmucat_events(*p).event();
      auto record = perfdata::record_from_proto(
          ev, perfdata::attr_for_proto_event(ev, summary.header.events));
      if (!record) {
        return perfdata::event_error(file, "pmucat_events", static_cast<std::uint64_t>(*p),
                                     ev.header().type());
      }
      ++summary.records;
      if (auto stop = visitor.record(*record)) return stop;
    }
    return std::nullopt;
  };
  while (true) {
    const std::uint64_t at = walker.offset();
    const auto tag = walker.next_tag();
    if (!tag) return unexpected(bad(at));
    if (*tag == 0) {
      if (auto e = take_placed()) return unexpected(std::move(*e));
      break;
    }
    if (!is_events_tag(*tag)) {
      if (!WireFormatLite::SkipField(&walker.in(), *tag)) return unexpected(bad(at));
      continue;
    }
    std::uint32_t length = 0;
    if (!walker.in().ReadVarint32(&length)) return unexpected(bad(at));
    const auto limit = walker.in().PushLimit(static_cast<int>(length));
    event.Clear();
    if (!event.MergeFromCodedStream(&walker.in()) || !walker.in().ConsumedEntireMessage() ||
        walker.in().BytesUntilLimit() != 0) {
      return unexpected(bad(at));
    }
    walker.in().PopLimit(limit);
    // Events are in time order; they go to the visitor in file order, the ones that come
    // early held until their turn (a window as wide as the writer's sorting window).
    const std::int64_t skip = event.pmucat_order_skip();
    const auto index = perfdata::next_file_index(previous, skip, events);
    if (!index || *index < event_index || pending.count(*index) != 0) {
      return unexpected(perfdata::order_error(file, proto_index, skip, events));
    }
    previous = static_cast<std::int64_t>(*index);
    auto record = perfdata::record_from_proto(
        event, perfdata::attr_for_proto_event(event, summary.header.events));
    if (!record) {
      return unexpected(perfdata::event_error(file, "events", proto_index, event.header().type()));
    }
    ++proto_index;
    if (*index != event_index) {
      pending.emplace(*index, std::move(*record));
      continue;
    }
    if (auto e = take_placed()) return unexpected(std::move(*e));
    ++event_index;
    ++summary.records;
    if (auto stop = visitor.record(*record)) return unexpected(std::move(*stop));
    for (auto it = pending.begin(); it != pending.end() && it->first == event_index;
         it = pending.erase(it)) {
      if (auto e = take_placed()) return unexpected(std::move(*e));
      ++event_index;
      ++summary.records;
      if (auto stop = visitor.record(it->second)) return unexpected(std::move(*stop));
    }
  }
  // Indices are distinct and below the count of events, so none can be left waiting.
  if (!pending.empty()) {
    return unexpected(perfdata::order_error(file, proto_index, 0, events));
  }
  return summary;
}

PMUCAT_END_NAMESPACE
