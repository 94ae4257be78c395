// perf's decorated descriptions, split the way jevents.py builds them (the model copies a
// standard event's text before perf's pmu.c falls back from the public to the brief one).
#pragma once

#include <string>
#include <string_view>

#include "pmucat/vendor_events.h"

PMUCAT_BEGIN_NAMESPACE
namespace pmu_events {

// True when the jevents of `rules` is `generation`'s or a later one (each keeps what the one
// before it added, unless a rule says otherwise).
constexpr bool jevents_since(PerfRelease rules, JeventsRules generation) {
  return jevents_rules(rules) >= generation;
}

// jevents.py's fixdesc: one trailing ".  ", then ". ", then "." removed, in that order.
std::string strip_trailing_period(std::string_view text);

// jevents.py's `desc` and `long_desc` of the event (empty where perf has none).
std::string jevents_brief(const VendorEvent& event);
std::string jevents_public(const VendorEvent& event);

}  // namespace pmu_events
PMUCAT_END_NAMESPACE
