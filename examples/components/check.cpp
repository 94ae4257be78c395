// pmucat::check: validates a sysfs tree and renders the report as JSON: `consumer TREE`.
#include "pmucat/check.h"

#include <cstdio>

#include "pmucat/pmucat.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: consumer TREE\n");
    return 2;
  }
  auto catalog = pmucat::Catalog::open(argv[1]);
  if (!catalog) {
    std::fputs(pmucat::render(catalog.error()).c_str(), stderr);
    return 2;
  }
  const auto report = pmucat::check::run(*catalog, {});
  const auto json = pmucat::check::render_json(report);
  std::printf("check: %zu PMUs, %zu findings, %zu bytes of JSON\n", report.pmus.size(),
              report.all_findings().size(), json.size());
  return json.empty() ? 1 : 0;
}
