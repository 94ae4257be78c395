// The PerfDataProto reader (binary and text) and what pmudata does with the model it gives:
// write it as perf.data and read that back. A proto declares sizes and counts of its own (attr
// `size`, record header sizes, raw sizes, repeated-field counts) that nothing ties to the bytes
// present; fuzz/run gives this target a low -malloc_limit_mb, so an allocation sized by such a
// declaration, rather than by the input, is reported as a crash. Invariants: a model the proto
// reader accepts converts back to a proto and reads to itself again (binary and text); when the
// writer accepts the model, the reader accepts the file it wrote and finds the same events and
// records in it.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <string_view>

#include "fuzz_target.h"
#include "pmucat/diagnostic.h"
#include "pmucat/perfdata.h"
#include "pmucat/perfdata_proto.h"

namespace {

using pmucat::PerfData;
using pmucat::ProtoFormat;

void check_proto_round_trip(const PerfData& data) {
  for (ProtoFormat format : {ProtoFormat::binary, ProtoFormat::text}) {
    auto proto = pmucat::to_perf_data_proto(data, format);
    PMUCAT_FUZZ_CHECK(proto.has_value());  // a proto's model is never other-endian
    auto back = pmucat::from_perf_data_proto(*proto, format, "<proto>");
    PMUCAT_FUZZ_CHECK(back.has_value());
    PMUCAT_FUZZ_CHECK(*back == data);
  }
}

void check_written_file_reads_back(const PerfData& data) {
  const std::filesystem::path path = fuzz_scratch_file("pmucat-proto-fuzz");
  const auto error = pmucat::write_perf_data(path, data, pmucat::options_like(data));
  if (!error) {
    auto read = pmucat::read_perf_data(path);
    if (!read)
      std::fprintf(stderr, "written file rejected: %s\n", pmucat::render(read.error()).c_str());
    PMUCAT_FUZZ_CHECK(read.has_value());
    PMUCAT_FUZZ_CHECK(read->records == data.records);
    PMUCAT_FUZZ_CHECK(read->events.size() == data.events.size());
  } else {
    PMUCAT_FUZZ_CHECK(!pmucat::render(*error).empty());
  }
  std::error_code ignored;
  std::filesystem::remove(path, ignored);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  for (ProtoFormat format : {ProtoFormat::binary, ProtoFormat::text}) {
    auto model = pmucat::from_perf_data_proto(bytes, format, "fuzz.pb");
    if (!model) {
      PMUCAT_FUZZ_CHECK(!pmucat::render(model.error()).empty());
      continue;
    }
    PMUCAT_FUZZ_CHECK(!model->other_endian);
    check_proto_round_trip(*model);
    check_written_file_reads_back(*model);
  }
  return 0;
}
