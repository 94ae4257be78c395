// The event views of pmuls: all events of a PMU (--pmu) and one event in full (--event).
#pragma once

#include <string>

#include "common/diagnostics.h"
#include "pmucat/catalog.h"

namespace pmucat::cli {

// The PMU's heading (plus its attributes with `long_form`), then one line per event:
// `pmu/name/`, its terms, its encoding, and unit, scale, per-pkg, snapshot and needed `?`
// parameters where present. Problems with this PMU go to `printer` as warnings.
std::string render_pmu_events(const Pmu& pmu, bool long_form, DiagnosticPrinter& printer);

// Everything about one event: where it lives, its terms, each term's field and bits, the
// config words, metadata and parameters. Problems with it go to `printer` as warnings.
std::string render_event_detail(const Pmu& pmu, const Event& event, DiagnosticPrinter& printer);

}  // namespace pmucat::cli
