// What every tool's main() shares: the common options, command-line parsing with pmucat's exit
// codes, opening the catalog the options select, and writing to stdout.
#pragma once

#include <CLI/App.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "common/color.h"
#include "common/diagnostics.h"
#include "common/exit_codes.h"
#include "pmucat/catalog.h"

namespace pmucat::cli {

struct CommonOptions {
  std::string sysfs;  // --sysfs DIR, else $PMUCAT_SYSFS, else empty (live /sys)
  std::string color = "auto";
  bool json = false;
};

// Adds --sysfs (with PMUCAT_SYSFS), --color, --json and --version to `app`.
void add_common_options(CLI::App& app, CommonOptions& options);

// Parses the command line. Returns an exit status when the tool should stop now: 0 after
// --help/--version (printed on stdout), 2 after a usage error (printed on stderr).
std::optional<int> parse_command_line(CLI::App& app, int argc, char** argv);

// The colour mode the options ask for (CLI11 has already checked the spelling).
ColorMode color_mode(const CommonOptions& options);

// Opens the tree the options select: --sysfs/PMUCAT_SYSFS, else the live /sys. Reads nothing
// about any PMU (the devices folder is listed when first needed; see Catalog::open).
Expected<Catalog> open_catalog(const CommonOptions& options);

// Writes `text` to stdout as is.
void write_stdout(std::string_view text);

}  // namespace pmucat::cli
