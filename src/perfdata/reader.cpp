// perf.data parser: file and pipe mode, either byte order, every size and offset checked.
#include <fmt/format.h>

#include <fstream>

#include "perfdata/bytes.h"
#include "perfdata/problems.h"
#include "pmucat/perfdata.h"
#include "pmucat/perfdata_features.h"

namespace pmucat {
namespace {

using perfdata::ByteReader;
using perfdata::Problems;

constexpr std::uint64_t kMagic = 0x32454c4946524550ull;  // "PERFILE2" read little-endian
constexpr std::uint64_t kFileHeaderSize = 104;
constexpr std::uint64_t kOldFileHeaderSize = 72;  // before adds_features existed
constexpr std::uint64_t kPipeHeaderSize = 16;

struct Section {
  std::uint64_t offset = 0, size = 0;
};

class Parser {
 public:
  Parser(std::span<const std::byte> image, Problems& problems)
      : image_(image), problems_(problems) {}

  const perfdata::FeatureOffsets& feature_offsets() const { return feature_offsets_; }

  std::optional<PerfData> parse() {
    if (image_.size() < 16) return fail(0, "file is too short for a perf.data header");
    ByteReader head(image_, false);
    const auto magic = head.read<std::uint64_t>();
    if (*magic == __builtin_bswap64(kMagic)) {
      swap_ = true;
    } else if (*magic != kMagic) {
      return fail(0, "not a perf.data file (no PERFILE2 magic)");
    }
    data_.other_endian = swap_;
    ByteReader in(image_, swap_);
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
    problems_.error(offset, std::move(message));
    return std::nullopt;
  }

  bool section_ok(const Section& s, std::uint64_t where, std::string_view what) {
    if (s.offset > image_.size() || s.size > image_.size() - s.offset) {
      problems_.error(where, fmt::format("{} section [{}, +{}) lies outside the {}-byte file", what,
                                         s.offset, s.size, image_.size()));
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

  std::span<const std::byte> bytes_of(const Section& s) const {
    return image_.subspan(static_cast<std::size_t>(s.offset), static_cast<std::size_t>(s.size));
  }

  std::optional<PerfData> parse_file(std::uint64_t header_size) {
    data_.mode = PerfDataMode::file;
    if (image_.size() < header_size) return fail(0, "file is shorter than its header");
    ByteReader in(image_.first(static_cast<std::size_t>(header_size)), swap_);
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
      problems_.error(16, fmt::format("attr_size {} is not a perf_file_attr size", attr_size));
      ok = false;
    } else if (ok && attrs.size % attr_size != 0) {
      problems_.error(24, fmt::format("attrs section size {} is not a multiple of attr_size {}",
                                      attrs.size, attr_size));
      ok = false;
    }
    if (ok) ok = parse_file_attrs(attrs, attr_size);
    if (!ok) return std::nullopt;
    if (data.size == 0) problems_.warning(40, "data section is empty (perf warns and fails)");
    const bool records_ok = parse_records(bytes_of(data), data.offset, false);
    const bool features_ok =
        header_size != kFileHeaderSize || parse_feature_index(data.offset + data.size, bitmap);
    if (!records_ok || !features_ok) return std::nullopt;
    name_events();
    return std::move(data_);
  }

  bool parse_file_attrs(const Section& attrs, std::uint64_t attr_size) {
    const std::uint64_t count = attrs.size / attr_size;
    for (std::uint64_t i = 0; i < count; ++i) {
      const std::uint64_t at = attrs.offset + i * attr_size;
      const auto entry =
          image_.subspan(static_cast<std::size_t>(at), static_cast<std::size_t>(attr_size));
      auto event = parse_attr(entry.first(static_cast<std::size_t>(attr_size - 16)), at);
      if (!event) return false;
      ByteReader ids_in(entry.subspan(static_cast<std::size_t>(attr_size - 16)), swap_);
      const Section ids = read_section(ids_in);
      if (!section_ok(ids, at + attr_size - 16, "ids")) return false;
      if (ids.size % 8 != 0) {
        problems_.error(at + attr_size - 8,
                        fmt::format("ids size {} is not a multiple of 8", ids.size));
        return false;
      }
      ByteReader id_reader(bytes_of(ids), swap_);
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
      problems_.error(at, fmt::format("attr of {} bytes is shorter than 64", bytes.size()));
      return std::nullopt;
    }
    ByteReader in(bytes.subspan(4, 4), swap_);
    std::uint32_t size = *in.read<std::uint32_t>();
    if (size == 0) size = kAttrSizeVer0;
    if (size < kAttrSizeVer0 || size > bytes.size()) {
      problems_.error(
          at + 4, fmt::format("attr.size {} does not fit its {}-byte slot", size, bytes.size()));
      return std::nullopt;
    }
    auto attr = attr_from_bytes(bytes.first(size), swap_);
    if (size > kAttrSizeVer8) {
      problems_.warning(at + 4, fmt::format("attr.size {} is newer than VER8 (136); the "
                                            "extra bytes are not kept",
                                            size));
    }
    PerfEventEntry e;
    e.attr = *attr;
    return e;
  }

  // Records of a data section (file mode) or everything after the pipe header.
  bool parse_records(std::span<const std::byte> bytes, std::uint64_t base, bool pipe) {
    ByteReader in(bytes, swap_, base);
    while (!in.at_end()) {
      const std::uint64_t at = in.file_offset();
      if (in.remaining() < 8) {
        problems_.error(
            at, fmt::format("{} trailing bytes are too few for a record header", in.remaining()));
        return false;
      }
      Record r;
      r.file_offset = at;
      r.type = *in.read<std::uint32_t>();
      r.misc = *in.read<std::uint16_t>();
      const auto size = *in.read<std::uint16_t>();
      if (size < 8) {
        problems_.error(at + 6, fmt::format("record size {} is smaller than its header", size));
        return false;
      }
      const auto payload = in.take(size - 8u);
      if (!payload) {
        problems_.error(at + 6, fmt::format("{} record of {} bytes runs past the end ({} left)",
                                            record_type_name(r.type), size, in.remaining() + 8));
        return false;
      }
      r.payload.assign(payload->begin(), payload->end());
      if (!read_trailer(in, r, at)) return false;
      if (pipe && !take_pipe_header_record(r, at)) return false;
      if (!pipe || (r.type != record_type::header_attr && r.type != record_type::header_feature)) {
        data_.records.push_back(std::move(r));
      }
    }
    return true;
  }

  // AUXTRACE data and the pipe-mode tracing blob follow their record outside header.size.
  bool read_trailer(ByteReader& in, Record& r, std::uint64_t at) {
    std::uint64_t trailer = 0;
    ByteReader body(r.payload, swap_);
    if (r.type == record_type::auxtrace) {
      const auto size = body.read<std::uint64_t>();
      if (!size) {
        problems_.error(at, "AUXTRACE record too short for its size field");
        return false;
      }
      trailer = *size;
    } else if (r.type == record_type::header_tracing_data) {
      const auto size = body.read<std::uint32_t>();
      if (!size) {
        problems_.error(at, "TRACING_DATA record too short for its size field");
        return false;
      }
      trailer = (std::uint64_t{*size} + 7) / 8 * 8;
    }
    if (trailer == 0) return true;
    const auto data = in.take(trailer);
    if (!data) {
      problems_.error(at, fmt::format("{} data of {} bytes runs past the end ({} left)",
                                      record_type_name(r.type), trailer, in.remaining()));
      return false;
    }
    r.trailer.assign(data->begin(), data->end());
    return true;
  }

  bool take_pipe_header_record(const Record& r, std::uint64_t at) {
    if (r.type == record_type::header_attr) {
      if (r.payload.size() < kAttrSizeVer0) {
        problems_.error(at, "HEADER_ATTR record is shorter than a 64-byte attr");
        return false;
      }
      ByteReader size_in(std::span(r.payload).subspan(4, 4), swap_);
      std::uint32_t size = *size_in.read<std::uint32_t>();
      if (size == 0) size = kAttrSizeVer0;
      if (size > r.payload.size() || (r.payload.size() - size) % 8 != 0) {
        problems_.error(at + 12, fmt::format("HEADER_ATTR attr.size {} does not fit its {}-byte "
                                             "record",
                                             size, r.payload.size() + 8));
        return false;
      }
      auto event = parse_attr(std::span(r.payload).first(size), at + 8);
      if (!event) return false;
      ByteReader ids(std::span(r.payload).subspan(size), swap_);
      while (!ids.at_end()) event->ids.push_back(*ids.read<std::uint64_t>());
      data_.events.push_back(std::move(*event));
    } else if (r.type == record_type::header_feature) {
      ByteReader body(r.payload, swap_);
      const auto id = body.read<std::uint64_t>();
      if (!id) {
        problems_.error(at, "FEATURE record has no feature id");
        return false;
      }
      if (r.payload.size() == 8 && *id >= feature::last) {
        data_.pipe_end_marker = *id;
      } else {
        if (*id > 255) {
          problems_.error(at + 8, fmt::format("feature id {} is out of range", *id));
          return false;
        }
        data_.features[static_cast<std::uint32_t>(*id)].assign(r.payload.begin() + 8,
                                                               r.payload.end());
        feature_offsets_[static_cast<std::uint32_t>(*id)] = at + 16;
      }
    }
    return true;
  }

  bool parse_feature_index(std::uint64_t at, const std::array<std::uint64_t, 4>& bitmap) {
    std::uint64_t pos = at;
    for (std::uint32_t id = 0; id < 256; ++id) {
      if (!((bitmap[id / 64] >> (id % 64)) & 1)) continue;
      if (pos > image_.size() || image_.size() - pos < 16) {
        problems_.error(pos, fmt::format("feature index entry for {} lies past the end of the "
                                         "file",
                                         feature_name(id)));
        return false;
      }
      ByteReader in(image_.subspan(static_cast<std::size_t>(pos), 16), swap_);
      const Section s = read_section(in);
      if (!section_ok(s, pos, feature_name(id))) return false;
      data_.features[id].assign(bytes_of(s).begin(), bytes_of(s).end());
      feature_offsets_[id] = s.offset;
      pos += 16;
    }
    return true;
  }

  void name_events() {
    if (swap_) return;
    const auto it = data_.features.find(feature::event_desc);
    if (it == data_.features.end()) return;
    const auto desc = decode_event_desc(it->second);
    if (!desc) {
      problems_.warning(feature_offsets_[feature::event_desc],
                        "EVENT_DESC feature is malformed; events stay unnamed");
      return;
    }
    for (std::size_t i = 0; i < desc->size() && i < data_.events.size(); ++i) {
      data_.events[i].name = (*desc)[i].name;
    }
  }

  std::optional<PerfData> parse_pipe() {
    data_.mode = PerfDataMode::pipe;
    if (!parse_records(image_.subspan(16), 16, true)) return std::nullopt;
    name_events();
    return std::move(data_);
  }

  std::span<const std::byte> image_;
  Problems& problems_;
  perfdata::FeatureOffsets feature_offsets_;
  bool swap_ = false;
  PerfData data_;
};

}  // namespace

namespace perfdata {

std::optional<PerfData> parse_image(std::span<const std::byte> image, Problems& problems,
                                    FeatureOffsets* feature_offsets) {
  Parser parser(image, problems);
  auto data = parser.parse();
  if (feature_offsets != nullptr) *feature_offsets = parser.feature_offsets();
  return data;
}

}  // namespace perfdata

Expected<PerfData> parse_perf_data(std::span<const std::byte> image, std::string_view file) {
  perfdata::Problems problems(file);
  auto data = perfdata::parse_image(image, problems);
  if (!data) return unexpected(problems.first_error());
  return std::move(*data);
}

Expected<PerfData> read_perf_data(const std::filesystem::path& path) {
  auto image = read_input(path);
  if (!image) return unexpected(std::move(image).error());
  return parse_perf_data(image->bytes, path.string());
}

}  // namespace pmucat
