// pmucat::proto: reads a perf.data, converts it to a PerfDataProto and back:
// `consumer PERF_DATA`.
#include <cstdio>

#include "pmucat/perfdata.h"
#include "pmucat/perfdata_proto.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: consumer PERF_DATA\n");
    return 2;
  }
  auto data = pmucat::read_perf_data(argv[1]);
  if (!data) {
    std::fputs(pmucat::render(data.error()).c_str(), stderr);
    return 1;
  }
  auto proto = pmucat::to_perf_data_proto(*data, pmucat::ProtoFormat::binary);
  if (!proto) {
    std::fputs(pmucat::render(proto.error()).c_str(), stderr);
    return 1;
  }
  auto back = pmucat::from_perf_data_proto(*proto, pmucat::ProtoFormat::binary, "proto");
  if (!back) {
    std::fputs(pmucat::render(back.error()).c_str(), stderr);
    return 1;
  }
  std::printf("proto: %zu bytes, round trip %s\n", proto->size(),
              *back == *data ? "equal" : "differs");
  return *back == *data ? 0 : 1;
}
