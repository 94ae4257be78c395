// What every tool's main() shares: the common options, command-line parsing with pmucat's exit
// codes, --help's examples / environment / exit status sections, the guard that turns anything
// escaping main into exit status 2, and writing to stdout.
#pragma once

#include <CLI/App.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "common/color.h"
#include "common/diagnostics.h"
#include "common/exit_codes.h"
#include "common/options.h"

namespace pmucat::cli {

// Which of the common options a tool takes. Every tool takes --color, --version and --help;
// pmudiff names its trees as arguments, so it has no --sysfs.
struct CommonOptionSet {
  bool sysfs = true;
  bool json = true;
};

// Adds --sysfs (with PMUCAT_SYSFS: the only place the tools read it), --color, --json and
// --version to `app`, as `set` asks.
void add_common_options(CLI::App& app, CommonOptions& options, CommonOptionSet set = {});

// What --help shows after the options of one tool.
struct HelpText {
  std::string_view examples;  // "  $ tool ARGS\n      what it shows\n" entries
  std::string_view rejected;  // what exit status 1 means for this tool
  bool reads_sysfs = true;    // whether PMUCAT_SYSFS applies (listed under Environment)
};

// The footer: "Examples:", "Environment:" (PMUCAT_SYSFS, NO_COLOR) and "EXIT STATUS" sections.
std::string help_footer(const HelpText& help);

// Parses the command line. Returns an exit status when the tool should stop now: 0 after
// --help/--version (printed on stdout), 2 after a usage error (printed on stderr).
std::optional<int> parse_command_line(CLI::App& app, int argc, char** argv);

// The colour mode the options ask for (CLI11 has already checked the spelling).
ColorMode color_mode(const CommonOptions& options);

// Runs a tool's body and makes sure the process never ends on an uncaught exception: anything
// escaping `body` is reported as `tool: error: ...` on stderr and becomes exit status 2.
int run_main(int argc, char** argv, std::string_view tool, int (*body)(int, char**)) noexcept;

// Writes `text` to stdout as is.
void write_stdout(std::string_view text);

}  // namespace pmucat::cli
