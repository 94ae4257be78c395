// The streaming PerfDataProto reader (stream_perf_data_proto: CodedInputStream, two passes) on
// the input written to a file. A proto declares lengths of its own; fuzz/run gives this target
// a low -malloc_limit_mb, so an allocation sized by a declaration rather than by the bytes
// present is reported. Invariants: whenever the in-memory binary reader accepts the bytes, the
// streaming reader does and finds the same events, features and records; what the streaming
// reader accepts converts back to the same records.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz_target.h"
#include "pmucat/diagnostic.h"
#include "pmucat/perfdata.h"
#include "pmucat/perfdata_proto.h"

namespace {

class Collect : public pmucat::PerfDataVisitor {
 public:
  std::optional<pmucat::Diagnostic> begin(const pmucat::PerfData&) override { return std::nullopt; }
  std::optional<pmucat::Diagnostic> record(const pmucat::Record& r) override {
    records.push_back(r);
    return std::nullopt;
  }
  std::vector<pmucat::Record> records;
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::filesystem::path path = fuzz_scratch_file("pmucat-pbstream-fuzz");
  {
    std::ofstream out(path, std::ios::binary);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  }
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  auto whole = pmucat::from_perf_data_proto(bytes, pmucat::ProtoFormat::binary, "fuzz.pb");
  Collect collect;
  auto streamed = pmucat::stream_perf_data_proto(path, collect);
  if (!streamed) PMUCAT_FUZZ_CHECK(!pmucat::render(streamed.error()).empty());
  if (whole) {
    PMUCAT_FUZZ_CHECK(streamed.has_value());
    PMUCAT_FUZZ_CHECK(collect.records == whole->records);
    PMUCAT_FUZZ_CHECK(streamed->header.events == whole->events);
    PMUCAT_FUZZ_CHECK(streamed->header.features == whole->features);
  }
  std::error_code ignored;
  std::filesystem::remove(path, ignored);
  return 0;
}
