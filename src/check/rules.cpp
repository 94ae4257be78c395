// pmucheck's rules: the PMUCAT_RULE rows of the diagnostic id table (pmucat/diagnostic_ids.def).
// docs/rules.md documents each with an example.
#include <algorithm>
#include <array>

#include "pmucat/check.h"

PMUCAT_BEGIN_NAMESPACE
namespace check {
namespace {

constexpr std::array kRules = {
#define PMUCAT_DIAG(name, id, severity, summary)
#define PMUCAT_RULE(name, id, severity, group, enabled_by_default, rationale) \
  Rule{id, Severity::severity, Group::group, enabled_by_default, rationale},
#include "pmucat/diagnostic_ids.def"
};

}  // namespace

std::string_view to_string(Group group) {
  switch (group) {
    case Group::tree:
      return "tree";
    case Group::attributes:
      return "attributes";
    case Group::cpumask:
      return "cpumask";
    case Group::pmu_name:
      return "pmu-name";
    case Group::format:
      return "format";
    case Group::events:
      return "events";
    case Group::metadata:
      return "metadata";
    case Group::names:
      return "event-names";
    case Group::live:
      return "live";
  }
  return "unknown";
}

std::span<const Rule> rules() {
  return kRules;
}

const Rule* find_rule(std::string_view id) {
  auto it = std::find_if(kRules.begin(), kRules.end(), [&](const Rule& r) { return r.id == id; });
  return it == kRules.end() ? nullptr : &*it;
}

std::vector<std::string> unknown_rule_ids(const Options& options) {
  std::vector<std::string> unknown;
  for (const auto* list : {&options.disabled, &options.enabled}) {
    for (const auto& id : *list) {
      if (find_rule(id) == nullptr) unknown.push_back(id);
    }
  }
  return unknown;
}

}  // namespace check
PMUCAT_END_NAMESPACE
