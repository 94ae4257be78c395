// What `perf COMMAND -i FILE` shows of a perf.data file, for tests that compare two files as perf
// sees them: the exit status, then the output lines without perf's random `# (Tip: ...)` line.
#pragma once

#include <algorithm>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "pmucat/version.h"
#include "support/command.h"

PMUCAT_BEGIN_NAMESPACE
namespace testing {

struct PerfViewOptions {
  bool sorted = false;                // lines sorted (perf report's order of equal rows moves)
  bool without_capture_time = false;  // `# captured on` dropped (a rewrite's own time)
};

inline std::string perf_view(const std::string& command, const std::filesystem::path& file,
                             PerfViewOptions options = {}) {
  const auto r = run_command("perf " + command + " -i '" + file.string() + "' 2>&1");
  std::istringstream in(r.out);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("# (Tip:", 0) == 0) continue;
    if (options.without_capture_time && line.find("# captured on") != std::string::npos) continue;
    lines.push_back(line);
  }
  if (options.sorted) std::sort(lines.begin(), lines.end());
  std::string out = "status " + std::to_string(r.status) + "\n";
  for (const auto& l : lines) {
    out += l;
    out += '\n';
  }
  return out;
}

}  // namespace testing
PMUCAT_END_NAMESPACE
