#include "common/pmu_selection.h"

#include <fmt/core.h>

#include <algorithm>

#include "common/diagnostics.h"
#include "pmucat/diagnostic_ids.h"
#include "pmucat/hwmon.h"
#include "pmucat/suggest.h"

PMUCAT_BEGIN_NAMESPACE
namespace cli {

Diagnostic unknown_pmu_error(const Catalog& catalog, std::string_view pattern) {
  std::vector<std::string> names;
  for (const Pmu& pmu : catalog.pmus()) {
    // Offer `uncore_imc` for `uncore_imx`, not one arbitrary instance of it.
    const std::string& name = pmu.name();
    const std::size_t digits = name.find_last_not_of("0123456789");
    if (digits != std::string::npos && digits + 1 < name.size() && name[digits] == '_') {
      const std::string prefix = name.substr(0, digits);
      if (std::find(names.begin(), names.end(), prefix) == names.end()) names.push_back(prefix);
    }
    names.push_back(name);
  }
  std::string hint;
  if (auto suggestion = nearest_name(pattern, names)) {
    hint = fmt::format("did you mean '{}'?", *suggestion);
  } else if (names.empty()) {
    hint = "the tree has no PMUs";
  } else {
    hint = "run 'pmuls' to see every PMU";
  }
  return argument_error(DiagId::pmu_unknown, "<pmu>", pattern, 0, pattern.size(),
                        fmt::format("unknown PMU '{}'", pattern), std::move(hint));
}

Expected<std::vector<const Pmu*>> select_pmus(const Catalog& catalog,
                                              std::span<const std::string> patterns,
                                              bool with_hwmon) {
  std::vector<const Pmu*> selected;
  if (patterns.empty()) {
    for (const Pmu& pmu : catalog.pmus()) selected.push_back(&pmu);
    if (with_hwmon) {
      for (const Pmu& pmu : catalog.hwmon_pmus().pmus) selected.push_back(&pmu);
    }
    return selected;
  }
  for (const std::string& pattern : patterns) {
    std::vector<const Pmu*> matches = catalog.match_pmus(pattern);
    if (with_hwmon && pattern.starts_with("hwmon")) {
      const std::vector<const Pmu*> named = select_hwmon_pmus(catalog.hwmon_pmus(), pattern);
      matches.insert(matches.end(), named.begin(), named.end());
    }
    if (matches.empty()) return unexpected(unknown_pmu_error(catalog, pattern));
    for (const Pmu* pmu : matches) {
      if (std::find(selected.begin(), selected.end(), pmu) == selected.end()) {
        selected.push_back(pmu);
      }
    }
  }
  std::sort(selected.begin(), selected.end(),
            [](const Pmu* a, const Pmu* b) { return natural_less(a->name(), b->name()); });
  return selected;
}

}  // namespace cli
PMUCAT_END_NAMESPACE
