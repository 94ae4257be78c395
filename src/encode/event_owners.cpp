// Event owners: a scan of every PMU, remembered per name by the Encoder.
#include "encode/event_owners.h"

namespace pmucat::encode_detail {

std::vector<const Pmu*> pmus_with_event(const Catalog& catalog, std::string_view name) {
  std::vector<const Pmu*> owners;
  for (const Pmu& pmu : catalog.pmus()) {
    if (pmu.find_event(name) != nullptr) owners.push_back(&pmu);
  }
  return owners;
}

std::span<const Pmu* const> EventOwners::of(const Catalog& catalog, std::string_view name) {
  auto found = owners_.find(name);
  if (found == owners_.end()) {
    found = owners_.emplace(std::string(name), pmus_with_event(catalog, name)).first;
  }
  return found->second;
}

}  // namespace pmucat::encode_detail
