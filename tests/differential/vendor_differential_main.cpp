// vendor_differential_test's main: `--all` (every model, 50 events each: the full run of
// docs/robustness.md), `--seed N`, `--count N` (events per model, PMUCAT_VENDOR_DIFF_COUNT) on
// top of googletest's flags.
// They travel as environment variables so that ctest, which sets only the environment, and the
// command line are one mechanism.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <string>
#include <vector>

#include "run_options.h"

int main(int argc, char** argv) {
  std::vector<std::string> args(argv, argv + argc);
  const auto all = std::find(args.begin() + 1, args.end(), "--all");
  if (all != args.end()) {
    ::setenv("PMUCAT_VENDOR_DIFF_ALL", "1", 1);
    args.erase(all);
  }
  auto options = pmucat::differential::parse_run_options(args);
  if (!options) {
    fmt::print(stderr,
               "{}\n  --all  every x86 model with >= 50 events (PMUCAT_VENDOR_DIFF_ALL=1)\n",
               options.error());
    return 2;
  }
  // --count is events per model here, in a variable of its own: PMUCAT_DIFF_COUNT (the sanitizer
  // job's 20 random specs per tree) means something else to differential_test.
  for (const auto& [name, value] : pmucat::differential::environment_for(*options)) {
    const bool count = name == "PMUCAT_DIFF_COUNT";
    ::setenv(count ? "PMUCAT_VENDOR_DIFF_COUNT" : name.c_str(), value.c_str(), 1);
  }
  std::vector<char*> rest;
  for (auto& arg : options->rest) rest.push_back(arg.data());
  int rest_count = static_cast<int>(rest.size());
  rest.push_back(nullptr);
  testing::InitGoogleTest(&rest_count, rest.data());
  return RUN_ALL_TESTS();
}
