// The differential test's own main: `--seed N` and `--count N` on top of googletest's flags.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "run_options.h"

int main(int argc, char** argv) {
  const std::vector<std::string> args(argv, argv + argc);
  auto options = pmucat::differential::parse_run_options(args);
  if (!options) {
    fmt::print(stderr, "{}\n", options.error());
    return 2;
  }
  for (const auto& [name, value] : pmucat::differential::environment_for(*options)) {
    ::setenv(name.c_str(), value.c_str(), 1);
  }
  std::vector<char*> rest;
  for (auto& arg : options->rest) rest.push_back(arg.data());
  int rest_count = static_cast<int>(rest.size());
  rest.push_back(nullptr);
  testing::InitGoogleTest(&rest_count, rest.data());
  return RUN_ALL_TESTS();
}
