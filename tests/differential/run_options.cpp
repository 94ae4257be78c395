#include "run_options.h"

#include <CLI/CLI.hpp>
#include <algorithm>

#include "pmucat/version.h"

PMUCAT_BEGIN_NAMESPACE
namespace differential {

Expected<RunOptions, std::string> parse_run_options(const std::vector<std::string>& args) {
  RunOptions options;
  CLI::App app{"pmucat against the real perf 6.1 (googletest flags are passed through)"};
  app.allow_extras();
  // gtest prints its own help for --help; ours is --diff-help.
  app.set_help_flag("--diff-help", "Print the differential options and exit");
  std::uint64_t seed = 0;
  unsigned count = 0;
  auto* seed_option =
      app.add_option("--seed", seed, "Seed of every random tree and spec (PMUCAT_DIFF_SEED)");
  auto* count_option = app.add_option("--count", count,
                                      "Random specs per tree; random trees: max(4, N/10) "
                                      "(PMUCAT_DIFF_COUNT)")
                           ->check(CLI::Range(1U, 1000000U));
  if (args.empty()) return unexpected(std::string("no program name"));
  std::vector<std::string> reversed(args.rbegin(), args.rend() - 1);  // CLI11 pops from the back
  try {
    app.parse(reversed);
  } catch (const CLI::CallForHelp&) {
    return unexpected(app.help());
  } catch (const CLI::ParseError& error) {
    return unexpected(std::string(error.what()) + "\n" + app.help());
  }
  if (*seed_option) options.seed = seed;
  if (*count_option) options.count = count;
  options.rest.push_back(args.front());
  const auto extras = app.remaining();
  options.rest.insert(options.rest.end(), extras.begin(), extras.end());
  return options;
}

std::vector<std::pair<std::string, std::string>> environment_for(const RunOptions& options) {
  std::vector<std::pair<std::string, std::string>> assignments;
  if (options.seed) assignments.emplace_back("PMUCAT_DIFF_SEED", std::to_string(*options.seed));
  if (options.count) assignments.emplace_back("PMUCAT_DIFF_COUNT", std::to_string(*options.count));
  return assignments;
}

}  // namespace differential
PMUCAT_END_NAMESPACE
