// What target resolution asks of the catalog: a PMU by its exact name, the core PMU, and the PMUs
// that have an event of a given name. DirectLookup asks the catalog every time (encode());
// MemoLookup remembers the answers in a CatalogMemo (the Encoder, which sees the same names over
// and over). Both reach Pmu::find_event, which may read the disk on a PMU's first lookup.
//
// A concept, not virtual functions: the owner walk takes the caller's callback, and resolving
// a target is a large share of a warm encoding (bench/micro/encode_bench.cpp).
#pragma once

#include <algorithm>
#include <concepts>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "encode/event_owners.h"
#include "pmucat/catalog.h"
#include "pmucat/diagnostic.h"

PMUCAT_BEGIN_NAMESPACE
namespace encode_detail {

// Besides these, a lookup has
//   template <class OnOwner> std::optional<Diagnostic> for_each_event_owner(name, OnOwner&&)
// which calls `on_owner(const Pmu&) -> std::optional<Diagnostic>` for each PMU with an event
// `name`, in catalog order, and stops at (and returns) the first error.
template <class Lookup>
concept TargetLookup = requires(Lookup& lookup, std::string_view name) {
  { lookup.catalog() } -> std::same_as<const Catalog&>;
  { lookup.find_pmu(name) } -> std::same_as<const Pmu*>;  // exact name; nullptr if none
  { lookup.core_pmu() } -> std::same_as<const Pmu*>;
  { lookup.has_event_owner(name) } -> std::same_as<bool>;
  {
    lookup.hybrid_pmus(Profile::perf(PerfRelease::v6_1))
    } -> std::same_as<std::span<const Pmu* const>>;
  {
    lookup.core_event_owners(name, Profile::perf(PerfRelease::v6_1))
    } -> std::same_as<std::span<const Pmu* const>>;
};

class DirectLookup {
 public:
  explicit DirectLookup(const Catalog& catalog) : catalog_(catalog) {}

  const Catalog& catalog() const { return catalog_; }
  const Pmu* find_pmu(std::string_view name) const { return catalog_.find_pmu(name); }
  const Pmu* core_pmu() const { return catalog_.core_pmu(); }
  std::span<const Pmu* const> hybrid_pmus(Profile semantics) {
    if (!hybrid_) hybrid_ = encode_detail::hybrid_pmus(catalog_, semantics);
    return *hybrid_;
  }
  std::span<const Pmu* const> core_event_owners(std::string_view name, Profile semantics) {
    core_owners_ = core_pmus_with_event(catalog_, name, semantics);
    return core_owners_;
  }
  bool has_event_owner(std::string_view name) const {
    return std::any_of(catalog_.pmus().begin(), catalog_.pmus().end(),
                       [&](const Pmu& pmu) { return pmu.find_event(name) != nullptr; });
  }
  // Asks each PMU in turn, and none after an error.
  template <class OnOwner>
  std::optional<Diagnostic> for_each_event_owner(std::string_view name, OnOwner&& on_owner) const {
    for (const Pmu& pmu : catalog_.pmus()) {
      if (pmu.find_event(name) == nullptr) continue;
      if (auto error = on_owner(pmu)) return error;
    }
    return std::nullopt;
  }

 private:
  const Catalog& catalog_;
  std::optional<std::vector<const Pmu*>> hybrid_;  // one encode() uses one semantics
  std::vector<const Pmu*> core_owners_;            // the last core_event_owners()
};

class MemoLookup {
 public:
  // `memo` must only ever have been used with `catalog`.
  MemoLookup(const Catalog& catalog, CatalogMemo& memo) : catalog_(catalog), memo_(memo) {}

  const Catalog& catalog() const { return catalog_; }
  const Pmu* find_pmu(std::string_view name) { return memo_.pmus.find(catalog_, name); }
  const Pmu* core_pmu() { return memo_.pmus.core(catalog_); }
  std::span<const Pmu* const> hybrid_pmus(Profile semantics) {
    return memo_.pmus.hybrid(catalog_, semantics);
  }
  std::span<const Pmu* const> core_event_owners(std::string_view name, Profile semantics) {
    auto found = memo_.core_owners.find(name);
    if (found == memo_.core_owners.end()) {
      found = memo_.core_owners
                  .emplace(std::string(name), core_pmus_with_event(catalog_, name, semantics))
                  .first;
    }
    return found->second;
  }
  bool has_event_owner(std::string_view name) {
    return !memo_.event_owners.of(catalog_, name).empty();
  }
  template <class OnOwner>
  std::optional<Diagnostic> for_each_event_owner(std::string_view name, OnOwner&& on_owner) {
    for (const Pmu* pmu : memo_.event_owners.of(catalog_, name)) {
      if (auto error = on_owner(*pmu)) return error;
    }
    return std::nullopt;
  }

 private:
  const Catalog& catalog_;
  CatalogMemo& memo_;
};

static_assert(TargetLookup<DirectLookup>);
static_assert(TargetLookup<MemoLookup>);

}  // namespace encode_detail
PMUCAT_END_NAMESPACE
