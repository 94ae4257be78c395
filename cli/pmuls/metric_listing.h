// The metric views of pmuls: the vendor model's metrics (--metrics), its metric groups
// (--metric-groups), one group's metrics (--metric-group) and one metric in full (--metric), in
// text as perf 6.1's `perf list metrics` / `perf list metricgroups` print them, and as JSON.
#pragma once

#include <cstddef>
#include <string>

#include "common/diagnostics.h"
#include "pmucat/catalog.h"

PMUCAT_BEGIN_NAMESPACE
namespace cli {

struct MetricListing {
  bool metrics = false;        // --metrics
  bool metric_groups = false;  // --metric-groups
  std::string metric_group;    // --metric-group G
  std::string metric;          // --metric NAME
  bool details = false;        // --details: the expression under the description
  bool no_desc = false;        // --no-desc
  bool json = false;
  std::size_t columns = 78;  // descriptions are wrapped to this width (0: no wrapping)
};

// True when any metric view was asked for.
inline bool wants_metrics(const MetricListing& listing) {
  return listing.metrics || listing.metric_groups || !listing.metric_group.empty() ||
         !listing.metric.empty();
}

// The view `listing` asks for of `catalog`'s metrics, or a metric-not-found error (with the
// nearest name as a hint) for an unknown --metric or --metric-group.
Expected<std::string> render_metric_listing(const Catalog& catalog, const MetricListing& listing);

}  // namespace cli
PMUCAT_END_NAMESPACE
