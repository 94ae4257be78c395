// Docs and scripts name repository paths (and `../shared/...` for the shared data beside the
// checkout), never a path that exists on one machine only.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;

const fs::path kSource = PMUCAT_SOURCE_DIR;

// Text a reader or a script follows: docs, READMEs, scripts and build files, and the seeds
// fuzz/make-corpus generates (a perf.data records its command line). Regression inputs are
// what a fuzzer found and may hold anything.
bool is_checked_text(const fs::path& relative) {
  const std::string text = relative.generic_string();
  if (text.starts_with("fuzz/regressions/")) return false;
  const std::string extension = relative.extension().string();
  if (extension == ".md" || extension == ".sh" || extension == ".py" || extension == ".txt" ||
      extension == ".cmake" || extension == ".in") {
    return true;
  }
  // Extensionless scripts (bench/run-cli, fuzz/run, .ci/run).
  return extension.empty() && (text.starts_with("bench/") || text.starts_with("fuzz/") ||
                               text.starts_with(".ci/") || text.starts_with("scripts/"));
}

// "file:line: text" for every line naming a path under /work/.
void collect_machine_paths(const fs::path& file, const std::string& shown,
                           std::vector<std::string>& found) {
  std::ifstream in(file);
  std::string line;
  for (unsigned number = 1; std::getline(in, line); ++number) {
    if (line.find("/work/") != std::string::npos) {
      found.push_back(shown + ":" + std::to_string(number) + ": " + line);
    }
  }
}

TEST(RepoPaths, DocsAndScriptsNameNoMachinePath) {
  std::vector<std::string> found;
  for (auto entry = fs::recursive_directory_iterator(kSource);
       entry != fs::recursive_directory_iterator(); ++entry) {
    const fs::path relative = fs::relative(entry->path(), kSource);
    const std::string top = relative.begin()->string();
    if (entry->is_directory() && (top.starts_with("build") || top == ".git")) {
      entry.disable_recursion_pending();
      continue;
    }
    if (entry->is_regular_file() && is_checked_text(relative)) {
      collect_machine_paths(entry->path(), relative.generic_string(), found);
    }
  }
  std::ostringstream report;
  for (const std::string& line : found) report << line << '\n';
  EXPECT_TRUE(found.empty()) << "name shared data as ../shared/..., repository files by their "
                                "repository path:\n"
                             << report.str();
}

}  // namespace

namespace {

// The kernel's pmu-events catalog is GPL data extracted at build time; nothing laid out like it
// (a mapfile.csv or a JSON file below a `pmu-events` directory) may be committed, our own demo
// model included (cmake/PmucatDemoFixture.cmake writes it at configure time).
TEST(RepoPaths, NoFileInTheKernelCatalogLayoutIsTracked) {
  if (!fs::exists(kSource / ".git")) GTEST_SKIP() << "not a git checkout";
  const std::string command = "git -C '" + kSource.string() + "' ls-files 2>/dev/null";
  FILE* pipe = popen(command.c_str(), "r");
  ASSERT_NE(pipe, nullptr);
  std::vector<std::string> tracked;
  std::vector<std::string> found;
  char line[4096];
  while (std::fgets(line, sizeof line, pipe) != nullptr) {
    std::string path(line);
    if (!path.empty() && path.back() == '\n') path.pop_back();
    tracked.push_back(path);
    const bool catalog = path.find("pmu-events/") != std::string::npos;
    if (catalog && (path.ends_with("/mapfile.csv") || path.ends_with(".json"))) {
      found.push_back(path);
    }
  }
  const int status = pclose(pipe);
  const int exit_status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  ASSERT_FALSE(tracked.empty()) << command << " listed nothing, exit status " << exit_status
                                << (exit_status == 127 ? ": git is not installed (scripts/dev.sh "
                                                         "installs it)"
                                                       : "");
  std::ostringstream report;
  for (const std::string& path : found) report << path << '\n';
  EXPECT_TRUE(found.empty()) << "generate these at build time instead:\n" << report.str();
}

}  // namespace
