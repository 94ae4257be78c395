// PMUs whose events start from a default config rather than from zero (perf 6.1: intel_pt).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "pmucat/attr.h"
#include "pmucat/catalog.h"

PMUCAT_BEGIN_NAMESPACE
namespace encode_detail {

// One term of a PMU's default config: a format name and its value.
using DefaultTerm = std::pair<std::string, std::uint64_t>;

// The terms perf would build the PMU's default config from, in perf's order (each present only
// when the PMU's formats/caps support it); nullopt when the PMU has no default config.
std::optional<std::vector<DefaultTerm>> pmu_default_terms(const Pmu& pmu);

// The config words every event of this PMU starts from, or nullopt when it has no default config.
// When a default term cannot be applied (its format is missing) the whole default is zero, as in
// perf; values wider than their field are truncated silently, as perf's internal parse does.
// A PMU with a default config also takes user fields with replace semantics, not OR.
std::optional<ConfigWords> pmu_default_config(const Pmu& pmu);

}  // namespace encode_detail
PMUCAT_END_NAMESPACE
