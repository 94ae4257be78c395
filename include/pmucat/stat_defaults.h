// The events plain `perf stat` opens: no -e, no -M (docs/perf-compat.md, "The attrs a perf
// command opens"). Each release chooses them differently, and the profile says how:
//   perf 6.1   task-clock (cpu-clock when counting CPUs), context-switches, cpu-migrations,
//              page-faults, cycles, stalled-cycles-frontend/-backend where the `cpu` PMU has them,
//              instructions, branches, branch-misses; then, where the type-4 PMU has `slots`, the
//              topdown group (level 2 where it has topdown-heavy-ops); -d, -dd, -ddd append cache
//              events.
//   perf 6.12  the same list without the topdown group, and the `Default` metric group's events
//              (Behaviour::default_stat_metricgroup) in its place.
//   perf 7.2   the metric groups `Default` .. `Default4` up to the -d level, each expanded as
//              `perf stat -M` does without thresholds, then sorted by their group leaders
//              (Behaviour::metric_driven_default_stat): the events of metrics that show them
//              first, then by the leader's PMU type, then by its name.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "pmucat/catalog.h"
#include "pmucat/encode.h"
#include "pmucat/expected.h"
#include "pmucat/metrics.h"
#include "pmucat/version.h"

PMUCAT_BEGIN_NAMESPACE

struct StatDefaultsOptions {
  // `-d` given this many times (perf stat takes up to 3; more adds nothing).
  unsigned detail = 0;
  // Counting CPUs (`-a`, `-C`) rather than a command: perf 6.1 and 6.12 open cpu-clock instead of
  // task-clock; perf 7.2's common metrics read it through `#target_cpu`, which this sets to 1
  // (metrics.literals.target_cpu is the command's 0 otherwise).
  bool cpu_target = false;
  // How the metric groups are expanded: its semantics are the release's; its literals, NMI
  // watchdog and has_event() answer are the host's. no_group, no_merge and no_threshold are
  // perf's for the default groups (grouped, merged, no thresholds), whatever they hold here.
  MetricExpandOptions metrics;
};

struct StatDefaults {
  std::vector<EncodedEvent> events;  // in the order perf opens them; group leaders are indices here
  // The metric groups expanded (`Default`, `Default2`, ...), and every metric of them, in that
  // order; metric_events[m][i]: the indices in `events` of metric m's id i.
  std::vector<std::string> metric_groups;
  std::vector<ExpandedMetric> metrics;
  std::vector<std::vector<std::vector<std::size_t>>> metric_events;
};

// The events plain `perf stat` opens on `catalog` under encode_options.semantics (with
// Tool::stat). Errors: a default metric group perf fails to expand (perf 7.3 then stops:
// "Fail to parse metric or group `Default'"); under perf 7.2's rules, a catalog without the
// model's metrics (metric-not-found: perf would still open its common table's, which pmucat
// reads with a model only); an event the release's list names that does not encode.
Expected<StatDefaults> stat_default_events(const Catalog& catalog,
                                           const StatDefaultsOptions& options,
                                           const EncodeOptions& encode_options);

PMUCAT_END_NAMESPACE
