// pmuencode --pmu's encoding: one spec on the PMUs a pattern selected.
#include "pmucat/encode_on_pmus.h"

#include <fmt/core.h>

#include <algorithm>
#include <optional>
#include <set>
#include <string>

#include "encode/targets.h"
#include "parser/spec_views.h"
#include "pmucat/diagnostic_ids.h"

PMUCAT_BEGIN_NAMESPACE
namespace {

// Moves the events of one encode() result into `into`: `place(event)` puts the event there (or
// finds its equal) and says at which index, or nothing to drop it. Group leaders are indices into
// the result, so they are remapped: a member whose leader was dropped follows the first kept
// member of its group.
template <class Place>
void move_events(std::vector<EncodedEvent>& into, std::vector<EncodedEvent>&& events, Place place) {
  const std::size_t appended_from = into.size();
  std::vector<std::optional<std::size_t>> moved(events.size());
  std::vector<std::optional<std::size_t>> old_leader(events.size());
  for (std::size_t i = 0; i < events.size(); ++i) {
    old_leader[i] = events[i].group_leader;
    moved[i] = place(events[i]);
  }
  std::vector<std::optional<std::size_t>> new_leader(moved.size());
  for (std::size_t i = 0; i < moved.size(); ++i) {
    if (!moved[i] || !old_leader[i] || *moved[i] < appended_from) continue;
    std::optional<std::size_t>& leader = new_leader[*old_leader[i]];
    if (!leader) leader = moved[*old_leader[i]] ? moved[*old_leader[i]] : moved[i];
    into[*moved[i]].group_leader = leader;
  }
}

// Appends the events `into` lacks; a repeat maps to the equal event already there.
void append_unique(std::vector<EncodedEvent>& into, std::vector<EncodedEvent>&& events) {
  move_events(into, std::move(events), [&into](EncodedEvent& event) {
    auto found = std::find(into.begin(), into.end(), event);
    const auto at = static_cast<std::size_t>(found - into.begin());
    if (found == into.end()) into.push_back(std::move(event));
    return std::optional<std::size_t>(at);
  });
}

}  // namespace

Expected<std::vector<EncodedEvent>> encode_on_pmus(const Catalog& catalog, std::string_view spec,
                                                   std::span<const Pmu* const> pmus,
                                                   std::string_view pattern,
                                                   const EncodeOptions& options) {
  spec_detail::SpecViews parsed;
  parsed.lexing = spec_detail::term_lexing_of(options.semantics);
  if (auto error = spec_detail::parse_spec_views(spec, parsed)) {
    return unexpected(std::move(*error));
  }
  bool needs_pmu = false;
  std::set<std::string_view> event_name_specs;
  for (const spec_detail::EventSpecView& item : parsed.events) {
    if (item.form == SpecForm::terms_only || item.form == SpecForm::raw) needs_pmu = true;
    if (item.form == SpecForm::event_name) event_name_specs.insert(item.text);
  }

  std::vector<EncodedEvent> events;
  if (!needs_pmu) {
    auto encoded = encode(catalog, spec, options);
    if (!encoded) return unexpected(encoded.error());
    events = std::move(*encoded);
  } else {
    // Specs of other forms come out the same from every round; append_unique drops repeats.
    for (const Pmu* pmu : pmus) {
      EncodeOptions with_pmu = options;
      with_pmu.default_pmu = pmu->name();
      auto encoded = encode(catalog, spec, with_pmu);
      if (!encoded) return unexpected(encoded.error());
      append_unique(events, std::move(*encoded));
    }
  }

  // A bare event name expands on every PMU that has it; --pmu narrows that. The sets hold views
  // of `spec`.
  std::vector<EncodedEvent> kept;
  std::set<std::string_view> names_kept;
  move_events(kept, std::move(events), [&](EncodedEvent& event) -> std::optional<std::size_t> {
    if (const auto name = event_name_specs.find(event.spec); name != event_name_specs.end()) {
      const bool selected = std::any_of(pmus.begin(), pmus.end(),
                                        [&](const Pmu* pmu) { return pmu->name() == event.pmu; });
      if (!selected) return std::nullopt;
      names_kept.insert(*name);
    }
    kept.push_back(std::move(event));
    return kept.size() - 1;
  });
  for (const spec_detail::EventSpecView& item : parsed.events) {
    if (item.form != SpecForm::event_name || names_kept.count(item.text) != 0) continue;
    // A built-in name (`cycles`) means the core PMUs' event; with --pmu it is the chosen PMU's
    // event of that name.
    for (const Pmu* pmu : pmus) {
      if (pmu->find_event(item.name) == nullptr) continue;
      auto encoded = encode_detail::encode_name_on_pmu(*pmu, spec, item, options);
      if (!encoded) return unexpected(std::move(encoded).error());
      encoded->spec = std::string(item.text);
      kept.push_back(std::move(*encoded));
      names_kept.insert(item.text);
    }
    if (names_kept.count(item.text) != 0) continue;
    Diagnostic error = make_diagnostic(
        Severity::error, DiagId::event_not_on_pmu, "<spec>", spec, item.offset, item.name.size(),
        fmt::format("event '{}' is not on PMU '{}'", item.name, pattern));
    error.hint = fmt::format("run 'pmuls --event {}' to see which PMUs have it", item.name);
    return unexpected(std::move(error));
  }
  return kept;
}

PMUCAT_END_NAMESPACE
