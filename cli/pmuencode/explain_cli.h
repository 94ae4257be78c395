// pmuencode --explain: the library's explain() over the encoded events, with the host facts read
// from --host-root, as text blocks (one per event) or JSON.
#pragma once

#include <span>
#include <string>

#include "pmucat/encode.h"
#include "pmucat/explain.h"
#include "pmuencode/encode_specs.h"

PMUCAT_BEGIN_NAMESPACE
namespace cli {

// What the explanation was asked for, as the command line said it.
struct ExplainRequest {
  std::string host_root = "/";  // --host-root
  ExplainOptions options;       // scope from -a/--cpu, tool from --for
};

// --explain's encoding: encode_specs(), except that an event of a list naming a PMU the catalog
// lacks (`cpu/event=0x3c/` on a VM) is no error: it becomes a stand-in (its text as the spec,
// the PMU as written, no attr) that explain() explains (explain-no-core-pmu, explain-pmu-absent).
// The other events of such a list are encoded one by one, outside their group. Every other
// error stays an error.
EncodeResult encode_for_explain(const Catalog& catalog, std::span<const std::string> specs,
                                const std::string& pmu_pattern, const EncodeOptions& options);

// True for encode_for_explain()'s stand-in of an event on an absent PMU.
bool is_absent_pmu_stand_in(const Catalog& catalog, const EncodedEvent& event);

// One block per event: its spec, then each reason with perf's wording, the fix and the facts;
// a header line with the host facts and the scope comes first.
std::string render_explanation(const HostFacts& facts, const ExplainRequest& request,
                               std::span<const EncodedEvent> events,
                               std::span<const Reason> reasons);

// The same as JSON: {"host": {...}, "scope", "cpus", "tool", "events": [{..., "reasons": []}]}.
std::string explanation_json(const HostFacts& facts, const ExplainRequest& request,
                             std::span<const EncodedEvent> events, std::span<const Reason> reasons);

// True when some reason is an error: an event that would not open or would count nothing.
bool has_blocking_reason(std::span<const Reason> reasons);

}  // namespace cli
PMUCAT_END_NAMESPACE
