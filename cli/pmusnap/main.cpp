// pmusnap [--sysfs DIR] OUT: captures the PMU tree into a directory or a .tar.gz for bug reports.
#include <fmt/core.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <cstdlib>
#include <nlohmann/json.hpp>

#include "common/app.h"
#include "common/tree.h"
#include "common/vendor.h"
#include "pmucat/snapshot.h"

PMUCAT_BEGIN_NAMESPACE
namespace cli {
namespace {

constexpr const char* kExamples = R"(
  $ pmusnap /tmp/my-machine.tar.gz
      capture the live tree into a tarball to attach to a bug report
  $ pmusnap --sysfs fixtures/sysfs/intel-spr /tmp/spr-copy
      capture a tree (a directory, or a .tar.gz capture) into a new directory
  $ pmucheck --sysfs /tmp/my-machine.tar.gz
      every tool reads the capture back with --sysfs
)";

std::optional<std::string> non_empty_cpuid(std::string cpuid) {
  if (cpuid.empty()) return std::nullopt;
  return cpuid;
}

int run(int argc, char** argv) {
  CLI::App app{"Capture a sysfs PMU tree (following symlinks) into OUT, a directory or a .tar.gz.",
               "pmusnap"};
  CommonOptions common;
  std::string out;
  add_common_options(app, common);
  app.get_option("--json")->description(
      "Print what was captured as JSON: {\"output\", \"cpuid\", \"pmus\", \"files\", "
      "\"not_captured\", "
      "\"unreadable\"}");
  app.get_option("--cpuid")->description(
      "CPU identifier to record in the manifest, as perf's PERF_CPUID (default: $PMUCAT_CPUID, "
      "else the source capture's, else this machine's when capturing the live /sys); tools "
      "reading the capture choose their vendor JSON model by it");
  app.add_option("OUT", out,
                 "Output directory (must be empty or new), FILE.tar.gz, or - for a .tar.gz "
                 "stream on standard output")
      ->required();
  bool allow_partial = false;
  app.add_flag("--allow-partial", allow_partial,
               "Exit 0 even when some files could not be captured byte for byte");
  pmucat::snap::CaptureOptions options;
  app.add_flag("--force", options.force,
               "Replace an existing OUT (a regular .tar.gz file or a previous capture directory)");
  app.footer(help_footer({.examples = kExamples,
                          .rejected = "the capture is not faithful (files not captured byte "
                                      "for byte; see --json and the manifest)"}));
  if (const auto status = parse_command_line(app, argc, argv)) return *status;
  const bool json = common.json;
  DiagnosticPrinter printer(stderr, stream_wants_color(color_mode(common), stderr), "pmusnap");
  const bool to_stdout = out == "-";
  if (to_stdout && json) {
    std::fputs("pmusnap: error: --json and OUT '-' both write to standard output\n", stderr);
    return to_int(ExitCode::usage);
  }
  if (to_stdout && ::isatty(STDOUT_FILENO)) {
    std::fputs(
        "pmusnap: error: OUT '-' writes a .tar.gz stream to standard output, which is a "
        "terminal; redirect it (pmusnap - > capture.tar.gz)\n",
        stderr);
    return to_int(ExitCode::usage);
  }
  // The source goes through the same opening as every tool: a directory or a capture.
  auto tree = open_tree(common, printer);
  if (!tree) {
    printer.print(tree.error());
    return to_int(ExitCode::io);
  }
  const std::filesystem::path sysfs = tree->catalog.devices_dir();
  // The identifier the tools would use for this tree (--cpuid, $PMUCAT_CPUID, the source
  // capture's, this machine's for the live /sys) goes into the manifest, so the capture keeps
  // choosing the same vendor JSON model on another machine.
  options.cpuid = non_empty_cpuid(vendor_options(common, sysfs, capture_cpuid(sysfs)).cpuid);
  // --tracefs DIR (or $PMUCAT_TRACEFS): its tracepoint ids go into the capture too.
  if (!common.tracefs.empty()) options.tracefs = common.tracefs;
  // The live /sys describes this host, so its /proc facts (perf_event_paranoid, nmi_watchdog,
  // perf_event_max_sample_rate, osrelease) go in too, for pmuencode --explain --host-root; another
  // tree's host is not this.
  if (common.sysfs.empty()) options.host_root = "/";
  auto summary = pmucat::snap::capture(sysfs, out, options);
  if (!summary) {
    printer.print(summary.error());
    return to_int(ExitCode::io);
  }
  if (json) {
    nlohmann::json doc = {
        {"output", out},
        {"cpuid", options.cpuid ? nlohmann::json(*options.cpuid) : nlohmann::json(nullptr)},
        {"pmus", summary->pmus},
        {"files", summary->files},
        {"tracepoints", summary->tracepoints},
        {"host_facts", summary->host_facts},
        {"unreadable", summary->unreadable},
        {"not_captured", nlohmann::json::array()}};
    for (const auto& entry : summary->not_captured) {
      doc["not_captured"].push_back(
          {{"path", entry.path},
           {"rule", entry.rule.empty() ? nlohmann::json(nullptr) : nlohmann::json(entry.rule)},
           {"reason", entry.reason}});
    }
    std::fputs((doc.dump(2) + "\n").c_str(), stdout);
  } else {
    // With OUT '-' standard output is the archive: the summary goes to stderr.
    std::fputs(fmt::format("pmusnap: {} PMUs, {} files captured in {}\n", summary->pmus,
                           summary->files, to_stdout ? "standard output" : out)
                   .c_str(),
               to_stdout ? stderr : stdout);
  }
  std::fputs(pmucat::snap::describe_not_captured(*summary).c_str(), stderr);
  return summary->not_captured.empty() || allow_partial ? 0 : 1;
}

}  // namespace
}  // namespace cli
PMUCAT_END_NAMESPACE

int main(int argc, char** argv) {
  return pmucat::cli::run_main(argc, argv, "pmusnap", pmucat::cli::run);
}
