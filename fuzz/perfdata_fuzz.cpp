// The perf.data reader, the structural checker and the PerfDataProto conversion on the input
// bytes, read both as a perf.data image and as a PerfDataProto. Invariants: the checker finds a
// problem in every image the reader rejects; a model converted to a proto and back is equal to
// itself (in binary and text form).
#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <vector>

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
    if (!proto) {
      // Only other-endian models are refused.
      PMUCAT_FUZZ_CHECK(data.other_endian);
      continue;
    }
    auto back = pmucat::from_perf_data_proto(*proto, format, "<proto>");
    PMUCAT_FUZZ_CHECK(back.has_value());
    PMUCAT_FUZZ_CHECK(*back == data);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::span<const std::byte> image(reinterpret_cast<const std::byte*>(data), size);
  auto parsed = pmucat::parse_perf_data(image, "fuzz.data");
  const std::vector<pmucat::Diagnostic> problems = pmucat::check_perf_data(image, "fuzz.data");
  for (const pmucat::Diagnostic& problem : problems) {
    PMUCAT_FUZZ_CHECK(!pmucat::render(problem).empty());
  }
  if (!parsed) {
    PMUCAT_FUZZ_CHECK(!problems.empty());
  } else {
    check_proto_round_trip(*parsed);
  }

  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  for (ProtoFormat format : {ProtoFormat::binary, ProtoFormat::text}) {
    auto from_proto = pmucat::from_perf_data_proto(bytes, format, "fuzz.pb");
    if (from_proto) check_proto_round_trip(*from_proto);
  }
  return 0;
}
