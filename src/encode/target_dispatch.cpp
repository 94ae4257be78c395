// for_each_target: one handler per spec form. Where perf releases or pmucat's own semantics
// differ, a handler asks the options' Profile for the behaviour by name (perf_releases.def).
#include <algorithm>

#include "encode/event_owners.h"
#include "encode/targets.h"
#include "pmucat/hwmon.h"
#include "pmucat/version.h"

PMUCAT_BEGIN_NAMESPACE
namespace encode_detail {

namespace {

template <TargetLookup Lookup>
class TargetResolver {
 public:
  TargetResolver(Lookup& lookup, std::string_view spec, const EventSpecView& event,
                 std::span<const TermView> terms, const EncodeOptions& options, TargetVisitor visit,
                 TargetVisitor try_visit)
      : lookup_(lookup),
        catalog_(lookup.catalog()),
        spec_(spec),
        event_(event),
        terms_(terms),
        options_(options),
        visit_(visit),
        try_visit_(try_visit),
        no_extended_type_(has(Behaviour::extended_type_probe) &&
                          options.extended_type == ExtendedType::unsupported),
        legacy_name_(event.form == SpecForm::pmu_terms ? event.pmu : event.name) {}

  std::optional<Diagnostic> run() {
    if (has(Behaviour::weak_needs_group) && event_.modifiers.weak_group && !event_.group) {
      return weak_outside_group_error(event_, spec_);
    }
    if (auto error = newer_modifier_error(event_.modifiers, spec_,
                                          event_.offset + event_.text.size(), options_)) {
      return error;
    }
    switch (event_.form) {
      case SpecForm::breakpoint:
        return breakpoint();
      case SpecForm::tracepoint:
        return tracepoints();
      case SpecForm::pmu_terms:
        return pmu_terms();
      case SpecForm::numeric:
        return numeric();
      case SpecForm::event_name:
        return event_name();
      case SpecForm::terms_only:
        return on_default_pmu(terms_, false);
      case SpecForm::raw:
        return raw();
    }
    return std::nullopt;
  }

 private:
  bool has(Behaviour behaviour) const { return options_.semantics.has(behaviour); }

  std::optional<LegacyEvent> legacy_named(std::string_view name) const {
    if (has(Behaviour::tool_pmu)) {
      if (auto tool = find_tool_pmu_event(name)) return tool;
    }
    if (has(Behaviour::builtin_names_any_case)) {
      // perf 7.3's tables: a software name is an event of the `software` PMU, so a tree without
      // that PMU has none.
      if (lexed_as_modifiers_73(name)) return std::nullopt;
      auto legacy = find_legacy_event_73(name);
      if (legacy && legacy->type == PerfType::software && lookup_.find_pmu("software") == nullptr) {
        return std::nullopt;
      }
      return legacy;
    }
    return find_legacy_event(name, options_.semantics.lexer());
  }

  Target legacy_target(const LegacyEvent& legacy, std::span<const TermView> legacy_terms,
                       const Pmu* core) const {
    Target target;
    target.name = legacy_name_;
    target.legacy = legacy;
    target.terms = legacy_terms;
    target.pmu_offset = event_.offset;
    target.pmu_length = event_.text.size();
    target.core = core;
    target.extended_type = !no_extended_type_;
    return target;
  }

  // Whether a built-in or raw event is built once per hybrid core PMU: a cache event always; a
  // hardware event with extended types (a numeric one `0:1` only where that behaviour says so);
  // a raw event where perf builds raw events per core PMU.
  bool per_core_pmu(const LegacyEvent& legacy, bool numeric) const {
    switch (legacy.type) {
      case PerfType::hw_cache:
        return true;
      case PerfType::hardware:
        // perf 7.2 opens a hardware name (with terms too) on each core PMU even without extended
        // types (`branches/metric-id=branches/` on intel-arl-hybrid: three attrs, perf 7.3.4).
        return !has(Behaviour::raw_events_once) ||
               (!no_extended_type_ &&
                (!numeric || has(Behaviour::numeric_hardware_per_core_pmu))) ||
               (!numeric && has(Behaviour::legacy_event_per_core_pmu));
      case PerfType::raw:
        return !has(Behaviour::raw_events_once);
      default:
        return false;
    }
  }

  // A built-in or raw event: once, or on a hybrid machine once per core PMU (`only`: that one).
  std::optional<Diagnostic> on_legacy(const LegacyEvent& legacy,
                                      std::span<const TermView> legacy_terms, const Pmu* only,
                                      bool numeric = false) {
    if (per_core_pmu(legacy, numeric)) {
      bool any = false;
      for (const Pmu* core : lookup_.hybrid_pmus(options_.semantics)) {
        if (only != nullptr && core->name() != only->name()) continue;
        if (auto error = visit_(legacy_target(legacy, legacy_terms, core))) return error;
        any = true;
      }
      if (any) return std::nullopt;
    }
    const Pmu* core = nullptr;
    if (legacy.type == PerfType::raw && has(Behaviour::raw_takes_core_pmu_type) && !numeric) {
      // `r3c/period=1/` as `r3c`: of the core PMU's type.
      core = lookup_.core_pmu();
      if (core == nullptr) return no_default_pmu_error(event_, spec_, options_);
    }
    return visit_(legacy_target(legacy, legacy_terms, core));
  }

  std::optional<Diagnostic> on_pmu(const Pmu& pmu, std::span<const TermView> pmu_terms,
                                   std::size_t offset, std::size_t length, bool raw_type) {
    Target target;
    target.pmu = &pmu;
    target.terms = pmu_terms;
    target.pmu_offset = offset;
    target.pmu_length = length;
    target.raw_type = raw_type;
    return visit_(target);
  }

  std::optional<Diagnostic> on_default_pmu(std::span<const TermView> pmu_terms, bool raw) {
    if (options_.default_pmu.empty() && raw && !has(Behaviour::raw_events_once)) {
      // A raw event once per hybrid core PMU, with that PMU's type.
      bool hybrid = false;
      for (const Pmu* core : lookup_.hybrid_pmus(options_.semantics)) {
        hybrid = true;
        if (auto error = on_pmu(*core, pmu_terms, event_.offset, event_.text.size(), false)) {
          return error;
        }
      }
      if (hybrid) return std::nullopt;
    }
    const Pmu* pmu =
        options_.default_pmu.empty() ? lookup_.core_pmu() : lookup_.find_pmu(options_.default_pmu);
    if (pmu == nullptr) return no_default_pmu_error(event_, spec_, options_);
    return on_pmu(*pmu, pmu_terms, event_.offset, event_.text.size(),
                  raw && !has(Behaviour::raw_takes_core_pmu_type));
  }

  // A reference to a named event as a bare term, so the usual alias rules and diagnostics
  // apply: the spec's event name, or (`EVENT/terms/`) the name before the terms.
  static TermView term_reference(std::string_view name, std::size_t offset) {
    TermView reference;
    reference.name = name;
    reference.kind = TermValueKind::none;
    reference.offset = static_cast<std::uint32_t>(offset);
    reference.length = static_cast<std::uint32_t>(name.size());
    reference.value_offset = reference.offset;
    return reference;
  }
  TermView name_reference() const { return term_reference(event_.name, event_.offset); }

  // A bare name that is also a built-in event: perf takes the built-in event; with
  // Behaviour::pmu_event_before_legacy_name (pmucat) or legacy_names_prefer_pmu_events (perf
  // 7.3) a sysfs or JSON event of that name wins, looked for on the core PMUs only (the built-in
  // names are core events, and asking every PMU would cost a probe per PMU).
  std::optional<Diagnostic> on_legacy_name(const LegacyEvent& legacy) {
    if (!has(Behaviour::pmu_event_before_legacy_name) &&
        !has(Behaviour::legacy_names_prefer_pmu_events)) {
      return on_legacy(legacy, {}, nullptr);
    }
    const TermView reference = name_reference();
    const std::span<const TermView> as_term(&reference, 1);
    const auto owners = lookup_.core_event_owners(event_.name, options_.semantics);
    auto owns = [&](const Pmu& pmu) {
      return std::any_of(owners.begin(), owners.end(),
                         [&](const Pmu* owner) { return owner->name() == pmu.name(); });
    };
    const auto hybrid = lookup_.hybrid_pmus(options_.semantics);
    // perf 7.3 opens a hardware event on each core PMU even without extended types.
    const bool per_core = legacy.type == PerfType::hw_cache ||
                          (legacy.type == PerfType::hardware &&
                           (!no_extended_type_ || has(Behaviour::legacy_event_per_core_pmu)));
    if (!hybrid.empty() && per_core) {
      // Each core PMU: its own event of that name, else the built-in one with its extended type.
      for (const Pmu* core : hybrid) {
        auto error = owns(*core) ? on_pmu(*core, as_term, event_.offset, event_.name.size(), false)
                                 : visit_(legacy_target(legacy, {}, core));
        if (error) return error;
      }
      return std::nullopt;
    }
    for (const Pmu* owner : owners) {
      if (auto error = on_pmu(*owner, as_term, event_.offset, event_.name.size(), false)) {
        return error;
      }
    }
    if (!owners.empty()) return std::nullopt;
    return visit_(legacy_target(legacy, {}, nullptr));
  }

  // A built-in name with terms read as a core PMU's `terms,NAME` (nullopt: not read so, the
  // caller goes on):
  //  - Behaviour::builtin_event_keeps_config, one core PMU: any hardware or cache name
  //    (`cycles/event=0x3c/` is `cpu/event=0x3c,cycles/`, `type=0 config=0x3c`: the PMU's fields
  //    apply, a `config=` before the name does not; perf 7.3.4 on intel-spr);
  //  - Behaviour::legacy_names_prefer_pmu_events: a hardware name some core PMU has an event of,
  //    on each such PMU (`cpu-cycles/metric-id=x/kHh`: intel-spr `type=4 config=0x3c`, measured
  //    with perf 7.3.4's -M Default; intel-adl-hybrid `cpu_atom` type 10 and `cpu_core` type 4).
  std::optional<std::optional<Diagnostic>> on_builtin_name_with_terms(const LegacyEvent& legacy) {
    if (!has(Behaviour::legacy_names_prefer_pmu_events)) return std::nullopt;
    auto on_core_pmus = [&](std::span<const Pmu* const> pmus) {
      std::vector<TermView> with_event(terms_.begin(), terms_.end());
      with_event.push_back(term_reference(event_.pmu, event_.pmu_offset));
      for (const Pmu* pmu : pmus) {
        if (auto error = on_pmu(*pmu, with_event, event_.pmu_offset, event_.pmu.size(), false)) {
          return std::optional<Diagnostic>(std::move(error));
        }
      }
      return std::optional<Diagnostic>();
    };
    const bool builtin = legacy.type == PerfType::hardware || legacy.type == PerfType::hw_cache;
    if (builtin && has(Behaviour::builtin_event_keeps_config) && !terms_.empty() &&
        lookup_.hybrid_pmus(options_.semantics).empty()) {
      const Pmu* core = lookup_.core_pmu();
      if (core != nullptr && is_perf_core_pmu(*core)) return on_core_pmus({&core, 1});
    }
    if (legacy.type != PerfType::hardware) return std::nullopt;
    const auto owners = lookup_.core_event_owners(event_.pmu, options_.semantics);
    if (owners.empty()) return std::nullopt;
    return on_core_pmus(owners);
  }

  // `slots/metric-id=x/`, `topdown-retiring/u,period=1/`: an event name with terms, on every
  // PMU that has the event, the terms before the event as perf 6.1 lists them (so they OR into
  // the alias). perf skips the PMUs that reject the terms; with Behaviour::every_pmu_takes_terms
  // all must take them.
  std::optional<Diagnostic> on_event_with_terms() {
    std::vector<TermView> with_event(terms_.begin(), terms_.end());
    with_event.push_back(term_reference(event_.pmu, event_.pmu_offset));
    bool found = false;
    std::optional<Diagnostic> first_failure;
    if (auto error = lookup_.for_each_event_owner(event_.pmu, [&](const Pmu& pmu) {
          auto failed = on_pmu(pmu, with_event, event_.pmu_offset, event_.pmu.size(), false);
          if (!failed) {
            found = true;
            return failed;
          }
          if (has(Behaviour::every_pmu_takes_terms)) return failed;
          if (!first_failure) first_failure = std::move(failed);
          return std::optional<Diagnostic>{};
        })) {
      return error;
    }
    if (found) return std::nullopt;
    return first_failure ? first_failure : unknown_pmu_error(catalog_, event_, spec_);
  }

  std::optional<Diagnostic> event_name() {
    if (const std::optional<LegacyEvent> legacy = legacy_named(event_.name)) {
      return on_legacy_name(*legacy);
    }
    const TermView reference = name_reference();
    bool found = false;
    if (auto error = lookup_.for_each_event_owner(event_.name, [&](const Pmu& pmu) {
          found = true;
          return on_pmu(pmu, std::span<const TermView>(&reference, 1), event_.offset,
                        event_.name.size(), false);
        })) {
      return error;
    }
    if (found) return std::nullopt;
    if (has(Behaviour::hwmon_pmus)) {
      if (auto error = hwmon_event(found)) return error;
      if (found) return std::nullopt;
    }
    return unknown_event_error(catalog_, event_, spec_);
  }

  // perf 7.2+'s hwmon PMUs: a sensor's name (`temp1`, `temp1_input`, a label's `temp_tctl`) on
  // every hwmon PMU that has it, in name order.
  std::optional<Diagnostic> hwmon_event(bool& found) {
    if (!may_name_hwmon_sensor(event_.name)) return std::nullopt;  // the tree's hwmon left unread
    for (const Pmu& pmu : catalog_.hwmon_pmus().pmus) {
      const Event* event = find_hwmon_event(pmu, event_.name);
      if (event == nullptr) continue;
      found = true;
      TermView reference = name_reference();
      reference.name = event->name;
      if (auto error = on_pmu(pmu, std::span<const TermView>(&reference, 1), event_.offset,
                              event_.name.size(), false)) {
        return error;
      }
    }
    return std::nullopt;
  }

  // `hwmon_k10temp/temp1/`, `hwmon0/temp_tctl/`: the hwmon PMUs the name selects, with perf
  // 7.3's term rules (docs/hwmon.md §6): each term names a sensor, by its key (`temp1_input`, any
  // value, a number the device need not have) or its label; the last one counts; any other term
  // is refused. `selected`: whether the name selects any.
  std::optional<Diagnostic> hwmon_pmu_terms(bool& selected) {
    const std::vector<const Pmu*> pmus = select_hwmon_pmus(catalog_.hwmon_pmus(), event_.pmu);
    selected = !pmus.empty();
    for (const Pmu* pmu : pmus) {
      TermView config;
      config.name = "config";
      config.kind = TermValueKind::number;
      config.style = NumberStyle::hex;
      config.value = 0;
      for (const TermView& term : terms_) {
        const std::optional<HwmonEventKey> sensor = hwmon_term_sensor(*pmu, term.name);
        if (!sensor) return hwmon_term_error(term, pmu->name(), spec_);
        config.value = sensor->config();
        config.offset = term.offset;
        config.length = term.length;
        config.value_offset = term.offset;
        config.value_length = term.length;
      }
      const std::span<const TermView> terms(&config, terms_.empty() ? 0 : 1);
      if (auto error = on_pmu(*pmu, terms, event_.pmu_offset, event_.pmu.size(), false)) {
        return error;
      }
    }
    return std::nullopt;
  }

  // `cpu_core/cycles/` without Behaviour::legacy_terms: perf parses a hybrid core PMU's only
  // term again as an event of that PMU when it is no event (alias) of the PMU. With legacy
  // terms the TermEncoder reads a hardware or cache name there, and a software or tool name is
  // no term of the PMU.
  std::optional<LegacyEvent> hybrid_builtin(const Pmu& pmu) {
    if (has(Behaviour::legacy_terms)) return std::nullopt;
    if (terms_.size() != 1 || terms_[0].name == "event") return std::nullopt;
    if (!pmu.name().starts_with("cpu_")) return std::nullopt;
    const auto hybrid = lookup_.hybrid_pmus(options_.semantics);
    // By name: a PMU found before the tree was listed is another object than the listed one.
    if (std::none_of(hybrid.begin(), hybrid.end(),
                     [&](const Pmu* core) { return core->name() == pmu.name(); })) {
      return std::nullopt;
    }
    if (pmu.find_event(terms_[0].name) != nullptr) return std::nullopt;
    return legacy_named(terms_[0].name);
  }

  std::optional<Diagnostic> breakpoint() {
    Target target;
    target.pmu_offset = event_.offset;
    target.pmu_length = event_.text.size();
    target.builtin = Target::Builtin::breakpoint;
    return visit_(target);
  }

  std::optional<Diagnostic> tracepoints() {
    auto found = resolve_tracepoints(spec_, event_, terms_, options_);
    if (!found) return std::move(found).error();
    for (const Tracepoint& tracepoint : *found) {
      Target target;
      target.terms = terms_;
      target.pmu_offset = event_.offset;
      target.pmu_length = event_.text.size();
      target.builtin = Target::Builtin::tracepoint;
      target.tracepoint = &tracepoint;
      if (auto error = visit_(target)) return error;
    }
    return std::nullopt;
  }

  std::optional<Diagnostic> pmu_terms() {
    // `cycles/period=1000/`, `r3c/period=1/`: a built-in or raw event with perf's hard-coded
    // terms. perf 6.1's lexer decides by the name, before PMUs; with
    // Behaviour::pmu_before_event_name a PMU of that name wins.
    const bool pmu_first = has(Behaviour::pmu_before_event_name);
    const Pmu* exact = pmu_first ? lookup_.find_pmu(event_.pmu) : nullptr;
    if (exact == nullptr) {
      if (const std::optional<LegacyEvent> legacy = legacy_named(event_.pmu)) {
        // perf 7.3's tool events are a PMU's (`duration_time/period=1/` parses); older perfs
        // count them themselves, without terms.
        if (is_tool_event(event_.pmu) && !terms_.empty() && !has(Behaviour::tool_pmu)) {
          return tool_event_terms_error(event_, spec_);
        }
        if (auto on_core = on_builtin_name_with_terms(*legacy)) return *on_core;
        return on_legacy(*legacy, terms_, nullptr);
      }
      if (const auto raw = spec_detail::raw_term_value(event_.pmu);
          raw && !event_.pmu.starts_with("r0x")) {
        return on_legacy(LegacyEvent{PerfType::raw, *raw}, terms_, nullptr);
      }
    }
    // perf 6.1's lexer reads a few hyphenated names and any event name it knows (without '-')
    // as an event, before it looks for a PMU of that name.
    if (!pmu_first) {
      const KeywordLexerToken token = keyword_lexer_token(event_.pmu);
      if (token == KeywordLexerToken::kernel_event ||
          (token == KeywordLexerToken::name && lookup_.has_event_owner(event_.pmu))) {
        return on_event_with_terms();
      }
    }
    if (!has(Behaviour::hyphenated_pmu_names) && event_.pmu.find('-') != std::string_view::npos) {
      return pmu_hyphen_error(event_, spec_);
    }
    if (exact == nullptr) exact = lookup_.find_pmu(event_.pmu);
    if (exact != nullptr) return exact_pmu(*exact);
    if (has(Behaviour::hwmon_pmus) && event_.pmu.starts_with("hwmon")) {
      bool selected = false;
      auto error = hwmon_pmu_terms(selected);
      if (selected) return error;
    }
    return pmu_instances();
  }

  // `pmu/terms/` on the PMU named exactly.
  std::optional<Diagnostic> exact_pmu(const Pmu& exact) {
    if (const auto builtin = hybrid_builtin(exact)) {
      legacy_name_ = terms_[0].name;
      return on_legacy(*builtin, {}, &exact);
    }
    std::optional<Diagnostic> failed =
        on_pmu(exact, terms_, event_.pmu_offset, event_.pmu.size(), false);
    if (!failed) return std::nullopt;
    // perf retries a PMU that rejects the terms on its numbered namesakes (`foo` -> `foo10`,
    // `foo_2`) and keeps those that take them; with Behaviour::no_numbered_namesake_fallback
    // the error stands, with a note naming them.
    const bool fallback = !has(Behaviour::no_numbered_namesake_fallback);
    std::vector<std::string> accepting;
    for (const Pmu& pmu : catalog_.pmus()) {
      if (&pmu == &exact || !decimal_instance_of(pmu.name(), event_.pmu)) continue;
      Target target;
      target.pmu = &pmu;
      target.terms = terms_;
      target.pmu_offset = event_.pmu_offset;
      target.pmu_length = event_.pmu.size();
      if (fallback ? !visit_(target) : !try_visit_(target)) accepting.push_back(pmu.name());
    }
    if (accepting.empty()) return failed;
    if (fallback) return std::nullopt;
    note_perf_fallback(*failed, accepting, event_, spec_);
    return failed;
  }

  // No PMU of that name: its instances (select_pmus, without building a list). perf keeps the
  // instances that take the terms; with Behaviour::every_pmu_takes_terms all must.
  std::optional<Diagnostic> pmu_instances() {
    const bool globs = has(Behaviour::pmu_globs_and_hex_instances);
    bool selected_any = false;
    bool found = false;
    std::optional<Diagnostic> first_failure;
    for (const Pmu& pmu : catalog_.pmus()) {
      const bool selected = globs ? pmu_name_matches(pmu.name(), event_.pmu)
                                  : decimal_instance_of(pmu.name(), event_.pmu);
      if (!selected) continue;
      selected_any = true;
      auto error = on_pmu(pmu, terms_, event_.pmu_offset, event_.pmu.size(), false);
      if (!error) {
        found = true;
      } else if (has(Behaviour::every_pmu_takes_terms)) {
        return error;
      } else if (!first_failure) {
        first_failure = std::move(error);
      }
    }
    // No PMU of that name nor instances of one, but an event.
    if (has(Behaviour::event_terms_on_every_pmu) && !selected_any &&
        lookup_.has_event_owner(event_.pmu)) {
      return on_event_with_terms();
    }
    if (!found) return first_failure ? first_failure : unknown_pmu_error(catalog_, event_, spec_);
    return std::nullopt;
  }

  std::optional<Diagnostic> numeric() {
    // perf keeps the type's low 32 bits (`99999999999:1` is type 1215752191).
    if (has(Behaviour::numeric_type_fits_32_bits) && event_.numeric_type > 0xffff'ffffu) {
      return numeric_type_error(event_, spec_);
    }
    const auto type = static_cast<std::uint32_t>(event_.numeric_type);
    return on_legacy(LegacyEvent{static_cast<PerfType>(type), event_.raw_config}, terms_, nullptr,
                     true);
  }

  std::optional<Diagnostic> raw() {
    // `read` looks like r+hex: an event of that name wins, as with newer perf's fix_raw.
    if (lookup_.has_event_owner(event_.name)) return event_name();
    if (event_.name.starts_with("r0x")) {
      // perf 6.1's lexer has r<hex> outside a PMU's terms, and r0x<hex> only inside them:
      // `r0x3c` is an event name there, which no PMU has.
      Diagnostic error = unknown_event_error(catalog_, event_, spec_);
      error.hint = "a raw event is r followed by hex digits, without 0x (r" +
                   std::string(event_.name.substr(3)) + "); r0x<hex> is a term inside a PMU (cpu/" +
                   std::string(event_.name) + "/)";
      return error;
    }
    TermView config;
    config.name = "config";
    config.kind = TermValueKind::number;
    config.value = event_.raw_config;
    config.style = NumberStyle::hex;
    config.offset = event_.offset;
    config.length = static_cast<std::uint32_t>(event_.name.size());
    config.value_offset = event_.offset;
    config.value_length = config.length;
    return on_default_pmu(std::span<const TermView>(&config, 1), true);
  }

  Lookup& lookup_;
  const Catalog& catalog_;
  std::string_view spec_;
  const EventSpecView& event_;
  std::span<const TermView> terms_;
  const EncodeOptions& options_;
  TargetVisitor visit_;
  TargetVisitor try_visit_;
  // Behaviour::extended_type_probe on a kernel without extended types: no PMU type in a legacy
  // event's config, and a hardware event once instead of once per core PMU.
  bool no_extended_type_;
  std::string_view legacy_name_;  // a built-in target's name as written
};

}  // namespace

template <TargetLookup Lookup>
std::optional<Diagnostic> for_each_target(Lookup& lookup, std::string_view spec,
                                          const EventSpecView& event,
                                          std::span<const TermView> terms,
                                          const EncodeOptions& options, TargetVisitor visit,
                                          TargetVisitor try_visit) {
  return TargetResolver<Lookup>(lookup, spec, event, terms, options, visit, try_visit).run();
}

template std::optional<Diagnostic> for_each_target<DirectLookup>(DirectLookup&, std::string_view,
                                                                 const EventSpecView&,
                                                                 std::span<const TermView>,
                                                                 const EncodeOptions&,
                                                                 TargetVisitor, TargetVisitor);
template std::optional<Diagnostic> for_each_target<MemoLookup>(MemoLookup&, std::string_view,
                                                               const EventSpecView&,
                                                               std::span<const TermView>,
                                                               const EncodeOptions&, TargetVisitor,
                                                               TargetVisitor);

}  // namespace encode_detail
PMUCAT_END_NAMESPACE
