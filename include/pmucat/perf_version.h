// The perf releases pmucat can follow bit for bit: which perf a `Semantics` imitates and which
// perf's rules turn a vendor JSON table into event strings (docs/perf-compat.md says what differs
// between them and pmucat's own semantics).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

namespace pmucat {

enum class PerfVersion : std::uint8_t {
  v6_1,   // Debian 12's linux-perf (6.1.x); the vendor tables of linux 6.1 (Dec 2022)
  v6_12,  // perf 6.12.x, built from Debian 12's linux-source-6.12; the tables of linux 6.12
};

// The newest release pmucat follows: what the default catalog's tables and pmucat's own
// semantics are measured against.
inline constexpr PerfVersion kNewestPerfVersion = PerfVersion::v6_12;

// Every release pmucat follows, oldest first.
std::span<const PerfVersion> known_perf_versions();

// "6.1" or "6.12".
std::string_view to_string(PerfVersion version);

// The release a version text names: "6.1", "6.12", or what `perf --version` prints of a point
// release ("perf version 6.1.187", "6.12.118", "6.12.118-dirty"); nullopt for any other release.
std::optional<PerfVersion> parse_perf_version(std::string_view text);

}  // namespace pmucat
