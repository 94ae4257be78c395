// pmucat::core: encodes one event spec against a sysfs tree: `consumer TREE SPEC`.
#include <cstdio>

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
  for (const auto& event : *events) {
    std::printf("core %s: %s type=%u config=%#llx\n", pmucat::kVersion, event.perf_string.c_str(),
                event.attr.type, static_cast<unsigned long long>(event.attr.config[0]));
  }
  return 0;
}
