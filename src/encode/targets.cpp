// Diagnostics of target resolution, and the two targets that need no term encoding.
#include "encode/targets.h"

#include <fmt/format.h>

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "encode/term_items.h"
#include "parser/spec_diagnostics.h"
#include "pmucat/diagnostic_ids.h"
#include "pmucat/suggest.h"

PMUCAT_BEGIN_NAMESPACE
namespace encode_detail {

using spec_detail::spec_error;

std::optional<Diagnostic> pmu_type_error(const Target& target, std::string_view spec,
                                         Profile semantics) {
  const Pmu& pmu = *target.pmu;
  if (usable_pmu_type(pmu, semantics)) return std::nullopt;
  const std::string& text = pmu.attributes().type_text;
  Diagnostic d = spec_error(
      DiagId::pmu_no_type, spec, target.pmu_offset, target.pmu_length,
      text.empty() ? fmt::format("PMU '{}' has no 'type' file", pmu.name())
                   : fmt::format("PMU '{}' has an unusable type '{}'", pmu.name(), text));
  d.hint = "the kernel's type file holds a decimal number";
  return d;
}

namespace {

bool has_extended_type(PerfType type) {
  return type == PerfType::hardware || type == PerfType::hw_cache;
}

// perf's PERF_PMU_TYPE_SHIFT: a hybrid core PMU's type above the hardware or cache event id.
constexpr unsigned kExtendedTypeShift = 32;
constexpr std::uint64_t kEventIdMask = 0xffff'ffff;

std::uint32_t legacy_type(const Target& target) {
  if (target.legacy.type == PerfType::raw && target.core != nullptr) {
    return target.core->type().value_or(static_cast<std::uint32_t>(PerfType::raw));
  }
  return static_cast<std::uint32_t>(target.legacy.type);
}

void extend(const Target& target, Attr& attr) {
  if (target.core == nullptr || !target.extended_type || !has_extended_type(target.legacy.type)) {
    return;
  }
  attr.config[0] = (attr.config[0] & kEventIdMask) |
                   (std::uint64_t{target.core->type().value_or(0)} << kExtendedTypeShift);
}

}  // namespace

std::optional<Diagnostic> encode_legacy(const Target& target, const Modifiers& modifiers,
                                        std::string_view spec, const EncodeOptions& options,
                                        Attr& attr, const CoreExtras& extras) {
  if (target.terms.empty()) {
    attr = Attr{};
    attr.type = legacy_type(target);
    attr.size = options.semantics.attr_size();
    attr.config[0] = target.legacy.config;
    extend(target, attr);
    apply_modifiers(modifiers, attr, options.semantics);
    return std::nullopt;
  }
  // perf's hard-coded terms only: the terms of a PMU without formats or events. The event's
  // config is where a `config=` term replaces it, as perf assigns config terms.
  PmuInfo info;
  info.name = std::string(target.name);
  info.attributes.type = legacy_type(target);
  info.attributes.type_text = std::to_string(*info.attributes.type);
  const Pmu pmu = Pmu::from_info(std::move(info));
  CoreScratch scratch;
  TermEncoder encoder(pmu, spec, options, scratch);
  encoder.encode_builtin_event_terms();
  if (auto error = encoder.run(target.terms, modifiers, attr, extras)) return error;
  const auto config_term = std::find_if(target.terms.begin(), target.terms.end(),
                                        [](const TermView& term) { return term.name == "config"; });
  // A raw event's config is the term's (`r3c/config=5/` is config 5 in perf 7.3 too).
  const bool event_keeps_config = options.semantics.has(Behaviour::builtin_event_keeps_config) &&
                                  target.legacy.type != PerfType::raw;
  if (config_term == target.terms.end() || event_keeps_config) {
    attr.config[0] = target.legacy.config;
  }
  if (config_term != target.terms.end() && event_keeps_config && extras.warnings != nullptr) {
    Diagnostic d =
        spec_error(DiagId::term_overridden, spec, config_term->offset, config_term->length,
                   fmt::format("'config={:#x}' changes nothing: {} keeps the config of '{}'",
                               config_term->value, options.semantics.name(), target.name));
    d.severity = Severity::warning;
    d.hint = fmt::format("for type {} with that config, write the numeric event '{}:{:#x}'",
                         attr.type, attr.type, config_term->value);
    extras.warnings->push_back(std::move(d));
  }
  extend(target, attr);
  return std::nullopt;
}

std::string legacy_perf_string(const Target& target, const Attr& attr,
                               std::span<const TermView> printed, const Modifiers& modifiers,
                               bool pmu_terms) {
  const std::string mods = canonical_modifiers(modifiers);
  std::vector<Term> terms;
  const std::uint64_t config = target.core != nullptr && has_extended_type(target.legacy.type)
                                   ? attr.config[0] & kEventIdMask
                                   : attr.config[0];
  auto number = [&](std::string name, std::uint64_t value) {
    Term& term = terms.emplace_back();
    term.name = std::move(name);
    term.kind = TermValueKind::number;
    term.value = value;
    term.style = NumberStyle::hex;
  };
  if (config != target.legacy.config) number("config", config);
  for (unsigned word = 1; word < kConfigWords; ++word) {
    if (attr.config[word] != 0) number(fmt::format("config{}", word), attr.config[word]);
  }
  const bool config_terms = !terms.empty();  // the config words come first, when there are any
  for (const TermView& term : printed) terms.push_back(term.to_term());
  if (target.core != nullptr && has_extended_type(target.legacy.type) && !config_terms) {
    // One core PMU of a hybrid machine: perf reads `cpu_core/cycles/` as that one, and perf
    // 6.12 on `cpu_core/cycles,metric-id=c/` too (`cycles/metric-id=c/` is one per core PMU;
    // perf 6.1 has no built-in names among a PMU's terms), unless the PMU has an event of that
    // name, which the term would be. A config word stays in the `cycles/config=.../` form, where
    // it is the built-in event's.
    if (terms.empty()) return fmt::format("{}/{}/{}", target.core->name(), target.name, mods);
    if (pmu_terms && target.core->find_event(target.name) == nullptr) {
      return fmt::format("{}/{},{}/{}", target.core->name(), target.name, print_terms(terms), mods);
    }
  }
  if (terms.empty())
    return mods.empty() ? std::string(target.name) : fmt::format("{}:{}", target.name, mods);
  return fmt::format("{}/{}/{}", target.name, print_terms(terms), mods);
}

bool is_tool_event(std::string_view name) {
  const auto symbols = legacy_symbols();
  return std::any_of(symbols.begin(), symbols.end(), [&](const LegacySymbol& symbol) {
    return symbol.kind == BuiltinKind::tool && (symbol.name == name || symbol.alias == name);
  });
}

Diagnostic hwmon_term_error(const TermView& term, std::string_view pmu, std::string_view spec) {
  Diagnostic d = spec_error(DiagId::term_unknown, spec, term.offset, term.length,
                            fmt::format("'{}' is no sensor of hwmon PMU '{}'", term.name, pmu));
  d.hint =
      "a hwmon PMU takes one of its sensors' names (temp1, or a label's temp_<label>) and no "
      "other term; perf 7.3 says \"unexpected hwmon event term\"";
  return d;
}

Diagnostic tool_event_terms_error(const EventSpecView& event, std::string_view spec) {
  Diagnostic d =
      spec_error(DiagId::event_tool_terms, spec, event.offset, event.text.size(),
                 fmt::format("'{}' is counted by perf itself and takes no terms", event.pmu));
  d.hint = fmt::format("write '{}' or '{}//'", event.pmu, event.pmu);
  return d;
}

Diagnostic numeric_type_error(const EventSpecView& event, std::string_view spec) {
  Diagnostic d =
      spec_error(DiagId::numeric_type_range, spec, event.offset, event.name.find(':'),
                 fmt::format("event type {} does not fit in 32 bits", event.numeric_type));
  d.hint = fmt::format("perf 6.1 would use its low 32 bits ({})",
                       static_cast<std::uint32_t>(event.numeric_type));
  return d;
}

void note_perf_fallback(Diagnostic& error, std::span<const std::string> accepting,
                        const EventSpecView& event, std::string_view spec) {
  error.notes.push_back(make_diagnostic(
      Severity::note, "", spec_detail::kSpecFile, spec, event.pmu_offset, event.pmu.size(),
      fmt::format("perf 6.1 would retry on the PMUs named like it with a number and use {} "
                  "instead; name {} to get that",
                  fmt::join(accepting, ", "), accepting.size() == 1 ? "it" : "them")));
}

// The modifier letters a release added (`R` in perf 6.12, `X` in 7.3) are unknown to the perf
// before it: modifier-unknown under the letter, as for any other letter it lacks. `end` is where
// the modifiers end in `spec` (they end the event's or the group's text).
std::optional<Diagnostic> newer_modifier_error(const Modifiers& modifiers, std::string_view spec,
                                               std::size_t end, const EncodeOptions& options) {
  struct Letter {
    char letter;
    bool given;
    Behaviour since;
  };
  for (const Letter& l : {Letter{'R', modifiers.retire_latency, Behaviour::retire_latency_modifier},
                          Letter{'X', modifiers.no_regroup, Behaviour::no_regroup_modifier}}) {
    if (!l.given || options.semantics.has(l.since)) continue;
    const std::string_view text = modifiers.text;
    const std::size_t at = end - text.size() + text.find(l.letter);
    Diagnostic d = spec_error(DiagId::modifier_unknown, spec, static_cast<std::uint32_t>(at), 1,
                              fmt::format("unknown modifier '{}' (perf {} has none)", l.letter,
                                          to_string(options.semantics.release())));
    if (const auto since = info(l.since).since) {
      d.hint = fmt::format("perf {} added '{}': --perf-semantics={}", to_string(*since), l.letter,
                           to_string(*since));
    }
    return d;
  }
  return std::nullopt;
}

Diagnostic weak_outside_group_error(const EventSpecView& event, std::string_view spec) {
  Diagnostic d =
      spec_error(DiagId::modifier_weak_outside_group, spec, event.offset, event.text.size(),
                 "the weak-group modifier 'W' is for events in a group");
  d.hint = "put the event in a group ({a,b}:W), or drop the W (perf 6.1 ignored it here)";
  return d;
}

Diagnostic pmu_hyphen_error(const EventSpecView& event, std::string_view spec) {
  Diagnostic d = spec_error(DiagId::pmu_name_hyphen, spec, event.pmu_offset, event.pmu.size(),
                            "perf 6.1 cannot parse a PMU name containing '-'");
  d.hint = "newer perf (and pmucat semantics) accept it";
  return d;
}

Diagnostic unknown_pmu_error(const Catalog& catalog, const EventSpecView& event,
                             std::string_view spec) {
  Diagnostic d = spec_error(DiagId::pmu_unknown, spec, event.pmu_offset, event.pmu.size(),
                            fmt::format("unknown PMU '{}'", event.pmu));
  std::vector<std::string> names;
  for (const Pmu& pmu : catalog.pmus()) names.push_back(pmu.name());
  if (auto nearest = nearest_name(event.pmu, names)) {
    d.hint = fmt::format("did you mean '{}'?", *nearest);
    d.fixit = FixIt{d.range, *nearest};
  }
  return d;
}

namespace {

// The PMU a vendor table's event belongs to, as its users name it: the core PMU (`cpu`) for an
// event without a Unit.
std::string_view vendor_event_pmu(const VendorEvent& event) {
  if (event.pmu.empty() || event.pmu == "default_core") return "cpu";
  return event.pmu;
}

bool tree_takes(const Catalog& catalog, const VendorEvent& event) {
  if (event.pmu.empty() || event.pmu == "default_core") return catalog.core_pmu() != nullptr;
  const auto pmus = catalog.pmus();
  return std::any_of(pmus.begin(), pmus.end(), [&](const Pmu& pmu) {
    return pmu.name() == event.pmu || vendor_pmu_matches(event.pmu, pmu.name());
  });
}

// When the model's vendor table has the event for a PMU this tree lacks (a VM without a core
// PMU), why no PMU can take it: "unknown event" alone reads as a misspelling.
std::optional<Diagnostic> model_pmu_absent_note(const Catalog& catalog, std::string_view name) {
  const VendorModel* model = catalog.vendor_model();
  if (model == nullptr) return std::nullopt;
  const auto found =
      std::find_if(model->events.begin(), model->events.end(),
                   [&](const VendorEvent& event) { return iequals(event.name, name); });
  if (found == model->events.end() || tree_takes(catalog, *found)) return std::nullopt;
  const std::string_view pmu = vendor_event_pmu(*found);
  const bool core = pmu == "cpu" || pmu == "cpu_core" || pmu == "cpu_atom";
  std::string message = fmt::format(
      "the vendor table of model {} (CPU identifier {}) has '{}' for PMU '{}', which this tree "
      "lacks{}, so no PMU here can take it",
      model->directory, catalog.vendor_options().cpuid, found->name, pmu,
      core && catalog.core_pmu() == nullptr
          ? ": it has no core PMU (a VM without a virtual PMU counts no hardware event)"
          : "");
  Diagnostic note = make_file_diagnostic(Severity::note, DiagId::event_model_pmu_absent,
                                         found->location.file, std::move(message));
  return note;
}

}  // namespace

Diagnostic unknown_event_error(const Catalog& catalog, const EventSpecView& event,
                               std::string_view spec) {
  Diagnostic d = spec_error(DiagId::event_unknown, spec, event.offset, event.name.size(),
                            fmt::format("unknown event '{}'", event.name));
  if (auto note = model_pmu_absent_note(catalog, event.name)) {
    d.notes.push_back(std::move(*note));
    return d;  // not misspelt: no nearest name
  }
  std::vector<std::string> names = legacy_event_names();
  for (const Pmu& pmu : catalog.pmus()) {
    for (const Event& candidate : pmu.events()) names.push_back(candidate.name);
  }
  if (auto nearest = nearest_name(event.name, names)) {
    d.hint = fmt::format("did you mean '{}'?", *nearest);
    d.fixit = FixIt{d.range, *nearest};
  }
  return d;
}

Diagnostic no_default_pmu_error(const EventSpecView& event, std::string_view spec,
                                const EncodeOptions& options) {
  Diagnostic d =
      spec_error(DiagId::pmu_no_default, spec, event.offset, event.text.size(),
                 options.default_pmu.empty()
                     ? std::string("no core PMU to apply these terms to")
                     : fmt::format("unknown PMU '{}' (the default PMU)", options.default_pmu));
  d.hint = "name the PMU: pmu/terms/";
  return d;
}

}  // namespace encode_detail
PMUCAT_END_NAMESPACE
