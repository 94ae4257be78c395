// Running the built tools from the repository root, as a user would in a shell.
#pragma once

#include <array>
#include <string>

#include "pmucat/version.h"
#include "support/command.h"

PMUCAT_BEGIN_NAMESPACE
namespace testing {

// The eight tools, each built in <build>/cli/<tool>/.
inline constexpr std::array<const char*, 8> kTools = {
    "pmuls", "pmuencode", "pmucheck", "pmudiff", "pmusnap", "pmudata", "pmumetric", "pmustat"};

// The built tool's executable: <build>/cli/<name>/<name>.
std::string tool(const std::string& name);

// PATH with the built tools first, then /usr/bin and /bin.
std::string tool_path();

// Runs `command` with /bin/sh in the source tree's root, with the built tools first on PATH,
// NO_COLOR and COLUMNS unset, an empty stdin, and PMUCAT_SYSFS set to fixtures/sysfs/<tree>
// (unset when `tree` is empty or "-").
CommandResult run_tool_command(const std::string& command, const std::string& tree);

// Runs `command` like run_tool_command (no PMUCAT_SYSFS), but on a new pseudo-terminal
// (run_on_terminal(Command)); `environment` ("NO_COLOR=1 ...", may be empty) is added to the
// environment.
CommandResult run_on_terminal(const std::string& command, const std::string& environment);

// Whether the installed perf runs (`perf version`).
bool have_perf();

}  // namespace testing
PMUCAT_END_NAMESPACE
