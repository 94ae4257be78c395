#include "pmuls/metric_listing.h"

#include <fmt/core.h>

#include <algorithm>
#include <set>
#include <tuple>

#include "common/json.h"
#include "pmucat/diagnostic_ids.h"
#include "pmucat/suggest.h"
#include "pmuls/event_listing.h"

PMUCAT_BEGIN_NAMESPACE
namespace cli {
namespace {

// perf list's entry of a metric: its name, then the bracketed description (and expression).
std::string metric_entry(const VendorMetric& metric, const MetricListing& listing) {
  std::string text = "  ";
  text += metric.name;
  text += '\n';
  if (!listing.no_desc) {
    const std::string description = perf_metric_description(metric);
    if (!description.empty()) text += render_description(description, listing.columns);
  }
  if (listing.details) text += render_description(metric.expr, listing.columns);
  return text;
}

// The metrics at `indices` in perf list's order: sorted by name (then description and
// expression, the rest of perf's string), an entry printed once.
std::vector<const VendorMetric*> sorted_metrics(std::span<const VendorMetric> metrics,
                                                const std::vector<std::size_t>& indices) {
  std::vector<const VendorMetric*> sorted;
  for (std::size_t i : indices) sorted.push_back(&metrics[i]);
  auto key = [](const VendorMetric* m) {
    return std::make_tuple(std::string_view(m->name), perf_metric_description(*m),
                           std::string_view(m->expr));
  };
  std::stable_sort(sorted.begin(), sorted.end(),
                   [&](const VendorMetric* a, const VendorMetric* b) { return key(a) < key(b); });
  sorted.erase(
      std::unique(sorted.begin(), sorted.end(),
                  [&](const VendorMetric* a, const VendorMetric* b) { return key(a) == key(b); }),
      sorted.end());
  return sorted;
}

// The fields perf list -j prints for a metric (perf >= 6.2), under its names, then ours.
Json metric_to_json(const VendorMetric& metric) {
  Json object = Json::object();
  object["MetricName"] = metric.name;
  object["MetricGroup"] = metric.group;
  object["MetricExpr"] = metric.expr;
  object["MetricThreshold"] = metric.threshold;
  object["ScaleUnit"] = metric.scale_unit;
  object["BriefDescription"] = perf_metric_description(metric);
  object["PublicDescription"] = metric.public_description;
  object["MetricConstraint"] = metric.constraint;
  object["MetricgroupNoGroup"] = metric.no_group;
  object["Unit"] = metric.pmu;
  object["Compat"] = metric.compat;
  object["AggregationMode"] = metric.aggregation_mode;
  object["PerPkg"] = metric.per_pkg;
  object["Deprecated"] = metric.deprecated;
  Json groups = Json::array();
  for (const std::string& group : metric_group_names(metric)) groups.push_back(group);
  object["groups"] = std::move(groups);
  object["source"] = fmt::format("{}:{}", metric.location.file, metric.location.line);
  return object;
}

Json model_header(const Catalog& catalog) {
  Json document = Json::object();
  const VendorModel* model = catalog.vendor_model();
  document["model"] = model ? model->directory : std::string();
  document["cpuid"] = model ? model->cpuid : std::string();
  return document;
}

Diagnostic not_found(std::string_view option, const std::string& name,
                     const std::vector<std::string>& names, std::string_view what) {
  std::string hint = fmt::format("run 'pmuls {}' to see the {}", option, what);
  if (names.empty()) {
    hint =
        "the vendor model has no metrics: metrics come from the vendor JSON (see --events-dir "
        "and --cpuid)";
  } else if (auto suggestion = nearest_name(name, names)) {
    hint = fmt::format("did you mean '{}'?", *suggestion);
  }
  return argument_error(DiagId::metric_not_found, "<metric>", name, 0, name.size(),
                        fmt::format("no {} is named '{}'", what.substr(0, what.size() - 1), name),
                        std::move(hint));
}

std::string render_one_metric(const VendorMetric& metric, const MetricListing& listing) {
  std::string out = metric.name;
  out += '\n';
  auto line = [&](std::string_view label, std::string_view value) {
    if (value.empty()) return;
    out += fmt::format("  {:<14}{}\n", label, value);
  };
  line("expression:", metric.expr);
  line("groups:", metric.group);
  line("scale unit:", metric.scale_unit);
  line("threshold:", metric.threshold);
  line("constraint:", metric.constraint);
  line("no group:", metric.no_group);
  line("unit:", metric.pmu);
  line("compat:", metric.compat);
  line("aggregation:", metric.aggregation_mode);
  if (metric.per_pkg) line("per package:", "yes");
  line("source:", fmt::format("{}:{}", metric.location.file, metric.location.line));
  if (!listing.no_desc) {
    const std::string brief = perf_metric_description(metric);
    if (!brief.empty()) out += render_description(brief, listing.columns);
    if (!metric.public_description.empty() &&
        metric.public_description != metric.brief_description) {
      out += render_description(metric.public_description, listing.columns);
    }
  }
  return out;
}

}  // namespace

Expected<std::string> render_metric_listing(const Catalog& catalog, const MetricListing& listing) {
  const std::span<const VendorMetric> metrics = catalog.vendor_metrics();
  const std::vector<VendorMetricGroup> groups = catalog.vendor_metric_groups();

  if (!listing.metric.empty()) {
    std::vector<const VendorMetric*> found;
    std::vector<std::string> names;
    for (const VendorMetric& metric : metrics) {
      names.push_back(metric.name);
      if (iequals(metric.name, listing.metric)) found.push_back(&metric);
    }
    if (found.empty()) return unexpected(not_found("--metrics", listing.metric, names, "metrics"));
    if (listing.json) {
      Json document = model_header(catalog);
      Json items = Json::array();
      for (const VendorMetric* metric : found) items.push_back(metric_to_json(*metric));
      document["metrics"] = std::move(items);
      return dump_json(document);
    }
    std::string out;
    for (const VendorMetric* metric : found) {
      if (!out.empty()) out += '\n';
      out += render_one_metric(*metric, listing);
    }
    return out;
  }

  // The groups shown: one (--metric-group, case-insensitive) or every one.
  std::vector<const VendorMetricGroup*> shown;
  if (!listing.metric_group.empty()) {
    std::vector<std::string> names;
    for (const VendorMetricGroup& group : groups) {
      names.push_back(group.name);
      if (iequals(group.name, listing.metric_group)) shown.push_back(&group);
    }
    if (shown.empty()) {
      return unexpected(not_found("--metric-groups", listing.metric_group, names, "metric groups"));
    }
  } else {
    for (const VendorMetricGroup& group : groups) shown.push_back(&group);
  }

  if (listing.json) {
    Json document = model_header(catalog);
    if (listing.metric_groups || !listing.metric_group.empty()) {
      Json items = Json::array();
      for (const VendorMetricGroup* group : shown) {
        Json item = Json::object();
        item["MetricGroup"] = group->name;
        item["Description"] = group->description;
        Json members = Json::array();
        for (std::size_t i : group->metrics) members.push_back(metrics[i].name);
        item["metrics"] = std::move(members);
        items.push_back(std::move(item));
      }
      document["metric_groups"] = std::move(items);
    }
    if (listing.metrics || !listing.metric_group.empty()) {
      // Table order: the order perf expands them in.
      std::set<std::size_t> selected;
      for (const VendorMetricGroup* group : shown) {
        selected.insert(group->metrics.begin(), group->metrics.end());
      }
      Json items = Json::array();
      for (std::size_t i = 0; i < metrics.size(); ++i) {
        if (listing.metric_group.empty() || selected.contains(i)) {
          items.push_back(metric_to_json(metrics[i]));
        }
      }
      document["metrics"] = std::move(items);
    }
    return dump_json(document);
  }

  std::string out;
  if (listing.metric_groups || !listing.metric_group.empty()) {
    // perf list metricgroups: each group, with its metrics when they are asked for too.
    const bool with_metrics = listing.metrics || !listing.metric_group.empty();
    out += "Metric Groups:\n\n";
    for (const VendorMetricGroup* group : shown) {
      out += group->name;
      out += with_metrics ? ":\n" : "\n";
      if (!with_metrics) continue;
      for (const VendorMetric* metric : sorted_metrics(metrics, group->metrics)) {
        out += metric_entry(*metric, listing);
      }
    }
    return out;
  }
  // perf list metrics: every metric listed under a group, once, sorted.
  std::vector<std::size_t> all;
  for (const VendorMetricGroup& group : groups)
    all.insert(all.end(), group.metrics.begin(), group.metrics.end());
  std::sort(all.begin(), all.end());
  all.erase(std::unique(all.begin(), all.end()), all.end());
  out += "Metrics:\n\n";
  for (const VendorMetric* metric : sorted_metrics(metrics, all))
    out += metric_entry(*metric, listing);
  return out;
}

}  // namespace cli
PMUCAT_END_NAMESPACE
