// bench/perfdata: writes a large generated perf.data (tests/perfdata/big_file.h).
//   pmucat_gen_perfdata OUT SIZE [pipe]     SIZE like 1G, 200M
#include <cstdio>
#include <string>

#include "big_file.h"

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s OUT SIZE [pipe]\n", argv[0]);
    return 2;
  }
  const auto bytes = pmucat::parse_byte_size(argv[2]);
  if (!bytes) {
    std::fprintf(stderr, "bad size %s\n", argv[2]);
    return 2;
  }
  const bool pipe = argc > 3 && std::string(argv[3]) == "pipe";
  if (auto error = pmucat::test::write_big_perf_data(
          argv[1], *bytes, pipe ? pmucat::PerfDataMode::pipe : pmucat::PerfDataMode::file)) {
    std::fprintf(stderr, "%s\n", error->message.c_str());
    return 1;
  }
  return 0;
}
