// What every tool's main() shares: the common options, command-line parsing with pmucat's exit
// codes, --help's examples / environment / exit status sections, the guard that turns anything
// escaping main into exit status 2, and writing to stdout.
#pragma once

#include <CLI/App.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "common/color.h"
#include "common/diagnostics.h"
#include "common/exit_codes.h"
#include "common/options.h"
#include "common/output_buffer.h"
#include "pmucat/version.h"

PMUCAT_BEGIN_NAMESPACE
namespace cli {

// Which of the common options to add. Every tool takes --color, --version and --help; pmudiff
// names its trees as arguments, so it has no tree options. pmuencode adds --sysfs and --json
// with its everyday options and the rest after them (parse_command_line_staged).
struct CommonOptionSet {
  bool sysfs = true;    // --sysfs, --tracefs (the trees, also read from PMUCAT_SYSFS/_TRACEFS)
  bool catalog = true;  // --events-dir, --no-events-dir, --cpuid
  bool json = true;     // --json
  bool general = true;  // --color, --version
  // --verbose, for the tools that report the vendor tables' problems (report_vendor_problems):
  // elsewhere it would change nothing.
  bool vendor_notes = false;
};

// Adds --sysfs (with PMUCAT_SYSFS: the only place the tools read it), the catalog options,
// --color, --json and --version to `app`, as `set` asks.
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

class PerfSemanticsFlag;
class StagedApp;

// Parses the command line in two stages, so that the everyday command lines of a tool with many
// options do not pay for building them all: `add_everyday` adds the options those lines use (and
// `add_all` adds them again by calling it, then the rest) to an App that lets anything else
// through. When argv uses only those options and parses, that parse stands. Anything else
// (another option, --help, --version, a parse error) resets `options` and parses argv again with
// the App of `add_all`, which then gives the result, the help or the error. CLI11 parses both
// times; the first stage only saves constructing the other options and their validators on
// every run (docs/performance.md). The first stage reads the environment as the whole App does:
// both callbacks add options through a StagedApp, which already holds every option read from the
// environment and can add no other (below).
template <class Options>
std::optional<int> parse_command_line_staged(int argc, char** argv, Options& options,
                                             void (*add_everyday)(StagedApp&, Options&),
                                             void (*add_all)(StagedApp&, Options&));

// A CLI11 App as the staged parse's callbacks see it. Only parse_command_line_staged builds one,
// and it does so after adding the options whose value CLI11 may take from the environment
// (--sysfs from PMUCAT_SYSFS, --tracefs from PMUCAT_TRACEFS), in both stages. Through it an
// option gets a type name, a check or a limit on its arguments, never an environment variable
// nor a tie to another option (needs, excludes) that the first stage might leave out.
class StagedApp {
 public:
  // One option's settings that depend on nothing outside the option.
  class Option {
   public:
    Option& type_name(std::string name) {
      option_->type_name(std::move(name));
      return *this;
    }
    Option& check(CLI::Validator validator) {
      option_->check(std::move(validator));
      return *this;
    }
    Option& allow_extra_args(bool allow) {
      option_->allow_extra_args(allow);
      return *this;
    }

   private:
    friend class StagedApp;
    explicit Option(CLI::Option* option) : option_(option) {}
    CLI::Option* option_;
  };

  template <class T>
  Option add_option(std::string name, T& value, std::string description = {}) {
    return Option(app_.add_option(std::move(name), value, std::move(description)));
  }
  template <class T>
  Option add_flag(std::string name, T& value, std::string description = {}) {
    return Option(app_.add_flag(std::move(name), value, std::move(description)));
  }
  // The common options `set` names (add_common_options) but the trees', already added.
  void add_common_options(CommonOptionSet set);
  void add(PerfSemanticsFlag& flag);
  void name(std::string name) { app_.name(std::move(name)); }
  void description(std::string text) { app_.description(std::move(text)); }
  void footer(std::string text) { app_.footer(std::move(text)); }

 private:
  template <class Options>
  friend std::optional<int> parse_command_line_staged(int, char**, Options&,
                                                      void (*)(StagedApp&, Options&),
                                                      void (*)(StagedApp&, Options&));
  StagedApp(CLI::App& app, CommonOptions& options);

  CLI::App& app_;
  CommonOptions& options_;
};

template <class Options>
std::optional<int> parse_command_line_staged(int argc, char** argv, Options& options,
                                             void (*add_everyday)(StagedApp&, Options&),
                                             void (*add_all)(StagedApp&, Options&)) {
  {
    CLI::App everyday;
    everyday.set_help_flag();  // --help goes through: the whole App prints it
    everyday.allow_extras();
    StagedApp staged(everyday, options.common);
    add_everyday(staged, options);
    try {
      everyday.parse(argc, argv);
      if (everyday.remaining_size() == 0) return std::nullopt;
    } catch (const CLI::ParseError&) {  // the whole App reports it, or parses what this one cannot
    }
  }
  options = Options{};
  CLI::App app;
  StagedApp staged(app, options.common);
  add_all(staged, options);
  return parse_command_line(app, argc, argv);
}

// The colour mode the options ask for (CLI11 has already checked the spelling).
ColorMode color_mode(const CommonOptions& options);

// Runs a tool's body and makes sure the process never ends on an uncaught exception: anything
// escaping `body` is reported as `tool: error: ...` on stderr and becomes exit status 2.
int run_main(int argc, char** argv, std::string_view tool, int (*body)(int, char**)) noexcept;

}  // namespace cli
PMUCAT_END_NAMESPACE
