#include "pmu_events/descriptions.h"

#include "pmucat/version.h"

PMUCAT_BEGIN_NAMESPACE
namespace pmu_events {
namespace {

std::string_view remove_suffix(std::string_view text, std::string_view suffix) {
  if (text.ends_with(suffix)) text.remove_suffix(suffix.size());
  return text;
}

// What jevents.py appends to both descriptions: address support, errata, precise hints. The
// precise hint depends on the brief description only, as in perf.
std::string extra_description(const VendorEvent& event, std::string_view brief) {
  std::string extra;
  if (event.data_la) {
    extra += "  Supports address when precise";
    if (!event.errata.empty()) extra += '.';
  }
  if (!event.errata.empty()) extra += "  Spec update: " + event.errata;
  if (!event.pebs.empty() && !brief.empty() &&
      brief.find("(Precise Event)") == std::string_view::npos) {
    extra += event.pebs == "2" ? " (Must be precise)" : " (Precise event)";
  }
  return extra;
}

}  // namespace

std::string strip_trailing_period(std::string_view text) {
  return std::string(remove_suffix(remove_suffix(remove_suffix(text, ".  "), ". "), "."));
}

std::string jevents_brief(const VendorEvent& event) {
  if (event.brief_from_std_event) return event.brief_description;
  std::string brief = strip_trailing_period(event.brief_description);
  const std::string extra = extra_description(event, brief);
  if (!brief.empty()) brief += extra;
  // Only 6.1's jevents writes the Unit into the description.
  if (!event.pmu.empty() && jevents_rules(event.rules) == JeventsRules::of_6_1) {
    if (!brief.empty() && !brief.ends_with(". ")) brief += ". ";
    brief += "Unit: " + event.pmu + " ";
  }
  return brief;
}

std::string jevents_public(const VendorEvent& event) {
  if (event.public_from_std_event) return event.public_description;
  std::string description = strip_trailing_period(event.public_description);
  if (!description.empty()) {
    // An event whose brief text came from its standard event had none of its own.
    const std::string own_brief =
        event.brief_from_std_event ? std::string() : strip_trailing_period(event.brief_description);
    description += extra_description(event, own_brief);
  }
  // perf 7.3's jevents drops a long description equal to the short one (both decorated).
  if (jevents_since(event.rules, JeventsRules::of_7_2) && !description.empty() &&
      !event.brief_from_std_event && description == jevents_brief(event)) {
    return {};
  }
  return description;
}

}  // namespace pmu_events
PMUCAT_END_NAMESPACE

PMUCAT_BEGIN_NAMESPACE

std::string perf_brief_description(const VendorEvent& event) {
  return pmu_events::jevents_brief(event);
}

// perf's pmu.c uses the brief description where the table has no public one.
std::string perf_public_description(const VendorEvent& event) {
  std::string description = pmu_events::jevents_public(event);
  return description.empty() ? pmu_events::jevents_brief(event) : description;
}

PMUCAT_END_NAMESPACE
