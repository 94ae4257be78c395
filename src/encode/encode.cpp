// encode(): a spec list -> one EncodedEvent per (event, PMU instance).
#include "pmucat/encode.h"

#include <utility>

#include "encode/encode_terms.h"
#include "encode/targets.h"
#include "parser/spec_views.h"

namespace pmucat {
namespace {

using encode_detail::Target;

Expected<EncodedEvent> encode_target(const Target& target, std::string_view spec,
                                     const spec_detail::EventSpecView& event,
                                     const EncodeOptions& options) {
  if (target.pmu == nullptr && target.builtin != Target::Builtin::legacy) {
    EncodedEvent encoded;
    encoded.spec = std::string(event.text);
    encode_detail::encode_builtin(target, event, options, encoded.attr);
    encoded.perf_string = encode_detail::builtin_perf_string(target, event);
    if (target.tracepoint != nullptr) {
      encoded.event = target.tracepoint->system + ":" + target.tracepoint->event;
      for (const TermView& term : target.terms) {
        if (term.name == "call-graph") encoded.settings.call_graph = std::string(term.text);
      }
    }
    return encoded;
  }
  if (target.pmu == nullptr) {
    EncodedEvent encoded;
    encoded.spec = std::string(event.text);
    encoded.event = std::string(event.name);
    encode_detail::encode_legacy(target.legacy, event.modifiers, options.semantics, encoded.attr);
    const std::string mods = canonical_modifiers(event.modifiers);
    encoded.perf_string = mods.empty() ? encoded.event : encoded.event + ":" + mods;
    return encoded;
  }
  if (auto error = encode_detail::pmu_type_error(target, spec, options.semantics)) {
    return unexpected(std::move(*error));
  }
  auto encoded =
      encode_detail::encode_term_views(*target.pmu, target.terms, event.modifiers, spec, options);
  if (!encoded) return encoded;
  encoded->spec = std::string(event.text);
  if (target.raw_type) encoded->attr.type = static_cast<std::uint32_t>(PerfType::raw);
  return encoded;
}

}  // namespace

Expected<std::vector<EncodedEvent>> encode(const Catalog& catalog, std::string_view spec,
                                           const EncodeOptions& options) {
  spec_detail::SpecViews views;
  if (auto error = spec_detail::parse_spec_views(spec, views)) {
    return unexpected(std::move(*error));
  }
  std::vector<EncodedEvent> out;
  encode_detail::DirectLookup lookup(catalog);
  for (const spec_detail::EventSpecView& event : views.events) {
    auto error =
        encode_detail::for_each_target(lookup, spec, event, views.terms_of(event), options,
                                       [&](const Target& target) -> std::optional<Diagnostic> {
                                         auto encoded = encode_target(target, spec, event, options);
                                         if (!encoded) return std::move(encoded).error();
                                         out.push_back(std::move(*encoded));
                                         return std::nullopt;
                                       });
    if (error) return unexpected(std::move(*error));
  }
  return out;
}

}  // namespace pmucat
