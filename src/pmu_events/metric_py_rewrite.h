// The MetricExpr perf 6.12 keeps for a vendor metric. perf 6.12's build does not store the JSON
// text: jevents.py reads it with metric.py into a tree (a regex turns every name into an event,
// then Python's own parser and operators build the tree), simplifies it, and prints the tree
// back. perf then parses that printed string at run time, so its spelling (spaces, brackets,
// `1e3` for 1000, `x < 5` for `5 > x`, `\=` inside names) and its order of ids are what a
// faithful imitation must use. docs/perf-compat.md describes the rules.
#pragma once

#include <string>
#include <string_view>

#include "pmucat/expected.h"
#include "pmucat/perf_profile.h"

PMUCAT_BEGIN_NAMESPACE
namespace pmu_events {

// The string perf 6.12's generated table holds for MetricExpr `written`, or why metric.py would
// have refused it (perf 6.12's build stops there; the caller keeps the written text and says so).
//
// metric.py also computes a rewrite of each file's metrics in terms of one another
// (RewriteMetricsInTermsOfOthers), but jevents.py of 6.12 looks its results up under the wrong
// key and never applies them: nothing of it shows in perf 6.12's tables, so none is done here.
// `rules` of_7_2 and later: perf 7.2's and 7.3's metric.py, which joins an event's terms split at
// a `,` and knows `aggr_nr()`.
Expected<std::string, std::string> metric_py_rewrite(std::string_view written,
                                                     JeventsRules rules = JeventsRules::of_6_12);

}  // namespace pmu_events
PMUCAT_END_NAMESPACE
