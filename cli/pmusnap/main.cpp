// pmusnap [--sysfs DIR] OUT: captures the PMU tree into a directory or a .tar.gz for bug reports.
#include <fmt/core.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <cstdlib>
#include <nlohmann/json.hpp>

#include "pmucat/check.h"

int main(int argc, char** argv) {
  CLI::App app{"Capture a sysfs PMU tree (following symlinks) into OUT, a directory or a .tar.gz.",
               "pmusnap"};
  std::string sysfs = "/sys/bus/event_source/devices";
  if (const char* env = std::getenv("PMUCAT_SYSFS")) sysfs = env;
  std::string out;
  app.add_option("--sysfs", sysfs, "Tree to capture (default $PMUCAT_SYSFS, else the live tree)");
  app.add_option("OUT", out, "Output directory (must be empty or new) or FILE.tar.gz")->required();
  bool json = false;
  app.add_flag(
      "--json", json,
      "Print what was captured as JSON: {\"output\", \"pmus\", \"files\", \"not_captured\", "
      "\"unreadable\"}");
  bool allow_partial = false;
  app.add_flag("--allow-partial", allow_partial,
               "Exit 0 even when some files could not be captured byte for byte");
  pmucat::snap::CaptureOptions options;
  app.add_flag("--force", options.force,
               "Replace an existing OUT (a regular .tar.gz file or a previous capture directory)");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    int status = app.exit(error);
    return status == 0 ? 0 : 2;
  }
  auto summary = pmucat::snap::capture(sysfs, out, options);
  if (!summary) {
    std::fputs(pmucat::render(summary.error()).c_str(), stderr);
    return 2;
  }
  if (json) {
    nlohmann::json doc = {{"output", out},
                          {"pmus", summary->pmus},
                          {"files", summary->files},
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
    std::fputs(fmt::format("pmusnap: {} PMUs, {} files captured in {}\n", summary->pmus,
                           summary->files, out)
                   .c_str(),
               stdout);
  }
  std::fputs(pmucat::snap::describe_not_captured(*summary).c_str(), stderr);
  return summary->not_captured.empty() || allow_partial ? 0 : 1;
}
