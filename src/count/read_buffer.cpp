// What read() of a perf event returns, parsed by the layout its read_format asks for; perf
// stat's scaling of a multiplexed count.
#include <fmt/core.h>

#include <cmath>
#include <cstring>

#include "pmucat/count.h"
#include "pmucat/diagnostic_ids.h"

PMUCAT_BEGIN_NAMESPACE
namespace {

std::size_t words_per_member(std::uint64_t read_format) {
  return 1 + ((read_format & read_fmt::id) ? 1 : 0) + ((read_format & read_fmt::lost) ? 1 : 0);
}

std::size_t header_words(std::uint64_t read_format) {
  return ((read_format & read_fmt::group) ? 1 : 0) +
         ((read_format & read_fmt::total_time_enabled) ? 1 : 0) +
         ((read_format & read_fmt::total_time_running) ? 1 : 0);
}

// Host-order 64-bit words, as the kernel writes them to this process.
class Words {
 public:
  explicit Words(std::span<const std::byte> bytes) : bytes_(bytes) {}
  std::size_t left() const { return bytes_.size() / 8 - at_; }
  std::uint64_t next() {
    std::uint64_t word = 0;
    std::memcpy(&word, bytes_.data() + 8 * at_, sizeof word);
    ++at_;
    return word;
  }

 private:
  std::span<const std::byte> bytes_;
  std::size_t at_ = 0;
};

[[gnu::cold]] Diagnostic read_error(DiagId id, std::string_view what, std::string message) {
  return make_file_diagnostic(Severity::error, id, what, std::move(message));
}

}  // namespace

std::size_t read_buffer_size(std::uint64_t read_format, std::size_t members) {
  const bool group = (read_format & read_fmt::group) != 0;
  // In the layout without PERF_FORMAT_GROUP the value comes first, then the times, then id and
  // lost: the same number of words as one member after the times.
  return 8 * (header_words(read_format) + (group ? members : 1) * words_per_member(read_format));
}

Expected<ReadBuffer> parse_read_buffer(std::span<const std::byte> bytes, std::uint64_t read_format,
                                       std::size_t members, std::string_view what) {
  ReadBuffer buffer;
  if (auto error = parse_read_buffer(bytes, read_format, members, what, buffer)) {
    return unexpected(std::move(*error));
  }
  return buffer;
}

std::optional<Diagnostic> parse_read_buffer(std::span<const std::byte> bytes,
                                            std::uint64_t read_format, std::size_t members,
                                            std::string_view what, ReadBuffer& buffer) {
  const bool group = (read_format & read_fmt::group) != 0;
  if (!group) members = 1;
  if (members > kMaxGroupRead) {
    return read_error(
        DiagId::count_read_garbled, what,
        fmt::format("a group of {} counters is past the {} pmucat reads", members, kMaxGroupRead));
  }
  const std::size_t want = read_buffer_size(read_format, members);
  if (bytes.size() != want) {
    return read_error(
        bytes.size() < want ? DiagId::count_read_short : DiagId::count_read_garbled, what,
        fmt::format("read() returned {} bytes; read_format {:#x} for {} counter{} lays out {}",
                    bytes.size(), read_format, members, members == 1 ? "" : "s", want));
  }
  Words words(bytes);
  std::uint64_t first_value = 0;
  if (group) {
    const std::uint64_t nr = words.next();
    if (nr != members) {
      return read_error(
          DiagId::count_read_garbled, what,
          fmt::format("the group read says {} counters; {} were opened in it", nr, members));
    }
  } else {
    first_value = words.next();
  }
  buffer.enabled.reset();
  buffer.running.reset();
  if (read_format & read_fmt::total_time_enabled) buffer.enabled = words.next();
  if (read_format & read_fmt::total_time_running) buffer.running = words.next();
  buffer.counters.resize(members);
  for (std::size_t i = 0; i < members; ++i) {
    CounterRead& counter = buffer.counters[i];
    counter.value = group ? words.next() : first_value;
    counter.id.reset();
    counter.lost.reset();
    if (read_format & read_fmt::id) counter.id = words.next();
    if (read_format & read_fmt::lost) counter.lost = words.next();
  }
  return std::nullopt;
}

std::optional<double> scale_count(std::uint64_t value, std::uint64_t enabled,
                                  std::uint64_t running) {
  if (running == 0 || enabled == 0) return std::nullopt;
  if (running >= enabled) return static_cast<double>(value);
  // libperf's perf_counts_values__scale (perf 6.1 to 7.3): the product truncated to a u64.
  return std::trunc(static_cast<double>(value) * static_cast<double>(enabled) /
                    static_cast<double>(running));
}

PMUCAT_END_NAMESPACE
