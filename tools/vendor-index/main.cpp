// pmucat-vendor-index [--rules RELEASE] JSON_ROOT INDEX_ROOT: the build step that compiles the
// kernel's pmu-events/arch JSON tree into the index the tools read (include/pmucat/vendor_index.h).
// Not installed: the build runs it once and installs its output.
#include <chrono>
#include <cstdio>
#include <string>
#include <string_view>

#include "pmucat/diagnostic.h"
#include "pmucat/perf_profile.h"
#include "pmucat/vendor_index.h"

int main(int argc, char** argv) {
  constexpr const char* kUsage =
      "usage: pmucat-vendor-index [--rules RELEASE] JSON_ROOT INDEX_ROOT\n";
  // The perf release whose jevents rules turn the JSON into event strings: the one the tables
  // came with.
  pmucat::PerfRelease rules = pmucat::kPmucatBaseRelease;
  int first = 1;
  if (argc > 2 && std::string_view(argv[1]) == "--rules") {
    const auto version = pmucat::parse_perf_release(argv[2]);
    if (!version) {
      std::fputs(kUsage, stderr);
      return 2;
    }
    rules = *version;
    first = 3;
  }
  if (argc - first != 2) {
    std::fputs(kUsage, stderr);
    return 2;
  }
  const auto start = std::chrono::steady_clock::now();
  const auto summary = pmucat::write_vendor_index(argv[first], argv[first + 1], rules);
  if (!summary) {
    std::fputs(pmucat::render(summary.error()).c_str(), stderr);
    return 1;
  }
  const auto elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start);
  std::printf(
      "pmucat-vendor-index: %zu architectures, %zu models, %zu events, %zu metrics, %zu bytes in "
      "%.2f s\n",
      summary->archs, summary->models, summary->events, summary->metrics, summary->bytes,
      elapsed.count());
  return 0;
}
