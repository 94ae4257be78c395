// pmucheck: validates a sysfs PMU tree. Exit 0 no errors, 1 errors found, 2 could not run.
#include <fmt/core.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <thread>

#include "common/app.h"
#include "common/output_path.h"
#include "common/pmu_selection.h"
#include "common/tree.h"
#include "pmucat/check.h"
#include "pmucat/diagnostic_ids.h"
#include "pmucat/output_file.h"

PMUCAT_BEGIN_NAMESPACE
namespace cli {
namespace {

constexpr int kExitClean = to_int(ExitCode::success);
constexpr int kExitFindings = to_int(ExitCode::rejected);
constexpr int kExitCannotRun = to_int(ExitCode::usage);

constexpr const char* kExamples = R"(
  $ pmucheck
      check the live tree; text on a terminal, KTAP otherwise
  $ pmucheck --sysfs fixtures/sysfs/broken/names/devices --format text
      check a copy of a tree (a directory or a pmusnap .tar.gz); this one's
      names break rules, so exit 1
  $ pmucheck --pmu 'uncore_*' --json
      only some PMUs, as JSON
  $ pmucheck --write-baseline known.txt; pmucheck --baseline known.txt
      accept today's findings, fail only on new ones
  $ pmucheck --list-rules
      every rule: id, severity, group, rationale
)";

struct CommandLine {
  CommonOptions common;
  std::vector<std::string> pmus;
  std::string format;
  std::string output;
  std::string baseline;
  std::string write_baseline;
  std::vector<std::string> disabled;
  std::vector<std::string> enabled;
  bool werror = false;
  bool live = false;
  bool live_any_tree = false;
  bool list_rules = false;
  unsigned jobs = 1;
  std::string kcidb_origin = "pmucheck";
  std::string kcidb_build_id;  // empty: a build of this run (see KcidbOptions)
  std::string kcidb_run_id;
};

std::string list_rules() {
  std::string out;
  for (const pmucat::check::Rule& rule : pmucat::check::rules()) {
    out += fmt::format("{:<28} {:<8} {:<11}{} {}\n", rule.id, pmucat::to_string(rule.severity),
                       pmucat::check::to_string(rule.group),
                       rule.enabled_by_default ? "" : " (off)", rule.rationale);
  }
  return out;
}

// The most a baseline file may hold (docs/catalog.md, "Bounds"): one line per finding; a
// larger one, or a stream that never ends (`--baseline /dev/zero`), is refused at this size.
constexpr std::size_t kMaxBaselineSize = std::size_t{64} << 20;

// The baseline's bytes, read as they come (a pipe or `<(...)` works), never more than
// kMaxBaselineSize; else why not.
bool read_file(const std::string& path, std::string& text, std::string& why) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    why = "cannot be opened";
    return false;
  }
  char buffer[65536];
  while (in.read(buffer, sizeof buffer) || in.gcount() > 0) {
    const auto got = static_cast<std::size_t>(in.gcount());
    if (got > kMaxBaselineSize - text.size()) {
      why = fmt::format("larger than the {} MiB a baseline may have", kMaxBaselineSize >> 20);
      return false;
    }
    text.append(buffer, got);
  }
  if (in.bad()) {
    why = "a read failed";
    return false;
  }
  return true;
}

std::string render(const pmucat::check::Report& report, const CommandLine& line, bool tty) {
  using namespace pmucat::check;
  std::string format = line.format.empty() ? (tty ? "text" : "ktap") : line.format;
  if (format == "ktap") return render_ktap(report);
  if (format == "json") return render_json(report);
  if (format == "junit") return render_junit(report);
  if (format == "kcidb") {
    KcidbOptions options;
    options.origin = line.kcidb_origin;
    options.build_id = line.kcidb_build_id;
    options.run_id = line.kcidb_run_id;
    return render_kcidb(report, options);
  }
  // A report written to a file (-o) is coloured only when asked for.
  const ColorMode mode = color_mode(line.common);
  const bool color =
      line.output.empty() ? tty && stream_wants_color(mode, stdout) : mode == ColorMode::always;
  return render_text(report, TextOptions{.color = color, .summary = true});
}

int run(int argc, char** argv) {
  CLI::App app{"Validate a sysfs PMU tree (/sys/bus/event_source/devices or a capture).",
               "pmucheck"};
  CommandLine line;
  add_common_options(app, line.common);
  app.get_option("--json")->description("Same as --format=json");
  app.add_option("--pmu", line.pmus, "Check only PMUs matching this name or glob (repeatable)")
      ->type_name("NAME|GLOB");
  app.add_option("--format", line.format,
                 "Output: text (default on a terminal), ktap (default "
                 "otherwise), json, junit, kcidb")
      ->check(CLI::IsMember({"text", "ktap", "json", "junit", "kcidb"}))
      ->excludes("--json");
  app.add_option("-o,--output", line.output,
                 "Write the report to FILE instead of stdout (- is stdout)")
      ->type_name("FILE")
      ->check(output_path_check());
  app.add_flag("--werror", line.werror, "Warnings fail the run too");
  app.add_option("--disable", line.disabled, "Switch rule ID off (repeatable)")->type_name("ID");
  app.add_option("--enable", line.enabled, "Switch rule ID on, also rules off by default")
      ->type_name("ID");
  app.add_option("--baseline", line.baseline,
                 "Known findings (RULE PMU [FILE] per line) that "
                 "are reported but do not fail the run")
      ->type_name("FILE");
  app.add_option("--write-baseline", line.write_baseline,
                 "Write every finding of this run as a baseline file")
      ->type_name("FILE")
      ->check(output_path_check());
  app.add_flag("--live", line.live, "Also open every event with perf_event_open and read it");
  app.add_flag("--live-any-tree", line.live_any_tree,
               "Allow --live on a tree that is not the running kernel's (a fixture)");
  app.add_option("-j,--jobs", line.jobs, "Check PMUs on N threads")->check(CLI::Range(1, 256));
  app.add_option("--kcidb-origin", line.kcidb_origin, "KCIDB origin of the test objects");
  app.add_option("--kcidb-build-id", line.kcidb_build_id, "KCIDB build the tests belong to");
  app.add_option("--kcidb-run-id", line.kcidb_run_id,
                 "Run id in every KCIDB test id (default: $PMUCAT_KCIDB_RUN_ID, else unique)");
  app.add_flag("--list-rules", line.list_rules, "List every rule and exit");
  app.footer(
      help_footer({.examples = kExamples,
                   .rejected = "the tree has errors (with --werror: or warnings), or a --pmu "
                               "matches no PMU"}));
  if (const auto status = parse_command_line(app, argc, argv)) return *status;
  if (line.common.json) line.format = "json";
  DiagnosticPrinter printer(stderr, stream_wants_color(color_mode(line.common), stderr),
                            "pmucheck");
  const auto fail = [&printer](const Diagnostic& diagnostic) {
    printer.print(diagnostic);
    return kExitCannotRun;
  };
  if (line.output == "-") line.output.clear();
  if (line.list_rules) {
    std::fputs(list_rules().c_str(), stdout);
    return kExitClean;
  }

  pmucat::check::Options options;
  options.pmu_patterns = line.pmus;
  options.disabled = line.disabled;
  options.enabled = line.enabled;
  options.jobs = line.jobs;
  options.live = line.live;
  options.live_any_tree = line.live_any_tree;
  options.werror = line.werror;
  for (const std::string& id : pmucat::check::unknown_rule_ids(options)) {
    std::fputs(
        fmt::format("pmucheck: warning: '{}' is not a pmucheck rule id (see --list-rules)\n", id)
            .c_str(),
        stderr);
  }
  if (!line.baseline.empty()) {
    std::string text;
    std::string why;
    if (!read_file(line.baseline, text, why)) {
      return fail(pmucat::make_file_diagnostic(pmucat::Severity::error,
                                               pmucat::DiagId::baseline_unreadable, line.baseline,
                                               "cannot read the baseline file: " + why));
    }
    auto baseline = pmucat::check::parse_baseline(text, line.baseline);
    if (!baseline) return fail(baseline.error());
    options.baseline = std::move(*baseline);
  }

  auto tree = open_tree(line.common, printer);
  if (!tree) return fail(tree.error());
  for (const std::string& pattern : line.pmus) {
    if (tree->catalog.match_pmus(pattern).empty()) {
      printer.print(unknown_pmu_error(tree->catalog, pattern));
      return kExitFindings;
    }
  }
  pmucat::check::Report report = pmucat::check::run(tree->catalog, options);

  if (!line.write_baseline.empty()) {
    const std::string baseline = pmucat::check::format_baseline(report.all_findings());
    if (auto error = pmucat::write_output_file(line.write_baseline, baseline)) return fail(*error);
  }
  bool tty = line.output.empty() && isatty(STDOUT_FILENO) != 0;
  std::string text = render(report, line, tty);
  if (line.output.empty()) {
    std::fwrite(text.data(), 1, text.size(), stdout);
  } else {
    if (auto error = pmucat::write_output_file(line.output, text)) return fail(*error);
  }
  return pmucat::check::exit_status(report, line.werror) == 0 ? kExitClean : kExitFindings;
}

}  // namespace
}  // namespace cli
PMUCAT_END_NAMESPACE

int main(int argc, char** argv) {
  return pmucat::cli::run_main(argc, argv, "pmucheck", pmucat::cli::run);
}
