// Config words -> format terms, residue and matching events.
#include "pmucat/decode.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <optional>
#include <span>
#include <utility>

#include "encode/decode_internal.h"
#include "encode/pmu_defaults.h"
#include "encode/special_terms.h"
#include "encode/term_items.h"
#include "parser/spec_views.h"

PMUCAT_BEGIN_NAMESPACE
namespace {

// Formats in decode order: config word, lowest bit, name. Unusable fields are left out.
std::vector<const Format*> sorted_for_decoding(std::vector<const Format*> formats) {
  std::erase_if(formats,
                [](const Format* f) { return !f->spec.word_supported() || f->spec.mask == 0; });
  std::sort(formats.begin(), formats.end(), [](const Format* a, const Format* b) {
    const auto key = [](const Format* f) {
      return std::tuple(f->spec.word, std::countr_zero(f->spec.mask));
    };
    if (key(a) != key(b)) return key(a) < key(b);
    return a->name < b->name;
  });
  return formats;
}

std::vector<const Format*> decode_order(const Pmu& pmu) {
  std::vector<const Format*> formats;
  for (const Format& format : pmu.formats()) formats.push_back(&format);
  return sorted_for_decoding(std::move(formats));
}

// The same for the formats a spec used, each name once (a field given twice sorts next to
// itself), as decode_preferring tells them apart by name.
std::vector<const Format*> decode_order(std::span<const Format* const> formats) {
  std::vector<const Format*> sorted =
      sorted_for_decoding(std::vector<const Format*>(formats.begin(), formats.end()));
  sorted.erase(std::unique(sorted.begin(), sorted.end(),
                           [](const Format* a, const Format* b) { return a->name == b->name; }),
               sorted.end());
  return sorted;
}

// True when every bit set in `config` lies in a usable field of `formats`.
bool covers(std::span<const Format* const> formats, const ConfigWords& config) {
  ConfigWords covered{};
  for (const Format* format : formats) {
    if (format->spec.word_supported()) covered[format->spec.word] |= format->spec.mask;
  }
  for (unsigned w = 0; w < kConfigWords; ++w) {
    if ((config[w] & ~covered[w]) != 0) return false;
  }
  return true;
}

// An event's own encoding: its config words and the bits its `?` parameters own.
struct EventWords {
  ConfigWords words{};
  ConfigWords param_bits{};
};

// Encodes an event file's terms alone as perf does (OR, or from the PMU's default config with
// replaced fields); nullopt if they do not encode.
std::optional<EventWords> event_words(const Pmu& pmu, const Event& event) {
  if (event.error) return std::nullopt;
  EventWords result;
  const auto defaults = encode_detail::pmu_default_config(pmu);
  if (defaults) result.words = *defaults;
  ConfigWords fields{};
  ConfigWords field_masks{};
  for (const Term& term : event.terms.terms) {
    if (auto special = encode_detail::find_any_special(term.name)) {
      if (auto word = encode_detail::config_word_of(*special)) {
        if (term.kind != TermValueKind::number && term.kind != TermValueKind::none) {
          return std::nullopt;
        }
        result.words[*word] = term.value;
      }
      continue;
    }
    const Format* format = pmu.find_format(term.name);
    if (format == nullptr) {
      auto raw =
          term.kind == TermValueKind::none ? spec_detail::raw_term_value(term.name) : std::nullopt;
      if (!raw) return std::nullopt;
      result.words[0] = *raw;
      continue;
    }
    if (!format->spec.word_supported()) return std::nullopt;
    if (term.kind == TermValueKind::param) {
      result.param_bits[format->spec.word] |= format->spec.mask;
      continue;
    }
    if (term.kind == TermValueKind::string) return std::nullopt;
    const std::uint64_t value = term.kind == TermValueKind::none ? 1 : term.value;
    if (value > format->spec.max_value()) return std::nullopt;
    const unsigned w = format->spec.word;
    if (defaults) fields[w] &= ~format->spec.mask;
    fields[w] |= scatter_bits(value, format->spec.mask);
    field_masks[w] |= format->spec.mask;
  }
  for (unsigned w = 0; w < kConfigWords; ++w) {
    if (defaults) result.words[w] &= ~field_masks[w];
    result.words[w] |= fields[w];
  }
  return result;
}

bool matches(const EventWords& event, const ConfigWords& config) {
  for (unsigned w = 0; w < kConfigWords; ++w) {
    const std::uint64_t keep = ~event.param_bits[w];
    if ((event.words[w] & keep) != (config[w] & keep)) return false;
  }
  return true;
}

}  // namespace

namespace encode_detail {

Decoded decode_preferring(const Pmu& pmu, const ConfigWords& config,
                          std::span<const Format* const> preferred,
                          bool only_preferred_when_covered) {
  // On a PMU with a default config an absent field would re-encode as its default: a field the
  // default sets but `config` leaves zero is printed as `name=0x0`.
  const auto defaults = pmu_default_config(pmu);
  // Preferred formats claim their bits first; the terms are still listed in decode order. When
  // they cover every set bit, the other formats claim nothing and print nothing (and, without a
  // default config, no zero either): the preferred ones alone give the answer, and the PMU's
  // other format files need not be read. Compared by name: a format read on its own
  // (Pmu::find_format before formats()) is not in the listing's array.
  const auto is_preferred = [&](const Format* format) {
    return std::any_of(preferred.begin(), preferred.end(),
                       [&](const Format* p) { return p->name == format->name; });
  };
  const std::vector<const Format*> order =
      only_preferred_when_covered && !defaults && covers(preferred, config)
          ? decode_order(preferred)
          : decode_order(pmu);
  std::vector<const Format*> claim_order;
  for (const Format* format : order) {
    if (is_preferred(format)) claim_order.push_back(format);
  }
  for (const Format* format : order) {
    if (!is_preferred(format)) claim_order.push_back(format);
  }
  ConfigWords claimed{};
  std::vector<std::pair<const Format*, std::uint64_t>> found;
  std::vector<const Format*> explicit_zero;
  for (const Format* format : claim_order) {
    const unsigned w = format->spec.word;
    const std::uint64_t owned = format->spec.mask & ~claimed[w];
    claimed[w] |= format->spec.mask;
    const std::uint64_t bits = config[w] & owned;
    if (bits == 0 && defaults && ((*defaults)[w] & owned) != 0) explicit_zero.push_back(format);
    if (bits == 0) continue;
    // Gathering only the unclaimed bits keeps re-encoding exact: scattering the value back
    // over the full mask sets exactly `bits`.
    found.emplace_back(format, gather_bits(bits, format->spec.mask));
  }
  Decoded decoded;
  std::vector<std::string> printed;
  for (const Format* format : order) {
    for (const auto& [owner, value] : found) {
      if (owner != format) continue;
      decoded.terms.push_back(DecodedTerm{format->name, value});
      printed.push_back(fmt::format("{}={:#x}", format->name, value));
    }
    if (std::find(explicit_zero.begin(), explicit_zero.end(), format) != explicit_zero.end()) {
      printed.push_back(fmt::format("{}=0x0", format->name));
    }
  }
  for (unsigned w = 0; w < kConfigWords; ++w) {
    decoded.residue[w] = config[w] & ~claimed[w];
    if (decoded.residue[w] != 0) {
      printed.push_back(fmt::format("{}={:#x}", config_word_name(w), decoded.residue[w]));
    }
  }
  decoded.terms_string = fmt::format("{}", fmt::join(printed, ","));
  return decoded;
}

}  // namespace encode_detail

Decoded decode(const Pmu& pmu, const ConfigWords& config) {
  Decoded decoded = encode_detail::decode_preferring(pmu, config, {});
  // Only decode() names the matching events: it encodes every event of the PMU, which
  // perf_string (called for each encoded event) must not pay on a PMU with 100k events.
  for (const Event& event : pmu.events()) {
    auto words = event_words(pmu, event);
    if (words && matches(*words, config)) decoded.events.push_back(event.name);
  }
  return decoded;
}

PMUCAT_END_NAMESPACE
