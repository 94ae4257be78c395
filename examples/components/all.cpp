// pmucat::pmucat (every component), as a consumer written before the components links it:
// encodes a spec with the core headers only: `consumer TREE SPEC`.
#include <cstdio>

#include "pmucat/check.h"
#include "pmucat/perfdata.h"
#include "pmucat/pmucat.h"

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: consumer TREE SPEC\n");
    return 2;
  }
  auto catalog = pmucat::Catalog::open(argv[1]);
  if (!catalog) {
    std::fputs(pmucat::render(catalog.error()).c_str(), stderr);
    return 2;
  }
  auto events = pmucat::encode(*catalog, argv[2]);
  if (!events) {
    std::fputs(pmucat::render(events.error()).c_str(), stderr);
    return 1;
  }
  const auto report = pmucat::check::run(*catalog, {});
  std::printf("all: %s config=%#llx, %zu rules\n", events->front().perf_string.c_str(),
              static_cast<unsigned long long>(events->front().attr.config[0]),
              pmucat::check::rules().size());
  return report.pmus.empty() ? 1 : 0;
}
