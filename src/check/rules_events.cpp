// Rules over events/<name> files: each term against format/, values against their fields.
#include <fmt/core.h>

#include <algorithm>
#include <array>
#include <bit>
#include <set>

#include "context.h"
#include "pmucat/diagnostic_ids.h"
#include "pmucat/encode.h"
#include "pmucat/suggest.h"

PMUCAT_BEGIN_NAMESPACE
namespace check::detail {
namespace {

std::string suggestion(std::string_view name, std::span<const Format> formats) {
  const Format* best = nullptr;
  std::size_t best_distance = 3;
  for (const Format& format : formats) {
    const std::size_t distance = edit_distance(format.name, name);
    if (distance < best_distance) {
      best = &format;
      best_distance = distance;
    }
  }
  return best == nullptr ? std::string() : best->name;
}

std::string valid_terms(std::span<const Format> formats) {
  std::string out;
  for (const Format& format : formats) out += format.name + ",";
  return out + "config,config1,config2,config3";
}

Diagnostic at_term(const Event& event, const Term& term, Severity severity, std::string message) {
  return make_diagnostic(severity, "", event.path, event.text, term.offset, term.length,
                         std::move(message));
}

Diagnostic at_value(const Event& event, const Term& term, Severity severity, std::string message) {
  return make_diagnostic(severity, "", event.path, event.text, term.value_offset, term.value_length,
                         std::move(message));
}

std::string_view value_text(const Event& event, const Term& term) {
  std::string_view text = event.text;
  if (term.value_offset >= text.size()) return {};
  return text.substr(term.value_offset, term.value_length);
}

void check_value_style(PmuContext& context, const Event& event, const Term& term) {
  if (term.kind != TermValueKind::number) return;
  // Uppercase hex digits and leading zeros are parser lints (terms-uppercase-hex, -leading-zero).
  std::string_view written = value_text(event, term);
  if (term.style == NumberStyle::decimal && term.value >= 10 && !written.starts_with('0')) {
    auto diagnostic =
        at_value(event, term, Severity::warning,
                 fmt::format("value '{}' of '{}' is decimal; the ABI asks for 0x-prefixed hex",
                             written, term.name));
    diagnostic.fixit = FixIt{diagnostic.range, fmt::format("{:#x}", term.value)};
    context.add(DiagId::event_decimal_value, std::move(diagnostic));
  }
}

void check_against_format(PmuContext& context, const Event& event, const Term& term,
                          const Format& format) {
  const FormatSpec& spec = format.spec;
  std::string field = fmt::format("{}:{}", config_word_name(spec.word), bits_text(spec.mask));
  switch (term.kind) {
    case TermValueKind::param:
      return;
    case TermValueKind::string:
      context.add(
          DiagId::event_value_not_number,
          at_value(event, term, Severity::error,
                   fmt::format("field '{}' takes a number, not '{}'", term.name, term.text)));
      return;
    case TermValueKind::none:
      if (spec.width() > 1) {
        auto diagnostic =
            at_term(event, term, Severity::warning,
                    fmt::format("bare '{}' sets the {}-bit field to 1", term.name, spec.width()));
        diagnostic.fixit = FixIt{diagnostic.range, term.name + "=0x1"};
        context.add(DiagId::event_bare_multibit, std::move(diagnostic));
      }
      return;
    case TermValueKind::number:
      break;
  }
  std::uint64_t max = spec.max_value();
  if (term.value <= max) return;
  std::uint64_t overflow = term.value & ~max;
  auto diagnostic = at_value(
      event, term, Severity::error,
      fmt::format("value {:#x} does not fit field '{}' ({}, {} bits): value bit{} {} overflow{}",
                  term.value, term.name, field, spec.width(),
                  std::popcount(overflow) == 1 ? "" : "s", bits_text(overflow),
                  std::popcount(overflow) == 1 ? "s" : ""));
  diagnostic.hint = fmt::format("perf rejects it: value too big for format ({}), maximum is {:#x}",
                                term.name, max);
  context.add(DiagId::event_value_overflow, std::move(diagnostic));
}

void check_overlapping_terms(PmuContext& context, const Event& event,
                             const std::vector<std::pair<const Term*, const Format*>>& set) {
  for (std::size_t j = 0; j < set.size(); ++j) {
    for (std::size_t i = 0; i < j; ++i) {
      const FormatSpec& a = set[i].second->spec;
      const FormatSpec& b = set[j].second->spec;
      if (set[i].second == set[j].second || a.word != b.word || (a.mask & b.mask) == 0) continue;
      context.add(DiagId::event_overlapping_terms,
                  at_term(event, *set[j].first, Severity::error,
                          fmt::format("'{}' and '{}' share {} bits {}", set[i].first->name,
                                      set[j].first->name, config_word_name(a.word),
                                      bits_text(a.mask & b.mask))));
    }
  }
}

void check_one_event(PmuContext& context, const Event& event, std::span<const Format> formats) {
  // Unreadable, unparsable and empty files are reported by the catalog (see
  // import_library_diagnostics); there are no terms to check in them.
  if (event.error.has_value() || event.terms.terms.empty()) return;
  std::set<std::string> seen;
  std::vector<std::pair<const Term*, const Format*>> fields;
  for (const Term& term : event.terms.terms) {
    if (!seen.insert(term.name).second) {
      context.add(DiagId::event_term_repeated,
                  at_term(event, term, Severity::error,
                          fmt::format("'{}' is set twice; perf ORs the values", term.name)));
    }
    check_value_style(context, event, term);
    // perf's own terms, of any release (a current tree may use `aux-action`), need no format/.
    if (is_special_term(term.name)) continue;
    const Format* format = context.pmu().find_format(term.name);
    if (format == nullptr) {
      bool param = term.kind == TermValueKind::param;
      auto diagnostic = at_term(
          event, term, Severity::error,
          param ? fmt::format("parameter '{}=?' names no field of PMU '{}'", term.name,
                              context.pmu().name())
                : fmt::format("unknown term '{}' for PMU '{}'", term.name, context.pmu().name()));
      std::string guess = suggestion(term.name, formats);
      diagnostic.hint = guess.empty() ? "valid terms: " + valid_terms(formats)
                                      : fmt::format("did you mean '{}'?", guess);
      context.add(param ? DiagId::event_param_unknown : DiagId::event_unknown_term,
                  std::move(diagnostic));
      continue;
    }
    check_against_format(context, event, term, *format);
    fields.emplace_back(&term, format);
  }
  check_overlapping_terms(context, event, fields);
}

}  // namespace

void check_events(PmuContext& context) {
  auto formats = context.pmu().formats();
  for (const Event& event : context.pmu().events()) {
    // A JSON-only event has no events/ file; the vendor rules check it (rules_vendor.cpp).
    if (event.source == EventSource::json) continue;
    check_one_event(context, event, formats);
  }
}

}  // namespace check::detail
PMUCAT_END_NAMESPACE
