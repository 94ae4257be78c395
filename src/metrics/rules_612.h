// perf 6.12's metricgroup.c rules that differ from perf 6.1's, one function each, as facts
// measured against perf 6.12's `perf stat -M` (docs/perf-compat.md). Internal to the metrics
// module; expand.cpp chooses them by MetricExpandOptions::semantics.
#pragma once

#include <string_view>

#include "pmucat/metrics.h"

PMUCAT_BEGIN_NAMESPACE
namespace metrics_612 {

// match_metric(metric_or_groups, sought): `all` (case-sensitive) matches everything, an absent
// field (empty) matches `No_group` in any case, else `sought` must equal one `;`-separated
// word of the field, compared case-insensitively from the word's start.
bool match(std::string_view metric_or_groups, std::string_view sought);

// The metric's PMU as perf 6.12 names it: its Unit's PMU, or `default_core` without one (jevents
// 6.12 names the core table so; metrics compare it, never look it up).
std::string_view pmu_of(const MetricDefinition& metric);

// A MetricConstraint as jevents 6.12 compiles it.
enum class EventGrouping : unsigned char {
  group,         // none
  no_group,      // NO_GROUP_EVENTS
  no_group_nmi,  // NO_GROUP_EVENTS_NMI, NO_NMI_WATCHDOG
  no_group_smt,  // NO_GROUP_EVENTS_SMT
};
EventGrouping event_grouping(std::string_view constraint);

// Whether a metric `requested` (a word of `-M`) selected puts its events in a weak group:
// not with --metric-no-group, nor when its MetricgroupNoGroup matches `requested`, nor when
// its constraint says so (NMI: the watchdog is on; SMT: #smt_on is 1).
bool groups_events(const MetricDefinition& metric, std::string_view requested,
                   const MetricExpandOptions& options);

// What perf 6.12 finds the ids of for a metric that roots a tree: its MetricThreshold when it has
// one (without --metric-no-threshold; with it, just the metric's own name), else its MetricExpr.
// The threshold names the metric itself, which then joins as a reference.
std::string_view root_expression(const MetricDefinition& metric, bool no_threshold);

// `-M Default` (the whole list, exactly) sorts the metrics, after the combined list was built, by
// DefaultMetricgroupName then MetricName, both descending by strcmp (stable): true when `a` goes
// before `b`.
bool default_order_before(const MetricDefinition& a, const MetricDefinition& b);

}  // namespace metrics_612
PMUCAT_END_NAMESPACE
