// pmucat::perfdata: encodes a spec, writes a perf.data and reads it back:
// `consumer TREE SPEC OUTPUT`.
#include "pmucat/perfdata.h"

#include <cstdio>

#include "pmucat/perfdata_events.h"
#include "pmucat/pmucat.h"

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: consumer TREE SPEC OUTPUT\n");
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
  if (auto problem = pmucat::write_events_perf_data(argv[3], *events, *catalog)) {
    std::fputs(pmucat::render(*problem).c_str(), stderr);
    return 2;
  }
  auto data = pmucat::read_perf_data(argv[3]);
  if (!data) {
    std::fputs(pmucat::render(data.error()).c_str(), stderr);
    return 1;
  }
  std::printf("perfdata: %zu events, %zu records\n", data->events.size(), data->records.size());
  return 0;
}
