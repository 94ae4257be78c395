#include <utility>
#include <vector>

#include "pmucat/metrics.h"
#include "pmucat/vendor_events.h"

PMUCAT_BEGIN_NAMESPACE

std::vector<MetricDefinition> metric_definitions(const Catalog& catalog) {
  std::vector<MetricDefinition> out;
  const auto metrics = catalog.vendor_metrics();
  out.reserve(metrics.size());
  for (const VendorMetric& m : metrics) {
    if (m.system_table) continue;
    MetricDefinition d;
    d.name = m.name;
    d.expr = m.expr;
    d.group = m.group;
    d.constraint = m.constraint;
    d.unit = m.scale_unit;
    d.file = m.location.file;
    d.threshold = m.threshold;
    d.metricgroup_no_group = m.no_group;
    d.default_metricgroup_name = m.default_metricgroup_name;
    d.pmu = m.pmu;
    out.push_back(d);
  }
  return out;
}

Expected<EncodedMetrics> expand_metrics(const Catalog& catalog, std::string_view names,
                                        const MetricExpandOptions& options,
                                        const EncodeOptions& encode_options) {
  const auto table = metric_definitions(catalog);
  MetricExpandOptions with_catalog = options;
  if (!with_catalog.event_parses) {
    // has_event(): perf 6.12 parses the event with the PMUs it has.
    with_catalog.event_parses = [&](std::string_view event) {
      return encode(catalog, event, encode_options).has_value();
    };
  }
  auto expansion = expand_metric_table(table, names, with_catalog);
  if (!expansion) return unexpected(std::move(expansion.error()));
  return encode_metrics(catalog, std::move(*expansion), encode_options);
}

PMUCAT_END_NAMESPACE
