// Vendor metrics: perf's descriptions, group names, name matching, and the table order of events
// and metrics under each perf's rules.
#include <algorithm>
#include <map>
#include <tuple>

#include "parser/char_class.h"
#include "pmu_events/descriptions.h"
#include "pmucat/vendor_events.h"

PMUCAT_BEGIN_NAMESPACE
namespace {

using char_class::ascii_iequal;
using char_class::ascii_ifind;

}  // namespace

std::string perf_metric_description(const VendorMetric& metric) {
  std::string description = pmu_events::strip_trailing_period(metric.brief_description);
  if (!metric.pmu.empty() && jevents_rules(metric.rules) == JeventsRules::of_6_1) {
    if (!description.empty() && !description.ends_with(". ")) description += ". ";
    description += "Unit: ";
    description += metric.pmu;
    description += ' ';
  }
  return description;
}

std::vector<std::string> metric_group_names(const VendorMetric& metric) {
  std::vector<std::string> names;
  if (metric.group.empty()) {
    if (metric.event_name.empty()) names.emplace_back("No_group");
    return names;
  }
  std::string_view rest = metric.group;
  while (true) {
    const std::size_t end = rest.find(';');
    std::string_view part = rest.substr(0, end);
    while (!part.empty() &&
           (part.front() == ' ' || (part.front() >= '\t' && part.front() <= '\r'))) {
      part.remove_prefix(1);
    }
    names.emplace_back(part.empty() ? std::string_view("No_group") : part);
    if (end == std::string_view::npos) break;
    rest.remove_prefix(end + 1);
  }
  return names;
}

bool perf_metric_matches(std::string_view field, std::string_view list) {
  if (list == "all") return true;
  if (field.empty()) return ascii_iequal(list, "No_group");
  const std::size_t at = ascii_ifind(field, list);
  if (at == std::string_view::npos) return false;
  const bool starts = at == 0 || field[at - 1] == ';' || field[at - 1] == ' ';
  const std::size_t end = at + list.size();
  const bool ends = end == field.size() || field[end] == ';';
  return starts && ends;
}

std::vector<VendorMetricGroup> vendor_metric_groups(
    std::span<const VendorMetric> metrics,
    std::span<const VendorMetricGroupDescription> descriptions) {
  std::map<std::string, std::vector<std::size_t>> groups;
  for (std::size_t i = 0; i < metrics.size(); ++i) {
    for (std::string& name : metric_group_names(metrics[i])) {
      std::vector<std::size_t>& members = groups[std::move(name)];
      if (members.empty() || members.back() != i) members.push_back(i);
    }
  }
  std::vector<VendorMetricGroup> result;
  result.reserve(groups.size());
  for (auto& entry : groups) {
    VendorMetricGroup group;
    group.name = entry.first;
    group.metrics = std::move(entry.second);
    const auto described = std::lower_bound(descriptions.begin(), descriptions.end(), group.name,
                                            [](const VendorMetricGroupDescription& d,
                                               const std::string& name) { return d.name < name; });
    if (described != descriptions.end() && described->name == group.name) {
      group.description = described->description;
    }
    result.push_back(std::move(group));
  }
  return result;
}

namespace {

// perf 6.12 names the core PMU's table `default_core`.
std::string_view table_pmu(const std::string& pmu) {
  return pmu.empty() ? std::string_view("default_core") : std::string_view(pmu);
}

// 6.12's metric key compares `desc` as jevents writes it into C source (fixdesc escapes newlines,
// carriage returns and double quotes).
std::string escaped_description(std::string_view brief) {
  std::string out;
  for (char c : pmu_events::strip_trailing_period(brief)) {
    if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c == '"') {
      out += "\\\"";
    } else {
      out += c;
    }
  }
  return out;
}

}  // namespace

void sort_vendor_metrics(std::vector<VendorMetric>& metrics, PerfRelease rules) {
  if (pmu_events::jevents_since(rules, JeventsRules::of_6_12)) {
    // A table per PMU, in PMU order: (PMU, MetricName, MetricExpr, desc). The expression is
    // already the one metric.py prints back (metric_py_rewrite), as in perf 6.12's key.
    std::vector<std::string> keys;
    keys.reserve(metrics.size());
    std::vector<std::size_t> order(metrics.size());
    for (std::size_t i = 0; i < metrics.size(); ++i) {
      order[i] = i;
      keys.push_back(escaped_description(metrics[i].brief_description));
    }
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
      const VendorMetric& x = metrics[a];
      const VendorMetric& y = metrics[b];
      return std::forward_as_tuple(table_pmu(x.pmu), x.name, x.expr, keys[a]) <
             std::forward_as_tuple(table_pmu(y.pmu), y.name, y.expr, keys[b]);
    });
    std::vector<VendorMetric> sorted;
    sorted.reserve(metrics.size());
    for (std::size_t i : order) sorted.push_back(std::move(metrics[i]));
    metrics = std::move(sorted);
    return;
  }
  std::stable_sort(metrics.begin(), metrics.end(),
                   [](const VendorMetric& a, const VendorMetric& b) {
                     return std::tie(a.has_perf_description, a.topic, a.event_name, a.pmu, a.name) <
                            std::tie(b.has_perf_description, b.topic, b.event_name, b.pmu, b.name);
                   });
}

void sort_vendor_events(std::vector<VendorEvent>& events, PerfRelease rules) {
  if (pmu_events::jevents_since(rules, JeventsRules::of_6_12)) {
    // A table per PMU, in PMU order, each by name, then description or not, then topic (perf
    // 6.12's build refuses two events of one name in one PMU's table, so the rest never decides).
    std::stable_sort(events.begin(), events.end(), [](const VendorEvent& a, const VendorEvent& b) {
      return std::forward_as_tuple(table_pmu(a.pmu), a.name, a.has_perf_description, a.topic) <
             std::forward_as_tuple(table_pmu(b.pmu), b.name, b.has_perf_description, b.topic);
    });
    return;
  }
  // One table: events without a description first, then topic, name and PMU; a stable sort
  // keeps file order among equal keys.
  std::stable_sort(events.begin(), events.end(), [](const VendorEvent& a, const VendorEvent& b) {
    return std::tie(a.has_perf_description, a.topic, a.name, a.pmu) <
           std::tie(b.has_perf_description, b.topic, b.name, b.pmu);
  });
}

PMUCAT_END_NAMESPACE
