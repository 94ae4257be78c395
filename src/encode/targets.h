// What one parsed event stands for: the (PMU, terms) pairs to encode, or a built-in perf event.
// encode() encodes every target; Encoder::encode_one() encodes the only one. Nothing here
// allocates unless it reports an error.
#pragma once

#include <algorithm>
#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "encode/encode_core.h"
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
  std::span<const TermView> terms;  // valid during the visit only; a built-in event's terms
                                    // (`cycles/period=1000/`) are perf's hard-coded ones only
  std::size_t pmu_offset = 0;       // what a pmu-no-type error underlines
  std::size_t pmu_length = 0;
  bool raw_type = false;      // perf 6.1 gives `rHEX` PERF_TYPE_RAW whatever the PMU's type is
  bool extended_type = true;  // `core`'s type goes into the config (EncodeOptions::extended_type)
  // A built-in hardware or cache event on a hybrid machine: the core PMU it counts on, whose
  // type goes into config bits 32-63 (perf's extended type). A raw event with terms
  // (`r3c/period=1/`): the PMU whose type it gets (hybrid, or pmucat semantics), else nullptr.
  const Pmu* core = nullptr;
  std::string_view name;  // a built-in or raw event: its name as written (`cycles`, `r3c`)
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

// The attr of a built-in or raw event target (`pmu == nullptr`): type, config (with the
// extended type of its core PMU on a hybrid machine), perf's hard-coded terms when it has some
// (`cycles/period=1000/`, through `extras` as for PMU terms) and modifier bits.
std::optional<Diagnostic> encode_legacy(const Target& target, const Modifiers& modifiers,
                                        std::string_view spec, const EncodeOptions& options,
                                        Attr& attr, const CoreExtras& extras = {});

// The canonical spec of such an attr: `cycles:u`, `cpu_core/cycles/u` (one core PMU of a hybrid
// machine), `cycles/period=0x3e8/u` (with hard-coded terms; `printed` are the effective ones).
std::string legacy_perf_string(const Target& target, const Attr& attr,
                               std::span<const TermView> printed, const Modifiers& modifiers);

// True for perf's tool events (`duration_time`, `user_time`, `system_time`): counted by perf
// itself, they take no terms (`duration_time//` only).
bool is_tool_event(std::string_view name);

Diagnostic pmu_hyphen_error(const EventSpecView& event, std::string_view spec);
Diagnostic weak_outside_group_error(const EventSpecView& event, std::string_view spec);
Diagnostic unknown_pmu_error(const Catalog& catalog, const EventSpecView& event,
                             std::string_view spec);
Diagnostic unknown_event_error(const Catalog& catalog, const EventSpecView& event,
                               std::string_view spec);
Diagnostic no_default_pmu_error(const EventSpecView& event, std::string_view spec,
                                const EncodeOptions& options);
Diagnostic tool_event_terms_error(const EventSpecView& event, std::string_view spec);
Diagnostic numeric_type_error(const EventSpecView& event, std::string_view spec);
// What the default semantics say when the PMU named exactly rejects the terms and perf 6.1
// would have retried on its numbered namesakes (`foo` -> `foo10`, `foo_2`): `error` gains a
// note naming those that accept the spec.
void note_perf_fallback(Diagnostic& error, std::span<const std::string> accepting,
                        const EventSpecView& event, std::string_view spec);

// Calls `visit(const Target&) -> std::optional<Diagnostic>` for each target of `event` in
// encode()'s order; stops at the first error. `spec` is the whole list, `terms` the event's.
// `try_visit(const Target&) -> std::optional<Diagnostic>` encodes a target without keeping it:
// perf 6.1's fallback from a PMU that rejects the terms to its numbered namesakes asks it which
// of those accept them.
template <TargetLookup Lookup, class Visit, class TryVisit>
std::optional<Diagnostic> for_each_target(Lookup& lookup, std::string_view spec,
                                          const EventSpecView& event,
                                          std::span<const TermView> terms,
                                          const EncodeOptions& options, Visit&& visit,
                                          TryVisit&& try_visit) {
  const Catalog& catalog = lookup.catalog();
  const bool perf = follows_perf(options.semantics);
  // perf 6.1's lexer and PMU matching: later perf (6.12) decides names as pmucat does.
  const bool perf61 = options.semantics == Semantics::perf_6_1;
  // Later perf rejects a weak-group modifier on an event of no group ("Weak modifier is for use
  // with groups"); perf 6.1 ignores it.
  if (!perf61 && event.modifiers.weak_group && !event.group) {
    return weak_outside_group_error(event, spec);
  }
  // Legacy names as perf 6.12's lexer and decoder read them (`branches-loads`); perf 6.1's for
  // the other semantics.
  auto legacy_named = [&](std::string_view name) {
    return perf61 ? find_legacy_event(name) : find_legacy_event_612(name);
  };
  // perf 6.12 on a kernel without extended types: no PMU type in a legacy event's config, and
  // a hardware event once instead of once per core PMU.
  const bool no_extended_type = !perf61 && options.extended_type == ExtendedType::unsupported;
  std::string_view legacy_name = event.form == SpecForm::pmu_terms ? event.pmu : event.name;
  auto legacy_target = [&](const LegacyEvent& legacy, std::span<const TermView> legacy_terms,
                           const Pmu* core) {
    Target target;
    target.name = legacy_name;
    target.legacy = legacy;
    target.terms = legacy_terms;
    target.pmu_offset = event.offset;
    target.pmu_length = event.text.size();
    target.core = core;
    target.extended_type = !no_extended_type;
    return target;
  };
  // A built-in or raw event: once, or on a hybrid machine once per core PMU (`only`: that one)
  // for the hardware, cache and raw events, as perf does.
  auto on_legacy = [&](const LegacyEvent& legacy, std::span<const TermView> legacy_terms,
                       const Pmu* only, bool numeric = false) -> std::optional<Diagnostic> {
    // Once per hybrid core PMU: a cache event always; a hardware event with extended types,
    // except a numeric one (`0:1`) under perf 6.12; a raw event under perf 6.1 only.
    auto per_core_pmu = [&] {
      switch (legacy.type) {
        case PerfType::hw_cache:
          return true;
        case PerfType::hardware:
          return perf61 || (!no_extended_type && !(perf && numeric));
        case PerfType::raw:
          return perf61;
        default:
          return false;
      }
    };
    if (per_core_pmu()) {
      bool any = false;
      for (const Pmu* core : lookup.hybrid_pmus(options.semantics)) {
        if (only != nullptr && core->name() != only->name()) continue;
        if (auto error = visit(legacy_target(legacy, legacy_terms, core))) return error;
        any = true;
      }
      if (any) return std::nullopt;
    }
    const Pmu* core = nullptr;
    if (legacy.type == PerfType::raw && !perf && !numeric) {
      // pmucat gives a raw event the core PMU's type (`r3c/period=1/` as `r3c`).
      core = lookup.core_pmu();
      if (core == nullptr) return no_default_pmu_error(event, spec, options);
    }
    return visit(legacy_target(legacy, legacy_terms, core));
  };
  auto on_pmu = [&](const Pmu& pmu, std::span<const TermView> pmu_terms, std::size_t offset,
                    std::size_t length, bool raw_type) {
    Target target;
    target.pmu = &pmu;
    target.terms = pmu_terms;
    target.pmu_offset = offset;
    target.pmu_length = length;
    target.raw_type = raw_type;
    return visit(target);
  };
  auto on_default_pmu = [&](std::span<const TermView> pmu_terms,
                            bool raw) -> std::optional<Diagnostic> {
    if (options.default_pmu.empty() && raw && perf61) {
      // perf 6.1 builds a raw event once per hybrid core PMU, with that PMU's type; perf 6.12
      // (and pmucat) once, of the raw type.
      bool hybrid = false;
      for (const Pmu* core : lookup.hybrid_pmus(options.semantics)) {
        hybrid = true;
        if (auto error = on_pmu(*core, pmu_terms, event.offset, event.text.size(), false)) {
          return error;
        }
      }
      if (hybrid) return std::nullopt;
    }
    const Pmu* pmu =
        options.default_pmu.empty() ? lookup.core_pmu() : lookup.find_pmu(options.default_pmu);
    if (pmu == nullptr) return no_default_pmu_error(event, spec, options);
    return on_pmu(*pmu, pmu_terms, event.offset, event.text.size(), perf && raw);
  };
  // A reference to a named event as a bare term, so the usual alias rules and diagnostics
  // apply: the spec's event name, or (`EVENT/terms/`) the name before the terms.
  auto term_reference = [](std::string_view name, std::size_t offset) {
    TermView reference;
    reference.name = name;
    reference.kind = TermValueKind::none;
    reference.offset = static_cast<std::uint32_t>(offset);
    reference.length = static_cast<std::uint32_t>(name.size());
    reference.value_offset = reference.offset;
    return reference;
  };
  auto name_reference = [&]() { return term_reference(event.name, event.offset); };
  // A bare name that is also a built-in event: perf (6.1 and 6.12) takes the built-in event.
  // pmucat prefers a sysfs or JSON event of that name, looked for on the core PMUs only:
  // the built-in names are core events, and asking every PMU would cost a probe per PMU.
  auto on_legacy_name = [&](const LegacyEvent& legacy) -> std::optional<Diagnostic> {
    if (perf) return on_legacy(legacy, {}, nullptr);
    const TermView reference = name_reference();
    const std::span<const TermView> as_term(&reference, 1);
    const auto owners = lookup.core_event_owners(event.name, options.semantics);
    auto owns = [&](const Pmu& pmu) {
      return std::any_of(owners.begin(), owners.end(),
                         [&](const Pmu* owner) { return owner->name() == pmu.name(); });
    };
    const auto hybrid = lookup.hybrid_pmus(options.semantics);
    const bool per_core_pmu = legacy.type == PerfType::hw_cache ||
                              (legacy.type == PerfType::hardware && !no_extended_type);
    if (!hybrid.empty() && per_core_pmu) {
      // Each core PMU: its own event of that name, else the built-in one with its extended type.
      for (const Pmu* core : hybrid) {
        auto error = owns(*core) ? on_pmu(*core, as_term, event.offset, event.name.size(), false)
                                 : visit(legacy_target(legacy, {}, core));
        if (error) return error;
      }
      return std::nullopt;
    }
    for (const Pmu* owner : owners) {
      if (auto error = on_pmu(*owner, as_term, event.offset, event.name.size(), false)) {
        return error;
      }
    }
    if (!owners.empty()) return std::nullopt;
    return visit(legacy_target(legacy, {}, nullptr));
  };
  // `slots/metric-id=x/`, `topdown-retiring/u,period=1/`: an event name with terms, on every
  // PMU that has the event, the terms before the event as perf 6.1 lists them (so they OR into
  // the alias). perf skips the PMUs that reject the terms; pmucat wants all to take them.
  auto on_event_with_terms = [&]() -> std::optional<Diagnostic> {
    std::vector<TermView> with_event(terms.begin(), terms.end());
    with_event.push_back(term_reference(event.pmu, event.pmu_offset));
    bool found = false;
    std::optional<Diagnostic> first_failure;
    if (auto error = lookup.for_each_event_owner(event.pmu, [&](const Pmu& pmu) {
          auto failed = on_pmu(pmu, with_event, event.pmu_offset, event.pmu.size(), false);
          if (!failed) {
            found = true;
            return failed;
          }
          if (!perf) return failed;
          if (!first_failure) first_failure = std::move(failed);
          return std::optional<Diagnostic>{};
        })) {
      return error;
    }
    if (found) return std::nullopt;
    return first_failure ? first_failure : unknown_pmu_error(catalog, event, spec);
  };
  auto on_event_name = [&]() -> std::optional<Diagnostic> {
    if (const std::optional<LegacyEvent> legacy = legacy_named(event.name)) {
      return on_legacy_name(*legacy);
    }
    const TermView reference = name_reference();
    bool found = false;
    if (auto error = lookup.for_each_event_owner(event.name, [&](const Pmu& pmu) {
          found = true;
          return on_pmu(pmu, std::span<const TermView>(&reference, 1), event.offset,
                        event.name.size(), false);
        })) {
      return error;
    }
    if (found) return std::nullopt;
    return unknown_event_error(catalog, event, spec);
  };
  // `cpu_core/cycles/`: perf parses a hybrid core PMU's only term again as an event of that
  // PMU when it is no event (alias) of the PMU. pmucat takes it for the built-in names only
  // (docs/perf-compat.md).
  auto hybrid_builtin = [&](const Pmu& pmu) -> std::optional<LegacyEvent> {
    // Later perf (and pmucat) read a hardware or cache name there as a legacy term of the PMU
    // (TermEncoder); a software or tool name is no term of it.
    if (!perf61) return std::nullopt;
    if (terms.size() != 1 || terms[0].name == "event") return std::nullopt;
    if (!perf && terms[0].kind != TermValueKind::none) return std::nullopt;
    if (!pmu.name().starts_with("cpu_")) return std::nullopt;
    const auto hybrid = lookup.hybrid_pmus(options.semantics);
    // By name: a PMU found before the tree was listed is another object than the listed one.
    if (std::none_of(hybrid.begin(), hybrid.end(),
                     [&](const Pmu* core) { return core->name() == pmu.name(); })) {
      return std::nullopt;
    }
    if (pmu.find_event(terms[0].name) != nullptr) return std::nullopt;
    return legacy_named(terms[0].name);
  };

  switch (event.form) {
    case SpecForm::breakpoint: {
      Target target;
      target.pmu_offset = event.offset;
      target.pmu_length = event.text.size();
      target.builtin = Target::Builtin::breakpoint;
      return visit(target);
    }
    case SpecForm::tracepoint: {
      auto tracepoints = resolve_tracepoints(spec, event, terms, options);
      if (!tracepoints) return std::move(tracepoints).error();
      for (const Tracepoint& tracepoint : *tracepoints) {
        Target target;
        target.terms = terms;
        target.pmu_offset = event.offset;
        target.pmu_length = event.text.size();
        target.builtin = Target::Builtin::tracepoint;
        target.tracepoint = &tracepoint;
        if (auto error = visit(target)) return error;
      }
      return std::nullopt;
    }
    case SpecForm::pmu_terms: {
      // `cycles/period=1000/`, `r3c/period=1/`: a built-in or raw event with perf's hard-coded
      // terms. perf's lexer decides by the name, before PMUs; pmucat lets a PMU of that name win.
      const Pmu* exact = nullptr;
      if (!perf61) exact = lookup.find_pmu(event.pmu);
      if (exact == nullptr) {
        if (const std::optional<LegacyEvent> legacy = legacy_named(event.pmu)) {
          if (is_tool_event(event.pmu) && !terms.empty()) {
            return tool_event_terms_error(event, spec);
          }
          return on_legacy(*legacy, terms, nullptr);
        }
        if (const auto raw = spec_detail::raw_term_value(event.pmu);
            raw && !event.pmu.starts_with("r0x")) {
          return on_legacy(LegacyEvent{PerfType::raw, *raw}, terms, nullptr);
        }
      }
      // perf 6.1's lexer reads a few hyphenated names and any event name it knows (without '-')
      // as an event, before it looks for a PMU of that name.
      if (perf61) {
        const Perf61NameToken token = perf61_name_token(event.pmu);
        if (token == Perf61NameToken::kernel_event ||
            (token == Perf61NameToken::name && lookup.has_event_owner(event.pmu))) {
          return on_event_with_terms();
        }
      }
      if (perf61 && event.pmu.find('-') != std::string_view::npos) {
        return pmu_hyphen_error(event, spec);
      }
      if (exact == nullptr) exact = lookup.find_pmu(event.pmu);
      if (exact != nullptr) {
        if (const auto builtin = hybrid_builtin(*exact)) {
          legacy_name = terms[0].name;
          return on_legacy(*builtin, {}, exact);
        }
        std::optional<Diagnostic> failed =
            on_pmu(*exact, terms, event.pmu_offset, event.pmu.size(), false);
        if (!failed) return std::nullopt;
        // perf 6.1 retries a PMU that rejects the terms on its numbered namesakes (`foo` ->
        // `foo10`, `foo_2`) and keeps those that take them.
        std::vector<std::string> accepting;
        for (const Pmu& pmu : catalog.pmus()) {
          if (&pmu == exact || !perf61_instance_of(pmu.name(), event.pmu)) continue;
          Target target;
          target.pmu = &pmu;
          target.terms = terms;
          target.pmu_offset = event.pmu_offset;
          target.pmu_length = event.pmu.size();
          if (perf ? !visit(target) : !try_visit(target)) accepting.push_back(pmu.name());
        }
        if (accepting.empty()) return failed;
        if (perf) return std::nullopt;
        note_perf_fallback(*failed, accepting, event, spec);
        return failed;
      }
      // No PMU of that name: its instances (select_pmus, without building a list). perf 6.1
      // keeps the instances that take the terms; pmucat wants all of them to.
      bool selected_any = false;
      bool found = false;
      std::optional<Diagnostic> first_failure;
      for (const Pmu& pmu : catalog.pmus()) {
        const bool selected = perf61 ? perf61_instance_of(pmu.name(), event.pmu)
                                     : pmu_name_matches(pmu.name(), event.pmu);
        if (!selected) continue;
        selected_any = true;
        auto error = on_pmu(pmu, terms, event.pmu_offset, event.pmu.size(), false);
        if (!error) {
          found = true;
        } else if (!perf) {
          return error;
        } else if (!first_failure) {
          first_failure = std::move(error);
        }
      }
      // pmucat (as newer perf): no PMU of that name nor instances of one, but an event.
      if (!perf61 && !selected_any && lookup.has_event_owner(event.pmu)) {
        return on_event_with_terms();
      }
      if (!found) return first_failure ? first_failure : unknown_pmu_error(catalog, event, spec);
      return std::nullopt;
    }
    case SpecForm::numeric: {
      // perf 6.1 keeps the type's low 32 bits (`99999999999:1` is type 1215752191).
      if (!perf && event.numeric_type > 0xffff'ffffu) return numeric_type_error(event, spec);
      const auto type = static_cast<std::uint32_t>(event.numeric_type);
      return on_legacy(LegacyEvent{static_cast<PerfType>(type), event.raw_config}, terms, nullptr,
                       true);
    }
    case SpecForm::event_name:
      return on_event_name();
    case SpecForm::terms_only:
      return on_default_pmu(terms, false);
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
      return on_default_pmu(std::span<const TermView>(&config, 1), true);
    }
  }
  return std::nullopt;
}

}  // namespace pmucat::encode_detail
