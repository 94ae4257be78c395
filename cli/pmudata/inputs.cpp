// Input detection and output writing for pmudata.
#include "pmudata/inputs.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>

#include "pmucat/diagnostic_ids.h"
#include "pmucat/output_file.h"
#include "pmucat/perfdata_proto.h"

PMUCAT_BEGIN_NAMESPACE
namespace cli {

std::string_view to_string(DataFormat format) {
  switch (format) {
    case DataFormat::perf_file:
      return "perf.data (file mode)";
    case DataFormat::perf_pipe:
      return "perf.data (pipe mode)";
    case DataFormat::proto_binary:
      return "PerfDataProto (binary)";
    case DataFormat::proto_text:
      return "PerfDataProto (text)";
    case DataFormat::pprof:
      return "pprof profile";
  }
  return "?";
}

namespace {

Expected<PerfData> parse_proto(const InputImage& image, ProtoFormat format,
                               const std::filesystem::path& path) {
  const std::string_view text(reinterpret_cast<const char*>(image.bytes.data()),
                              image.bytes.size());
  return from_perf_data_proto(text, format, path.string());
}

Diagnostic io_diag(const std::filesystem::path& path, std::string message) {
  Diagnostic d;
  set_id(d, DiagId::perfdata_io);
  d.range.file = path.string();
  d.message = std::move(message);
  return d;
}

void count_records(LoadedData& loaded) {
  for (const auto& r : loaded.data.records) ++loaded.record_counts[record_type_name(r.type)];
  loaded.record_total = loaded.data.records.size();
}

enum class Streamable : std::uint8_t { no, perf_data, proto_binary };

// Whether `path` is a regular file this tool can stream, from its first bytes.
Streamable streamable(const std::filesystem::path& path, std::uint64_t* size) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    // A perf.data directory (perf record --threads): the reader walks data, then data.N.
    if (!std::filesystem::is_regular_file(path / "data", ec)) return Streamable::no;
    *size = 0;
    for (const auto& entry : std::filesystem::directory_iterator(path, ec)) {
      if (!entry.is_regular_file(ec)) continue;
      const auto bytes = entry.file_size(ec);
      if (!ec) *size += bytes;
    }
    return Streamable::perf_data;
  }
  // stat() before open(): opening a FIFO to look at it would pair with its writer and, closed
  // unread, take the stream from the reader that opens it next (it then sees no bytes, or waits
  // for a writer that has gone: seen under load in PmudataCli.EndlessStreamsAreRefusedEarly).
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return Streamable::no;
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return Streamable::no;
  char head[8] = {};
  const bool regular = ::fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
  const bool full = regular && ::pread(fd, head, 8, 0) == 8;
  ::close(fd);
  if (!full) return Streamable::no;
  *size = static_cast<std::uint64_t>(st.st_size);
  const std::string_view magic(head, 8);
  if (magic == "PERFILE2" || magic == "2ELIFREP") return Streamable::perf_data;
  bool text = true;
  for (char c : magic) {
    const auto u = static_cast<unsigned char>(c);
    text = text && (u >= 0x20 ? u != 0x7f : (u >= '\t' && u <= '\r'));
  }
  return text ? Streamable::no : Streamable::proto_binary;
}

// A perf.data whose header size is 16: pipe mode.
bool is_pipe_mode(const std::filesystem::path& path) {
  // Only a regular file is looked into (see above: a FIFO opened here loses its stream).
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return false;
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  unsigned char head[16] = {};
  const bool full = ::pread(fd, head, 16, 0) == 16;
  ::close(fd);
  return full && (head[8] == 16 || head[15] == 16);
}

// Counts records by type; those inside COMPRESSED records too (as "<TYPE> (compressed)").
class CountVisitor : public PerfDataVisitor {
 public:
  std::optional<Diagnostic> begin(const PerfData& header) override {
    other_endian_ = header.other_endian;
    return std::nullopt;
  }
  std::optional<Diagnostic> record(const Record& r) override { return record_view(r); }
  // Only the header is read: the payload stays in the reader's window (unless COMPRESSED).
  std::optional<Diagnostic> record_view(const RecordView& r) override {
    if (r.type < common_.size()) {
      ++common_[r.type];
    } else {
      ++others_[r.type];
    }
    if (is_compressed_record(r.type) && CompressedRecords::supported() && expandable_) {
      // A bad frame stops the expansion; `check` reports it.
      r.copy_to(compressed_record_);
      expandable_ =
          !compressed_.expand(compressed_record_, other_endian_,
                              [this](const Record& inner) { ++inner_counts[inner.type]; });
    }
    return std::nullopt;
  }
  std::optional<Diagnostic> record_views(std::span<const RecordView> views) override {
    for (const auto& r : views) {
      if (r.type < common_.size() && !is_compressed_record(r.type)) {
        ++common_[r.type];
      } else {
        record_view(r);
      }
    }
    return std::nullopt;
  }
  // Records by type.
  std::map<std::uint32_t, std::uint64_t> counts() const {
    auto out = others_;
    for (std::uint32_t type = 0; type < common_.size(); ++type) {
      if (common_[type] != 0) out[type] += common_[type];
    }
    return out;
  }
  std::map<std::uint32_t, std::uint64_t> inner_counts;

 private:
  std::array<std::uint64_t, 128> common_{};  // every type perf defines is below 128
  std::map<std::uint32_t, std::uint64_t> others_;
  Record compressed_record_;  // the COMPRESSED record being expanded
  CompressedRecords compressed_;
  bool other_endian_ = false;
  bool expandable_ = true;
};

// Writes records as they come to the output `format` chose; created at begin().
class ConvertVisitor : public PerfDataVisitor {
 public:
  ConvertVisitor(std::filesystem::path output, std::optional<DataFormat> to)
      : output_(std::move(output)), to_(to) {}

  std::optional<Diagnostic> begin(const PerfData& header) override {
    // A proto describing nothing is refused by the in-memory path, with its message.
    if (header.events.empty()) return restart();
    format_ = to_ ? *to_ : format_for_path(output_, header.mode);
    if (format_ == DataFormat::proto_binary) {
      auto writer = PerfDataProtoWriter::create(output_, header);
      if (!writer) return std::move(writer).error();
      proto_.emplace(std::move(*writer));
      return std::nullopt;
    }
    if (header.other_endian) {
      return io_diag(output_,
                     "cannot write a model read from an other-endian file (its "
                     "records are kept in that byte order)");
    }
    WriterOptions options = options_like(header);
    const PerfDataMode mode =
        format_ == DataFormat::perf_pipe ? PerfDataMode::pipe : PerfDataMode::file;
    if (mode != header.mode) options.pipe_end_marker = feature::last;
    options.mode = mode;
    auto writer = PerfDataWriter::create(output_, header.events, header.features, options);
    if (!writer) return std::move(writer).error();
    perf_.emplace(std::move(*writer));
    return std::nullopt;
  }
  // Into a proto the records inside COMPRESSED records are written instead of it (samples
  // stay samples); into a perf.data COMPRESSED records are copied as they are.
  // perf.data to perf.data copies the bytes from the reader's window; a proto record is built
  // from a Record.
  std::optional<Diagnostic> record_views(std::span<const RecordView> views) override {
    for (const auto& r : views) {
      if (auto error = proto_ ? record_view(r) : perf_->write(r)) return error;
    }
    return std::nullopt;
  }
  std::optional<Diagnostic> record_view(const RecordView& r) override {
    if (!proto_) return perf_->write(r);
    r.copy_to(scratch_);
    return record(scratch_);
  }
  std::optional<Diagnostic> record(const Record& r) override {
    if (!proto_) return perf_->write(r);
    if (!is_compressed_record(r.type) || !CompressedRecords::supported()) {
      return proto_->write(r);
    }
    std::optional<Diagnostic> error;
    if (auto bad = compressed_.expand(r, false, [&](const Record& inner) {
          if (!error) error = proto_->write(inner);
        })) {
      return io_diag(output_, fmt::format("{} record at byte offset {}: {}",
                                          record_type_name(r.type), r.file_offset, *bad));
    }
    return error;
  }
  // An attr or feature after the records: the in-memory path places it.
  std::optional<Diagnostic> header_changed(const PerfData&) override { return restart(); }

  std::optional<Diagnostic> finish(const PerfData& header) {
    if (proto_) return proto_->finish(header);
    return perf_->finish();
  }
  bool restarted() const { return restart_; }
  void drop() {
    proto_.reset();
    perf_.reset();
  }

 private:
  Diagnostic restart() {
    restart_ = true;
    Diagnostic d;
    d.message = "restart in memory";
    return d;
  }
  std::filesystem::path output_;
  std::optional<DataFormat> to_;
  DataFormat format_ = DataFormat::perf_file;
  std::optional<PerfDataProtoWriter> proto_;
  std::optional<PerfDataWriter> perf_;
  CompressedRecords compressed_;
  Record scratch_;
  bool restart_ = false;
};

// Feeds the records to a PprofBuilder as they come.
class PprofVisitor : public PerfDataVisitor {
 public:
  explicit PprofVisitor(std::filesystem::path output) : output_(std::move(output)) {}
  std::optional<Diagnostic> begin(const PerfData& header) override {
    if (header.other_endian) {
      return io_diag(output_, "cannot convert an other-endian file to pprof");
    }
    builder_.emplace(header);
    return std::nullopt;
  }
  std::optional<Diagnostic> record(const Record& r) override {
    builder_->add(r);
    return std::nullopt;
  }
  // A pipe-mode attr after the records: the in-memory path sees every event first.
  std::optional<Diagnostic> header_changed(const PerfData&) override {
    restarted_ = true;
    Diagnostic d;
    d.message = "restart in memory";
    return d;
  }
  Expected<std::string> finish() { return builder_->finish(); }
  bool restarted() const { return restarted_; }

 private:
  std::filesystem::path output_;
  std::optional<PprofBuilder> builder_;
  bool restarted_ = false;
};

// perf.data (streamed when a regular file) or a PerfDataProto (in memory) to pprof.
std::optional<Diagnostic> convert_to_pprof(const std::filesystem::path& input,
                                           const std::filesystem::path& output,
                                           const InputLimits& limits) {
  std::uint64_t size = 0;
  if (streamable(input, &size) == Streamable::perf_data) {
    PprofVisitor visitor(output);
    auto summary = stream_perf_data(input, visitor, limits);
    if (summary) {
      auto bytes = visitor.finish();
      if (!bytes) return std::move(bytes).error();
      return write_output_file(output, *bytes);
    }
    if (!visitor.restarted()) return std::move(summary).error();
  }
  auto loaded = load_data(input, limits);
  if (!loaded) return std::move(loaded).error();
  return save_data(output, loaded->data, DataFormat::pprof);
}

Diagnostic too_big_for_text(const std::filesystem::path& path, std::uint64_t size,
                            std::uint64_t limit) {
  Diagnostic d = io_diag(path, "");
  set_id(d, DiagId::perfdata_malformed);
  d.message = fmt::format(
      "{} is {}: a .pbtxt is built in memory and refused over {} (use .pb, "
      "which is streamed, or raise --max-input-size)",
      path.string(), format_byte_size(size), format_byte_size(limit));
  return d;
}

}  // namespace

Expected<LoadedData> load_summary(const std::filesystem::path& path, const InputLimits& limits) {
  std::uint64_t size = 0;
  const Streamable kind = streamable(path, &size);
  if (kind == Streamable::no) return load_data(path, limits);
  CountVisitor counter;
  auto summary = kind == Streamable::perf_data ? stream_perf_data(path, counter, limits)
                                               : stream_perf_data_proto(path, counter, limits);
  if (!summary) {
    // The in-memory path tells a text proto from a binary one and gives its own message.
    if (kind == Streamable::proto_binary && size <= limits.file_bytes) {
      return load_data(path, limits);
    }
    return unexpected(std::move(summary).error());
  }
  LoadedData loaded;
  loaded.data = std::move(summary->header);
  loaded.size_bytes = summary->size_bytes;
  if (kind == Streamable::proto_binary) {
    if (loaded.data.events.empty() && summary->records == 0) return load_data(path, limits);
    loaded.format = DataFormat::proto_binary;
  } else {
    loaded.format =
        loaded.data.mode == PerfDataMode::pipe ? DataFormat::perf_pipe : DataFormat::perf_file;
  }
  for (const auto& [type, n] : counter.counts()) loaded.record_counts[record_type_name(type)] += n;
  for (const auto& [type, n] : counter.inner_counts) {
    loaded.record_counts[record_type_name(type) + " (compressed)"] += n;
  }
  loaded.record_total = summary->records;
  return loaded;
}

std::optional<Diagnostic> convert_data(const std::filesystem::path& input,
                                       const std::filesystem::path& output,
                                       std::optional<DataFormat> to, const InputLimits& limits,
                                       std::uint64_t text_limit) {
  if ((to ? *to : format_for_path(output, PerfDataMode::file)) == DataFormat::pprof) {
    return convert_to_pprof(input, output, limits);
  }
  std::uint64_t size = 0;
  const Streamable kind = streamable(input, &size);
  const bool text_out =
      (to && *to == DataFormat::proto_text) ||
      (!to && format_for_path(output, PerfDataMode::file) == DataFormat::proto_text);
  // Into a stream (standard output, a FIFO) nothing can be taken back: a pipe-mode input,
  // whose late attrs would make the streamed output start over, is read whole there, and a
  // streaming error is final.
  std::error_code ec;
  const bool stream_out = output == "-" || (std::filesystem::exists(output, ec) &&
                                            !std::filesystem::is_regular_file(output, ec));
  const bool pipe_in = kind == Streamable::perf_data && is_pipe_mode(input);
  if (kind != Streamable::no && !text_out &&
      !(stream_out && pipe_in && size <= limits.file_bytes)) {
    ConvertVisitor visitor(output, to);
    auto summary = kind == Streamable::perf_data ? stream_perf_data(input, visitor, limits)
                                                 : stream_perf_data_proto(input, visitor, limits);
    if (summary) return visitor.finish(summary->header);
    visitor.drop();  // removes the unfinished output
    const bool retry =
        !stream_out &&
        (visitor.restarted() || (kind == Streamable::proto_binary && size <= limits.file_bytes));
    if (!retry) return std::move(summary).error();
  }
  // In memory: a .pbtxt on either side, an input that is not a regular file, or a file whose
  // header records come after its records.
  InputLimits memory = limits;
  if (text_out || kind == Streamable::no) {
    if (kind != Streamable::no && size > text_limit && text_out) {
      return too_big_for_text(input, size, text_limit);
    }
  }
  auto loaded = load_data(input, memory);
  if (!loaded) return std::move(loaded).error();
  if (loaded->format == DataFormat::proto_text && loaded->size_bytes > text_limit) {
    return too_big_for_text(input, loaded->size_bytes, text_limit);
  }
  const DataFormat format = to ? *to : format_for_path(output, loaded->data.mode);
  return save_data(output, loaded->data, format);
}

Expected<LoadedData> load_data(const std::filesystem::path& path, const InputLimits& limits) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec) &&
      std::filesystem::is_regular_file(path / "data", ec)) {
    // A perf.data directory (perf record --threads), read as one file.
    auto data = read_perf_data(path);
    if (!data) return unexpected(std::move(data).error());
    LoadedData loaded;
    for (const auto& entry : std::filesystem::directory_iterator(path, ec)) {
      if (!entry.is_regular_file(ec)) continue;
      const auto bytes = entry.file_size(ec);
      if (!ec) loaded.size_bytes += bytes;
    }
    loaded.format = DataFormat::perf_file;
    loaded.data = std::move(*data);
    count_records(loaded);
    return loaded;
  }
  auto image = read_input(path, limits);
  if (!image) return unexpected(std::move(image).error());
  LoadedData loaded;
  loaded.size_bytes = image->bytes.size();
  if (image->kind == InputKind::perf_data) {
    auto data = parse_perf_data(image->bytes, path.string());
    if (!data) return unexpected(std::move(data).error());
    loaded.format =
        data->mode == PerfDataMode::pipe ? DataFormat::perf_pipe : DataFormat::perf_file;
    loaded.data = std::move(*data);
    count_records(loaded);
    return loaded;
  }
  // The first bytes say which proto encoding is more plausible; its error is the one reported
  // when the other encoding does not parse either.
  const bool binary_first = image->kind == InputKind::proto_binary;
  const ProtoFormat first = binary_first ? ProtoFormat::binary : ProtoFormat::text;
  const ProtoFormat second = binary_first ? ProtoFormat::text : ProtoFormat::binary;
  auto data = parse_proto(*image, first, path);
  ProtoFormat format = first;
  if (!data) {
    auto other = parse_proto(*image, second, path);
    if (!other) return unexpected(std::move(data).error());
    data = std::move(other);
    format = second;
  }
  if (data->events.empty() && data->records.empty()) {
    Diagnostic d;
    set_id(d, DiagId::perfdata_malformed);
    d.range.file = path.string();
    d.message = "a PerfDataProto with no events and no records";
    return unexpected(std::move(d));
  }
  loaded.format = format == ProtoFormat::binary ? DataFormat::proto_binary : DataFormat::proto_text;
  loaded.data = std::move(*data);
  count_records(loaded);
  return loaded;
}

int exit_status_for(const Diagnostic& error) {
  return error.code == DiagId::perfdata_io ? 2 : 1;
}

std::optional<DataFormat> parse_format(std::string_view name) {
  if (name == "perf" || name == "file") return DataFormat::perf_file;
  if (name == "pipe") return DataFormat::perf_pipe;
  if (name == "pb") return DataFormat::proto_binary;
  if (name == "pbtxt") return DataFormat::proto_text;
  if (name == "pprof") return DataFormat::pprof;
  return std::nullopt;
}

DataFormat format_for_path(const std::filesystem::path& path, PerfDataMode perf_mode) {
  const auto ext = path.extension().string();
  if (ext == ".pb") return DataFormat::proto_binary;
  if (ext == ".pbtxt" || ext == ".textproto") return DataFormat::proto_text;
  if (ext == ".pprof") return DataFormat::pprof;
  return perf_mode == PerfDataMode::pipe ? DataFormat::perf_pipe : DataFormat::perf_file;
}

std::optional<Diagnostic> save_data(const std::filesystem::path& path, const PerfData& data,
                                    DataFormat format) {
  if (format == DataFormat::perf_file || format == DataFormat::perf_pipe) {
    WriterOptions options = options_like(data);
    const PerfDataMode mode =
        format == DataFormat::perf_pipe ? PerfDataMode::pipe : PerfDataMode::file;
    if (mode != data.mode) options.pipe_end_marker = feature::last;
    options.mode = mode;
    return write_perf_data(path, data, options);
  }
  auto bytes =
      format == DataFormat::pprof
          ? to_pprof(data)
          : to_perf_data_proto(
                data, format == DataFormat::proto_binary ? ProtoFormat::binary : ProtoFormat::text);
  if (!bytes) return std::move(bytes).error();
  // Same rules as the perf.data writer: a regular file is replaced atomically, a FIFO,
  // device or "-" is streamed into.
  return write_output_file(path, *bytes);
}

}  // namespace cli
PMUCAT_END_NAMESPACE
