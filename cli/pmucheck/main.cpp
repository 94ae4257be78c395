// pmucheck: validates a sysfs PMU tree. Exit 0 no errors, 1 errors found, 2 could not run.
#include <fmt/core.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <thread>

#include "pmucat/check.h"

namespace {

constexpr int kExitClean = 0;
constexpr int kExitFindings = 1;
constexpr int kExitCannotRun = 2;

struct CommandLine {
  std::string sysfs;
  std::vector<std::string> pmus;
  std::string format;
  std::string color = "auto";
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

int fail(const pmucat::Diagnostic& diagnostic) {
  std::fputs(pmucat::render(diagnostic).c_str(), stderr);
  return kExitCannotRun;
}

std::string list_rules() {
  std::string out;
  for (const pmucat::check::Rule& rule : pmucat::check::rules()) {
    out += fmt::format("{:<28} {:<8} {:<11}{} {}\n", rule.id, pmucat::to_string(rule.severity),
                       pmucat::check::to_string(rule.group),
                       rule.enabled_by_default ? "" : " (off)", rule.rationale);
  }
  return out;
}

bool read_file(const std::string& path, std::string& text) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream buffer;
  buffer << in.rdbuf();
  text = buffer.str();
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
  bool color = line.color == "always" || (line.color == "auto" && tty && line.output.empty());
  return render_text(report, TextOptions{.color = color, .summary = true});
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Validate a sysfs PMU tree (/sys/bus/event_source/devices or a capture).",
               "pmucheck"};
  CommandLine line;
  if (const char* env = std::getenv("PMUCAT_SYSFS")) line.sysfs = env;
  app.add_option("--sysfs", line.sysfs,
                 "Tree to check: a devices dir, a root above one, or a pmusnap .tar.gz "
                 "(default $PMUCAT_SYSFS, else /sys/bus/event_source/devices)");
  app.add_option("--pmu", line.pmus, "Check only PMUs matching this name or glob (repeatable)");
  app.add_option("--format", line.format,
                 "Output: text (default on a terminal), ktap (default "
                 "otherwise), json, junit, kcidb")
      ->check(CLI::IsMember({"text", "ktap", "json", "junit", "kcidb"}));
  app.add_flag_callback(
         "--json", [&line] { line.format = "json"; }, "Same as --format=json")
      ->excludes("--format");
  app.add_option("--color", line.color, "Colour text output: auto, always, never")
      ->check(CLI::IsMember({"auto", "always", "never"}));
  app.add_option("-o,--output", line.output, "Write the report to FILE instead of stdout");
  app.add_flag("--werror", line.werror, "Warnings fail the run too");
  app.add_option("--disable", line.disabled, "Switch rule ID off (repeatable)");
  app.add_option("--enable", line.enabled, "Switch rule ID on, also rules off by default");
  app.add_option("--baseline", line.baseline,
                 "Known findings (RULE PMU [FILE] per line) that "
                 "are reported but do not fail the run");
  app.add_option("--write-baseline", line.write_baseline,
                 "Write every finding of this run as a baseline file");
  app.add_flag("--live", line.live, "Also open every event with perf_event_open and read it");
  app.add_flag("--live-any-tree", line.live_any_tree,
               "Allow --live on a tree that is not the running kernel's (a fixture)");
  app.add_option("-j,--jobs", line.jobs, "Check PMUs on N threads")->check(CLI::Range(1, 256));
  app.add_option("--kcidb-origin", line.kcidb_origin, "KCIDB origin of the test objects");
  app.add_option("--kcidb-build-id", line.kcidb_build_id, "KCIDB build the tests belong to");
  app.add_option("--kcidb-run-id", line.kcidb_run_id,
                 "Run id in every KCIDB test id (default: $PMUCAT_KCIDB_RUN_ID, else unique)");
  app.add_flag("--list-rules", line.list_rules, "List every rule and exit");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    int status = app.exit(error);
    return status == 0 ? kExitClean : kExitCannotRun;
  }
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
    if (!read_file(line.baseline, text)) {
      return fail(pmucat::make_file_diagnostic(pmucat::Severity::error, "baseline-unreadable",
                                               line.baseline, "cannot read the baseline file"));
    }
    auto baseline = pmucat::check::parse_baseline(text, line.baseline);
    if (!baseline) return fail(baseline.error());
    options.baseline = std::move(*baseline);
  }

  auto tree = pmucat::snap::open_tree(line.sysfs);
  if (!tree) return fail(tree.error());
  if (!line.pmus.empty()) {
    for (const std::string& pattern : line.pmus) {
      if (tree->catalog.match_pmus(pattern).empty()) {
        return fail(pmucat::make_file_diagnostic(pmucat::Severity::error, "pmu-not-found",
                                                 tree->catalog.devices_dir().string(),
                                                 fmt::format("no PMU matches '{}'", pattern)));
      }
    }
  }
  pmucat::check::Report report = pmucat::check::run(tree->catalog, options);

  if (!line.write_baseline.empty()) {
    std::ofstream out(line.write_baseline);
    out << pmucat::check::format_baseline(report.all_findings());
    if (!out) {
      return fail(pmucat::make_file_diagnostic(pmucat::Severity::error, "baseline-unwritable",
                                               line.write_baseline, "cannot write the baseline"));
    }
  }
  bool tty = line.output.empty() && isatty(STDOUT_FILENO) != 0;
  std::string text = render(report, line, tty);
  if (line.output.empty()) {
    std::fwrite(text.data(), 1, text.size(), stdout);
  } else {
    std::ofstream out(line.output, std::ios::binary);
    out << text;
    if (!out) {
      return fail(pmucat::make_file_diagnostic(pmucat::Severity::error, "output-unwritable",
                                               line.output, "cannot write the report"));
    }
  }
  return pmucat::check::exit_status(report, line.werror) == 0 ? kExitClean : kExitFindings;
}
