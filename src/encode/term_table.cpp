// Open addressing with linear probing over the format names; names that are not formats fall
// back to find_special, which is a short scan of perf's keywords.
#include "encode/term_table.h"

#include <bit>

#include "encode/pmu_defaults.h"
#include "encode/term_items.h"
#include "pmucat/version.h"

PMUCAT_BEGIN_NAMESPACE
namespace encode_detail {
namespace {

// The length and the first two and last bytes, mixed: a PMU's format names differ there nearly
// always, and the lookup compares the whole name anyway. Cheaper than hashing every byte.
std::uint32_t hash_name(std::string_view name) {
  auto byte = [&](std::size_t at) {
    return static_cast<std::uint32_t>(static_cast<unsigned char>(name[at]));
  };
  std::uint32_t hash = static_cast<std::uint32_t>(name.size());
  if (!name.empty()) hash = (hash << 16) ^ (byte(0) << 8) ^ byte(name.size() - 1);
  if (name.size() > 2) hash ^= byte(1) << 24;
  hash *= 0x9e3779b1u;
  return hash ^ (hash >> 16);
}

// Byte comparison in line: term names are a few bytes, shorter than a call to memcmp.
bool same_name(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (a[i] != b[i]) return false;
  }
  return true;
}

}  // namespace

TermLookup look_up_term(const Pmu& pmu, std::string_view name, Profile semantics) {
  TermLookup lookup;
  lookup.special = find_special(name, semantics);
  if (!lookup.special) lookup.format = pmu.find_format(name);
  return lookup;
}

TermTable::TermTable(const Pmu& pmu, Profile semantics)
    : semantics_(semantics),
      pmu_type_(usable_pmu_type(pmu, semantics)),
      default_config_(pmu_default_config(pmu)) {
  start_attr_.type = pmu_type_.value_or(0);
  start_attr_.size = semantics.attr_size();
  if (default_config_) start_attr_.config = *default_config_;
  const std::span<const Format> formats = pmu.formats();
  slots_.resize(std::bit_ceil(formats.size() * 2 + 2));
  const std::size_t mask = slots_.size() - 1;
  for (const Format& format : formats) {
    if (format.name.empty()) continue;
    const std::uint32_t hash = hash_name(format.name);
    std::size_t at = hash & mask;
    while (!slots_[at].name.empty() && slots_[at].name != format.name) at = (at + 1) & mask;
    if (!slots_[at].name.empty()) continue;  // a repeated name: find_format returns the first
    slots_[at] = Slot{format.name, hash, look_up_term(pmu, format.name, semantics_)};
  }
}

TermLookup TermTable::find(std::string_view name) const {
  const std::uint32_t hash = hash_name(name);
  const std::size_t mask = slots_.size() - 1;
  for (std::size_t at = hash & mask; !slots_[at].name.empty(); at = (at + 1) & mask) {
    const Slot& slot = slots_[at];
    if (slot.hash == hash && same_name(slot.name, name)) return slot.lookup;
  }
  return TermLookup{nullptr, find_special(name, semantics_)};
}

TermTable::Alias* TermTable::known_alias(std::string_view name) {
  if (last_alias_ != nullptr && same_name(last_alias_name_, name)) return last_alias_;
  auto found = aliases_.find(name);
  if (found == aliases_.end()) return nullptr;
  last_alias_name_ = found->first;
  last_alias_ = &found->second;
  return last_alias_;
}

TermTable::Alias& TermTable::remember_alias(std::string_view name, const Event& event) {
  const auto at = aliases_.try_emplace(std::string(name)).first;
  at->second.event = &event;
  last_alias_name_ = at->first;
  last_alias_ = &at->second;
  return at->second;
}

}  // namespace encode_detail
PMUCAT_END_NAMESPACE
