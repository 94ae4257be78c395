// pmusnap [--sysfs DIR] OUT: captures the PMU tree into a directory or a .tar.gz for bug reports.
#include <fmt/core.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <cstdlib>

#include "pmucat/check.h"

int main(int argc, char** argv) {
  CLI::App app{"Capture a sysfs PMU tree (following symlinks) into OUT, a directory or a .tar.gz.",
               "pmusnap"};
  std::string sysfs = "/sys/bus/event_source/devices";
  if (const char* env = std::getenv("PMUCAT_SYSFS")) sysfs = env;
  std::string out;
  app.add_option("--sysfs", sysfs, "Tree to capture (default $PMUCAT_SYSFS, else the live tree)");
  app.add_option("OUT", out, "Output directory (must be empty or new) or FILE.tar.gz")->required();
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    int status = app.exit(error);
    return status == 0 ? 0 : 2;
  }
  auto summary = pmucat::snap::capture(sysfs, out);
  if (!summary) {
    std::fputs(pmucat::render(summary.error()).c_str(), stderr);
    return 2;
  }
  std::fputs(
      fmt::format("pmusnap: {} PMUs, {} files captured in {}\n", summary->pmus, summary->files, out)
          .c_str(),
      stdout);
  for (const std::string& path : summary->unreadable) {
    std::fputs(fmt::format("pmusnap: warning: {} is unreadable (recorded as such)\n", path).c_str(),
               stderr);
  }
  return 0;
}
