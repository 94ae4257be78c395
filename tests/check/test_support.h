// Helpers of the check tests: in-memory PMUs and a report's rule ids. Running tools, scratch
// directories and files: tests/support.
#pragma once

#include <algorithm>
#include <cstdint>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "pmucat/catalog.h"
#include "pmucat/check.h"
#include "pmucat/format.h"
#include "pmucat/terms.h"

PMUCAT_BEGIN_NAMESPACE
namespace check::testing {

// The distinct rule ids of a report.
inline std::set<std::string> rule_ids(const Report& report) {
  std::set<std::string> ids;
  for (const Finding& finding : report.all_findings()) ids.insert(finding.rule);
  return ids;
}

// A PMU built from format and event texts, as if read from files named after them.
inline Pmu make_pmu(const std::string& name, std::uint32_t type,
                    const std::vector<std::pair<std::string, std::string>>& formats,
                    const std::vector<std::pair<std::string, std::string>>& events) {
  PmuInfo info;
  info.name = name;
  info.attributes.type = type;
  info.attributes.type_text = std::to_string(type) + "\n";
  for (const auto& [format_name, text] : formats) {
    std::string path = name + "/format/" + format_name;
    auto spec = parse_format(text, path);
    if (!spec) continue;
    info.formats.push_back(Format{format_name, *spec, path, text});
  }
  for (const auto& [event_name, text] : events) {
    Event event;
    event.name = event_name;
    event.path = name + "/events/" + event_name;
    event.text = text;
    event.metadata_loaded = true;
    auto terms = parse_terms(text, event.path);
    if (terms) {
      event.terms = *terms;
    } else {
      event.error = terms.error();
    }
    info.events.push_back(std::move(event));
  }
  std::sort(info.formats.begin(), info.formats.end(),
            [](const Format& a, const Format& b) { return a.name < b.name; });
  std::sort(info.events.begin(), info.events.end(),
            [](const Event& a, const Event& b) { return a.name < b.name; });
  return Pmu::from_info(std::move(info));
}

}  // namespace check::testing
PMUCAT_END_NAMESPACE
