// What one parsed event stands for: the (PMU, terms) pairs to encode, or a built-in perf event.
// encode() encodes every target; Encoder::encode_one() encodes the only one. Nothing here
// allocates unless it reports an error.
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "encode/legacy_events.h"
#include "encode/pmu_select.h"
#include "encode/target_lookup.h"
#include "parser/spec_views.h"
#include "pmucat/catalog.h"
#include "pmucat/encode.h"
#include "pmucat/tracefs.h"

namespace pmucat::encode_detail {

using spec_detail::EventSpecView;

struct Target {
  const Pmu* pmu = nullptr;  // nullptr: the built-in event `legacy`
  LegacyEvent legacy;
  std::span<const TermView> terms;  // valid during the visit only
  std::size_t pmu_offset = 0;       // what a pmu-no-type error underlines
  std::size_t pmu_length = 0;
  bool raw_type = false;  // perf 6.1 gives `rHEX` PERF_TYPE_RAW whatever the PMU's type is
  // pmu == nullptr and not `legacy`: a breakpoint (the spec's bp fields) or one tracepoint.
  enum class Builtin : std::uint8_t { legacy, breakpoint, tracepoint };
  Builtin builtin = Builtin::legacy;
  const Tracepoint* tracepoint = nullptr;  // valid during the visit only
};

// The attr of a breakpoint or tracepoint spec (perf 6.1's parse_events_add_breakpoint and
// evsel__newtp: sample_period 1, and for a tracepoint RAW|TIME|CPU|PERIOD samples, under
// Tool::record; Tool::stat keeps only type, config words, bp fields and modifier bits).
void encode_builtin(const Target& target, const EventSpecView& event, const EncodeOptions& options,
                    Attr& attr);
// `mem:0x1000/4:rw[:mods]` or `sys:event[:mods]`.
std::string builtin_perf_string(const Target& target, const EventSpecView& event);

// The tracepoints a tracepoint spec stands for (sorted by system, event), or its located error
// (no tracefs, unknown tracepoint with a suggestion, unreadable id, a term perf rejects).
Expected<std::vector<Tracepoint>> resolve_tracepoints(std::string_view spec,
                                                      const EventSpecView& event,
                                                      std::span<const TermView> terms,
                                                      const EncodeOptions& options);

// pmu-no-type when the PMU's type is unusable with these semantics.
std::optional<Diagnostic> pmu_type_error(const Target& target, std::string_view spec,
                                         Semantics semantics);

// The attr of a built-in event.
void encode_legacy(const LegacyEvent& legacy, const Modifiers& modifiers, Semantics semantics,
                   Attr& attr);

Diagnostic pmu_hyphen_error(const EventSpecView& event, std::string_view spec);
Diagnostic unknown_pmu_error(const Catalog& catalog, const EventSpecView& event,
                             std::string_view spec);
Diagnostic unknown_event_error(const Catalog& catalog, const EventSpecView& event,
                               std::string_view spec);
Diagnostic no_default_pmu_error(const EventSpecView& event, std::string_view spec,
                                const EncodeOptions& options);

// Calls `visit(const Target&) -> std::optional<Diagnostic>` for each target of `event` in
// encode()'s order; stops at the first error. `spec` is the whole list, `terms` the event's.
template <TargetLookup Lookup, class Visit>
std::optional<Diagnostic> for_each_target(Lookup& lookup, std::string_view spec,
                                          const EventSpecView& event,
                                          std::span<const TermView> terms,
                                          const EncodeOptions& options, Visit&& visit) {
  const Catalog& catalog = lookup.catalog();
  const bool perf = options.semantics == Semantics::perf;
  auto on_default_pmu = [&](std::span<const TermView> pmu_terms) -> std::optional<Diagnostic> {
    const Pmu* pmu =
        options.default_pmu.empty() ? lookup.core_pmu() : lookup.find_pmu(options.default_pmu);
    if (pmu == nullptr) return no_default_pmu_error(event, spec, options);
    Target target{pmu, {}, pmu_terms, event.offset, event.text.size(), false};
    target.raw_type = perf && event.form == SpecForm::raw;
    return visit(target);
  };
  auto on_event_name = [&]() -> std::optional<Diagnostic> {
    // perf 6.1 prefers its built-in names (`cycles` is PERF_TYPE_HARDWARE even where a PMU has
    // an events/cycles file); newer perf and pmucat prefer the sysfs event.
    const std::optional<LegacyEvent> legacy = find_legacy_event(event.name);
    if (perf && legacy) return visit(Target{nullptr, *legacy, {}, 0, 0, false});
    // A reference to the event as a bare term, so the usual alias rules and diagnostics apply.
    TermView reference;
    reference.name = event.name;
    reference.kind = TermValueKind::none;
    reference.offset = event.offset;
    reference.length = static_cast<std::uint32_t>(event.name.size());
    reference.value_offset = event.offset;
    bool found = false;
    if (auto error = lookup.for_each_event_owner(event.name, [&](const Pmu& pmu) {
          found = true;
          Target target{
              &pmu, {}, std::span<const TermView>(&reference, 1), event.offset, event.name.size(),
              false};
          return visit(target);
        })) {
      return error;
    }
    if (found) return std::nullopt;
    if (legacy) return visit(Target{nullptr, *legacy, {}, 0, 0, false});
    return unknown_event_error(catalog, event, spec);
  };

  switch (event.form) {
    case SpecForm::breakpoint: {
      Target target{nullptr, {}, {}, event.offset, event.text.size(), false};
      target.builtin = Target::Builtin::breakpoint;
      return visit(target);
    }
    case SpecForm::tracepoint: {
      auto tracepoints = resolve_tracepoints(spec, event, terms, options);
      if (!tracepoints) return std::move(tracepoints).error();
      for (const Tracepoint& tracepoint : *tracepoints) {
        Target target{nullptr, {}, terms, event.offset, event.text.size(), false};
        target.builtin = Target::Builtin::tracepoint;
        target.tracepoint = &tracepoint;
        if (auto error = visit(target)) return error;
      }
      return std::nullopt;
    }
    case SpecForm::pmu_terms: {
      if (perf && event.pmu.find('-') != std::string_view::npos) {
        return pmu_hyphen_error(event, spec);
      }
      auto on_pmu = [&](const Pmu& pmu) {
        return visit(Target{&pmu, {}, terms, event.pmu_offset, event.pmu.size(), false});
      };
      // The exact PMU, else its instances (select_pmus, without building a list).
      if (const Pmu* exact = lookup.find_pmu(event.pmu)) return on_pmu(*exact);
      bool found = false;
      for (const Pmu& pmu : catalog.pmus()) {
        const bool selected = perf ? perf61_instance_of(pmu.name(), event.pmu)
                                   : pmu_name_matches(pmu.name(), event.pmu);
        if (!selected) continue;
        found = true;
        if (auto error = on_pmu(pmu)) return error;
      }
      if (!found) return unknown_pmu_error(catalog, event, spec);
      return std::nullopt;
    }
    case SpecForm::event_name:
      return on_event_name();
    case SpecForm::terms_only:
      return on_default_pmu(terms);
    case SpecForm::raw: {
      // `read` looks like r+hex: an event of that name wins, as with newer perf's fix_raw.
      if (lookup.has_event_owner(event.name)) return on_event_name();
      if (event.name.starts_with("r0x")) {
        // perf 6.1's lexer has r<hex> outside a PMU's terms, and r0x<hex> only inside them:
        // `r0x3c` is an event name there, which no PMU has.
        Diagnostic error = unknown_event_error(catalog, event, spec);
        error.hint = "a raw event is r followed by hex digits, without 0x (r" +
                     std::string(event.name.substr(3)) +
                     "); r0x<hex> is a term inside a PMU (cpu/" + std::string(event.name) + "/)";
        return error;
      }
      TermView config;
      config.name = "config";
      config.kind = TermValueKind::number;
      config.value = event.raw_config;
      config.style = NumberStyle::hex;
      config.offset = event.offset;
      config.length = static_cast<std::uint32_t>(event.name.size());
      config.value_offset = event.offset;
      config.value_length = config.length;
      return on_default_pmu(std::span<const TermView>(&config, 1));
    }
  }
  return std::nullopt;
}

}  // namespace pmucat::encode_detail
