// Reading an input into memory, bounded: the format is decided from the first bytes and the
// framing is followed while reading, so an endless or hostile stream is refused early and
// nothing larger than the cap (or the file) is ever allocated.
#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "catalog/sysfs_file.h"
#include "perfdata/bytes.h"
#include "perfdata/problems.h"
#include "perfdata/record_framing.h"
#include "pmucat/diagnostic_ids.h"
#include "pmucat/perfdata.h"

PMUCAT_BEGIN_NAMESPACE
namespace {

constexpr std::size_t kMinInputBytes = 8;

Diagnostic rejected(const std::filesystem::path& path, std::string message) {
  Diagnostic d = perfdata::io_error(path.string(), std::move(message));
  set_id(d, DiagId::perfdata_malformed);
  return d;
}

// perf record --threads writes a directory holding `data` and one `data.N` per thread.
bool is_threads_directory(const std::filesystem::path& dir) {
  std::error_code ec;
  return std::filesystem::is_regular_file(dir / "data", ec) &&
         std::filesystem::is_regular_file(dir / "data.0", ec);
}

bool is_text_byte(std::byte b) {
  const auto c = std::to_integer<unsigned>(b);
  return c >= 0x20 ? c != 0x7f : (c >= '\t' && c <= '\r');
}

std::optional<InputKind> kind_from_first_bytes(std::span<const std::byte> head) {
  std::string magic(8, '\0');
  for (std::size_t i = 0; i < 8; ++i) magic[i] = static_cast<char>(head[i]);
  if (magic == "PERFILE2" || magic == "2ELIFREP") return InputKind::perf_data;
  const auto first = std::to_integer<unsigned>(head[0]);
  // A binary proto opens with a field key: field number >= 1, wire type 0, 1, 2 or 5.
  const unsigned wire_type = first & 7;
  const bool key_like = (first >> 3) != 0 && (wire_type <= 2 || wire_type == 5);
  bool text_like = true;
  for (std::byte b : head) text_like = text_like && is_text_byte(b);
  if (text_like) return InputKind::proto_text;
  if (key_like) return InputKind::proto_binary;
  return std::nullopt;
}

// Follows the framing of the bytes read so far, so a stream that cannot be a valid input is
// refused as soon as the bad frame arrives instead of after the cap.
class FramingWalker {
 public:
  FramingWalker(InputKind kind, std::uint64_t cap) : kind_(kind), cap_(cap) {}

  // Advances over the complete frames of `bytes`; an error message when one cannot be valid.
  std::optional<std::string> advance(std::span<const std::byte> bytes) {
    switch (kind_) {
      case InputKind::perf_data:
        return advance_perf(bytes);
      case InputKind::proto_binary:
        return advance_proto(bytes);
      case InputKind::proto_text:
        for (; pos_ < bytes.size(); ++pos_) {
          if (!is_text_byte(bytes[pos_])) {
            return fmt::format("at byte offset {}: byte {:#04x} cannot be in a text PerfDataProto",
                               pos_, std::to_integer<unsigned>(bytes[pos_]));
          }
        }
        return std::nullopt;
    }
    return std::nullopt;
  }

 private:
  // Pipe mode only: a file-mode image is laid out by offsets the parser checks afterwards.
  std::optional<std::string> advance_perf(std::span<const std::byte> bytes) {
    if (bytes.size() < 16) return std::nullopt;
    const bool swap = std::to_integer<char>(bytes[0]) == '2';
    if (pos_ == 0) {
      perfdata::ByteReader head(bytes.subspan(8, 8), swap);
      if (*head.read<std::uint64_t>() != 16) {
        pos_ = UINT64_MAX;  // file mode
        return std::nullopt;
      }
      pos_ = 16;
    }
    while (pos_ != UINT64_MAX && pos_ <= bytes.size() && bytes.size() - pos_ >= 16) {
      perfdata::ByteReader in(bytes.subspan(static_cast<std::size_t>(pos_)), swap);
      const auto type = *in.read<std::uint32_t>();
      in.skip(2);
      const auto size = *in.read<std::uint16_t>();
      if (size < 8) {
        return fmt::format("at byte offset {}: record size {} is smaller than its header", pos_ + 6,
                           size);
      }
      // The loop holds 16 bytes: the 8 after the header hold either size field.
      const std::uint64_t step =
          size + *perfdata::declared_trailer_size(
                     type, bytes.subspan(static_cast<std::size_t>(pos_) + 8, 8), swap);
      if (step > cap_) {
        return fmt::format(
            "at byte offset {}: a {} record of {} bytes with its data exceeds the {} "
            "input limit",
            pos_, record_type_name(type), step, format_byte_size(cap_));
      }
      pos_ += step;
    }
    return std::nullopt;
  }

  std::optional<std::string> advance_proto(std::span<const std::byte> bytes) {
    while (pos_ < bytes.size()) {
      std::uint64_t at = pos_;
      const auto key = varint(bytes, at);
      if (!key) return std::nullopt;  // incomplete: wait for more bytes
      const std::uint64_t field = *key >> 3;
      const unsigned wire_type = static_cast<unsigned>(*key & 7);
      if (field == 0 || wire_type == 3 || wire_type == 4 || wire_type > 5) {
        return fmt::format("at byte offset {}: {:#x} is not a protobuf field key", pos_, *key);
      }
      if (wire_type == 0) {
        if (!varint(bytes, at)) return std::nullopt;
      } else if (wire_type == 1 || wire_type == 5) {
        at += wire_type == 1 ? 8 : 4;
      } else {
        const auto length = varint(bytes, at);
        if (!length) return std::nullopt;
        if (*length > cap_) {
          return fmt::format(
              "at byte offset {}: field {} declares {} bytes, more than the {} "
              "input limit",
              pos_, field, *length, format_byte_size(cap_));
        }
        at += *length;
      }
      pos_ = at;
    }
    return std::nullopt;
  }

  // A varint starting at `at` (advanced past it); nullopt when incomplete. Over-long varints
  // read as a value no frame can have.
  static std::optional<std::uint64_t> varint(std::span<const std::byte> bytes, std::uint64_t& at) {
    std::uint64_t value = 0;
    for (unsigned shift = 0; at < bytes.size(); shift += 7) {
      const auto b = std::to_integer<std::uint64_t>(bytes[static_cast<std::size_t>(at++)]);
      if (shift < 64) value |= (b & 0x7f) << shift;
      if (!(b & 0x80)) return shift < 70 ? value : UINT64_MAX;
    }
    return std::nullopt;
  }

  InputKind kind_;
  std::uint64_t cap_;
  std::uint64_t pos_ = 0;
};

}  // namespace

std::string format_byte_size(std::uint64_t bytes) {
  if (bytes != 0 && bytes % (1ull << 30) == 0) return fmt::format("{} GiB", bytes >> 30);
  if (bytes != 0 && bytes % (1ull << 20) == 0) return fmt::format("{} MiB", bytes >> 20);
  if (bytes != 0 && bytes % (1ull << 10) == 0) return fmt::format("{} KiB", bytes >> 10);
  return fmt::format("{} bytes", bytes);
}

std::optional<std::uint64_t> parse_byte_size(std::string_view text) {
  std::uint64_t value = 0;
  std::size_t i = 0;
  for (; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i) {
    if (value > (UINT64_MAX - 9) / 10) return std::nullopt;
    value = value * 10 + static_cast<std::uint64_t>(text[i] - '0');
  }
  if (i == 0) return std::nullopt;
  const std::string_view unit = text.substr(i);
  unsigned shift = 0;
  if (unit == "K" || unit == "KiB") {
    shift = 10;
  } else if (unit == "M" || unit == "MiB") {
    shift = 20;
  } else if (unit == "G" || unit == "GiB") {
    shift = 30;
  } else if (!unit.empty()) {
    return std::nullopt;
  }
  if (value > (UINT64_MAX >> shift)) return std::nullopt;
  return value << shift;
}

Expected<InputImage> read_input(const std::filesystem::path& path, const InputLimits& limits) {
  const std::string name = path.string();
  const detail::UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (fd.get() < 0) {
    return unexpected(
        perfdata::io_error(name, fmt::format("cannot open: {}", detail::error_text(errno))));
  }
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0) {
    return unexpected(
        perfdata::io_error(name, fmt::format("cannot stat: {}", detail::error_text(errno))));
  }
  if (S_ISDIR(st.st_mode)) {
    return unexpected(perfdata::io_error(
        name, is_threads_directory(path)
                  ? "is a perf.data directory (perf record --threads: data + data.N), not one "
                    "file: read it with read_perf_data or stream_perf_data"
                  : "is a directory, not a perf.data file or PerfDataProto"));
  }
  const bool regular = S_ISREG(st.st_mode);
  const std::uint64_t max_bytes = regular ? limits.file_bytes : limits.stream_bytes;
  if (regular && static_cast<std::uint64_t>(st.st_size) > max_bytes) {
    return unexpected(
        rejected(path, fmt::format("input of {} bytes exceeds the {} in-memory input limit "
                                   "(--max-input-size)",
                                   st.st_size, format_byte_size(max_bytes))));
  }

  InputImage image;
  std::vector<std::byte>& bytes = image.bytes;
  std::optional<FramingWalker> walker;
  // Grow with what arrives, never past the cap (+1 byte to notice an overflow).
  const std::uint64_t limit = max_bytes + 1;
  std::size_t used = 0;
  // The whole capacity is reserved once (the file's size, or the cap of a stream): growing a
  // vector would hold the old and the new buffer at once, and resize() alone may double the
  // capacity past the cap. Reserved pages cost no memory until the bytes arrive.
  bytes.reserve(static_cast<std::size_t>(std::min<std::uint64_t>(
      regular ? static_cast<std::uint64_t>(st.st_size) + 1 : limit, limit)));
  const auto grow_to = [&bytes](std::uint64_t n) {
    if (n > bytes.capacity()) bytes.reserve(static_cast<std::size_t>(n));
    bytes.resize(static_cast<std::size_t>(n));
  };
  grow_to(std::min<std::uint64_t>(regular ? static_cast<std::uint64_t>(st.st_size) + 1 : 1 << 16,
                                  limit));
  for (;;) {
    if (used == bytes.size()) {
      if (bytes.size() >= limit) {
        return unexpected(rejected(
            path, fmt::format("input exceeds the {} in-memory input limit (--max-input-size); "
                              "streaming larger inputs is not supported yet",
                              format_byte_size(max_bytes))));
      }
      grow_to(std::min<std::uint64_t>(bytes.size() * 2, limit));
    }
    const ssize_t n = ::read(fd.get(), bytes.data() + used, bytes.size() - used);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      return unexpected(
          perfdata::io_error(name, fmt::format("read error: {}", detail::error_text(errno))));
    }
    if (n == 0) break;
    used += static_cast<std::size_t>(n);
    const auto so_far = std::span<const std::byte>(bytes).first(used);
    if (!walker && used >= kMinInputBytes) {
      const auto kind = kind_from_first_bytes(so_far.first(kMinInputBytes));
      if (!kind) {
        return unexpected(
            rejected(path,
                     "neither perf.data (no PERFILE2 magic) nor a PerfDataProto (its first bytes "
                     "are neither a protobuf field key nor text)"));
      }
      image.kind = *kind;
      walker.emplace(*kind, max_bytes);
    }
    if (walker) {
      if (auto problem = walker->advance(so_far)) return unexpected(rejected(path, *problem));
    }
  }
  bytes.resize(used);
  if (bytes.capacity() / 2 > used) bytes.shrink_to_fit();  // a short stream in a cap-sized buffer
  if (used < kMinInputBytes) {
    return unexpected(rejected(
        path,
        fmt::format("input of {} bytes is too short for perf.data or a PerfDataProto", used)));
  }
  return image;
}

PMUCAT_END_NAMESPACE
