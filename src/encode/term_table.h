// What the Encoder knows of one PMU once it has used it: its term names (its formats and perf's
// special terms) in an open-addressing hash table, instead of the catalog's sorted format list,
// and the PMU's usable type and default config, instead of the catalog's locked lookups.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "encode/event_owners.h"
#include "encode/special_terms.h"
#include "encode/term_items.h"
#include "pmucat/attr.h"
#include "pmucat/catalog.h"
#include "pmucat/encode.h"

PMUCAT_BEGIN_NAMESPACE
namespace encode_detail {

// What a term name is on one PMU: a special term (which hides a format of the same name, so
// `format` is then null), a format, or neither.
struct TermLookup {
  const Format* format = nullptr;
  std::optional<Special> special;
};

// The catalog's lookups, uncached: find_special, then find_format only for a name that is not
// a special term (a term such as `period` costs no read of format/period).
TermLookup look_up_term(const Pmu& pmu, std::string_view name, Profile semantics);

class TermTable {
 public:
  // Views the PMU's format names, which the catalog keeps unchanged once loaded, and reads its
  // type (and caps, for a default config) now.
  TermTable(const Pmu& pmu, Profile semantics);
  // Not copyable: it points into its own alias map (a move keeps the map's nodes).
  TermTable(const TermTable&) = delete;
  TermTable& operator=(const TermTable&) = delete;
  TermTable(TermTable&&) = default;
  TermTable& operator=(TermTable&&) = default;

  // Same answer as look_up_term(pmu, name, semantics != perf).
  TermLookup find(std::string_view name) const;

  // usable_pmu_type(pmu, semantics) and pmu_default_config(pmu), as they were when built.
  std::optional<std::uint32_t> pmu_type() const { return pmu_type_; }
  const std::optional<std::array<std::uint64_t, kConfigWords>>& default_config() const {
    return default_config_;
  }

  // The attr every encoding on this PMU starts from, when the type is usable: the type, the
  // ABI's size and the default config. Copied from memory, because zeroing an Attr in place
  // compiles to a `rep stos`, which is slow to start.
  const Attr& start_attr() const { return start_attr_; }

  // An event of this PMU a spec referred to, and its terms as the encoder classified them:
  // Pmu::find_event (a case-insensitive search) and the classification of the same file's terms
  // are done once per name. Only names of existing events are remembered, so the table grows no
  // larger than the PMU's event list (times the spellings used).
  struct Alias {
    const Event* event = nullptr;
    std::vector<Item> items;  // the event's terms, classified; valid when `classified`
    bool classified = false;
  };
  // The alias remembered for `name` (as written), or nullptr.
  Alias* known_alias(std::string_view name);
  Alias& remember_alias(std::string_view name, const Event& event);

 private:
  struct Slot {
    std::string_view name;  // empty: a free slot (no format has an empty name)
    std::uint32_t hash = 0;
    TermLookup lookup;
  };

  Profile semantics_;
  std::vector<Slot> slots_;  // a power of two, at most half full
  std::optional<std::uint32_t> pmu_type_;
  std::optional<std::array<std::uint64_t, kConfigWords>> default_config_;
  Attr start_attr_;
  std::unordered_map<std::string, Alias, NameHash, std::equal_to<>> aliases_;
  // The last alias asked for (its name views the map's key; map nodes do not move): a tool
  // encodes the same event again and again, and comparing its name costs less than hashing it.
  std::string_view last_alias_name_;
  Alias* last_alias_ = nullptr;
};

}  // namespace encode_detail
PMUCAT_END_NAMESPACE
