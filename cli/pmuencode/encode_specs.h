// The encoding step of pmuencode: each SPEC argument through the library's encoder, with --pmu
// choosing the PMU for bare terms and raw events and narrowing bare event names.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "pmucat/catalog.h"
#include "pmucat/encode.h"

PMUCAT_BEGIN_NAMESPACE
namespace cli {

struct EncodeResult {
  std::vector<EncodedEvent> events;  // in argument order
  std::vector<Diagnostic> errors;    // one per rejected argument
};

// Encodes every spec. With an empty `pmu_pattern` this is pmucat::encode() per argument. With a
// pattern, bare terms and `rHEX` go to each PMU it selects, and bare event names keep only the
// attrs of those PMUs; `pmu/.../` specs name their own PMU and are left alone.
EncodeResult encode_specs(const Catalog& catalog, std::span<const std::string> specs,
                          const std::string& pmu_pattern, const EncodeOptions& options);

}  // namespace cli
PMUCAT_END_NAMESPACE
