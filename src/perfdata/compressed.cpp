// The records inside COMPRESSED records (perf record -z): one zstd stream runs through all of a
// file's COMPRESSED records, and a record may continue in the next one, so the pending bytes of
// an unfinished record are kept (at most one record, 64 KiB) between calls.
#include <fmt/format.h>

#include <cstring>

#include "perfdata/bytes.h"
#include "pmucat/perfdata.h"

#ifdef PMUCAT_HAVE_ZSTD
#include <zstd.h>
#endif

PMUCAT_BEGIN_NAMESPACE

struct CompressedRecords::State {
#ifdef PMUCAT_HAVE_ZSTD
  State() : stream(ZSTD_createDStream()) {}
  ~State() {
    ZSTD_freeDStream(stream);
  }
  State(const State&) = delete;
  State& operator=(const State&) = delete;
  ZSTD_DStream* stream;
#endif
  std::vector<std::byte> pending;
  std::vector<std::byte> chunk = std::vector<std::byte>(std::size_t{128} << 10);
  Record inner;
};

CompressedRecords::CompressedRecords() : state_(std::make_unique<State>()) {}
CompressedRecords::CompressedRecords(CompressedRecords&&) noexcept = default;
CompressedRecords& CompressedRecords::operator=(CompressedRecords&&) noexcept = default;
CompressedRecords::~CompressedRecords() = default;

bool CompressedRecords::supported() {
#ifdef PMUCAT_HAVE_ZSTD
  return true;
#else
  return false;
#endif
}

std::optional<std::string> CompressedRecords::expand(
    const Record& compressed, bool other_endian, const std::function<void(const Record&)>& emit) {
#ifndef PMUCAT_HAVE_ZSTD
  (void)compressed, (void)other_endian, (void)emit;
  return std::string("built without zstd (libzstd-dev)");
#else
  if (other_endian) return std::string("other-endian COMPRESSED records are not expanded");
  State& s = *state_;
  std::span<const std::byte> data(compressed.payload);
  if (compressed.type == record_type::compressed2) {
    // A u64 data_size, the zstd bytes, then padding to 8 bytes (not part of the stream).
    if (data.size() < 8) return std::string("COMPRESSED2 record too short for its data_size");
    perfdata::ByteReader size_in(data.first(8), false);
    const auto data_size = *size_in.read<std::uint64_t>();
    if (data_size > data.size() - 8) {
      return fmt::format("COMPRESSED2 data_size {} exceeds the {} bytes after it", data_size,
                         data.size() - 8);
    }
    data = data.subspan(8, static_cast<std::size_t>(data_size));
  }
  ZSTD_inBuffer in{data.data(), data.size(), 0};
  while (in.pos < in.size) {
    ZSTD_outBuffer out{s.chunk.data(), s.chunk.size(), 0};
    const std::size_t rc = ZSTD_decompressStream(s.stream, &out, &in);
    if (ZSTD_isError(rc)) return std::string("zstd: ") + ZSTD_getErrorName(rc);
    s.pending.insert(s.pending.end(), s.chunk.begin(),
                     s.chunk.begin() + static_cast<std::ptrdiff_t>(out.pos));
    std::size_t at = 0;
    while (s.pending.size() - at >= 8) {
      perfdata::ByteReader head(std::span(s.pending).subspan(at, 8), false);
      const auto type = *head.read<std::uint32_t>();
      const auto misc = *head.read<std::uint16_t>();
      const auto size = *head.read<std::uint16_t>();
      if (size < 8) return fmt::format("a decompressed record of size {}", size);
      if (s.pending.size() - at < size) break;
      s.inner.type = type;
      s.inner.misc = misc;
      s.inner.payload.assign(s.pending.begin() + static_cast<std::ptrdiff_t>(at + 8),
                             s.pending.begin() + static_cast<std::ptrdiff_t>(at + size));
      s.inner.file_offset = compressed.file_offset;
      emit(s.inner);
      at += size;
    }
    s.pending.erase(s.pending.begin(), s.pending.begin() + static_cast<std::ptrdiff_t>(at));
    if (out.pos == 0 && rc != 0 && in.pos == in.size) break;
  }
  return std::nullopt;
#endif
}

PMUCAT_END_NAMESPACE
