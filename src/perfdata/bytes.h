// Bounds-checked cursor over a byte image, and an appending little-endian writer.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "pmucat/version.h"

PMUCAT_BEGIN_NAMESPACE
namespace perfdata {

// Reads integers of the image's byte order. Every read checks the remaining size first and
// returns nullopt instead of reading past the end.
class ByteReader {
 public:
  ByteReader(std::span<const std::byte> bytes, bool swap, std::uint64_t base_offset = 0)
      : bytes_(bytes), swap_(swap), base_(base_offset) {}

  std::size_t position() const { return pos_; }
  std::uint64_t file_offset() const { return base_ + pos_; }  // for diagnostics
  std::size_t remaining() const { return bytes_.size() - pos_; }
  bool at_end() const { return pos_ == bytes_.size(); }
  bool swapped() const { return swap_; }

  template <class T>
  std::optional<T> read() {
    static_assert(std::is_integral_v<T>);
    if (remaining() < sizeof(T)) return std::nullopt;
    if constexpr (std::endian::native == std::endian::little) {
      // The usual case, one copy, small enough to be inlined (decoding samples is on the
      // conversion's hot path); the byte loop stays out of line.
      if (!swap_) {
        std::make_unsigned_t<T> v;
        std::memcpy(&v, bytes_.data() + pos_, sizeof(T));
        pos_ += sizeof(T);
        return static_cast<T>(v);
      }
    }
    return read_bytewise<T>();
  }

  // `n` integers of type T into `out`, replacing its contents; false (and nothing read) when
  // fewer bytes remain.
  template <class T>
  bool read_array(std::vector<T>& out, std::uint64_t n) {
    static_assert(std::is_integral_v<T>);
    if (n > remaining() / sizeof(T)) return false;
    out.resize(static_cast<std::size_t>(n));
    if constexpr (std::endian::native == std::endian::little) {
      if (!swap_) {
        if (n != 0) std::memcpy(out.data(), bytes_.data() + pos_, out.size() * sizeof(T));
        pos_ += out.size() * sizeof(T);
        return true;
      }
    }
    for (auto& v : out) v = *read<T>();
    return true;
  }

  std::optional<std::span<const std::byte>> take(std::uint64_t n) {
    if (n > remaining()) return std::nullopt;
    auto out = bytes_.subspan(pos_, static_cast<std::size_t>(n));
    pos_ += static_cast<std::size_t>(n);
    return out;
  }

  bool skip(std::uint64_t n) { return take(n).has_value(); }

  // A perf_header_string: u32 len, then len bytes holding a NUL-terminated string.
  std::optional<std::string> read_header_string() {
    const auto len = read<std::uint32_t>();
    if (!len) return std::nullopt;
    const auto data = take(*len);
    if (!data) return std::nullopt;
    std::string out;
    for (std::byte b : *data) {
      if (b == std::byte{0}) break;
      out += static_cast<char>(b);
    }
    return out;
  }

 private:
  template <class T>
  [[gnu::noinline]] std::optional<T> read_bytewise() {
    std::make_unsigned_t<T> v = 0;
    for (std::size_t i = 0; i < sizeof(T); ++i) {
      const std::size_t index = swap_ ? sizeof(T) - 1 - i : i;
      const auto b = std::to_integer<std::make_unsigned_t<T>>(bytes_[pos_ + index]);
      v = static_cast<std::make_unsigned_t<T>>(v |
                                               static_cast<std::make_unsigned_t<T>>(b << (8 * i)));
    }
    pos_ += sizeof(T);
    return static_cast<T>(v);
  }

  std::span<const std::byte> bytes_;
  bool swap_ = false;
  std::uint64_t base_ = 0;
  std::size_t pos_ = 0;
};

// Appends little-endian integers and padded strings.
class ByteWriter {
 public:
  template <class T>
  ByteWriter& put(T value) {
    static_assert(std::is_integral_v<T>);
    auto v = static_cast<std::make_unsigned_t<T>>(value);
    const std::size_t at = bytes_.size();
    bytes_.resize(at + sizeof(T));
    if constexpr (std::endian::native == std::endian::little) {
      // One copy per value: encoding samples is on the conversion's hot path.
      std::memcpy(bytes_.data() + at, &v, sizeof(T));
    } else {
      for (std::size_t i = 0; i < sizeof(T); ++i) {
        bytes_[at + i] = static_cast<std::byte>((v >> (8 * i)) & 0xff);
      }
    }
    return *this;
  }
  template <class T>
  ByteWriter& put_array(std::span<const T> values) {
    static_assert(std::is_integral_v<T>);
    if constexpr (std::endian::native == std::endian::little) {
      const std::size_t at = bytes_.size();
      bytes_.resize(at + values.size() * sizeof(T));
      if (!values.empty())
        std::memcpy(bytes_.data() + at, values.data(), values.size() * sizeof(T));
    } else {
      for (T v : values) put(v);
    }
    return *this;
  }
  ByteWriter& put_bytes(std::span<const std::byte> data) {
    bytes_.insert(bytes_.end(), data.begin(), data.end());
    return *this;
  }
  // `text` and a NUL, zero-padded to a multiple of `align`.
  ByteWriter& put_padded_string(std::string_view text, std::size_t align) {
    const std::size_t n = (text.size() + 1 + align - 1) / align * align;
    for (char c : text) bytes_.push_back(static_cast<std::byte>(c));
    bytes_.resize(bytes_.size() + (n - text.size()), std::byte{0});
    return *this;
  }
  // perf_header_string with perf's 64-byte padding.
  ByteWriter& put_header_string(std::string_view text) {
    const std::size_t n = (text.size() + 1 + 63) / 64 * 64;
    put(static_cast<std::uint32_t>(n));
    return put_padded_string(text, 64);
  }
  ByteWriter& pad_to(std::size_t align) {
    bytes_.resize((bytes_.size() + align - 1) / align * align, std::byte{0});
    return *this;
  }
  std::size_t size() const { return bytes_.size(); }
  std::vector<std::byte>& bytes() { return bytes_; }
  std::vector<std::byte> take() { return std::move(bytes_); }

 private:
  std::vector<std::byte> bytes_;
};

}  // namespace perfdata
PMUCAT_END_NAMESPACE
