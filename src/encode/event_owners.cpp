// Catalog lookups remembered by the Encoder: event owners (a scan of every PMU) and exact PMUs.
#include "encode/event_owners.h"

#include "pmucat/version.h"

PMUCAT_BEGIN_NAMESPACE
namespace encode_detail {

std::vector<const Pmu*> pmus_with_event(const Catalog& catalog, std::string_view name) {
  std::vector<const Pmu*> owners;
  for (const Pmu& pmu : catalog.pmus()) {
    if (pmu.find_event(name) != nullptr) owners.push_back(&pmu);
  }
  return owners;
}

bool is_perf_core_pmu(const Pmu& pmu) {
  return pmu.name() == "cpu" || pmu.name() == "cpum_cf" || pmu.attributes().cpus.has_value();
}

std::vector<const Pmu*> hybrid_pmus(const Catalog& catalog, Profile semantics) {
  std::vector<const Pmu*> hybrid;
  if (semantics.has(Behaviour::cpu_pmu_means_not_hybrid) && catalog.find_pmu("cpu") != nullptr) {
    return hybrid;
  }
  for (const Pmu& pmu : catalog.pmus()) {
    if (!pmu.name().starts_with("cpu_")) continue;
    const std::optional<CpuList>& cpus = pmu.attributes().cpus;
    if (cpus && !cpus->cpus.empty()) hybrid.push_back(&pmu);
  }
  return hybrid;
}

std::vector<const Pmu*> core_pmus_with_event(const Catalog& catalog, std::string_view name,
                                             Profile semantics) {
  std::vector<const Pmu*> cores = hybrid_pmus(catalog, semantics);
  if (cores.empty()) {
    if (const Pmu* core = catalog.core_pmu()) cores.push_back(core);
  }
  std::erase_if(cores, [&](const Pmu* core) { return core->find_event(name) == nullptr; });
  return cores;
}

std::span<const Pmu* const> EventOwners::of(const Catalog& catalog, std::string_view name) {
  auto found = owners_.find(name);
  if (found == owners_.end()) {
    found = owners_.emplace(std::string(name), pmus_with_event(catalog, name)).first;
  }
  return found->second;
}

const Pmu* KnownPmus::find(const Catalog& catalog, std::string_view exact_name) {
  if (last_ != nullptr && last_name_ == exact_name) return last_;
  const Pmu* pmu = nullptr;
  if (auto found = pmus_.find(exact_name); found != pmus_.end()) {
    pmu = found->second;
  } else {
    pmu = catalog.find_pmu(exact_name);
    if (pmu == nullptr) return nullptr;
    pmus_.emplace(std::string(exact_name), pmu);
  }
  last_name_.assign(exact_name);  // keeps its capacity: no allocation once warm
  last_ = pmu;
  return pmu;
}

const Pmu* KnownPmus::core(const Catalog& catalog) {
  if (core_ == nullptr) core_ = catalog.core_pmu();
  return core_;
}

}  // namespace encode_detail
PMUCAT_END_NAMESPACE

PMUCAT_BEGIN_NAMESPACE
namespace encode_detail {

std::span<const Pmu* const> KnownPmus::hybrid(const Catalog& catalog, Profile semantics) {
  if (!hybrid_ || hybrid_semantics_ != semantics) {
    hybrid_ = hybrid_pmus(catalog, semantics);
    hybrid_semantics_ = semantics;
  }
  return *hybrid_;
}

}  // namespace encode_detail
PMUCAT_END_NAMESPACE
