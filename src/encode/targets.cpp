// Diagnostics of target resolution, and the two targets that need no term encoding.
#include "encode/targets.h"

#include <fmt/format.h>

#include <string>
#include <utility>
#include <vector>

#include "encode/term_items.h"
#include "parser/spec_diagnostics.h"
#include "pmucat/diagnostic_ids.h"
#include "pmucat/suggest.h"

namespace pmucat::encode_detail {

using spec_detail::spec_error;

std::optional<Diagnostic> pmu_type_error(const Target& target, std::string_view spec,
                                         Semantics semantics) {
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

void encode_legacy(const LegacyEvent& legacy, const Modifiers& modifiers, Semantics semantics,
                   Attr& attr) {
  attr = Attr{};
  attr.type = static_cast<std::uint32_t>(legacy.type);
  attr.size = semantics == Semantics::perf ? kAttrSizeVer7 : kAttrSizeVer8;
  attr.config[0] = legacy.config;
  apply_modifiers(modifiers, attr);
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

Diagnostic unknown_event_error(const Catalog& catalog, const EventSpecView& event,
                               std::string_view spec) {
  Diagnostic d = spec_error(DiagId::event_unknown, spec, event.offset, event.name.size(),
                            fmt::format("unknown event '{}'", event.name));
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

}  // namespace pmucat::encode_detail
