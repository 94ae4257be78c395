#include "common/semantics.h"

#include <fmt/format.h>

#include <array>
#include <cstdio>
#include <memory>

#include "common/exit_codes.h"
#include "pmucat/version.h"

PMUCAT_BEGIN_NAMESPACE
namespace cli {

namespace {

// What `perf --version` prints, or nullopt when there is no perf on PATH.
std::optional<std::string> perf_version_text() {
  const std::unique_ptr<FILE, int (*)(FILE*)> pipe(popen("perf --version 2>/dev/null", "r"),
                                                   pclose);
  if (!pipe) return std::nullopt;
  std::string text;
  std::array<char, 256> buffer{};
  while (std::fgets(buffer.data(), static_cast<int>(buffer.size()), pipe.get()) != nullptr) {
    text += buffer.data();
  }
  if (text.empty()) return std::nullopt;
  return text;
}

}  // namespace

PerfSemanticsOption PerfSemanticsFlag::parsed() const {
  return {given_, value_};
}

Expected<std::optional<PerfRelease>, std::string> resolve_perf_semantics(
    const PerfSemanticsOption& option, const std::optional<std::string>& perf_on_path) {
  if (!option.given) return std::optional<PerfRelease>{};
  if (option.value.empty()) return std::optional<PerfRelease>{kBarePerfSemantics};
  if (option.value == "auto") {
    if (!perf_on_path) {
      return unexpected(
          std::string("--perf-semantics=auto: no perf on PATH to ask for its version; name one: ") +
          std::string(known_perf_releases_text()));
    }
    const std::string first_line = perf_on_path->substr(0, perf_on_path->find('\n'));
    if (auto version = parse_perf_release(first_line)) return std::optional<PerfRelease>{version};
    return unexpected(fmt::format(
        "--perf-semantics=auto: the perf on PATH says '{}', a release pmucat does not follow "
        "({}); name the nearest one",
        first_line, known_perf_releases_text()));
  }
  if (auto version = parse_perf_release(option.value)) return std::optional<PerfRelease>{version};
  return unexpected(
      fmt::format("--perf-semantics: '{}' is not a perf release pmucat follows ({}, "
                  "or auto)",
                  option.value, known_perf_releases_text()));
}

Expected<std::optional<PerfRelease>, std::string> resolve_perf_semantics(
    const PerfSemanticsOption& option) {
  const bool needs_perf = option.given && option.value == "auto";
  return resolve_perf_semantics(option, needs_perf ? perf_version_text() : std::nullopt);
}

std::optional<int> resolve_semantics_option(const PerfSemanticsFlag& flag, CommonOptions& common,
                                            std::optional<PerfRelease>& version,
                                            std::string_view tool) {
  auto resolved = resolve_perf_semantics(flag.parsed());
  if (!resolved) {
    fmt::print(stderr, "{}: error: {}\n", tool, resolved.error());
    return to_int(ExitCode::usage);
  }
  version = *resolved;
  common.tables = *resolved;
  return std::nullopt;
}

}  // namespace cli
PMUCAT_END_NAMESPACE
