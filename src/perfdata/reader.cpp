// perf.data parser: file and pipe mode, either byte order, every size and offset checked.
#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <deque>

#include "perfdata/bytes.h"
#include "perfdata/problems.h"
#include "perfdata/record_framing.h"
#include "pmucat/perfdata.h"
#include "pmucat/perfdata_features.h"

PMUCAT_BEGIN_NAMESPACE
namespace {

using perfdata::ByteReader;
using perfdata::ByteWriter;
using perfdata::Problems;

constexpr std::uint64_t kMagic = 0x32454c4946524550ull;  // "PERFILE2" read little-endian
constexpr std::uint64_t kFileHeaderSize = 104;
constexpr std::uint64_t kOldFileHeaderSize = 72;  // before adds_features existed
constexpr std::uint64_t kPipeHeaderSize = 16;

struct Section {
  std::uint64_t offset = 0, size = 0;
};

// The parts of a perf.data outside its records: an image in memory, or a file whose pieces
// (header, attrs, ids, feature sections) are read when asked for, within a byte budget.
class Image {
 public:
  explicit Image(std::span<const std::byte> bytes) : mem_(bytes), size_(bytes.size()) {}
  Image(int fd, std::uint64_t size, std::uint64_t budget) : fd_(fd), size_(size), budget_(budget) {}

  std::uint64_t size() const { return size_; }
  bool in_memory() const { return fd_ < 0; }
  std::span<const std::byte> memory() const { return mem_; }
  int fd() const { return fd_; }
  const std::string& error() const { return error_; }

  // [offset, offset + n), which the caller checked lies inside the file; nullopt on an I/O
  // error or when the pieces read so far exceed the budget (error() says which).
  std::optional<std::span<const std::byte>> slice(std::uint64_t offset, std::uint64_t n) {
    if (offset > size_ || n > size_ - offset) {
      error_ = fmt::format("[{}, +{}) lies outside the {}-byte file", offset, n, size_);
      return std::nullopt;
    }
    if (in_memory()) {
      return mem_.subspan(static_cast<std::size_t>(offset), static_cast<std::size_t>(n));
    }
    if (n > budget_ - used_) {
      error_ = fmt::format("the header sections exceed {} of memory", format_byte_size(budget_));
      return std::nullopt;
    }
    used_ += n;
    auto& piece = pieces_.emplace_back(static_cast<std::size_t>(n));
    std::uint64_t done = 0;
    while (done < n) {
      const auto got = ::pread(fd_, piece.data() + done, static_cast<std::size_t>(n - done),
                               static_cast<off_t>(offset + done));
      if (got < 0 && errno == EINTR) continue;
      if (got <= 0) {
        error_ = got < 0 ? std::string(std::strerror(errno)) : "the file shrank while read";
        return std::nullopt;
      }
      done += static_cast<std::uint64_t>(got);
    }
    return std::span<const std::byte>(piece);
  }

 private:
  std::span<const std::byte> mem_;
  int fd_ = -1;
  std::uint64_t size_ = 0;
  std::uint64_t budget_ = 0, used_ = 0;
  std::deque<std::vector<std::byte>> pieces_;
  std::string error_;
};

// The record stream [begin, end) of an image or a file, handed out in pieces that stay valid
// until the next take(). A file is read through a window of kWindow bytes; a piece larger
// than that (an AUXTRACE trailer) gets its own buffer, bounded by the bytes present.
class RecordWindow {
 public:
  static constexpr std::size_t kWindow = std::size_t{1} << 20;

  RecordWindow(std::span<const std::byte> bytes, std::uint64_t base)
      : mem_(bytes), begin_(base), pos_(base), end_(base + bytes.size()) {}
  RecordWindow(int fd, std::uint64_t begin, std::uint64_t end)
      : fd_(fd), begin_(begin), pos_(begin), end_(end), buffer_(kWindow) {}

  std::uint64_t offset() const { return pos_; }
  std::uint64_t remaining() const { return end_ - pos_; }
  const std::string& error() const { return error_; }

  // The bytes already in the window from offset() on (all the rest, in memory): records that
  // lie whole inside it are walked in place, then skip()ped.
  std::span<const std::byte> available() const {
    if (fd_ < 0) return mem_.subspan(static_cast<std::size_t>(pos_ - begin_));
    return std::span<const std::byte>(buffer_).subspan(buffer_pos_, buffer_len_ - buffer_pos_);
  }
  // n <= available().size().
  void skip(std::size_t n) {
    if (fd_ >= 0) buffer_pos_ += n;
    pos_ += n;
  }

  std::optional<std::span<const std::byte>> take(std::uint64_t n) {
    if (n > remaining()) return std::nullopt;
    if (fd_ < 0) {
      auto out = mem_.subspan(static_cast<std::size_t>(pos_ - begin_), static_cast<std::size_t>(n));
      pos_ += n;
      return out;
    }
    const std::size_t have = buffer_len_ - buffer_pos_;
    if (n <= have) {
      auto out =
          std::span<const std::byte>(buffer_).subspan(buffer_pos_, static_cast<std::size_t>(n));
      buffer_pos_ += static_cast<std::size_t>(n);
      pos_ += n;
      return out;
    }
    if (n > buffer_.size()) {
      big_.assign(static_cast<std::size_t>(n), std::byte{0});
      std::memcpy(big_.data(), buffer_.data() + buffer_pos_, have);
      if (!read_at(big_.data() + have, n - have, pos_ + have)) return std::nullopt;
      buffer_pos_ = buffer_len_ = 0;
      pos_ += n;
      return std::span<const std::byte>(big_);
    }
    std::memmove(buffer_.data(), buffer_.data() + buffer_pos_, have);
    const std::uint64_t more = std::min<std::uint64_t>(buffer_.size() - have, remaining() - have);
    if (!read_at(buffer_.data() + have, more, pos_ + have)) return std::nullopt;
    buffer_pos_ = 0;
    buffer_len_ = have + static_cast<std::size_t>(more);
    return take(n);
  }

 private:
  bool read_at(std::byte* out, std::uint64_t n, std::uint64_t offset) {
    std::uint64_t done = 0;
    while (done < n) {
      const auto got = ::pread(fd_, out + done, static_cast<std::size_t>(n - done),
                               static_cast<off_t>(offset + done));
      if (got < 0 && errno == EINTR) continue;
      if (got <= 0) {
        error_ = got < 0 ? std::string(std::strerror(errno)) : "the file shrank while read";
        return false;
      }
      done += static_cast<std::uint64_t>(got);
    }
    return true;
  }

  std::span<const std::byte> mem_;
  int fd_ = -1;
  std::uint64_t begin_ = 0, pos_ = 0, end_ = 0;
  std::vector<std::byte> buffer_, big_;
  std::size_t buffer_pos_ = 0, buffer_len_ = 0;
  std::string error_;
};

class Parser {
 public:
  Parser(Image& image, Problems& problems, PerfDataVisitor* visitor)
      : image_(image), problems_(&problems), visitor_(visitor) {}

  // A perf.data directory (perf record --threads): the data.N files whose records follow the
  // header file's data section, in this order.
  void add_data_files(std::vector<std::filesystem::path> files) { data_files_ = std::move(files); }

  const perfdata::FeatureOffsets& feature_offsets() const { return feature_offsets_; }
  std::optional<Diagnostic>& stopped() { return stopped_; }
  std::uint64_t records_seen() const { return records_seen_; }

  std::optional<PerfData> parse() {
    if (image_.size() < 16) return fail(0, "file is too short for a perf.data header");
    const auto head_bytes = slice(0, 16, 0);
    if (!head_bytes) return std::nullopt;
    ByteReader head(*head_bytes, false);
    const auto magic = head.read<std::uint64_t>();
    if (*magic == __builtin_bswap64(kMagic)) {
      swap_ = true;
    } else if (*magic != kMagic) {
      return fail(0, "not a perf.data file (no PERFILE2 magic)");
    }
    data_.other_endian = swap_;
    ByteReader in(*head_bytes, swap_);
    in.skip(8);
    const auto header_size = *in.read<std::uint64_t>();
    if (header_size == kPipeHeaderSize) return parse_pipe();
    if (header_size != kFileHeaderSize && header_size != kOldFileHeaderSize) {
      return fail(8, fmt::format("unknown header size {}", header_size));
    }
    return parse_file(header_size);
  }

 private:
  std::optional<PerfData> fail(std::uint64_t offset, std::string message) {
    problems_->error(offset, std::move(message));
    return std::nullopt;
  }

  // Bytes of the image already checked to lie inside it; an I/O error is reported at `where`.
  std::optional<std::span<const std::byte>> slice(std::uint64_t offset, std::uint64_t n,
                                                  std::uint64_t where) {
    auto out = image_.slice(offset, n);
    if (!out)
      problems_->error(where, fmt::format("cannot read [{}, +{}): {}", offset, n, image_.error()));
    return out;
  }

  bool section_ok(const Section& s, std::uint64_t where, std::string_view what) {
    if (s.offset > image_.size() || s.size > image_.size() - s.offset) {
      problems_->error(where, fmt::format("{} section [{}, +{}) lies outside the {}-byte file",
                                          what, s.offset, s.size, image_.size()));
      return false;
    }
    return true;
  }

  Section read_section(ByteReader& in) {
    Section s;
    s.offset = *in.read<std::uint64_t>();
    s.size = *in.read<std::uint64_t>();
    return s;
  }

  std::optional<PerfData> parse_file(std::uint64_t header_size) {
    data_.mode = PerfDataMode::file;
    if (image_.size() < header_size) return fail(0, "file is shorter than its header");
    const auto header = slice(0, header_size, 0);
    if (!header) return std::nullopt;
    ByteReader in(*header, swap_);
    in.skip(16);
    const auto attr_size = *in.read<std::uint64_t>();
    const Section attrs = read_section(in);
    const Section data = read_section(in);
    read_section(in);  // event_types: obsolete, perf writes zeros and ignores it
    std::array<std::uint64_t, 4> bitmap{};
    if (header_size == kFileHeaderSize) {
      for (auto& w : bitmap) w = *in.read<std::uint64_t>();
    }
    // Both sections are checked (no short circuit) so each reports its own problem.
    const bool attrs_ok = section_ok(attrs, 24, "attrs");
    const bool data_ok = section_ok(data, 40, "data");
    bool ok = attrs_ok && data_ok;
    if (attr_size < kAttrSizeVer0 + 16 || attr_size > 4096) {
      problems_->error(16, fmt::format("attr_size {} is not a perf_file_attr size", attr_size));
      ok = false;
    } else if (ok && attrs.size % attr_size != 0) {
      problems_->error(24, fmt::format("attrs section size {} is not a multiple of attr_size {}",
                                       attrs.size, attr_size));
      ok = false;
    }
    if (ok) ok = parse_file_attrs(attrs, attr_size);
    if (!ok) return std::nullopt;
    if (data.size == 0) problems_->warning(40, "data section is empty (perf warns and fails)");
    // The features are read before the records (a visitor gets them first); their problems
    // are still reported after the records', as the file orders them.
    Problems feature_problems(problems_->file());
    bool features_ok = true;
    if (header_size == kFileHeaderSize) {
      Problems* saved = problems_;
      problems_ = &feature_problems;
      features_ok = parse_feature_index(data.offset + data.size, bitmap);
      if (features_ok) name_events();
      problems_ = saved;
    }
    // A directory read as one file: its DIR_FORMAT would make perf look for data.N files beside
    // a file written from this model.
    if (!data_files_.empty()) data_.features.erase(feature::dir_format);
    bool records_ok = true;
    if (features_ok && !begin()) {
      records_ok = false;
    } else if (features_ok || visitor_ == nullptr) {
      RecordWindow window =
          image_.in_memory()
              ? RecordWindow(image_.memory().subspan(static_cast<std::size_t>(data.offset),
                                                     static_cast<std::size_t>(data.size)),
                             data.offset)
              : RecordWindow(image_.fd(), data.offset, data.offset + data.size);
      records_ok = parse_records(window, false);
      for (const auto& file : data_files_) {
        if (!records_ok) break;
        records_ok = parse_data_file(file);
      }
    }
    problems_->append(feature_problems);
    if (!records_ok || !features_ok) return std::nullopt;
    return std::move(data_);
  }

  // One data.N file of a directory: records from its first byte to its end, its problems
  // naming it (offsets inside it).
  bool parse_data_file(const std::filesystem::path& path) {
    const std::string saved = problems_->file();
    problems_->set_file(path.string());
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    struct stat st {};
    bool ok = false;
    if (fd < 0 || ::fstat(fd, &st) != 0) {
      problems_->error(0, fmt::format("cannot read: {}", std::strerror(errno)));
    } else {
      RecordWindow window(fd, 0, static_cast<std::uint64_t>(st.st_size));
      ok = parse_records(window, false);
    }
    if (fd >= 0) ::close(fd);
    problems_->set_file(saved);
    return ok;
  }

  bool parse_file_attrs(const Section& attrs, std::uint64_t attr_size) {
    const std::uint64_t count = attrs.size / attr_size;
    for (std::uint64_t i = 0; i < count; ++i) {
      const std::uint64_t at = attrs.offset + i * attr_size;
      const auto entry = slice(at, attr_size, at);
      if (!entry) return false;
      auto event = parse_attr(entry->first(static_cast<std::size_t>(attr_size - 16)), at);
      if (!event) return false;
      ByteReader ids_in(entry->subspan(static_cast<std::size_t>(attr_size - 16)), swap_);
      const Section ids = read_section(ids_in);
      if (!section_ok(ids, at + attr_size - 16, "ids")) return false;
      if (ids.size % 8 != 0) {
        problems_->error(at + attr_size - 8,
                         fmt::format("ids size {} is not a multiple of 8", ids.size));
        return false;
      }
      const auto id_bytes = slice(ids.offset, ids.size, at + attr_size - 16);
      if (!id_bytes) return false;
      ByteReader id_reader(*id_bytes, swap_);
      for (std::uint64_t k = 0; k < ids.size / 8; ++k) {
        event->ids.push_back(*id_reader.read<std::uint64_t>());
      }
      data_.events.push_back(std::move(*event));
    }
    return true;
  }

  // An attr of at most `bytes.size()` bytes; its own `size` field says how many are real.
  std::optional<PerfEventEntry> parse_attr(std::span<const std::byte> bytes, std::uint64_t at) {
    if (bytes.size() < kAttrSizeVer0) {
      problems_->error(at, fmt::format("attr of {} bytes is shorter than 64", bytes.size()));
      return std::nullopt;
    }
    ByteReader in(bytes.subspan(4, 4), swap_);
    std::uint32_t size = *in.read<std::uint32_t>();
    if (size == 0) size = kAttrSizeVer0;
    if (size < kAttrSizeVer0 || size > bytes.size()) {
      problems_->error(
          at + 4, fmt::format("attr.size {} does not fit its {}-byte slot", size, bytes.size()));
      return std::nullopt;
    }
    auto attr = attr_from_bytes(bytes.first(size), swap_);
    if (size > kAttrSizeVer9) {
      problems_->warning(at + 4, fmt::format("attr.size {} is newer than VER9 (144); the "
                                             "extra bytes are not kept",
                                             size));
    }
    PerfEventEntry e;
    e.attr = *attr;
    return e;
  }

  // Hands the header to the visitor once; false when it stops the walk.
  bool begin() {
    if (visitor_ == nullptr || begun_) return true;
    begun_ = true;
    if (auto stop = visitor_->begin(data_)) {
      stopped_ = std::move(stop);
      return false;
    }
    return true;
  }

  bool deliver(Record& r) {
    ++records_seen_;
    if (visitor_ == nullptr) {
      data_.records.push_back(std::move(r));
      return true;
    }
    if (!begin()) return false;
    if (auto stop = visitor_->record(r)) {
      stopped_ = std::move(stop);
      return false;
    }
    return true;
  }

  bool window_failed(const RecordWindow& in, std::uint64_t at) {
    if (in.error().empty()) return false;
    problems_->error(at, fmt::format("cannot read the records: {}", in.error()));
    return true;
  }

  // A pipe stream that stops inside a record (perf killed, a full disk): what came before is
  // good and kept, as perf script keeps it; the cut is a warning naming where the data ends.
  bool cut(std::uint64_t at, std::string_view what, std::uint64_t left) {
    problems_->warning(at, fmt::format("the pipe stream is cut inside {} ({} bytes left): the "
                                       "{} records before byte offset {} are good and kept, "
                                       "the rest is dropped",
                                       what, left, records_seen_, at));
    return true;
  }

  // Hands the batch of views to the visitor (the model, without one); false when it stops.
  bool flush_views() {
    const auto views = std::span<const RecordView>(views_).first(views_used_);
    views_used_ = 0;
    if (views.empty()) return true;
    records_seen_ += views.size();
    if (visitor_ == nullptr) {
      for (const auto& view : views) view.copy_to(data_.records.emplace_back());
      return true;
    }
    if (pipe_ && !begun_) name_events();
    if (!begin()) return false;
    if (auto stop = visitor_->record_views(views)) {
      stopped_ = std::move(stop);
      return false;
    }
    return true;
  }

  // The fast path: the records lying whole in the window, walked in place (no copy) and handed
  // out in batches. It stops at the first one that does not fit the window, has a trailer, is a
  // pipe header record or looks wrong in any way, which the careful path then takes (or
  // reports). The views point into the window, so they go out before it moves.
  bool walk_window(RecordWindow& in, bool pipe) {
    const auto bytes = in.available();
    const std::uint64_t base = in.offset();
    std::size_t pos = 0;
    bool ok = true;
    while (bytes.size() - pos >= 8) {
      std::uint32_t type = 0;
      std::uint16_t misc = 0, size = 0;
      std::memcpy(&type, bytes.data() + pos, 4);
      std::memcpy(&misc, bytes.data() + pos + 4, 2);
      std::memcpy(&size, bytes.data() + pos + 6, 2);
      if (swap_) {
        type = __builtin_bswap32(type);
        misc = __builtin_bswap16(misc);
        size = __builtin_bswap16(size);
      }
      if (size < 8 || size > bytes.size() - pos) break;
      if (perfdata::carries_trailer(type)) break;
      if (pipe && perfdata::is_pipe_header_record(type)) break;
      if (pipe && folds_build_id(type)) break;
      if (pipe) start_pipe_records();
      RecordView& view = views_[views_used_++];
      view.type = type;
      view.misc = misc;
      view.payload = bytes.subspan(pos + 8, size - 8u);
      view.file_offset = base + pos;
      pos += size;
      if (views_used_ == views_.size() && !flush_views()) {
        ok = false;
        break;
      }
    }
    ok = ok && flush_views();
    in.skip(pos);
    return ok;
  }

  // Records of a data section (file mode) or everything after the pipe header.
  bool parse_records(RecordWindow& in, bool pipe) {
    pipe_ = pipe;
    Record r;
    while (in.remaining() > 0) {
      if (!walk_window(in, pipe)) return false;
      if (in.remaining() == 0) break;
      const std::uint64_t at = in.offset();
      if (in.remaining() < 8) {
        if (pipe) return cut(at, "a record header", in.remaining());
        problems_->error(
            at, fmt::format("{} trailing bytes are too few for a record header", in.remaining()));
        return false;
      }
      const auto head_bytes = in.take(8);
      if (!head_bytes) return window_failed(in, at), false;
      ByteReader head(*head_bytes, swap_);
      r.file_offset = at;
      r.type = *head.read<std::uint32_t>();
      r.misc = *head.read<std::uint16_t>();
      const auto size = *head.read<std::uint16_t>();
      if (size < 8) {
        problems_->error(at + 6, fmt::format("record size {} is smaller than its header", size));
        return false;
      }
      const std::uint64_t left = in.remaining();
      const auto payload = in.take(size - 8u);
      if (!payload) {
        if (window_failed(in, at)) return false;
        if (pipe)
          return cut(at, fmt::format("a {} record of {} bytes", record_type_name(r.type), size),
                     left + 8);
        problems_->error(at + 6, fmt::format("{} record of {} bytes runs past the end ({} left)",
                                             record_type_name(r.type), size, left + 8));
        return false;
      }
      r.payload.assign(payload->begin(), payload->end());
      if (!read_trailer(in, r, at)) return false;
      if (pipe && perfdata::is_pipe_header_record(r.type)) {
        if (!take_pipe_header_record(r, at)) return false;
        if (begun_ && visitor_ != nullptr) {
          name_events();
          if (auto stop = visitor_->header_changed(data_)) {
            stopped_ = std::move(stop);
            return false;
          }
        }
        continue;
      }
      if (pipe && folds_build_id(r.type)) {
        fold_build_id(r);
        continue;
      }
      if (pipe && !begun_ && visitor_ != nullptr) name_events();
      if (pipe) start_pipe_records();
      if (!deliver(r)) return false;
    }
    return true;
  }

  // AUXTRACE data and the pipe-mode tracing blob follow their record outside header.size.
  bool read_trailer(RecordWindow& in, Record& r, std::uint64_t at) {
    r.trailer.clear();
    const auto declared = perfdata::declared_trailer_size(r.type, r.payload, swap_);
    if (!declared) {
      problems_->error(
          at, fmt::format("{} record too short for its size field", record_type_name(r.type)));
      return false;
    }
    const std::uint64_t trailer = *declared;
    if (trailer == 0) return true;
    const std::uint64_t left = in.remaining();
    const auto data = in.take(trailer);
    if (!data) {
      if (window_failed(in, at)) return false;
      if (pipe_)
        return cut(at, fmt::format("the {} data of {} bytes", record_type_name(r.type), trailer),
                   left + r.size());
      problems_->error(at, fmt::format("{} data of {} bytes runs past the end ({} left)",
                                       record_type_name(r.type), trailer, left));
      return false;
    }
    r.trailer.assign(data->begin(), data->end());
    return true;
  }

  bool take_pipe_header_record(const Record& r, std::uint64_t at) {
    if (r.type == record_type::header_attr) {
      if (r.payload.size() < kAttrSizeVer0) {
        problems_->error(at, "HEADER_ATTR record is shorter than a 64-byte attr");
        return false;
      }
      ByteReader size_in(std::span(r.payload).subspan(4, 4), swap_);
      std::uint32_t size = *size_in.read<std::uint32_t>();
      if (size == 0) size = kAttrSizeVer0;
      if (size > r.payload.size() || (r.payload.size() - size) % 8 != 0) {
        problems_->error(at + 12, fmt::format("HEADER_ATTR attr.size {} does not fit its {}-byte "
                                              "record",
                                              size, r.payload.size() + 8));
        return false;
      }
      auto event = parse_attr(std::span(r.payload).first(size), at + 8);
      if (!event) return false;
      ByteReader ids(std::span(r.payload).subspan(size), swap_);
      while (!ids.at_end()) event->ids.push_back(*ids.read<std::uint64_t>());
      if (!pipe_records_started_) {
        data_.pipe_header.push_back({PipeHeaderRecord::Kind::attr, data_.events.size(), r.misc});
      }
      data_.events.push_back(std::move(*event));
    } else if (r.type == record_type::header_feature) {
      ByteReader body(r.payload, swap_);
      const auto id = body.read<std::uint64_t>();
      if (!id) {
        problems_->error(at, "FEATURE record has no feature id");
        return false;
      }
      if (r.payload.size() == 8 && *id >= feature::last) {
        // A repeated marker or feature keeps its first place (a rewrite writes it once).
        const bool first = !data_.pipe_end_marker;
        data_.pipe_end_marker = *id;
        if (!first || !pipe_records_started_) {
          note_pipe_header(PipeHeaderRecord::Kind::end_marker, *id, r.misc, first);
        }
      } else {
        if (*id > 255) {
          problems_->error(at + 8, fmt::format("feature id {} is out of range", *id));
          return false;
        }
        const bool first = data_.features.count(static_cast<std::uint32_t>(*id)) == 0;
        data_.features[static_cast<std::uint32_t>(*id)].assign(r.payload.begin() + 8,
                                                               r.payload.end());
        feature_offsets_[static_cast<std::uint32_t>(*id)] = at + 16;
        // A writer puts TRACING_DATA in a HEADER_TRACING_DATA record unless the header order
        // names it, so a FEATURE record of it is always placed, wherever it came.
        if (!pipe_records_started_ || *id == feature::tracing_data) {
          note_pipe_header(PipeHeaderRecord::Kind::feature, *id, r.misc, first);
        }
      }
    }
    return true;
  }

  // Pipe mode: HEADER_BUILD_ID records among the header records (before the first other one)
  // are the BUILD_ID feature, one entry each (with type 0, as in a file's feature section), unless
  // a FEATURE record already gave that feature. Later ones stay records.
  bool folds_build_id(std::uint32_t type) const {
    return type == record_type::header_build_id && !pipe_records_started_ &&
           (build_id_folded_ || data_.features.count(feature::build_id) == 0);
  }

  void fold_build_id(const Record& r) {
    auto& payload = data_.features[feature::build_id];
    ByteWriter head;
    head.put(std::uint32_t{0}).put(r.misc).put(static_cast<std::uint16_t>(r.size()));
    payload.insert(payload.end(), head.bytes().begin(), head.bytes().end());
    payload.insert(payload.end(), r.payload.begin(), r.payload.end());
    note_pipe_header(PipeHeaderRecord::Kind::feature, feature::build_id, 0, !build_id_folded_);
    build_id_folded_ = true;
  }

  // At a pipe stream's first record other than HEADER_ATTR/FEATURE, whichever path reads it:
  // the header records before it are the pipe header, those after it are not placed.
  void start_pipe_records() {
    if (pipe_records_started_) return;
    pipe_records_started_ = true;
    drop_default_pipe_header();
  }

  // An order a writer would give anyway (attrs, features by id but TRACING_DATA, which it
  // writes as a record of its own, end marker, misc 0) is left empty, so models written without
  // one read back equal.
  void drop_default_pipe_header() {
    std::vector<PipeHeaderRecord> usual;
    using Kind = PipeHeaderRecord::Kind;
    for (std::size_t i = 0; i < data_.events.size(); ++i) usual.push_back({Kind::attr, i, 0});
    for (const auto& [id, payload] : data_.features) {
      if (id != feature::tracing_data) usual.push_back({Kind::feature, id, 0});
    }
    if (data_.pipe_end_marker) usual.push_back({Kind::end_marker, *data_.pipe_end_marker, 0});
    if (usual == data_.pipe_header) data_.pipe_header.clear();
  }

  // Pipe mode: where a header record was. A marker seen again (with another id) renames the
  // one already noted; a feature seen again stays where it first was.
  void note_pipe_header(PipeHeaderRecord::Kind kind, std::uint64_t id, std::uint16_t misc,
                        bool first) {
    if (first) {
      data_.pipe_header.push_back({kind, id, misc});
      return;
    }
    if (kind != PipeHeaderRecord::Kind::end_marker) return;
    for (auto& h : data_.pipe_header) {
      if (h.kind == kind) h.id = id;
    }
  }

  bool parse_feature_index(std::uint64_t at, const std::array<std::uint64_t, 4>& bitmap) {
    std::uint64_t pos = at;
    std::uint64_t first_payload = UINT64_MAX;
    for (std::uint32_t id = 0; id < 256; ++id) {
      if (!((bitmap[id / 64] >> (id % 64)) & 1)) continue;
      if (pos > image_.size() || image_.size() - pos < 16) {
        problems_->error(pos, fmt::format("feature index entry for {} lies past the end of the "
                                          "file",
                                          feature_name(id)));
        return false;
      }
      const auto entry = slice(pos, 16, pos);
      if (!entry) return false;
      ByteReader in(*entry, swap_);
      const Section s = read_section(in);
      if (!section_ok(s, pos, feature_name(id))) return false;
      const auto payload = slice(s.offset, s.size, pos);
      if (!payload) return false;
      data_.features[id].assign(payload->begin(), payload->end());
      feature_offsets_[id] = s.offset;
      if (s.size != 0) first_payload = std::min(first_payload, s.offset);
      pos += 16;
    }
    note_feature_gap(pos, first_payload);
    return true;
  }

  // Zero bytes between the index (ending at `index_end`) and the first payload are kept, so a
  // rewrite has the same layout (perf record's unused index slots).
  void note_feature_gap(std::uint64_t index_end, std::uint64_t first_payload) {
    if (first_payload <= index_end || first_payload - index_end > kMaxFeatureGap ||
        first_payload > image_.size()) {
      return;
    }
    const auto gap = image_.slice(index_end, first_payload - index_end);
    if (!gap) return;
    for (std::byte b : *gap) {
      if (b != std::byte{0}) return;
    }
    data_.feature_gap = static_cast<std::uint32_t>(first_payload - index_end);
  }

  void name_events() {
    if (swap_) return;
    const auto it = data_.features.find(feature::event_desc);
    if (it == data_.features.end()) return;
    const auto desc = decode_event_desc(it->second);
    if (!desc) {
      if (!warned_event_desc_) {
        warned_event_desc_ = true;
        problems_->warning(feature_offsets_[feature::event_desc],
                           "EVENT_DESC feature is malformed; events stay unnamed");
      }
      return;
    }
    for (std::size_t i = 0; i < desc->size() && i < data_.events.size(); ++i) {
      data_.events[i].name = (*desc)[i].name;
    }
  }

  std::optional<PerfData> parse_pipe() {
    data_.mode = PerfDataMode::pipe;
    RecordWindow window = image_.in_memory() ? RecordWindow(image_.memory().subspan(16), 16)
                                             : RecordWindow(image_.fd(), 16, image_.size());
    if (!parse_records(window, true)) return std::nullopt;
    if (!pipe_records_started_) drop_default_pipe_header();
    name_events();
    if (!begin()) return std::nullopt;
    return std::move(data_);
  }

  Image& image_;
  Problems* problems_;
  PerfDataVisitor* visitor_ = nullptr;
  perfdata::FeatureOffsets feature_offsets_;
  bool swap_ = false;
  bool begun_ = false;
  bool pipe_ = false;
  bool pipe_records_started_ = false;
  bool build_id_folded_ = false;  // the BUILD_ID feature came from HEADER_BUILD_ID records
  std::vector<std::filesystem::path> data_files_;  // a record other than HEADER_ATTR/FEATURE came
  bool warned_event_desc_ = false;
  std::uint64_t records_seen_ = 0;
  std::array<RecordView, 256> views_{};  // walk_window()'s batch
  std::size_t views_used_ = 0;
  std::optional<Diagnostic> stopped_;
  PerfData data_;
};

}  // namespace

namespace perfdata {

std::optional<PerfData> parse_image(std::span<const std::byte> image, Problems& problems,
                                    FeatureOffsets* feature_offsets) {
  Image source(image);
  Parser parser(source, problems, nullptr);
  auto data = parser.parse();
  if (feature_offsets != nullptr) *feature_offsets = parser.feature_offsets();
  return data;
}

namespace {

// A perf.data directory (perf record --threads -o DIR): DIR/data is a file-mode perf.data
// (header, attrs, features, the synthesized records) and DIR/data.N hold each thread's records,
// bare. Read as one file: the header file's records, then data.0, data.1 ... in number order.
std::optional<PerfData> parse_directory(const std::filesystem::path& path,
                                        const InputLimits& limits, PerfDataVisitor& visitor,
                                        Problems& problems, FeatureOffsets* feature_offsets,
                                        std::optional<Diagnostic>* stopped,
                                        std::uint64_t* size_bytes) {
  const auto header_path = path / "data";
  std::error_code ec;
  std::vector<std::pair<std::uint64_t, std::filesystem::path>> numbered;
  std::uint64_t total = 0;
  for (const auto& entry : std::filesystem::directory_iterator(path, ec)) {
    const auto name = entry.path().filename().string();
    if (name.size() < 6 || name.rfind("data.", 0) != 0) continue;
    const auto digits = std::string_view(name).substr(5);
    if (digits.size() > 9 ||
        !std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; })) {
      continue;
    }
    if (!entry.is_regular_file(ec)) continue;
    numbered.emplace_back(std::stoull(std::string(digits)), entry.path());
    const auto bytes = entry.file_size(ec);
    if (!ec) total += bytes;
  }
  std::sort(numbered.begin(), numbered.end());
  const int fd = ::open(header_path.c_str(), O_RDONLY | O_CLOEXEC);
  struct stat st {};
  if (fd < 0 || ::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    if (fd >= 0) ::close(fd);
    if (stopped != nullptr) {
      *stopped = io_error(path.string(),
                          "a directory that is not a perf.data directory (no regular file "
                          "'data' in it, as perf record --threads writes)");
    }
    return std::nullopt;
  }
  const auto size = static_cast<std::uint64_t>(st.st_size);
  if (size_bytes != nullptr) *size_bytes = size + total;
  problems.set_file(header_path.string());
  Image source(fd, size, limits.file_bytes);
  Parser parser(source, problems, &visitor);
  std::vector<std::filesystem::path> files;
  for (auto& [n, file] : numbered) files.push_back(std::move(file));
  parser.add_data_files(std::move(files));
  auto data = parser.parse();
  ::close(fd);
  if (data && data->mode != PerfDataMode::file) {
    problems.error(8, "the header file of a perf.data directory is not in file mode");
    data.reset();
  }
  if (feature_offsets != nullptr) *feature_offsets = parser.feature_offsets();
  if (stopped != nullptr) *stopped = std::move(parser.stopped());
  return data;
}

}  // namespace

std::optional<PerfData> parse_stream(const std::filesystem::path& path, const InputLimits& limits,
                                     PerfDataVisitor& visitor, Problems& problems,
                                     FeatureOffsets* feature_offsets,
                                     std::optional<Diagnostic>* stopped,
                                     std::uint64_t* size_bytes) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec) &&
      std::filesystem::is_regular_file(path / "data", ec)) {
    return parse_directory(path, limits, visitor, problems, feature_offsets, stopped, size_bytes);
  }
  // A FIFO or device is read once, by read_input(): opened here to be looked at and closed, a
  // FIFO would pair with its writer and lose the stream for the second open.
  struct stat st {};
  const bool regular = ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
  const int fd = regular ? ::open(path.c_str(), O_RDONLY | O_CLOEXEC) : -1;
  if (fd >= 0 && ::fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
    const auto size = static_cast<std::uint64_t>(st.st_size);
    if (size_bytes != nullptr) *size_bytes = size;
    // The header pieces (attrs, ids, features) are held in memory: bounded like an input.
    Image source(fd, size, limits.file_bytes);
    Parser parser(source, problems, &visitor);
    auto data = parser.parse();
    ::close(fd);
    if (feature_offsets != nullptr) *feature_offsets = parser.feature_offsets();
    if (stopped != nullptr) *stopped = std::move(parser.stopped());
    return data;
  }
  if (fd >= 0) ::close(fd);
  auto image = read_input(path, limits);
  if (!image) {
    if (stopped != nullptr) *stopped = std::move(image).error();
    return std::nullopt;
  }
  if (size_bytes != nullptr) *size_bytes = image->bytes.size();
  Image source(image->bytes);
  Parser parser(source, problems, &visitor);
  auto data = parser.parse();
  if (feature_offsets != nullptr) *feature_offsets = parser.feature_offsets();
  if (stopped != nullptr) *stopped = std::move(parser.stopped());
  return data;
}

}  // namespace perfdata

Expected<PerfData> parse_perf_data(std::span<const std::byte> image, std::string_view file) {
  perfdata::Problems problems(file);
  auto data = perfdata::parse_image(image, problems);
  if (!data) return unexpected(problems.first_error());
  return std::move(*data);
}

namespace {

// Keeps every record: a perf.data directory read whole.
class CollectingVisitor : public PerfDataVisitor {
 public:
  std::optional<Diagnostic> begin(const PerfData&) override { return std::nullopt; }
  std::optional<Diagnostic> record(const Record& r) override {
    records.push_back(r);
    return std::nullopt;
  }
  std::vector<Record> records;
};

}  // namespace

Expected<PerfData> read_perf_data(const std::filesystem::path& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec) &&
      std::filesystem::is_regular_file(path / "data", ec)) {
    // Read whole: bounded like any input, by the size of the files it holds.
    std::uint64_t total = 0;
    for (const auto& entry : std::filesystem::directory_iterator(path, ec)) {
      if (!entry.is_regular_file(ec)) continue;
      const auto bytes = entry.file_size(ec);
      if (!ec) total += bytes;
    }
    const std::uint64_t limit = InputLimits{}.file_bytes;
    if (total > limit) {
      return unexpected(perfdata::io_error(
          path.string(), fmt::format("the directory's files hold {}, more than the {} read into "
                                     "memory",
                                     format_byte_size(total), format_byte_size(limit))));
    }
    CollectingVisitor collect;
    auto summary = stream_perf_data(path, collect);
    if (!summary) return unexpected(std::move(summary).error());
    summary->header.records = std::move(collect.records);
    return std::move(summary->header);
  }
  auto image = read_input(path);
  if (!image) return unexpected(std::move(image).error());
  return parse_perf_data(image->bytes, path.string());
}

namespace {

class CountingVisitor : public PerfDataVisitor {
 public:
  explicit CountingVisitor(PerfDataVisitor& inner) : inner_(inner) {}
  std::optional<Diagnostic> begin(const PerfData& header) override { return inner_.begin(header); }
  std::optional<Diagnostic> record(const Record& r) override {
    ++records;
    return inner_.record(r);
  }
  std::optional<Diagnostic> record_view(const RecordView& r) override {
    ++records;
    return inner_.record_view(r);
  }
  std::optional<Diagnostic> record_views(std::span<const RecordView> views) override {
    records += views.size();  // when the inner visitor stops, the count is not used
    return inner_.record_views(views);
  }
  std::optional<Diagnostic> header_changed(const PerfData& header) override {
    return inner_.header_changed(header);
  }
  std::uint64_t records = 0;

 private:
  PerfDataVisitor& inner_;
};

}  // namespace

Expected<StreamSummary> stream_perf_data(const std::filesystem::path& path,
                                         PerfDataVisitor& visitor, const InputLimits& limits) {
  perfdata::Problems problems(path.string());
  std::optional<Diagnostic> stopped;
  CountingVisitor counter(visitor);
  StreamSummary out;
  auto data =
      perfdata::parse_stream(path, limits, counter, problems, nullptr, &stopped, &out.size_bytes);
  if (stopped) return unexpected(std::move(*stopped));
  if (!data) return unexpected(problems.first_error());
  out.header = std::move(*data);
  out.records = counter.records;
  return out;
}

PMUCAT_END_NAMESPACE
