#include "common/app.h"

#include <fmt/core.h>

#include <CLI/CLI.hpp>
#include <cstdio>

#include "pmucat/version.h"

namespace pmucat::cli {

void add_common_options(CLI::App& app, CommonOptions& options) {
  app.add_option("--sysfs", options.sysfs,
                 "Sysfs tree to read: a devices folder or any root above bus/event_source "
                 "(default: the live /sys)")
      ->envname("PMUCAT_SYSFS")
      ->type_name("DIR");
  app.add_option("--color", options.color,
                 "Colour diagnostics: auto (on a terminal), always, never")
      ->check(CLI::IsMember({"auto", "always", "never"}))
      ->type_name("WHEN");
  app.add_flag("--json", options.json, "Machine-readable output (schema in docs/cli.md)");
  app.set_version_flag("--version", std::string("pmucat ") + kVersion);
}

std::optional<int> parse_command_line(CLI::App& app, int argc, char** argv) {
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    if (error.get_exit_code() == 0) {
      // --help or --version: CLI11 prints them.
      app.exit(error);
      return to_int(ExitCode::success);
    }
    fmt::print(stderr, "{}: error: {}\nRun '{} --help' for usage and examples.\n", app.get_name(),
               error.what(), app.get_name());
    return to_int(ExitCode::usage);
  }
  return std::nullopt;
}

ColorMode color_mode(const CommonOptions& options) {
  return parse_color_mode(options.color).value_or(ColorMode::automatic);
}

Expected<Catalog> open_catalog(const CommonOptions& options) {
  if (!options.sysfs.empty()) return Catalog::open(options.sysfs);
  return Catalog::open("/sys");
}

void write_stdout(std::string_view text) {
  std::fwrite(text.data(), 1, text.size(), stdout);
  std::fflush(stdout);
}

}  // namespace pmucat::cli
