#include "support/tools.h"

#include <sstream>

#include "pmucat/version.h"
#include "support/scratch_dir.h"

PMUCAT_BEGIN_NAMESPACE
namespace testing {
namespace {

// The tools' index cache (a JSON --events-dir is compiled into $XDG_CACHE_HOME) lives in a
// directory of this test process, removed when it exits: an entry left in the user's cache by
// another build must never decide what a test sees.
const std::string& private_cache_home() {
  static const ScratchDir cache_home;
  static const std::string path = cache_home.path().string();
  return path;
}

Command tool_command(const std::string& script) {
  Command command;
  command.argv = {"/bin/sh", "-c", script};
  command.cwd = source_dir();
  command.unset_env = {"NO_COLOR", "COLUMNS", "PMUCAT_SYSFS"};
  command.set_env = {"PATH=" + tool_path(), "XDG_CACHE_HOME=" + private_cache_home()};
  return command;
}

}  // namespace

std::string tool(const std::string& name) {
  return binary_dir() + "/cli/" + name + "/" + name;
}

std::string tool_path() {
  std::string path;
  for (const char* name : kTools) path += binary_dir() + "/cli/" + name + ":";
  return path + "/usr/bin:/bin";
}

CommandResult run_tool_command(const std::string& command, const std::string& tree) {
  Command run_it = tool_command(command);
  if (!tree.empty() && tree != "-") run_it.set_env.push_back("PMUCAT_SYSFS=fixtures/sysfs/" + tree);
  return run(run_it);
}

CommandResult run_on_terminal(const std::string& command, const std::string& environment) {
  Command run_it = tool_command(command);
  std::istringstream words(environment);
  for (std::string assignment; words >> assignment;) run_it.set_env.push_back(assignment);
  return run_on_terminal(run_it);
}

bool have_perf() {
  return run_command("perf version").status == 0;
}

}  // namespace testing
PMUCAT_END_NAMESPACE
