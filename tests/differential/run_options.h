// Command-line options of the differential test binary. They travel to the tests through the
// environment variables the tests already read, so `--seed 7` and `PMUCAT_DIFF_SEED=7` are one
// mechanism and ctest, which sets only the environment, keeps working.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "pmucat/expected.h"

PMUCAT_BEGIN_NAMESPACE
namespace differential {

struct RunOptions {
  std::optional<std::uint64_t> seed;  // --seed N
  std::optional<unsigned> count;      // --count N (random specs per tree)
  std::vector<std::string> rest;      // everything else (gtest flags), program name first
};

// Splits `args` (program name first) into our options and the rest; the error text says what is
// wrong with the command line.
Expected<RunOptions, std::string> parse_run_options(const std::vector<std::string>& args);

// The environment assignments (name, value) that carry `options` to the tests.
std::vector<std::pair<std::string, std::string>> environment_for(const RunOptions& options);

}  // namespace differential
PMUCAT_END_NAMESPACE
