// Two tables' versions of one model, compared event by event and metric by metric.
#include <algorithm>
#include <map>
#include <tuple>

#include "pmu_events/vendor_numbers.h"
#include "pmucat/vendor_diff.h"

PMUCAT_BEGIN_NAMESPACE
namespace {

// A term string with each numeric value printed one way (`umask=0x01` and `umask=1` are one
// encoding); other values and the order of the terms are kept.
std::string canonical_terms(std::string_view terms) {
  std::string out;
  while (!terms.empty()) {
    const std::size_t comma = terms.find(',');
    const std::string_view term = terms.substr(0, comma);
    terms = comma == std::string_view::npos ? std::string_view() : terms.substr(comma + 1);
    if (!out.empty()) out += ',';
    const std::size_t equals = term.find('=');
    const auto value = equals == std::string_view::npos
                           ? std::nullopt
                           : pmu_events::parse_python_int_auto(term.substr(equals + 1));
    if (value) {
      out += term.substr(0, equals + 1);
      out += pmu_events::hex_like_printf(*value);
    } else {
      out += term;
    }
  }
  return out;
}

using Key = std::pair<std::string, std::string>;  // PMU, name

std::map<Key, const VendorEvent*> events_by_key(const VendorModel& model) {
  std::map<Key, const VendorEvent*> events;
  for (const VendorEvent& event : model.events) events.try_emplace({event.pmu, event.name}, &event);
  return events;
}

std::map<Key, const VendorMetric*> metrics_by_key(const VendorModel& model) {
  std::map<Key, const VendorMetric*> metrics;
  for (const VendorMetric& metric : model.metrics) {
    metrics.try_emplace({metric.pmu, metric.name}, &metric);
  }
  return metrics;
}

}  // namespace

std::string_view to_string(VendorChange change) {
  switch (change) {
    case VendorChange::added:
      return "added";
    case VendorChange::removed:
      return "removed";
    case VendorChange::renamed:
      return "renamed";
    case VendorChange::reencoded:
      return "re-encoded";
    case VendorChange::changed:
      return "changed";
  }
  return "changed";
}

VendorModelDiff diff_vendor_models(const VendorModel& before, const VendorModel& after) {
  VendorModelDiff diff;
  const auto old_events = events_by_key(before);
  const auto new_events = events_by_key(after);
  std::vector<const VendorEvent*> removed;
  std::vector<const VendorEvent*> added;
  for (const auto& [key, event] : old_events) {
    const auto it = new_events.find(key);
    if (it == new_events.end()) {
      removed.push_back(event);
    } else if (canonical_terms(event->terms) != canonical_terms(it->second->terms)) {
      diff.events.push_back(
          {VendorChange::reencoded, key.first, key.second, {}, event->terms, it->second->terms});
    } else {
      ++diff.events_unchanged;
    }
  }
  for (const auto& [key, event] : new_events) {
    if (!old_events.contains(key)) added.push_back(event);
  }
  // Renames: a removed event whose PMU and encoding an added one has, paired in name order.
  std::multimap<Key, const VendorEvent*> added_by_encoding;
  for (const VendorEvent* event : added) {
    added_by_encoding.emplace(Key{event->pmu, canonical_terms(event->terms)}, event);
  }
  std::vector<const VendorEvent*> renamed_to;
  for (const VendorEvent* event : removed) {
    const auto it = added_by_encoding.find({event->pmu, canonical_terms(event->terms)});
    if (it == added_by_encoding.end()) {
      diff.events.push_back({VendorChange::removed, event->pmu, event->name, {}, event->terms, {}});
      continue;
    }
    diff.events.push_back({VendorChange::renamed, event->pmu, it->second->name, event->name,
                           event->terms, it->second->terms});
    renamed_to.push_back(it->second);
    added_by_encoding.erase(it);
  }
  for (const VendorEvent* event : added) {
    if (std::find(renamed_to.begin(), renamed_to.end(), event) != renamed_to.end()) continue;
    diff.events.push_back({VendorChange::added, event->pmu, event->name, {}, {}, event->terms});
  }
  std::sort(diff.events.begin(), diff.events.end(),
            [](const VendorEventChange& a, const VendorEventChange& b) {
              return std::tie(a.pmu, a.name) < std::tie(b.pmu, b.name);
            });

  const auto old_metrics = metrics_by_key(before);
  const auto new_metrics = metrics_by_key(after);
  for (const auto& [key, metric] : old_metrics) {
    const auto it = new_metrics.find(key);
    if (it == new_metrics.end()) {
      diff.metrics.push_back({VendorChange::removed, key.first, key.second, metric->expr, {}});
    } else if (metric->expr != it->second->expr) {
      diff.metrics.push_back(
          {VendorChange::changed, key.first, key.second, metric->expr, it->second->expr});
    } else {
      ++diff.metrics_unchanged;
    }
  }
  for (const auto& [key, metric] : new_metrics) {
    if (!old_metrics.contains(key)) {
      diff.metrics.push_back({VendorChange::added, key.first, key.second, {}, metric->expr});
    }
  }
  std::sort(diff.metrics.begin(), diff.metrics.end(),
            [](const VendorMetricChange& a, const VendorMetricChange& b) {
              return std::tie(a.pmu, a.name) < std::tie(b.pmu, b.name);
            });
  return diff;
}

PMUCAT_END_NAMESPACE
