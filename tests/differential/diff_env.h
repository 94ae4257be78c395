// The environment knobs every differential suite reads: the full run, the seed of the sampled
// CI run, and sample sizes.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <exception>
#include <string>
#include <string_view>

#include "pmucat/encode.h"
#include "pmucat/perf_profile.h"

PMUCAT_BEGIN_NAMESPACE
namespace differential {

// A number from the environment (decimal or 0x hex), or `fallback` when unset or unreadable.
inline std::uint64_t env_number(const char* name, std::uint64_t fallback) {
  const char* text = std::getenv(name);
  if (text == nullptr || *text == '\0') return fallback;
  try {
    return std::stoull(text, nullptr, 0);
  } catch (const std::exception&) {
    return fallback;
  }
}

// `variable`=1 (PMUCAT_VENDOR_DIFF_ALL: also the vendor test main's --all): every case instead of
// CI's sample.
inline bool full_run(const char* variable = "PMUCAT_VENDOR_DIFF_ALL") {
  const char* all = std::getenv(variable);
  return all != nullptr && std::string(all) == "1";
}

// PMUCAT_DIFF_SEED, else the suite's own `fallback`: which sample CI's run takes.
inline std::uint64_t seed(std::uint64_t fallback = 20261201) {
  return env_number("PMUCAT_DIFF_SEED", fallback);
}

// The perf release the suites compare with: $PMUCAT_DIFF_PERF_VERSION ("6.1", the default,
// "6.12" or "7.3"). ctest runs every differential suite once per release (the `.perf6.12` and
// `.perf7.3` tests set it).
// An unknown value is taken as 6.1, and the oracle's own --version check then skips the suite.
inline PerfRelease oracle_perf_version() {
  const char* text = std::getenv("PMUCAT_DIFF_PERF_VERSION");
  if (text == nullptr || *text == '\0') return PerfRelease::v6_1;
  return parse_perf_release(text).value_or(PerfRelease::v6_1);
}

// The semantics that must equal the oracle bit for bit: the oracle's release's, unless
// $PMUCAT_DIFF_SEMANTICS names others ("6.12", "pmucat"), to measure how far they are from that
// perf (docs/robustness.md, "Against perf 7.3": 6.12's semantics against perf 7.3).
inline Profile oracle_semantics() {
  if (const char* text = std::getenv("PMUCAT_DIFF_SEMANTICS"); text != nullptr && *text != '\0') {
    if (const auto profile = parse_profile(text)) return *profile;
  }
  return Profile::perf(oracle_perf_version());
}

}  // namespace differential
PMUCAT_END_NAMESPACE
