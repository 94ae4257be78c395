// PMU instance selection: newer perf's rule (the catalog's) and perf 6.1's decimal-only rule.
#include "encode/pmu_select.h"

#include <algorithm>

namespace pmucat::encode_detail {

bool perf61_instance_of(std::string_view pmu_name, std::string_view pattern) {
  if (pattern.empty()) return false;
  constexpr std::string_view kUncore = "uncore_";
  if (pmu_name.starts_with(kUncore) && !pattern.starts_with(kUncore)) {
    pmu_name.remove_prefix(kUncore.size());
  }
  if (!pmu_name.starts_with(pattern)) return false;
  std::string_view suffix = pmu_name.substr(pattern.size());
  if (suffix.empty()) return true;
  if (suffix.front() == '_') suffix.remove_prefix(1);
  // Measured with perf 6.1: foo_0, foo_10, qux10 are instances of foo/qux; foo_1a, bar_ff88840,
  // baz_1ff88, zed_0_1 are not, and `foo*` selects nothing.
  return !suffix.empty() &&
         std::all_of(suffix.begin(), suffix.end(), [](char c) { return c >= '0' && c <= '9'; });
}

std::vector<const Pmu*> select_pmus(const Catalog& catalog, std::string_view pattern,
                                    Semantics semantics) {
  if (semantics != Semantics::perf) return catalog.match_pmus(pattern);
  if (const Pmu* exact = catalog.find_pmu(pattern)) return {exact};
  std::vector<const Pmu*> matches;
  for (const Pmu& pmu : catalog.pmus()) {
    if (perf61_instance_of(pmu.name(), pattern)) matches.push_back(&pmu);
  }
  return matches;
}

}  // namespace pmucat::encode_detail
