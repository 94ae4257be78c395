// The spec parser and encode() on a real-shaped catalog (fixtures/sysfs/intel-spr), in pmucat's
// semantics and perf 6.1's and 7.3's. Invariants: encode never accepts what the parser rejects;
// every error renders; an encoded event's perf_string encodes to the same attr; decoding an
// attr's config on its PMU gives terms that encode back to the same config words.
#include <string>
#include <string_view>

#include "fuzz_target.h"
#include "pmucat/catalog.h"
#include "pmucat/decode.h"
#include "pmucat/diagnostic.h"
#include "pmucat/encode.h"
#include "pmucat/spec.h"

namespace {

using pmucat::Catalog;
using pmucat::EncodedEvent;
using pmucat::EncodeOptions;

const Catalog& fixture_catalog() {
  static const Catalog catalog = [] {
    auto opened = Catalog::open(PMUCAT_SOURCE_DIR "/fixtures/sysfs/intel-spr");
    if (!opened) __builtin_trap();  // the fixture is part of the source tree
    return std::move(*opened);
  }();
  return catalog;
}

void check_perf_string(const Catalog& catalog, const EncodedEvent& event,
                       const EncodeOptions& options) {
  auto again = pmucat::encode(catalog, event.perf_string, options);
  PMUCAT_FUZZ_CHECK(again.has_value());
  bool found = false;
  for (const EncodedEvent& other : *again) {
    found = found || (other.attr.type == event.attr.type && other.attr.config == event.attr.config);
  }
  PMUCAT_FUZZ_CHECK(found);
}

void check_decode(const Catalog& catalog, const EncodedEvent& event, const EncodeOptions& options) {
  const pmucat::Pmu* pmu = catalog.find_pmu(event.pmu);
  if (pmu == nullptr || pmu->type() != event.attr.type) return;
  const pmucat::Decoded decoded = pmucat::decode(*pmu, event.attr.config);
  if (decoded.terms_string.empty()) return;
  auto again = pmucat::encode(catalog, event.pmu + "/" + decoded.terms_string + "/", options);
  PMUCAT_FUZZ_CHECK(again.has_value());
  // A decoded topdown metric event encodes with the slots event perf 7.3 adds before it.
  bool found = false;
  for (const EncodedEvent& other : *again) {
    found = found || (other.pmu == event.pmu && other.attr.config == event.attr.config);
  }
  PMUCAT_FUZZ_CHECK(found);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view spec(reinterpret_cast<const char*>(data), size);
  const Catalog& catalog = fixture_catalog();
  auto parsed = pmucat::parse_spec_list(spec);
  if (!parsed) PMUCAT_FUZZ_CHECK(!pmucat::render(parsed.error()).empty());

  for (pmucat::Profile semantics :
       {pmucat::Profile::pmucat(), pmucat::Profile::perf(pmucat::PerfRelease::v6_1),
        pmucat::Profile::perf(pmucat::PerfRelease::v7_3)}) {
    for (pmucat::Tool tool : {pmucat::Tool::record, pmucat::Tool::stat}) {
      EncodeOptions options;
      options.semantics = semantics;
      // Tracepoints read the fixture tracefs, never the live one (deterministic, bounded).
      options.tracefs = PMUCAT_SOURCE_DIR "/fixtures/tracefs/basic";
      options.tool = tool;
      auto encoded = pmucat::encode(catalog, spec, options);
      if (!encoded) {
        PMUCAT_FUZZ_CHECK(!pmucat::render(encoded.error()).empty());
        continue;
      }
      PMUCAT_FUZZ_CHECK(parsed.has_value());
      for (const EncodedEvent& event : *encoded) {
        for (const pmucat::Diagnostic& warning : event.warnings) {
          PMUCAT_FUZZ_CHECK(!pmucat::render(warning).empty());
        }
        check_perf_string(catalog, event, options);
        check_decode(catalog, event, options);
      }
    }
  }
  return 0;
}
