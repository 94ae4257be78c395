#include "rules_612.h"

#include "parser/char_class.h"
#include "pmucat/version.h"

PMUCAT_BEGIN_NAMESPACE
namespace metrics_612 {

namespace {

using char_class::ascii_iequal;

}  // namespace

bool match(std::string_view metric_or_groups, std::string_view sought) {
  if (sought == "all") return true;
  if (metric_or_groups.empty()) return ascii_iequal(sought, "No_group");
  for (;;) {
    const std::size_t semi = metric_or_groups.find(';');
    // strncasecmp over sought's length, then the field's next byte must end the word.
    if (metric_or_groups.size() >= sought.size() &&
        ascii_iequal(metric_or_groups.substr(0, sought.size()), sought) &&
        (metric_or_groups.size() == sought.size() || metric_or_groups[sought.size()] == ';')) {
      return true;
    }
    if (semi == std::string_view::npos) return false;
    metric_or_groups.remove_prefix(semi + 1);
  }
}

std::string_view pmu_of(const MetricDefinition& metric) {
  return metric.pmu.empty() ? std::string_view("default_core") : metric.pmu;
}

EventGrouping event_grouping(std::string_view constraint) {
  if (constraint == "NO_GROUP_EVENTS") return EventGrouping::no_group;
  if (constraint == "NO_GROUP_EVENTS_NMI" || constraint == "NO_NMI_WATCHDOG")
    return EventGrouping::no_group_nmi;
  if (constraint == "NO_GROUP_EVENTS_SMT") return EventGrouping::no_group_smt;
  return EventGrouping::group;
}

bool groups_events(const MetricDefinition& metric, std::string_view requested,
                   const MetricExpandOptions& options) {
  if (options.no_group || match(metric.metricgroup_no_group, requested)) return false;
  switch (event_grouping(metric.constraint)) {
    case EventGrouping::no_group:
      return false;
    case EventGrouping::no_group_nmi:
      return !options.nmi_watchdog;
    case EventGrouping::no_group_smt:
      return !(options.literals.smt_on && *options.literals.smt_on != 0);
    case EventGrouping::group:
      break;
  }
  return true;
}

std::string_view root_expression(const MetricDefinition& metric, bool no_threshold) {
  if (metric.threshold.empty()) return metric.expr;
  return no_threshold ? metric.name : metric.threshold;
}

bool default_order_before(const MetricDefinition& a, const MetricDefinition& b) {
  if (a.default_metricgroup_name != b.default_metricgroup_name)
    return a.default_metricgroup_name > b.default_metricgroup_name;
  return a.name > b.name;
}

}  // namespace metrics_612
PMUCAT_END_NAMESPACE
