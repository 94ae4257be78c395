// perf.data <-> PerfDataProto (quipper's schema, package `quipper`), binary or text format.
// Defined in the perfdata_proto module (src/perfdata_proto/), the only one that needs Protobuf.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "pmucat/expected.h"
#include "pmucat/perfdata.h"

namespace pmucat {

enum class ProtoFormat : std::uint8_t { binary, text };

// perf.data -> PerfDataProto. quipper's typed fields are filled wherever they reproduce the
// bytes exactly; everything else (and the file layout) goes into pmucat extension fields
// (numbers >= 1000), so from_perf_data_proto gives back an equal model. Other-endian models
// are refused.
Expected<std::string> to_perf_data_proto(const PerfData& data, ProtoFormat format);

// PerfDataProto (ours or quipper's) -> perf.data model. Without pmucat extensions (a quipper
// proto), features are rebuilt from the typed metadata and records from the typed events.
Expected<PerfData> from_perf_data_proto(std::string_view bytes, ProtoFormat format,
                                        std::string_view file);

}  // namespace pmucat
