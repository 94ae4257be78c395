// pmudiff OLD NEW: what changed between two sysfs PMU trees. Exit 1 when an ABI break is found.
#include <fmt/core.h>

#include <CLI/CLI.hpp>
#include <cstdio>

#include "pmucat/check.h"

int main(int argc, char** argv) {
  CLI::App app{"Compare two sysfs PMU trees (directories or pmusnap .tar.gz captures).", "pmudiff"};
  std::string old_path;
  std::string new_path;
  bool json = false;
  app.add_option("OLD", old_path, "The tree before")->required();
  app.add_option("NEW", new_path, "The tree after")->required();
  app.add_flag("--json", json, "Print the changes as JSON");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    int status = app.exit(error);
    return status == 0 ? 0 : 2;
  }
  auto old_tree = pmucat::snap::open_tree(old_path);
  if (!old_tree) {
    std::fputs(pmucat::render(old_tree.error()).c_str(), stderr);
    return 2;
  }
  auto new_tree = pmucat::snap::open_tree(new_path);
  if (!new_tree) {
    std::fputs(pmucat::render(new_tree.error()).c_str(), stderr);
    return 2;
  }
  pmucat::diff::Result result = pmucat::diff::compare(old_tree->catalog, new_tree->catalog);
  std::string text = json ? pmucat::diff::render_json(result) : pmucat::diff::render_text(result);
  std::fwrite(text.data(), 1, text.size(), stdout);
  return result.has_abi_break() ? 1 : 0;
}
