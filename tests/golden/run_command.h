// Running the built tools from the repository root, as a user would in a shell.
#pragma once

#include <string>

namespace pmucat::testing {

struct CommandResult {
  std::string out;
  std::string err;
  int status = -1;  // exit status; -1 when the shell did not exit normally
};

// Runs `command` with /bin/sh in the source tree's root, with the built pmuls and pmuencode first
// on PATH, NO_COLOR unset, and PMUCAT_SYSFS set to fixtures/sysfs/<tree> (unset when `tree` is
// empty or "-").
CommandResult run_tool_command(const std::string& command, const std::string& tree);

// `text` quoted for /bin/sh.
std::string shell_quote(const std::string& text);

// The source tree's root.
std::string source_dir();

}  // namespace pmucat::testing
