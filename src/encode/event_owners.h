// Which PMUs have an event of a given name: what a bare event name (`cache-misses:u`) or a raw
// lookalike (`read`) makes the encoder ask of every PMU. The Encoder remembers the answers, since
// asking every PMU costs more than the rest of an encoding.
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

class EventOwners {
 public:
  // pmus_with_event(catalog, name), computed once per name (the catalog must stay the same).
  std::span<const Pmu* const> of(const Catalog& catalog, std::string_view name);

 private:
  struct NameHash {
    using is_transparent = void;
    std::size_t operator()(std::string_view name) const {
      return std::hash<std::string_view>{}(name);
    }
  };
  std::unordered_map<std::string, std::vector<const Pmu*>, NameHash, std::equal_to<>> owners_;
};

}  // namespace pmucat::encode_detail
