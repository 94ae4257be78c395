// Metrics over a session's counts: the evaluator's values (metric_eval.h) on the counts of the
// events each metric id was encoded to, and the grades a metric's value can earn beyond its
// events' own.
#include <fmt/core.h>

#include <algorithm>
#include <map>
#include <set>
#include <string_view>

#include "pmucat/count.h"

PMUCAT_BEGIN_NAMESPACE
namespace {

// The counts of `event_indices` (into the session's events) as one metric input: raw counts and
// times summed before scaling, as perf sums an uncore event's instances. `values_of[e]`: the
// reading's values of event e.
Count input_count(const std::string& id, const std::vector<std::size_t>& event_indices,
                  const std::vector<std::vector<const EventValue*>>& values_of,
                  std::span<const CountEvent> events) {
  Count count;
  count.event = id;
  count.enabled = 0;
  count.running = 0;
  bool refused = false;
  for (std::size_t event : event_indices) {
    refused = refused || events[event].refused.has_value();
    for (const EventValue* value : values_of[event]) {
      count.value += static_cast<double>(value->raw);
      *count.enabled += value->enabled;
      *count.running += value->running;
    }
  }
  if (refused || event_indices.empty()) {
    count.status = CountStatus::not_supported;
  } else if (*count.running == 0) {
    count.status = CountStatus::not_counted;
  }
  return count;
}

bool is_percentage(std::string_view unit) {
  return unit.find('%') != std::string_view::npos;
}

// The TMA parent a metric names in its groups (`tma_backend_bound_group` -> tma_backend_bound),
// or empty.
std::vector<std::string> tma_parents(std::string_view groups, std::string_view self) {
  std::vector<std::string> parents;
  constexpr std::string_view kSuffix = "_group";
  std::size_t start = 0;
  while (start <= groups.size()) {
    const std::size_t end = std::min(groups.find(';', start), groups.size());
    std::string_view group = groups.substr(start, end - start);
    if (group.starts_with("tma_") && group.ends_with(kSuffix)) {
      group.remove_suffix(kSuffix.size());
      if (group != self) parents.emplace_back(group);
    }
    start = end + 1;
  }
  return parents;
}

// The event a metric is printed beside (metric_host_events).
std::optional<std::size_t> host_event(const ExpandedMetric& metric,
                                      const std::vector<std::vector<std::size_t>>& id_events) {
  // The ids are unescaped (`software@task-clock,name=task-clock@`); the expression has perf's
  // backslashes (`task\-clock`).
  std::string plain;
  for (char c : metric.expr) {
    if (c != '\\') plain += c;
  }
  std::optional<std::size_t> host;
  std::size_t host_at = std::string::npos;
  for (std::size_t i = 0; i < id_events.size() && i < metric.ids.size(); ++i) {
    if (id_events[i].empty()) continue;
    const std::size_t at = plain.find(metric.ids[i]);
    if (!host || at < host_at) {
      host = id_events[i].front();
      host_at = at;
    }
  }
  return host;
}

}  // namespace

std::vector<MetricReading> evaluate_session_metrics(const Reading& reading,
                                                    std::span<const CountEvent> events,
                                                    const SessionMetrics& metrics,
                                                    const MetricEvaluator& evaluator,
                                                    const EvalOptions& options) {
  if (metrics.metrics.empty()) return {};
  const std::span<const VendorMetric> table = evaluator.metrics();
  std::vector<std::vector<const EventValue*>> values_of(events.size());
  for (const EventValue& value : reading.values) values_of[value.event].push_back(&value);
  Counts counts;
  std::set<std::string> added;
  for (std::size_t m = 0; m < metrics.metrics.size(); ++m) {
    const ExpandedMetric& metric = metrics.metrics[m];
    for (std::size_t i = 0; i < metric.ids.size() && i < metrics.id_events[m].size(); ++i) {
      if (!added.insert(metric.ids[i]).second) continue;
      counts.add(input_count(metric.ids[i], metrics.id_events[m][i], values_of, events));
    }
  }
  // The table's index of each expanded metric, by name (table.size(): not in it).
  std::vector<std::size_t> indices;
  for (const ExpandedMetric& metric : metrics.metrics) {
    indices.push_back(evaluator.find(metric.name).value_or(table.size()));
  }
  std::vector<std::size_t> known;
  for (std::size_t index : indices) {
    if (index < table.size()) known.push_back(index);
  }
  const std::vector<MetricValue> values = evaluator.evaluate(counts, options, known);

  std::vector<MetricReading> out;
  std::map<std::string, std::size_t> by_name;
  std::size_t next = 0;
  for (std::size_t m = 0; m < metrics.metrics.size(); ++m) {
    const ExpandedMetric& metric = metrics.metrics[m];
    MetricReading result;
    result.name = metric.name;
    if (indices[m] >= table.size()) {
      result.trust.push_back({TrustGrade::metric_input_missing,
                              fmt::format("{} is not in the catalog's metrics", metric.name)});
      out.push_back(std::move(result));
      continue;
    }
    const MetricValue& value = values[next++];
    result.unit = value.unit;
    if (!value.computed) {
      result.trust.push_back({TrustGrade::metric_input_missing, value.reason});
      by_name[result.name] = out.size();
      out.push_back(std::move(result));
      continue;
    }
    result.value = value.value;
    // Its events' groups, and whether any of them ran part of the time.
    std::set<std::size_t> groups;
    bool multiplexed = false;
    for (const std::vector<std::size_t>& id : metrics.id_events[m]) {
      for (std::size_t event : id) {
        if (events[event].tool != 0 || events[event].refused) continue;
        groups.insert(events[event].group);
        for (const EventValue& counted : reading.values) {
          if (counted.event == event && counted.running < counted.enabled) multiplexed = true;
        }
      }
    }
    if (groups.size() > 1 && multiplexed) {
      result.trust.push_back(
          {TrustGrade::metric_split_groups,
           fmt::format("its events were counted in {} groups and multiplexed, so over different "
                       "times",
                       groups.size())});
    }
    if (is_percentage(value.unit) && (value.value > 100.0 + 1e-9 || value.value < 0)) {
      result.trust.push_back({TrustGrade::out_of_range,
                              fmt::format("{:.2f}{} is no percentage", value.value, value.unit)});
    }
    by_name[result.name] = out.size();
    out.push_back(std::move(result));
  }
  // A TMA node larger than its parent, once both are known.
  for (std::size_t m = 0; m < metrics.metrics.size(); ++m) {
    MetricReading& child = out[m];
    if (!child.value || indices[m] >= table.size()) continue;
    for (const std::string& parent_name : tma_parents(table[indices[m]].group, child.name)) {
      const auto parent = by_name.find(parent_name);
      if (parent == by_name.end() || !out[parent->second].value) continue;
      const double limit = *out[parent->second].value;
      if (*child.value > limit * (1 + 1e-9) + 1e-12) {
        child.trust.push_back(
            {TrustGrade::child_above_parent, fmt::format("{:.2f} exceeds its parent {}'s {:.2f}",
                                                         *child.value, parent_name, limit)});
      }
    }
  }
  for (MetricReading& result : out) {
    if (result.trust.empty()) result.trust.push_back({TrustGrade::exact, std::string()});
  }
  return out;
}

std::vector<std::optional<std::size_t>> metric_host_events(const SessionMetrics& metrics,
                                                           const MetricEvaluator& evaluator) {
  std::vector<std::optional<std::size_t>> hosts;
  for (std::size_t m = 0; m < metrics.metrics.size(); ++m) {
    const ExpandedMetric& metric = metrics.metrics[m];
    hosts.push_back(evaluator.find(metric.name) ? host_event(metric, metrics.id_events[m])
                                                : std::nullopt);
  }
  return hosts;
}

PMUCAT_END_NAMESPACE
