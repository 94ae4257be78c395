#include "common/app.h"

#include <fmt/core.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <exception>
#include <new>

#include "common/semantics.h"
#include "pmucat/version.h"

PMUCAT_BEGIN_NAMESPACE
namespace cli {
namespace {

// CLI11 names a flag with a default value `--name{value}` in --help, which reads like neither
// how the flag is given nor like the other options. Such a flag (--perf-semantics) shows as
// `--name[=TYPE]` instead, TYPE being the flag's type name.
class HelpFormatter : public CLI::Formatter {
 public:
  std::string make_option_name(const CLI::Option* option, bool is_positional) const override {
    std::string name = CLI::Formatter::make_option_name(option, is_positional);
    if (is_positional) return name;
    for (std::size_t open = name.find('{'); open != std::string::npos; open = name.find('{')) {
      const std::size_t close = name.find('}', open);
      if (close == std::string::npos) break;
      const std::string type = option->get_type_name();
      name.replace(open, close + 1 - open, type.empty() ? "[=VALUE]" : "[=" + type + "]");
    }
    return name;
  }
  // The type name is in the name already (above); CLI11 would repeat it after it.
  std::string make_option_opts(const CLI::Option* option) const override {
    if (option->get_name(false, true).find('{') != std::string::npos) return {};
    return CLI::Formatter::make_option_opts(option);
  }
};

}  // namespace

// Here rather than in semantics.cpp, which then needs no CLI11 header: each file that includes
// one constructs CLI11's static validators when the tool starts.
void PerfSemanticsFlag::add_to(CLI::App& app) {
  // A flag, not an option with an optional value: `--perf-semantics SPEC` must keep SPEC a spec
  // (scripts written before versions could be named); a version is given as
  // `--perf-semantics=VERSION`.
  app.add_flag(fmt::format("--perf-semantics{{{}}}", to_string(kBarePerfSemantics)), value_,
               fmt::format("Follow perf VERSION bit for bit, given as "
                           "--perf-semantics=VERSION ({}; auto: the perf on PATH, by "
                           "perf --version; bare: {}): OR a user term into the same "
                           "field of an event alias instead of overriding it, perf's "
                           "lexer and PMU matching, and that perf's vendor tables "
                           "(default: pmucat's semantics, built on perf {}'s, and the "
                           "default tables, the newest set installed)",
                           known_perf_releases_text(), to_string(kBarePerfSemantics),
                           to_string(kPmucatBaseRelease)))
      ->each([this](const std::string&) { given_ = true; })
      ->type_name("VERSION");
  app.formatter(std::make_shared<HelpFormatter>());
}

void add_common_options(CLI::App& app, CommonOptions& options, CommonOptionSet set) {
  if (set.sysfs) {
    app.add_option("--sysfs", options.sysfs,
                   "Sysfs tree to read: a devices folder, any root above bus/event_source, or a "
                   "pmusnap .tar.gz capture (default: $PMUCAT_SYSFS, else the live /sys)")
        ->envname("PMUCAT_SYSFS")
        ->type_name("DIR|FILE.tar.gz");
  }
  if (set.catalog) {
    // PMUCAT_EVENTS_DIR and PMUCAT_CPUID are read by common/vendor.h, not by CLI11: an empty
    // PMUCAT_EVENTS_DIR means "sysfs only", which CLI11 would take for "not set".
    app.add_option("--events-dir", options.events_dir,
                   "Vendor JSON event catalogs, laid out like the kernel's "
                   "tools/perf/pmu-events/arch (default: $PMUCAT_EVENTS_DIR, else the installed "
                   "catalog; empty: sysfs events only)")
        ->type_name("DIR");
    app.add_flag("--no-events-dir", options.no_events_dir,
                 "Sysfs events only: no vendor JSON event names or descriptions");
    app.add_option("--cpuid", options.cpuid,
                   "CPU identifier choosing the JSON model, as perf's PERF_CPUID "
                   "(GenuineIntel-6-8F-8, 0x00000000410fd0c0; default: $PMUCAT_CPUID, else the "
                   "capture's, else this machine's when reading the live /sys)")
        ->type_name("ID");
  }
  if (set.vendor_notes) {
    app.add_flag("--verbose", options.verbose,
                 "Also print notes on the vendor tables that change no answer (a cached "
                 "compiled entry passed over for its JSON, and why)");
  }
  if (set.sysfs) {
    app.add_option("--tracefs", options.tracefs,
                   "Tracefs root (holding events/) for tracepoint specs such as sched:sched_switch "
                   "(default: $PMUCAT_TRACEFS, else the capture's when --sysfs names one with a "
                   "tracefs capture, else the live /sys/kernel/tracing)")
        ->envname("PMUCAT_TRACEFS")
        ->type_name("DIR");
  }
  if (set.general) {
    app.add_option("--color", options.color,
                   "Colour output: auto (on a terminal, unless NO_COLOR is set), always, never")
        ->check(CLI::IsMember({"auto", "always", "never"}))
        ->type_name("WHEN");
  }
  if (set.json) {
    app.add_flag("--json", options.json, "Machine-readable output (schema in docs/cli.md)");
  }
  if (set.general) app.set_version_flag("--version", std::string("pmucat ") + kVersion);
}

StagedApp::StagedApp(CLI::App& app, CommonOptions& options) : app_(app), options_(options) {
  pmucat::cli::add_common_options(
      app_, options_, {.sysfs = true, .catalog = false, .json = false, .general = false});
}

void StagedApp::add_common_options(CommonOptionSet set) {
  set.sysfs = false;
  pmucat::cli::add_common_options(app_, options_, set);
}

void StagedApp::add(PerfSemanticsFlag& flag) {
  flag.add_to(app_);
}

std::string help_footer(const HelpText& help) {
  std::string_view examples = help.examples;
  if (examples.starts_with('\n')) examples.remove_prefix(1);  // R"( followed by a line break
  std::string text = "Examples:\n";
  text += examples;
  text += "\nEnvironment:\n";
  if (help.reads_sysfs) {
    text += "  PMUCAT_SYSFS       tree to read when --sysfs is not given\n";
    text += "  PMUCAT_EVENTS_DIR  vendor JSON catalogs when --events-dir is not given (set but\n";
    text += "                     empty: sysfs only)\n";
    text += "  PMUCAT_CPUID       CPU identifier when --cpuid is not given\n";
    text += "  PMUCAT_TRACEFS     tracefs root when --tracefs is not given\n";
    text += "  XDG_CACHE_HOME     where a JSON events directory is compiled once\n";
    text += "                     (pmucat/vendor-index; default: $HOME/.cache)\n";
  }
  text += "  NO_COLOR           set to a non-empty value: no colour with --color=auto\n";
  text += "\nEXIT STATUS\n";
  text += "  0  success\n";
  text += fmt::format("  1  input rejected: {}\n", help.rejected);
  text += "  2  usage error, or an I/O error (unreadable tree or file, unwritable output)\n";
  return text;
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

namespace {

// Printing here must not throw again: plain stdio, no formatting library.
void report_escaped(std::string_view tool, const char* what, const char* detail = "") {
  std::fwrite(tool.data(), 1, tool.size(), stderr);
  std::fputs(": error: ", stderr);
  std::fputs(what, stderr);
  std::fputs(detail, stderr);
  std::fputs("\n", stderr);
}

}  // namespace

int run_main(int argc, char** argv, std::string_view tool, int (*body)(int, char**)) noexcept {
  try {
    return body(argc, argv);
  } catch (const std::bad_alloc&) {
    report_escaped(tool, "out of memory");
  } catch (const std::exception& error) {
    report_escaped(tool, "unexpected failure: ", error.what());
  } catch (...) {
    report_escaped(tool, "unexpected failure (unknown exception)");
  }
  std::fflush(stdout);
  return to_int(ExitCode::usage);
}

}  // namespace cli
PMUCAT_END_NAMESPACE
