// Turning --pmu NAME|GLOB options into PMUs, with a located error and a suggestion for a typo.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "pmucat/catalog.h"
#include "pmucat/diagnostic.h"
#include "pmucat/expected.h"

PMUCAT_BEGIN_NAMESPACE
namespace cli {

// The PMUs `patterns` select (exact name, instances, globs; see Catalog::match_pmus), in the
// catalog's natural order and each once; every PMU when `patterns` is empty. A pattern that
// selects nothing is an error pointing at it. `with_hwmon`: the tree's hwmon PMUs too (perf
// 7.2+'s; `hwmon_k10temp`, `hwmon0`, `hwmon_*`), for semantics that have them.
Expected<std::vector<const Pmu*>> select_pmus(const Catalog& catalog,
                                              std::span<const std::string> patterns,
                                              bool with_hwmon = false);

// "unknown PMU 'x'" with a caret under `pattern`, the nearest PMU name as a hint.
Diagnostic unknown_pmu_error(const Catalog& catalog, std::string_view pattern);

}  // namespace cli
PMUCAT_END_NAMESPACE
