// The classified terms of one event after alias expansion: what encode_terms works on.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "encode/special_terms.h"
#include "pmucat/catalog.h"
#include "pmucat/encode.h"
#include "pmucat/terms.h"

PMUCAT_BEGIN_NAMESPACE
namespace encode_detail {

enum class Role : std::uint8_t {
  special,     // config words, period, name, ...
  format,      // a format field of the PMU
  raw_config,  // `rHEX` inside slashes: config=0xHEX
  param,       // `field=?` waiting for a user value
};

struct Item {
  Role role = Role::format;
  TermView term;  // views the spec text or the alias's Term in the catalog
  // The event file this term was spliced from (perf's "weak" terms), or nullptr for a user term.
  const Event* alias = nullptr;
  // For an alias parameter resolved by a user term: the value comes from the user (and so do
  // diagnostics), the term still counts as the alias's.
  bool resolved_param = false;
  std::optional<Special> special;
  const Format* format = nullptr;
  bool consumed = false;  // a user term that supplied an alias parameter

  Item() = default;
  // A user term, every other member at its default: lets emplace_back build the item in place
  // (clang 14 lacks C++20's parenthesized aggregate initialisation).
  explicit Item(const TermView& user_term) : term(user_term) {}

  bool from_alias() const { return alias != nullptr || resolved_param; }
};

// The PMU's type; with perf semantics an unparsable `type` file reads the way perf 6.1's
// fscanf("%u") reads it ("0x2e" is 0).
std::optional<std::uint32_t> usable_pmu_type(const Pmu& pmu, Profile semantics);

}  // namespace encode_detail
PMUCAT_END_NAMESPACE
