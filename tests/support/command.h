// Running a program for a test as a whole process: argv, environment, stdin, working directory
// and a time limit in; stdout, stderr and the exit status out.
#pragma once

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "pmucat/version.h"

PMUCAT_BEGIN_NAMESPACE
namespace testing {

inline constexpr std::chrono::seconds kCommandTimeout{300};

struct Command {
  // argv[0] without a '/' is looked up on the PATH the program will see (after `set_env`).
  std::vector<std::string> argv;
  // "NAME=value" entries added to the test's environment, replacing a variable of that name.
  std::vector<std::string> set_env;
  // Variables removed from the test's environment.
  std::vector<std::string> unset_env;
  // What the program reads on stdin; nothing (an empty stdin) when absent.
  std::optional<std::string> stdin_text;
  // Where the program starts; the test's own directory when empty.
  std::filesystem::path cwd;
  // A hung program (and every process it started) is killed after this long, so a bug shows as a
  // failed test rather than a ctest timeout. Not a performance bound: keep it generous.
  std::chrono::seconds timeout = kCommandTimeout;
  // stderr goes to the test's own stderr (`err` stays empty), for commands whose chatter should
  // show in the test log.
  bool inherit_stderr = false;
};

struct CommandResult {
  std::string out;
  std::string err;
  int status = -1;  // exit status; -1 when the program did not exit normally or did not start
  bool timed_out = false;
};

// Runs `command` and waits for it (and for its stdout and stderr to close).
CommandResult run(const Command& command);

// Runs `script` with /bin/sh -c from the source tree's root (fixtures/ paths work), with an empty
// stdin; stderr is captured.
CommandResult run_command(const std::string& script,
                          std::chrono::seconds timeout = kCommandTimeout);

// Runs `command` with stdin, stdout and stderr on a new pseudo-terminal, as in an interactive
// shell (`stdin_text` and `inherit_stderr` do not apply). `out` gets everything written to the
// terminal: stdout and stderr together, line ends as the terminal sends them ("\r\n").
CommandResult run_on_terminal(const Command& command);

// `text` quoted for /bin/sh.
std::string shell_quote(const std::string& text);

// The source tree's root and the build tree's root.
std::string source_dir();
std::string binary_dir();

}  // namespace testing
PMUCAT_END_NAMESPACE
