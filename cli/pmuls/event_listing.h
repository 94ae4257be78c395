// The event views of pmuls: all events of a PMU (--pmu) and one event in full (--event).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "common/diagnostics.h"
#include "pmucat/catalog.h"
#include "pmuls/event_filter.h"

PMUCAT_BEGIN_NAMESPACE
namespace cli {

// Which description of an event the listing prints under it.
enum class DescriptionKind : unsigned char { none, brief, long_form };

struct EventListing {
  bool long_form = false;  // the PMU's attributes under its heading
  DescriptionKind descriptions = DescriptionKind::brief;
  std::size_t columns = 78;  // descriptions are wrapped to this width (0: no wrapping)
  EventFilter filter;
};

// The events of `pmu` the filter selects, in listing order, as perf list orders them: events
// without a description (sysfs ones, JSON ones without text) first, then by topic; by name
// within each.
std::vector<const Event*> listed_events(const Pmu& pmu, const EventFilter& filter);

// The PMU's heading (plus its attributes with `long_form`), then one line per listed event:
// `pmu/name/`, its terms, its encoding, and unit, scale, per-pkg, snapshot and needed `?`
// parameters where present. Vendor JSON events with a description come under a `topic:` line,
// each with its description wrapped below it in brackets (perf_brief_description, or the public
// one for DescriptionKind::long_form; under perf 6.12's rules as perf 6.12's `perf list` prints
// them: the brief one ending in `. Unit: <perf_list_unit>`, both with perf612_list_text's commas).
// Problems with this PMU go to `printer` as warnings.
std::string render_pmu_events(const Pmu& pmu, const EventListing& listing,
                              DiagnosticPrinter& printer);

// A JSON event's description as perf 6.12's `perf list` prints it: the words are split at runs
// of blanks and commas, and a run holding a comma joins its words with `,` alone (`L1, L2, or L3`
// prints as `L1,L2,or L3`), where perf 6.1 printed the text as written.
std::string perf612_list_text(std::string_view description);

// `description` as perf list prints it: `[` at column 7, the text from column 8, wrapped so no
// line passes `columns` (the closing `]` included), continuation lines indented by 8.
std::string render_description(std::string_view description, std::size_t columns);

// Everything about one event: where it lives, its terms, each term's field and bits, the
// config words, metadata and parameters. Problems with it go to `printer` as warnings.
std::string render_event_detail(const Pmu& pmu, const Event& event, DiagnosticPrinter& printer);

}  // namespace cli
PMUCAT_END_NAMESPACE
