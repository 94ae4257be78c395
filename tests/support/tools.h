// Running the built tools from the repository root, as a user would in a shell.
#pragma once

#include <array>
#include <string>

namespace pmucat::testing {

struct CommandResult {
  std::string out;
  std::string err;
  int status = -1;  // exit status; -1 when the shell did not exit normally
};

// The six tools, each built in <build>/cli/<tool>/.
inline constexpr std::array<const char*, 6> kTools = {"pmuls",   "pmuencode", "pmucheck",
                                                      "pmudiff", "pmusnap",   "pmudata"};

// PATH with the built tools first, then /usr/bin and /bin.
std::string tool_path();

// Runs `command` with /bin/sh in the source tree's root, with the built tools first on PATH,
// NO_COLOR unset, and PMUCAT_SYSFS set to fixtures/sysfs/<tree> (unset when `tree` is empty or
// "-").
CommandResult run_tool_command(const std::string& command, const std::string& tree);

// Runs `command` like run_tool_command (no PMUCAT_SYSFS), but with stdin, stdout and stderr on a
// new pseudo-terminal, as in an interactive shell; `environment` ("NO_COLOR=1 ...", may be empty)
// is added to the environment. `out` gets everything written to the terminal (stdout and stderr
// together, line ends as the terminal sends them: "\r\n").
CommandResult run_on_terminal(const std::string& command, const std::string& environment);

// `text` quoted for /bin/sh.
std::string shell_quote(const std::string& text);

// The source tree's root.
std::string source_dir();

}  // namespace pmucat::testing
