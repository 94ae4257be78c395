// encode_terms: the core's attr plus what EncodedEvent carries around it (names, settings,
// warnings, the canonical perf string).
#include "encode/encode_terms.h"

#include <utility>

#include "encode/encode_core.h"
#include "encode/perf_string.h"
#include "pmucat/encode.h"

PMUCAT_BEGIN_NAMESPACE
namespace encode_detail {

Expected<EncodedEvent> encode_term_views(const Pmu& pmu, std::span<const TermView> terms,
                                         const Modifiers& modifiers, std::string_view spec_text,
                                         const EncodeOptions& options) {
  CoreScratch scratch;
  TermEncoder encoder(pmu, spec_text, options, scratch);
  EncodedEvent event;
  std::vector<TermView> printed_specials;
  if (auto error = encoder.run(terms, modifiers, event.attr,
                               CoreExtras{&event.settings, &printed_specials})) {
    return unexpected(std::move(*error));
  }
  event.spec = std::string(spec_text);
  event.pmu = pmu.name();
  if (const Event* alias = encoder.alias()) event.event = alias->name;
  event.warnings = encoder.warnings();
  std::vector<const Format*> used;
  for (const Item& item : encoder.items()) {
    if (item.role == Role::format) used.push_back(item.format);
  }
  std::vector<Term> printed;
  printed.reserve(printed_specials.size());
  for (const TermView& term : printed_specials) printed.push_back(term.to_term());
  event.settings.special_terms = printed;
  event.settings.precise_max = modifiers.max_precise;
  if (const auto& legacy = encoder.legacy_term()) {
    // `cpu/cycles/`: the legacy name stays in the terms (the PMU with `cpu//` would be another
    // event), followed by the fields set on top of its config.
    ConfigWords fields = event.attr.config;
    fields[0] &= ~legacy->config;
    std::string text = perf_string(pmu, fields, used, printed, modifiers);
    const std::size_t open = text.find('/');
    const bool bare = text.compare(open + 1, 1, "/") == 0;
    text.insert(open + 1, std::string(encoder.legacy_term_name()) + (bare ? "" : ","));
    event.perf_string = std::move(text);
    return event;
  }
  event.perf_string = perf_string(pmu, event.attr.config, used, printed, modifiers);
  return event;
}

}  // namespace encode_detail

namespace {

std::vector<TermView> views_of(const TermList& terms) {
  std::vector<TermView> views;
  views.reserve(terms.terms.size());
  for (const Term& term : terms.terms) views.push_back(TermView::of(term));
  return views;
}

}  // namespace

Expected<EncodedEvent> encode_terms(const Pmu& pmu, const TermList& terms,
                                    const Modifiers& modifiers, std::string_view spec_text,
                                    const EncodeOptions& options) {
  return encode_detail::encode_term_views(pmu, views_of(terms), modifiers, spec_text, options);
}

Expected<Attr> encode_terms_attr(const Pmu& pmu, const TermList& terms, const Modifiers& modifiers,
                                 std::string_view spec_text, const EncodeOptions& options) {
  encode_detail::CoreScratch scratch;
  encode_detail::TermEncoder encoder(pmu, spec_text, options, scratch);
  Attr attr;
  if (auto error = encoder.run(views_of(terms), modifiers, attr, encode_detail::CoreExtras{})) {
    return unexpected(std::move(*error));
  }
  return attr;
}

PMUCAT_END_NAMESPACE
