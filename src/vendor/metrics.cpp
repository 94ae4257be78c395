// Vendor metrics: perf 6.1's descriptions, group names, name matching and table order.
#include <algorithm>
#include <map>
#include <tuple>

#include "pmucat/vendor_events.h"
#include "vendor/descriptions.h"

namespace pmucat {
namespace {

char lower(char c) {
  return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
}

bool iequal(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (lower(a[i]) != lower(b[i])) return false;
  }
  return true;
}

// strcasestr: the first position of `needle` in `haystack`, ignoring ASCII case.
std::size_t find_ignoring_case(std::string_view haystack, std::string_view needle) {
  if (needle.size() > haystack.size()) return std::string_view::npos;
  for (std::size_t i = 0; i + needle.size() <= haystack.size(); ++i) {
    if (iequal(haystack.substr(i, needle.size()), needle)) return i;
  }
  return std::string_view::npos;
}

}  // namespace

std::string perf_metric_description(const VendorMetric& metric) {
  std::string description = vendor::strip_trailing_period(metric.brief_description);
  if (!metric.pmu.empty()) {
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
  if (field.empty()) return iequal(list, "No_group");
  const std::size_t at = find_ignoring_case(field, list);
  if (at == std::string_view::npos) return false;
  const bool starts = at == 0 || field[at - 1] == ';' || field[at - 1] == ' ';
  const std::size_t end = at + list.size();
  const bool ends = end == field.size() || field[end] == ';';
  return starts && ends;
}

std::vector<VendorMetricGroup> vendor_metric_groups(std::span<const VendorMetric> metrics) {
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
    result.push_back(std::move(group));
  }
  return result;
}

void sort_vendor_metrics(std::vector<VendorMetric>& metrics) {
  std::stable_sort(metrics.begin(), metrics.end(),
                   [](const VendorMetric& a, const VendorMetric& b) {
                     return std::tie(a.has_perf_description, a.topic, a.event_name, a.pmu, a.name) <
                            std::tie(b.has_perf_description, b.topic, b.event_name, b.pmu, b.name);
                   });
}

}  // namespace pmucat
