// Compares pmucat's encoding of a spec with what perf 6.1 built, and sorts the differences into
// agreement, documented divergence (docs/perf-compat.md) and disagreement.
#pragma once

#include <string>
#include <vector>

#include "perf_oracle.h"
#include "pmucat/catalog.h"
#include "pmucat/encode.h"
#include "spec_generator.h"
#include "tree_model.h"

PMUCAT_BEGIN_NAMESPACE
namespace differential {

struct OurResult {
  std::vector<AttrWords> attrs;  // distinct, sorted; empty when pmucat rejected the spec
  std::string error;             // first diagnostic's message when rejected
  bool accepted() const { return !attrs.empty(); }
};

// encode(catalog, spec, {semantics, tool = stat}) reduced to the compared words.
// `tracefs`: the root tracepoint specs read (EncodeOptions::tracefs).
OurResult encode_words(const Catalog& catalog, const std::string& spec, Profile semantics,
                       const std::string& tracefs = {});

enum class Verdict { agree, documented, disagree };

struct Comparison {
  Verdict verdict = Verdict::agree;
  std::string reason;  // documented divergence id, or what differs
};

// The semantics whose results must equal the oracle's in the suites that check both: the
// oracle's own, and pmucat's when the oracle is the perf pmucat's semantics build on
// (against perf 6.1 pmucat's differences are the documented ones).
std::vector<Profile> semantics_matching_oracle();

// perf 6.12 counts its tool events (`duration_time`, `user_time`, `system_time`) itself and
// prints no attr for them: a spec of only those shows as counted without an attr.
bool counted_without_attr(const PerfResult& perf);

// What `ours` must be for such a spec: accepted, every attr perf's software dummy event (type 1,
// config 9), the attr perf builds for a tool event.
bool only_tool_event_attrs(const OurResult& ours);

// `ours` as the oracle can see it: perf 6.12 and 7.3 set config3 but their -vv dump never
// prints it (perf 6.1 has none), so against them our config3 is dropped before comparing.
OurResult as_perf_prints(const OurResult& ours);

// The documented divergence this case falls under (perf 6.1 cannot lex a hyphenated PMU name;
// perf 6.1 has no config3), or empty.
std::string expected_divergence(const SpecCase& spec_case, const TreeModel& tree);

// perf result vs pmucat (perf semantics).
Comparison compare_with_perf(const SpecCase& spec_case, const TreeModel& tree,
                             const PerfResult& perf, const OurResult& ours);

// pmucat's default semantics vs its perf semantics: equal except where a user term meets an
// alias term for the same field (override, checked against the explicit equivalent spec) or a
// field is repeated by the user (rejected).
Comparison compare_semantics(const SpecCase& spec_case, const TreeModel& tree,
                             const Catalog& catalog, const OurResult& perf_semantics,
                             const OurResult& default_semantics);

std::string describe(const std::vector<AttrWords>& attrs);

}  // namespace differential
PMUCAT_END_NAMESPACE
