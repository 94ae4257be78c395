// pmuls without a selection: one line per PMU, and the PMU attribute block --long adds.
#pragma once

#include <span>
#include <string>

#include "pmucat/catalog.h"

PMUCAT_BEGIN_NAMESPACE
namespace cli {

// A header and one row per PMU: name, type, kind, cpumask/cpus, number of events and formats.
// With `long_form`, each row is followed by the PMU's other attributes (see pmu_attribute_lines).
std::string render_pmu_summary(std::span<const Pmu* const> pmus, bool long_form);

// Indented `name  value` lines for caps/*, alias, identifier, nr_addr_filters and
// perf_event_mux_interval_ms, each only when present.
std::string pmu_attribute_lines(const Pmu& pmu, const std::string& indent);

// `cpu: type 4, core, cpus=0-7, 12 events, 15 formats`: the heading of a PMU's section.
std::string pmu_heading(const Pmu& pmu);

}  // namespace cli
PMUCAT_END_NAMESPACE
