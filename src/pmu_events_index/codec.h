// The byte codec of a model file (internal to vendor_index): little-endian integers, strings as a
// u32 length and their bytes, and the records built from them. The reader checks every read
// against the bytes present and remembers the first failure with its offset.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "pmucat/diagnostic.h"
#include "pmucat/vendor_events.h"

PMUCAT_BEGIN_NAMESPACE
namespace pmu_events_index {

inline constexpr std::string_view kMagic = "PMUCATVI";
// Sizes that bound counts before anything is reserved: the least bytes one item can take.
inline constexpr std::size_t kNameEntrySize = 16;
inline constexpr std::size_t kMinDiagnosticSize = 1 + 4 + 24 + 3 * 4 + 1 + 4;
// Notes of notes are not produced; the bound keeps a hostile file from nesting deeply.
inline constexpr int kMaxNoteDepth = 4;
// The least bytes one metric record takes: seventeen empty strings (the location's file among
// them), the flags, the location's line, column, length and offset.
inline constexpr std::size_t kMinMetricSize = 17 * 4 + 1 + 3 * 4 + 8;
static_assert(kMinMetricSize == 89);
// A metric group description: two empty strings. A counter: three, and an empty location.
inline constexpr std::size_t kMinGroupDescriptionSize = 2 * 4;
inline constexpr std::size_t kMinCounterSize = 3 * 4 + 4 + 3 * 4 + 8;

class Writer {
 public:
  void u8(std::uint8_t value) { bytes_.push_back(static_cast<char>(value)); }
  void u32(std::uint32_t value);
  void u64(std::uint64_t value);
  void str(std::string_view text);
  void range(const SourceRange& range);
  void diagnostic(const Diagnostic& diagnostic);
  void event(const VendorEvent& event);
  void metric(const VendorMetric& metric);
  void group_description(const VendorMetricGroupDescription& description);
  void counter(const VendorCounterInfo& counter);
  // Overwrites the u32 at `offset` (a count or offset known only later).
  void patch_u32(std::size_t offset, std::uint32_t value);
  std::size_t size() const { return bytes_.size(); }
  std::string take() && { return std::move(bytes_); }

 private:
  std::string bytes_;
};

class Reader {
 public:
  Reader(std::string_view bytes, std::size_t offset) : bytes_(bytes), offset_(offset) {}

  std::uint8_t u8();
  std::uint32_t u32();
  std::uint64_t u64();
  std::string str();
  std::string_view str_view();
  SourceRange range();
  Diagnostic diagnostic(int depth = 0);
  VendorEvent event();
  VendorMetric metric();
  VendorMetricGroupDescription group_description();
  VendorCounterInfo counter();
  // A count of items of at least `min_size` bytes each that must fit in the bytes left.
  std::uint32_t count(std::size_t min_size);

  bool ok() const { return failed_at_ == kNone; }
  std::size_t offset() const { return offset_; }
  std::size_t remaining() const {
    return ok() && offset_ < bytes_.size() ? bytes_.size() - offset_ : 0;
  }
  void fail(std::string message);
  // The first failure: its byte offset and what was wrong.
  std::size_t failed_at() const { return failed_at_; }
  const std::string& failure() const { return failure_; }

 private:
  static constexpr std::size_t kNone = static_cast<std::size_t>(-1);
  bool take(std::size_t size, const char* what);
  std::string_view bytes_;
  std::size_t offset_;
  std::size_t failed_at_ = kNone;
  std::string failure_;
};

}  // namespace pmu_events_index
PMUCAT_END_NAMESPACE
