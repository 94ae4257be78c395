// pmudiff OLD NEW: what changed between two sysfs PMU trees. Exit 1 when an ABI break is found.
#include <fmt/core.h>

#include <CLI/CLI.hpp>
#include <cstdio>

#include "common/app.h"
#include "common/tree.h"
#include "pmucat/diff.h"

namespace pmucat::cli {
namespace {

constexpr const char* kExamples = R"(
  $ pmudiff fixtures/sysfs/diff/snb-ep-2013/devices fixtures/sysfs/diff/snb-ep-today/devices
      every change, ABI breaks marked [ABI break]: here two encodings changed, so exit 1
  $ pmudiff --json fixtures/sysfs/arm64-n1 fixtures/sysfs/arm-neoverse
      as JSON: PMUs, formats, caps and events added, no ABI break (exit 0); OLD and
      NEW may also be pmusnap .tar.gz captures or /sys (pmudiff before.tar.gz /sys)
)";

// An empty OLD or NEW would silently mean "the live tree"; say so instead.
std::string non_empty(const std::string& path) {
  return path.empty() ? "an empty path names no tree" : "";
}

int run(int argc, char** argv) {
  CLI::App app{"Compare two sysfs PMU trees (directories or pmusnap .tar.gz captures).", "pmudiff"};
  CommonOptions common;
  std::string old_path;
  std::string new_path;
  add_common_options(app, common, {.sysfs = false, .catalog = false});
  app.get_option("--json")->description("Print the changes as JSON");
  app.add_option("OLD", old_path, "The tree before")
      ->required()
      ->check(CLI::Validator(non_empty, "PATH"));
  app.add_option("NEW", new_path, "The tree after")
      ->required()
      ->check(CLI::Validator(non_empty, "PATH"));
  app.footer(help_footer(
      {.examples = kExamples, .rejected = "an ABI break was found", .reads_sysfs = false}));
  if (const auto status = parse_command_line(app, argc, argv)) return *status;
  const bool json = common.json;
  DiagnosticPrinter printer(stderr, stream_wants_color(color_mode(common), stderr), "pmudiff");
  auto old_tree = open_tree(old_path);
  if (!old_tree) {
    printer.print(old_tree.error());
    return to_int(ExitCode::io);
  }
  auto new_tree = open_tree(new_path);
  if (!new_tree) {
    printer.print(new_tree.error());
    return to_int(ExitCode::io);
  }
  pmucat::diff::Result result = pmucat::diff::compare(old_tree->catalog, new_tree->catalog);
  std::string text = json ? pmucat::diff::render_json(result) : pmucat::diff::render_text(result);
  std::fwrite(text.data(), 1, text.size(), stdout);
  return result.has_abi_break() ? 1 : 0;
}

}  // namespace
}  // namespace pmucat::cli

int main(int argc, char** argv) {
  return pmucat::cli::run_main(argc, argv, "pmudiff", pmucat::cli::run);
}
