#include "pmucat/perf_version.h"

#include <array>
#include <charconv>

namespace pmucat {

namespace {

constexpr std::array kVersions{PerfVersion::v6_1, PerfVersion::v6_12};

// Reads a decimal number at the front of `text`, advancing past it.
std::optional<unsigned> take_number(std::string_view& text) {
  unsigned value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc{} || end == text.data()) return std::nullopt;
  text.remove_prefix(static_cast<std::size_t>(end - text.data()));
  return value;
}

}  // namespace

std::span<const PerfVersion> known_perf_versions() { return kVersions; }

std::string_view to_string(PerfVersion version) {
  switch (version) {
    case PerfVersion::v6_1:
      return "6.1";
    case PerfVersion::v6_12:
      return "6.12";
  }
  return "?";
}

std::optional<PerfVersion> parse_perf_version(std::string_view text) {
  constexpr std::string_view kPrefix = "perf version ";
  if (text.starts_with(kPrefix)) text.remove_prefix(kPrefix.size());
  const auto major = take_number(text);
  if (!major || text.empty() || text.front() != '.') return std::nullopt;
  text.remove_prefix(1);
  const auto minor = take_number(text);
  if (!minor) return std::nullopt;
  // What follows the minor number: nothing, a point release, or a build suffix.
  if (!text.empty() && text.front() != '.' && text.front() != '-' && text.front() != '+' &&
      text.front() != '\n' && text.front() != ' ')
    return std::nullopt;
  if (*major != 6) return std::nullopt;
  if (*minor == 1) return PerfVersion::v6_1;
  if (*minor == 12) return PerfVersion::v6_12;
  return std::nullopt;
}

}  // namespace pmucat
