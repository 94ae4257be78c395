// encode(): a spec list -> one attr per (event, PMU instance).
#include "pmucat/encode.h"

#include <fmt/format.h>

#include <utility>

#include "encode/legacy_events.h"
#include "encode/pmu_select.h"
#include "encode/spec_diagnostics.h"
#include "encode/term_items.h"
#include "pmucat/suggest.h"

namespace pmucat {
namespace {

using encode_detail::spec_error;

class ListEncoder {
 public:
  ListEncoder(const Catalog& catalog, std::string_view spec, const EncodeOptions& options)
      : catalog_(catalog),
        spec_(spec),
        options_(options),
        perf_(options.semantics == Semantics::perf) {}

  std::optional<Diagnostic> add(const EventSpec& event);
  std::vector<EncodedEvent> take() { return std::move(out_); }

 private:
  std::optional<Diagnostic> add_on_pmu(const Pmu& pmu, const EventSpec& event,
                                       const TermList& terms, std::size_t pmu_offset,
                                       std::size_t pmu_length);
  std::optional<Diagnostic> add_pmu_terms(const EventSpec& event);
  std::optional<Diagnostic> add_event_name(const EventSpec& event);
  std::optional<Diagnostic> add_default_pmu(const EventSpec& event, const TermList& terms);
  bool add_legacy(const EventSpec& event);
  Diagnostic unknown_event(const EventSpec& event) const;

  const Catalog& catalog_;
  std::string_view spec_;
  const EncodeOptions& options_;
  bool perf_;
  std::vector<EncodedEvent> out_;
};

std::optional<Diagnostic> ListEncoder::add_on_pmu(const Pmu& pmu, const EventSpec& event,
                                                  const TermList& terms, std::size_t pmu_offset,
                                                  std::size_t pmu_length) {
  if (!encode_detail::usable_pmu_type(pmu, options_.semantics)) {
    const std::string& text = pmu.attributes().type_text;
    Diagnostic d = spec_error(
        "pmu-no-type", spec_, pmu_offset, pmu_length,
        text.empty() ? fmt::format("PMU '{}' has no 'type' file", pmu.name())
                     : fmt::format("PMU '{}' has an unusable type '{}'", pmu.name(), text));
    d.hint = "the kernel's type file holds a decimal number";
    return d;
  }
  auto encoded = encode_terms(pmu, terms, event.modifiers, spec_, options_);
  if (!encoded) return std::move(encoded).error();
  encoded->spec = event.text;
  out_.push_back(std::move(*encoded));
  return std::nullopt;
}

std::optional<Diagnostic> ListEncoder::add_pmu_terms(const EventSpec& event) {
  if (perf_ && event.pmu.find('-') != std::string::npos) {
    Diagnostic d = spec_error("pmu-name-hyphen", spec_, event.pmu_offset, event.pmu.size(),
                              "perf 6.1 cannot parse a PMU name containing '-'");
    d.hint = "newer perf (and pmucat semantics) accept it";
    return d;
  }
  const std::vector<const Pmu*> pmus =
      encode_detail::select_pmus(catalog_, event.pmu, options_.semantics);
  if (pmus.empty()) {
    Diagnostic d = spec_error("pmu-unknown", spec_, event.pmu_offset, event.pmu.size(),
                              fmt::format("unknown PMU '{}'", event.pmu));
    std::vector<std::string> names;
    for (const Pmu& pmu : catalog_.pmus()) names.push_back(pmu.name());
    if (auto nearest = nearest_name(event.pmu, names)) {
      d.hint = fmt::format("did you mean '{}'?", *nearest);
      d.fixit = FixIt{d.range, *nearest};
    }
    return d;
  }
  for (const Pmu* pmu : pmus) {
    if (auto error = add_on_pmu(*pmu, event, event.terms, event.pmu_offset, event.pmu.size())) {
      return error;
    }
  }
  return std::nullopt;
}

bool ListEncoder::add_legacy(const EventSpec& event) {
  auto legacy = encode_detail::find_legacy_event(event.name);
  if (!legacy) return false;
  EncodedEvent encoded;
  encoded.spec = event.text;
  encoded.event = event.name;
  encoded.attr.type = static_cast<std::uint32_t>(legacy->type);
  encoded.attr.size = perf_ ? kAttrSizeVer7 : kAttrSizeVer8;
  encoded.attr.config[0] = legacy->config;
  apply_modifiers(event.modifiers, encoded.attr);
  const std::string mods = canonical_modifiers(event.modifiers);
  encoded.perf_string = mods.empty() ? event.name : event.name + ":" + mods;
  out_.push_back(std::move(encoded));
  return true;
}

Diagnostic ListEncoder::unknown_event(const EventSpec& event) const {
  Diagnostic d = spec_error("event-unknown", spec_, event.offset, event.name.size(),
                            fmt::format("unknown event '{}'", event.name));
  std::vector<std::string> names = encode_detail::legacy_event_names();
  for (const Pmu& pmu : catalog_.pmus()) {
    for (const Event& candidate : pmu.events()) names.push_back(candidate.name);
  }
  if (auto nearest = nearest_name(event.name, names)) {
    d.hint = fmt::format("did you mean '{}'?", *nearest);
    d.fixit = FixIt{d.range, *nearest};
  }
  return d;
}

std::optional<Diagnostic> ListEncoder::add_event_name(const EventSpec& event) {
  // perf 6.1 prefers its built-in names (`cycles` is PERF_TYPE_HARDWARE even where a PMU has an
  // events/cycles file); newer perf and pmucat prefer the sysfs event.
  if (perf_ && add_legacy(event)) return std::nullopt;
  // A reference to the event as a bare term, so the usual alias rules and diagnostics apply.
  Term reference;
  reference.name = event.name;
  reference.kind = TermValueKind::none;
  reference.offset = event.offset;
  reference.length = static_cast<std::uint32_t>(event.name.size());
  reference.value_offset = event.offset;
  TermList terms;
  terms.terms.push_back(reference);
  bool found = false;
  for (const Pmu& pmu : catalog_.pmus()) {
    if (pmu.find_event(event.name) == nullptr) continue;
    found = true;
    if (auto error = add_on_pmu(pmu, event, terms, event.offset, event.name.size())) return error;
  }
  if (found || add_legacy(event)) return std::nullopt;
  return unknown_event(event);
}

std::optional<Diagnostic> ListEncoder::add_default_pmu(const EventSpec& event,
                                                       const TermList& terms) {
  const Pmu* pmu =
      options_.default_pmu.empty() ? catalog_.core_pmu() : catalog_.find_pmu(options_.default_pmu);
  if (pmu == nullptr) {
    Diagnostic d =
        spec_error("pmu-no-default", spec_, event.offset, event.text.size(),
                   options_.default_pmu.empty()
                       ? std::string("no core PMU to apply these terms to")
                       : fmt::format("unknown PMU '{}' (the default PMU)", options_.default_pmu));
    d.hint = "name the PMU: pmu/terms/";
    return d;
  }
  const std::size_t before = out_.size();
  if (auto error = add_on_pmu(*pmu, event, terms, event.offset, event.text.size())) return error;
  // perf 6.1 gives `rHEX` the RAW type whatever the core PMU's own type is.
  if (perf_ && event.form == SpecForm::raw) {
    for (std::size_t i = before; i < out_.size(); ++i) {
      out_[i].attr.type = static_cast<std::uint32_t>(PerfType::raw);
    }
  }
  return std::nullopt;
}

std::optional<Diagnostic> ListEncoder::add(const EventSpec& event) {
  switch (event.form) {
    case SpecForm::pmu_terms:
      return add_pmu_terms(event);
    case SpecForm::event_name:
      return add_event_name(event);
    case SpecForm::terms_only:
      return add_default_pmu(event, event.terms);
    case SpecForm::raw: {
      // `read` looks like r+hex: an event of that name wins, as with newer perf's fix_raw.
      for (const Pmu& pmu : catalog_.pmus()) {
        if (pmu.find_event(event.name) != nullptr) return add_event_name(event);
      }
      Term config;
      config.name = "config";
      config.kind = TermValueKind::number;
      config.value = event.raw_config;
      config.style = NumberStyle::hex;
      config.offset = event.offset;
      config.length = static_cast<std::uint32_t>(event.name.size());
      config.value_offset = event.offset;
      config.value_length = config.length;
      TermList terms;
      terms.terms.push_back(config);
      return add_default_pmu(event, terms);
    }
  }
  return std::nullopt;
}

}  // namespace

Expected<std::vector<EncodedEvent>> encode(const Catalog& catalog, std::string_view spec,
                                           const EncodeOptions& options) {
  auto specs = parse_spec_list(spec);
  if (!specs) return unexpected(std::move(specs).error());
  ListEncoder encoder(catalog, spec, options);
  for (const EventSpec& event : *specs) {
    if (auto error = encoder.add(event)) return unexpected(std::move(*error));
  }
  return encoder.take();
}

}  // namespace pmucat
