#include "pmucat/perf_profile.h"

#include <charconv>

PMUCAT_BEGIN_NAMESPACE

namespace {

// Reads a decimal number at the front of `text`, advancing past it.
std::optional<unsigned> take_number(std::string_view& text) {
  unsigned value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc{} || end == text.data()) return std::nullopt;
  text.remove_prefix(static_cast<std::size_t>(end - text.data()));
  return value;
}

// The table's names, each after ", ": known_perf_releases_text() drops the first separator.
constexpr std::string_view kJoinedNames =
#define PMUCAT_PERF_RELEASE(id, name, tables, attr_size, lexer, metric_dialect, metric_rules, \
                            jevents, oracle)                                                  \
  ", " name
#include "pmucat/perf_releases.def"
#undef PMUCAT_PERF_RELEASE
    ;

}  // namespace

std::string_view known_perf_releases_text() {
  return kJoinedNames.substr(2);
}

std::optional<PerfRelease> parse_perf_release(std::string_view text) {
  constexpr std::string_view kPrefix = "perf version ";
  if (text.starts_with(kPrefix)) text.remove_prefix(kPrefix.size());
  const std::string_view start = text;
  const auto major = take_number(text);
  if (!major || text.empty() || text.front() != '.') return std::nullopt;
  text.remove_prefix(1);
  if (!take_number(text)) return std::nullopt;
  const std::string_view major_minor = start.substr(0, start.size() - text.size());
  // What follows the minor number: nothing, a point release, or a build suffix.
  if (!text.empty() && text.front() != '.' && text.front() != '-' && text.front() != '+' &&
      text.front() != '\n' && text.front() != ' ')
    return std::nullopt;
  for (const ReleaseInfo& release : perf_releases()) {
    if (release.name == major_minor) return release.release;
  }
  return std::nullopt;
}

std::string_view Profile::name() const {
  if (!perf_) return "pmucat";
  switch (release_) {
#define PMUCAT_PERF_RELEASE(id, name, tables, attr_size, lexer, metric_dialect, metric_rules, \
                            jevents, oracle)                                                  \
  case PerfRelease::id:                                                                       \
    return "perf " name;
#include "pmucat/perf_releases.def"
#undef PMUCAT_PERF_RELEASE
  }
  return "perf";
}

std::optional<Profile> parse_profile(std::string_view text) {
  if (text == "pmucat") return Profile::pmucat();
  if (text.starts_with("perf-") || text.starts_with("perf ")) text.remove_prefix(5);
  if (const auto release = parse_perf_release(text)) return Profile::perf(*release);
  return std::nullopt;
}

PMUCAT_END_NAMESPACE
