// Open addressing with linear probing over the format names; names that are not formats fall
// back to find_special, which is a short scan of perf's keywords.
#include "encode/term_table.h"

#include <bit>

namespace pmucat::encode_detail {
namespace {

// FNV-1a: a few instructions per byte, and term names are short.
std::uint32_t hash_name(std::string_view name) {
  std::uint32_t hash = 2166136261u;
  for (const char c : name) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 16777619u;
  }
  return hash;
}

}  // namespace

TermLookup look_up_term(const Pmu& pmu, std::string_view name, bool with_config3) {
  TermLookup lookup;
  lookup.special = find_special(name, with_config3);
  lookup.format = pmu.find_format(name);
  return lookup;
}

TermTable::TermTable(const Pmu& pmu, bool with_config3) : with_config3_(with_config3) {
  const std::span<const Format> formats = pmu.formats();
  slots_.resize(std::bit_ceil(formats.size() * 2 + 2));
  const std::size_t mask = slots_.size() - 1;
  for (const Format& format : formats) {
    if (format.name.empty()) continue;
    const std::uint32_t hash = hash_name(format.name);
    std::size_t at = hash & mask;
    while (!slots_[at].name.empty() && slots_[at].name != format.name) at = (at + 1) & mask;
    if (!slots_[at].name.empty()) continue;  // a repeated name: find_format returns the first
    slots_[at] = Slot{format.name, hash, look_up_term(pmu, format.name, with_config3)};
  }
}

TermLookup TermTable::find(std::string_view name) const {
  const std::uint32_t hash = hash_name(name);
  const std::size_t mask = slots_.size() - 1;
  for (std::size_t at = hash & mask; !slots_[at].name.empty(); at = (at + 1) & mask) {
    const Slot& slot = slots_[at];
    if (slot.hash == hash && slot.name == name) return slot.lookup;
  }
  return TermLookup{nullptr, find_special(name, with_config3_)};
}

}  // namespace pmucat::encode_detail
