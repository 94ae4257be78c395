// pmucat-vendor-index JSON_ROOT INDEX_ROOT: the build step that compiles the kernel's
// pmu-events/arch JSON tree into the index the tools read (include/pmucat/vendor_index.h).
// Not installed: the build runs it once and installs its output.
#include <chrono>
#include <cstdio>
#include <string>

#include "pmucat/diagnostic.h"
#include "pmucat/vendor_index.h"

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fputs("usage: pmucat-vendor-index JSON_ROOT INDEX_ROOT\n", stderr);
    return 2;
  }
  const auto start = std::chrono::steady_clock::now();
  const auto summary = pmucat::write_vendor_index(argv[1], argv[2]);
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
