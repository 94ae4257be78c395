// What target resolution asks of the whole catalog, remembered by the Encoder: which PMUs have an
// event of a given name (what a bare event name `cache-misses:u` or a raw lookalike `read` makes
// the encoder ask of every PMU), and which PMU an exact name is. Asking the catalog again costs
// more than the rest of an encoding: a scan of every PMU, or a locked map lookup.
#pragma once

#include <cstddef>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "pmucat/catalog.h"

namespace pmucat::encode_detail {

// The PMUs of `catalog` with an event `name` (Pmu::find_event), in catalog order.
std::vector<const Pmu*> pmus_with_event(const Catalog& catalog, std::string_view name);

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

 private:
  std::unordered_map<std::string, const Pmu*, NameHash, std::equal_to<>> pmus_;
  // The last name found: a tool encodes runs of specs on one PMU, and comparing a short name
  // costs less than hashing it.
  std::string last_name_;
  const Pmu* last_ = nullptr;
  const Pmu* core_ = nullptr;
};

// Everything the Encoder remembers about one catalog's PMUs.
struct CatalogMemo {
  EventOwners event_owners;
  KnownPmus pmus;
};

}  // namespace pmucat::encode_detail
