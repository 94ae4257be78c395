// Rules over event names (the metadata files are checked by the catalog's own parsers).
#include <fmt/core.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <map>

#include "context.h"
#include "pmucat/diagnostic_ids.h"

PMUCAT_BEGIN_NAMESPACE
namespace check::detail {
namespace {

// Prefixes of perf's legacy cache event names, which PowerPC exports in mixed case.
constexpr std::array<std::string_view, 7> kLegacyCachePrefixes = {
    "L1-dcache-", "L1-icache-", "LLC-", "dTLB-", "iTLB-", "branch-", "node-"};

bool is_legacy_cache_name(std::string_view name) {
  return std::any_of(kLegacyCachePrefixes.begin(), kLegacyCachePrefixes.end(),
                     [&](std::string_view prefix) { return name.starts_with(prefix); });
}

bool is_name_byte(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '.' || c == '_' || c == '-';
}

std::string lower(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

Diagnostic at_name(const Event& event, Severity severity, std::string message) {
  return make_file_diagnostic(severity, "", event.path, std::move(message));
}

}  // namespace

void check_event_names(PmuContext& context) {
  std::map<std::string, const Event*> by_lower;
  for (const Event& event : context.pmu().events()) {
    // JSON-only events are named by perf (EventName lower-cased), not by a file of the tree.
    if (event.source == EventSource::json) continue;
    const std::string& name = event.name;
    auto bad = std::find_if_not(name.begin(), name.end(), is_name_byte);
    if (bad != name.end()) {
      context.add(
          DiagId::event_name_charset,
          at_name(event, Severity::warning,
                  fmt::format("event name '{}' has the byte {:#04x}, outside [A-Za-z0-9._-]", name,
                              static_cast<unsigned char>(*bad))));
    }
    bool has_lower = std::any_of(name.begin(), name.end(), [](char c) {
      return std::islower(static_cast<unsigned char>(c));
    });
    bool has_upper = std::any_of(name.begin(), name.end(), [](char c) {
      return std::isupper(static_cast<unsigned char>(c));
    });
    if (has_lower && has_upper) {
      if (is_legacy_cache_name(name)) {
        context.add(DiagId::event_name_legacy_case,
                    at_name(event, Severity::warning,
                            fmt::format("event name '{}' mixes case (a legacy cache name)", name)));
      } else {
        auto diagnostic = at_name(
            event, Severity::error,
            fmt::format("event name '{}' mixes upper and lower case; perf >= 6.10 cannot find it",
                        name));
        diagnostic.hint = fmt::format("rename the file to '{}'", lower(name));
        context.add(DiagId::event_name_mixed_case, std::move(diagnostic));
      }
    }
    auto [it, inserted] = by_lower.emplace(lower(name), &event);
    if (!inserted) {
      context.add(DiagId::event_name_case_collision,
                  at_name(event, Severity::error,
                          fmt::format("event '{}' differs from event '{}' only in case", name,
                                      it->second->name)));
    }
  }
}

}  // namespace check::detail
PMUCAT_END_NAMESPACE
