// A PMU's term names (its formats and perf's special terms) in an open-addressing hash table:
// what the Encoder looks terms up in instead of the catalog's sorted format list, once per PMU.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "encode/special_terms.h"
#include "pmucat/catalog.h"

namespace pmucat::encode_detail {

// What a term name is on one PMU: a format, a special term, both (the special wins), or neither.
struct TermLookup {
  const Format* format = nullptr;
  std::optional<Special> special;
};

// The catalog's lookups, uncached: find_format and find_special.
TermLookup look_up_term(const Pmu& pmu, std::string_view name, bool with_config3);

class TermTable {
 public:
  // Views the PMU's format names, which the catalog keeps unchanged once loaded.
  TermTable(const Pmu& pmu, bool with_config3);

  // Same answer as look_up_term(pmu, name, with_config3).
  TermLookup find(std::string_view name) const;

 private:
  struct Slot {
    std::string_view name;  // empty: a free slot (no format has an empty name)
    std::uint32_t hash = 0;
    TermLookup lookup;
  };

  bool with_config3_;
  std::vector<Slot> slots_;  // a power of two, at most half full
};

}  // namespace pmucat::encode_detail
