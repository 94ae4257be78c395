// perf.data files: a lossless in-memory model, a bounds-checked reader (file and pipe mode, any
// attr size 64..136, either byte order) and a streaming writer that perf 6.1 reads.
//
// Records and feature sections are kept as raw payload bytes (in the file's byte order), so
// whatever this library does not understand survives a read -> write unchanged. Typed views
// are built from and into those bytes by the headers beside this one: perfdata_records.h
// (samples, COMM, MMAP ...), perfdata_features.h (feature payloads), perfdata_host.h (this
// host's metadata features). perfdata_proto.h converts to and from quipper's PerfDataProto;
// perfdata_events.h writes encoded events as a perf.data.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "pmucat/attr.h"
#include "pmucat/diagnostic.h"
#include "pmucat/expected.h"
#include "pmucat/version.h"

PMUCAT_BEGIN_NAMESPACE

// Record types (perf_event_header.type): kernel ones below 64, perf-tool ones from 64.
namespace record_type {
inline constexpr std::uint32_t mmap = 1, lost = 2, comm = 3, exit = 4, throttle = 5, unthrottle = 6,
                               fork = 7, read = 8, sample = 9, mmap2 = 10, aux = 11,
                               itrace_start = 12, lost_samples = 13, switch_ = 14,
                               switch_cpu_wide = 15, namespaces = 16, ksymbol = 17, bpf_event = 18,
                               cgroup = 19, text_poke = 20, aux_output_hw_id = 21, header_attr = 64,
                               header_event_type = 65, header_tracing_data = 66,
                               header_build_id = 67, finished_round = 68, id_index = 69,
                               auxtrace_info = 70, auxtrace = 71, auxtrace_error = 72,
                               thread_map = 73, cpu_map = 74, stat_config = 75, stat = 76,
                               stat_round = 77, event_update = 78, time_conv = 79,
                               header_feature = 80, compressed = 81, finished_init = 82,
                               compressed2 = 83;
}  // namespace record_type

// Feature section ids (bits of perf_file_header.adds_features), perf 6.1 numbering.
namespace feature {
inline constexpr std::uint32_t tracing_data = 1, build_id = 2, hostname = 3, osrelease = 4,
                               version = 5, arch = 6, nrcpus = 7, cpudesc = 8, cpuid = 9,
                               total_mem = 10, cmdline = 11, event_desc = 12, cpu_topology = 13,
                               numa_topology = 14, branch_stack = 15, pmu_mappings = 16,
                               group_desc = 17, auxtrace = 18, stat = 19, cache = 20,
                               sample_time = 21, mem_topology = 22, clockid = 23, dir_format = 24,
                               bpf_prog_info = 25, bpf_btf = 26, compressed = 27, cpu_pmu_caps = 28,
                               clock_data = 29, hybrid_topology = 30, pmu_caps = 31, last = 32;
}  // namespace feature

// "SAMPLE", "MMAP2", "FINISHED_ROUND" ...; "UNKNOWN(<n>)" for others.
std::string record_type_name(std::uint32_t type);
// "HOSTNAME", "EVENT_DESC" ...; "FEATURE(<n>)" for others.
std::string feature_name(std::uint32_t id);

enum class PerfDataMode : std::uint8_t { file, pipe };

// One event: its attr, the sample ids the kernel gave its fds, and its name (EVENT_DESC).
struct PerfEventEntry {
  Attr attr;
  std::vector<std::uint64_t> ids;
  std::string name;  // empty when the file names none
  friend bool operator==(const PerfEventEntry&, const PerfEventEntry&) = default;
};

// One record of the data stream. `payload` is what follows the 8-byte perf_event_header
// (header.size - 8 bytes); `trailer` is data perf places after the record outside header.size
// (PERF_RECORD_AUXTRACE data, pipe-mode HEADER_TRACING_DATA blob), empty otherwise.
struct Record {
  std::uint32_t type = 0;
  std::uint16_t misc = 0;
  std::vector<std::byte> payload;
  std::vector<std::byte> trailer;
  std::uint64_t file_offset = 0;  // where the reader found it; ignored by writers and ==
  std::uint32_t size() const { return static_cast<std::uint32_t>(8 + payload.size()); }
  friend bool operator==(const Record& a, const Record& b) {
    return a.type == b.type && a.misc == b.misc && a.payload == b.payload && a.trailer == b.trailer;
  }
};

// Pipe mode: one HEADER_ATTR or HEADER_FEATURE record perf wrote before the first other record,
// in the order perf wrote them (perf <= 4.x writes the features first, later perf the attrs), so
// that a rewrite puts them back where they were: `perf evlist` stops at the first FEATURE record
// and sees only the attrs before it.
struct PipeHeaderRecord {
  enum class Kind : std::uint8_t { attr, feature, end_marker };
  Kind kind = Kind::attr;
  // attr: the index into PerfData::events; feature: the feature id; end_marker: its id.
  std::uint64_t id = 0;
  std::uint16_t misc = 0;  // the record header's misc field (perf leaves it uninitialised)
  friend bool operator==(const PipeHeaderRecord&, const PipeHeaderRecord&) = default;
};

// A record where the streaming reader found it: the bytes are those of its read window and stay
// valid only while the visitor's record_view() runs (copy_to() keeps them).
struct RecordView {
  std::uint32_t type = 0;
  std::uint16_t misc = 0;
  std::span<const std::byte> payload;
  std::span<const std::byte> trailer;
  std::uint64_t file_offset = 0;
  RecordView() = default;
  // NOLINTNEXTLINE(google-explicit-constructor): a Record is always viewable
  RecordView(const Record& r)
      : type(r.type),
        misc(r.misc),
        payload(r.payload),
        trailer(r.trailer),
        file_offset(r.file_offset) {}
  std::uint32_t size() const { return static_cast<std::uint32_t>(8 + payload.size()); }
  // Into `out`, reusing its buffers.
  void copy_to(Record& out) const {
    out.type = type;
    out.misc = misc;
    out.payload.assign(payload.begin(), payload.end());
    out.trailer.assign(trailer.begin(), trailer.end());
    out.file_offset = file_offset;
  }
};

// A whole perf.data file. Feature payloads are raw bytes keyed by feature id.
inline constexpr std::uint32_t kMaxFeatureGap = 16 * 256;

struct PerfData {
  PerfDataMode mode = PerfDataMode::file;
  bool other_endian = false;  // as read; record/feature bytes are then big-endian
  std::vector<PerfEventEntry> events;
  std::vector<Record> records;
  std::map<std::uint32_t, std::vector<std::byte>> features;
  // Pipe mode: perf >= 5.x ends its HEADER_FEATURE records with one carrying this id and no
  // payload (HEADER_LAST_FEATURE); kept so a rewrite reproduces it.
  std::optional<std::uint64_t> pipe_end_marker;
  // Pipe mode: where the header records were, as read; empty when that is where a writer puts
  // them anyway (attrs, features by id, the end marker, misc 0), and for file mode.
  std::vector<PipeHeaderRecord> pipe_header;
  // File mode: zero bytes between the feature index and the first feature payload. perf record
  // sizes the index for the features it means to write and leaves the slots of those whose
  // writer failed zeroed at its end (16 bytes each, so at most kMaxFeatureGap).
  std::uint32_t feature_gap = 0;
  friend bool operator==(const PerfData&, const PerfData&) = default;
};

// ---- reading ---------------------------------------------------------------------------------

// Parses a perf.data image. Every size and offset is checked against the image: a truncated or
// hostile file gives a diagnostic naming the byte offset of the problem (`file` names it).
Expected<PerfData> parse_perf_data(std::span<const std::byte> image, std::string_view file);

// Reads and parses `path` ("-" is not special: pass a path), through read_input with the
// default limit. A perf record --threads directory (DIR/data plus DIR/data.N) is read as one
// file: the records of data, then of data.0, data.1 ... in number order, DIR_FORMAT dropped.
Expected<PerfData> read_perf_data(const std::filesystem::path& path);

// ---- bounded input ----------------------------------------------------------------------------

// Inputs are read whole into memory (streaming is a later step), so their size is capped. A
// regular file's size is known before anything is read: 1 GiB by default, any perf.data a
// workstation records in minutes. A pipe, FIFO or device may never end, so it gets a cap small
// enough that an endless one is refused in well under a second and 64 MiB of memory.
struct InputLimits {
  std::uint64_t file_bytes = std::uint64_t{1} << 30;
  std::uint64_t stream_bytes = std::uint64_t{32} << 20;
  // The same cap for both (a user's --max-input-size).
  static InputLimits uniform(std::uint64_t bytes) { return {bytes, bytes}; }
};

enum class InputKind : std::uint8_t { perf_data, proto_binary, proto_text };

struct InputImage {
  std::vector<std::byte> bytes;
  InputKind kind = InputKind::perf_data;  // decided from the first 8 bytes
};

// Reads `path` (a file, FIFO, character device ...) into memory. The kind is decided from the
// first bytes and the framing (pipe-mode record sizes, protobuf keys and lengths, text bytes)
// is followed while reading, so an input that cannot be valid is refused when its first bad
// frame arrives; nothing beyond the limit for its kind of file is ever read or allocated. Refused
// (id "perfdata-malformed"): fewer than 8 bytes, unknown first bytes, a bad frame, more than the
// limit. I/O errors and directories (id "perfdata-io") name the path and the reason.
Expected<InputImage> read_input(const std::filesystem::path& path, const InputLimits& limits = {});

// "1 GiB", "16 MiB", "100 bytes": as limits are shown in messages.
std::string format_byte_size(std::uint64_t bytes);
// "1073741824", "512K", "16M", "1G" (also KiB/MiB/GiB); nullopt when malformed or too large.
std::optional<std::uint64_t> parse_byte_size(std::string_view text);

// Every structural problem of an image (not only the first), each with its byte offset in the
// message. Empty when parse_perf_data would accept the file and nothing looks off.
std::vector<Diagnostic> check_perf_data(std::span<const std::byte> image, std::string_view file);
// The same check on a file streamed record by record (stream_perf_data): memory bounded
// independently of its size. An input that cannot be read gives its one diagnostic.
std::vector<Diagnostic> check_perf_data_file(const std::filesystem::path& path,
                                             const InputLimits& limits = {});

// ---- streaming ------------------------------------------------------------------------------

// Receives a perf.data record by record (stream_perf_data); any diagnostic returned stops the
// walk and becomes its result.
class PerfDataVisitor {
 public:
  virtual ~PerfDataVisitor() = default;
  // Called once, before the first record: `header` holds the mode, the events (named) and the
  // features; its records are empty. File mode: every event and feature. Pipe mode: the attr and
  // feature records before the first other record (where perf writes them).
  virtual std::optional<Diagnostic> begin(const PerfData& header) = 0;
  // One record; `record` is reused for the next one (copy what must be kept).
  virtual std::optional<Diagnostic> record(const Record& record) = 0;
  // One record as a view into the reader's window (stream_perf_data hands most records this
  // way, without copying them): a visitor that needs only some of the bytes overrides it, and
  // then its record() should do the same for a Record. The default copies the record into a
  // Record and calls record().
  virtual std::optional<Diagnostic> record_view(const RecordView& view) {
    view.copy_to(scratch_);
    return record(scratch_);
  }
  // Several records in file order, as views: stream_perf_data hands the records lying whole in
  // its window in batches (one call for up to a few hundred). The default calls record_view()
  // for each, up to the first diagnostic.
  virtual std::optional<Diagnostic> record_views(std::span<const RecordView> views) {
    for (const auto& view : views) {
      if (auto stop = record_view(view)) return stop;
    }
    return std::nullopt;
  }
  // Pipe mode: an attr or feature record came after the first other record.
  virtual std::optional<Diagnostic> header_changed(const PerfData& header) {
    (void)header;
    return std::nullopt;
  }

 private:
  Record scratch_;  // record_view()'s copy
};

struct StreamSummary {
  PerfData header;  // as at the end of the input (records empty)
  std::uint64_t size_bytes = 0;
  std::uint64_t records = 0;
};

// Walks `path` record by record in memory bounded independently of its size: a regular file is
// read through a 1 MiB window (a record is at most 64 KiB; an AUXTRACE trailer is read whole,
// bounded by the bytes present), never mapped or read whole. Other inputs (FIFO, device) are
// read whole through read_input with `limits`. The same checks as parse_perf_data. A perf
// record --threads directory is walked as read_perf_data reads it (one window at a time).
Expected<StreamSummary> stream_perf_data(const std::filesystem::path& path,
                                         PerfDataVisitor& visitor, const InputLimits& limits = {});

// COMPRESSED (81) or COMPRESSED2 (83, newer perf: a u64 data_size before the zstd bytes and the
// record padded to 8 bytes).
inline bool is_compressed_record(std::uint32_t type) {
  return type == record_type::compressed || type == record_type::compressed2;
}

// The records inside COMPRESSED records (perf record -z, PERF_RECORD_COMPRESSED): one zstd
// stream runs through all of a file's COMPRESSED records, in order, and a record may continue
// in the next one, so one CompressedRecords serves a whole file. Memory: one record and a
// 128 KiB chunk.
class CompressedRecords {
 public:
  CompressedRecords();
  CompressedRecords(CompressedRecords&&) noexcept;
  CompressedRecords& operator=(CompressedRecords&&) noexcept;
  ~CompressedRecords();
  // Built with zstd (Debian libzstd-dev); without it expand() always fails.
  static bool supported();
  // Decompresses one COMPRESSED or COMPRESSED2 record (both kinds may share the stream), calling
  // `emit` for each record it completes (its file_offset is the COMPRESSED record's). A message on
  // a bad zstd frame or record.
  std::optional<std::string> expand(const Record& compressed, bool other_endian,
                                    const std::function<void(const Record&)>& emit);

 private:
  struct State;
  std::unique_ptr<State> state_;
};

// ---- writing ---------------------------------------------------------------------------------

struct WriterOptions {
  PerfDataMode mode = PerfDataMode::file;
  // attr.size written for every event. 128 (VER7) is what perf <= 6.2 accepts in file mode;
  // 136 (VER8) carries config3, 144 (VER9) config4. An event whose fields do not fit this size is
  // an error.
  std::uint32_t attr_size = kAttrSizeVer7;
  // Pipe mode: end the HEADER_FEATURE records with this id (perf 6.1 writes feature::last).
  std::optional<std::uint64_t> pipe_end_marker = feature::last;
  // Pipe mode: the order of the header records (PerfData::pipe_header). Entries naming an attr,
  // feature or marker that is not written are skipped; what the order leaves out follows it
  // (attrs, then features by id, then the end marker).
  std::vector<PipeHeaderRecord> pipe_header;
  // File mode: zero bytes written after the feature index (PerfData::feature_gap; at most
  // kMaxFeatureGap).
  std::uint32_t feature_gap = 0;
};

// Checks that `attr` survives being written with `attr_size` bytes (no config3 or other field
// lost, no reserved flag bits); the diagnostic names the field.
std::optional<Diagnostic> check_attr_fits(const Attr& attr, std::uint32_t attr_size,
                                          std::string_view event_name);

// Streams a perf.data file: records are written as they come (memory does not grow with their
// number). `path` is opened as an OutputFile (pmucat/output_file.h): a regular file is written
// as a temporary beside it that finish() renames into place (destroying an unfinished writer
// removes it, so a failed write leaves no file behind, and the temporary's header stays zeroed
// until the last write, so it never reads as a valid perf.data); a FIFO, device, socket or
// standard output ("-") is streamed into, in pipe mode whatever the options say.
class PerfDataWriter {
 public:
  // Validates the events (attr sizes, ids) and writes everything that precedes the records:
  // in file mode the ids and attrs, in pipe mode the header, attr and feature records (so pipe
  // mode needs the features now; file mode also accepts them in finish()).
  static Expected<PerfDataWriter> create(const std::filesystem::path& path,
                                         std::vector<PerfEventEntry> events,
                                         std::map<std::uint32_t, std::vector<std::byte>> features,
                                         const WriterOptions& options = {});
  PerfDataWriter(PerfDataWriter&&) noexcept;
  PerfDataWriter& operator=(PerfDataWriter&&) noexcept;
  ~PerfDataWriter();

  // Appends one record (payload must keep the record 8-byte aligned, as perf's are).
  std::optional<Diagnostic> write(const Record& record);
  std::optional<Diagnostic> write(const RecordView& record);
  // Pipe mode cannot add features after the records; file mode merges these in.
  std::optional<Diagnostic> add_feature(std::uint32_t id, std::vector<std::byte> payload);
  // Writes the feature sections and the final header, flushes, renames into place.
  std::optional<Diagnostic> finish();

  // The mode being written: pipe when the options said so or the target is a stream.
  PerfDataMode mode() const;
  std::uint64_t records_written() const;
  std::uint64_t bytes_written() const;

 private:
  struct State;
  explicit PerfDataWriter(std::unique_ptr<State> state);
  std::unique_ptr<State> state_;
};

// Writes a whole model (its records in order) with `options`; a model read from another-endian
// file cannot be written (its raw records would be misread).
std::optional<Diagnostic> write_perf_data(const std::filesystem::path& path, const PerfData& data,
                                          const WriterOptions& options);

// The options that reproduce `data`'s own layout (mode, attr size, pipe end marker and header
// record order).
WriterOptions options_like(const PerfData& data);

PMUCAT_END_NAMESPACE
