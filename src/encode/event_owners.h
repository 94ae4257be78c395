// What target resolution asks of the whole catalog, remembered by the Encoder: which PMUs have an
// event of a given name (what a bare event name `cache-misses:u` or a raw lookalike `read` makes
// the encoder ask of every PMU), and which PMU an exact name is. Asking the catalog again costs
// more than the rest of an encoding: a scan of every PMU, or a locked map lookup.
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "pmucat/catalog.h"
#include "pmucat/encode.h"

PMUCAT_BEGIN_NAMESPACE
namespace encode_detail {

// The PMUs of `catalog` with an event `name` (Pmu::find_event), in catalog order.
std::vector<const Pmu*> pmus_with_event(const Catalog& catalog, std::string_view name);

// perf's is_pmu_core(): `cpu`, s390's `cpum_cf`, or any PMU with a `cpus` file. Its legacy cache
// terms and its extended-type probe ask this; hybrid_pmus() is perf 6.1's narrower rule.
bool is_perf_core_pmu(const Pmu& pmu);

// The core PMUs of a hybrid machine, in catalog order: as perf 6.1 has them, every `cpu_*` PMU
// whose `cpus` file lists CPUs (`cpu_core`, `cpu_atom`). A built-in hardware, cache or raw event
// is built once per such PMU. With pmucat semantics a tree with a `cpu` PMU has none, found
// without listing the tree (a legacy name costs the same on 135 PMUs as on 1,250).
std::vector<const Pmu*> hybrid_pmus(const Catalog& catalog, Profile semantics);

// The core PMUs (hybrid_pmus(), else Catalog::core_pmu()) with an event `name`, in that order:
// where a built-in name such as `cycles` finds a sysfs or JSON event in pmucat semantics.
std::vector<const Pmu*> core_pmus_with_event(const Catalog& catalog, std::string_view name,
                                             Profile semantics);

struct NameHash {
  using is_transparent = void;
  std::size_t operator()(std::string_view name) const {
    return std::hash<std::string_view>{}(name);
  }
};

class EventOwners {
 public:
  // pmus_with_event(catalog, name), computed once per name (the catalog must stay the same).
  std::span<const Pmu* const> of(const Catalog& catalog, std::string_view name);

 private:
  std::unordered_map<std::string, std::vector<const Pmu*>, NameHash, std::equal_to<>> owners_;
};

// Catalog::find_pmu and Catalog::core_pmu, remembered once they found a PMU (the catalog keeps a
// PMU it returned valid for its lifetime). Names not found are asked again each time: they lead
// to an error or to the instance scan, which cost more than the lookup.
class KnownPmus {
 public:
  const Pmu* find(const Catalog& catalog, std::string_view exact_name);
  const Pmu* core(const Catalog& catalog);
  std::span<const Pmu* const> hybrid(const Catalog& catalog, Profile semantics);

 private:
  std::unordered_map<std::string, const Pmu*, NameHash, std::equal_to<>> pmus_;
  // The last name found: a tool encodes runs of specs on one PMU, and comparing a short name
  // costs less than hashing it.
  std::string last_name_;
  const Pmu* last_ = nullptr;
  const Pmu* core_ = nullptr;
  std::optional<std::vector<const Pmu*>> hybrid_;  // for hybrid_semantics_
  Profile hybrid_semantics_ = Profile::pmucat();
};

// Everything the Encoder remembers about one catalog's PMUs.
struct CatalogMemo {
  EventOwners event_owners;
  // core_pmus_with_event() per name (one semantics per Encoder).
  std::unordered_map<std::string, std::vector<const Pmu*>, NameHash, std::equal_to<>> core_owners;
  KnownPmus pmus;
};

}  // namespace encode_detail
PMUCAT_END_NAMESPACE
