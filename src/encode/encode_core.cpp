// The encoding core: classify terms, splice the alias, resolve `?` parameters, assign config
// words, scatter field values, apply special terms and modifiers.
#include "encode/encode_core.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cctype>
#include <utility>

#include "encode/event_owners.h"
#include "encode/pmu_defaults.h"
#include "encode/targets.h"
#include "parser/spec_diagnostics.h"
#include "parser/spec_views.h"
#include "pmucat/diagnostic_ids.h"
#include "pmucat/suggest.h"

PMUCAT_BEGIN_NAMESPACE
namespace encode_detail {

using spec_detail::kSpecFile;
using spec_detail::raw_term_value;
using spec_detail::spec_error;

namespace {

std::string hex(std::uint64_t value) {
  return fmt::format("{:#x}", value);
}

// FormatSpec::max_value() (2^width - 1), without the call for a field whose bits are one run
// (nearly every format): its value mask is the run shifted down, no bit count (libgcc's) needed.
std::uint64_t max_value_of(const FormatSpec& spec) {
  if (spec.mask == 0) return 0;
  const std::uint64_t run = spec.mask >> std::countr_zero(spec.mask);
  return (run & (run + 1)) == 0 ? run : spec.max_value();
}

// Puts `value` into the field: OR-ed in, or (replace) with the field's other bits cleared.
void store_field(Attr& attr, const FormatSpec& spec, std::uint64_t value, bool replace) {
  std::uint64_t& word = attr.config[spec.word];
  if (replace) word &= ~spec.mask;
  word |= scatter_bits(value, spec.mask);
}

// A value perf's lexer reads as a name for its `0X` prefix (`event=0X3c`, `umask=0X1`) where a
// number belongs: the fix-it is the lowercase prefix, which makes it one. `d` marks the value.
void offer_lowercase_hex_prefix(Diagnostic& d, const TermView& term) {
  if (term.kind != TermValueKind::string || !term.text.starts_with("0X")) return;
  d.hint = "hexadecimal numbers start with a lowercase '0x'";
  d.fixit = FixIt{d.range, "0x" + std::string(term.text.substr(2))};
}

}  // namespace

std::string TermEncoder::event_file(const Event& event) const {
  if (!event.path.empty()) return event.path;
  return fmt::format("{}/events/{}", pmu_.name(), event.name);
}

Diagnostic TermEncoder::reference_note(std::string message) const {
  return make_diagnostic(Severity::note, "", kSpecFile, spec_, alias_reference_->offset,
                         alias_reference_->length, std::move(message));
}

Diagnostic TermEncoder::error_at(const Item& item, bool at_value, DiagId id,
                                 std::string message) const {
  return located_at(item, at_value, to_string(id), std::move(message));
}

Diagnostic TermEncoder::located_at(const Item& item, bool at_value, std::string_view id,
                                   std::string message) const {
  const TermView& term = item.term;
  const bool value = at_value && term.value_length > 0;
  const std::size_t offset = value ? term.value_offset : term.offset;
  const std::size_t length = value ? term.value_length : term.length;
  if (item.alias == nullptr) {
    return make_diagnostic(Severity::error, id, kSpecFile, spec_, offset, length,
                           std::move(message));
  }
  Diagnostic d = make_diagnostic(Severity::error, id, event_file(*item.alias), item.alias->text,
                                 offset, length, std::move(message));
  d.notes.push_back(reference_note(fmt::format("in event '{}' used here", item.alias->name)));
  return d;
}

Diagnostic TermEncoder::unknown_term(const Item& item) const {
  std::vector<std::string> valid;
  for (const Format& format : pmu_.formats()) valid.push_back(format.name);
  const std::vector<std::string> specials = special_term_names(options_.tool, options_.semantics);
  std::vector<std::string> candidates = valid;
  candidates.insert(candidates.end(), specials.begin(), specials.end());
  if (item.term.kind == TermValueKind::none && item.alias == nullptr) {
    for (const Event& event : pmu_.events()) candidates.push_back(event.name);  // a mistyped event
  }
  valid.insert(valid.end(), specials.begin(), specials.end());
  Diagnostic d = error_at(
      item, false, DiagId::term_unknown,
      fmt::format("unknown term '{}' for {} '{}'", item.term.name, owner_kind_, pmu_.name()));
  // perf drops bytes outside ASCII, so `évent` reaches it as `vent`: the word the user wrote,
  // with those characters, is what the caret marks and the fix-it replaces.
  std::size_t word_start = item.term.offset;
  std::size_t word_end = item.term.offset + item.term.name.size();
  if (item.alias == nullptr) {
    const auto non_ascii = [&](std::size_t at) {
      return static_cast<unsigned char>(spec_[at]) >= 0x80;
    };
    while (word_start > 0 && non_ascii(word_start - 1)) --word_start;
    while (word_end < spec_.size() && non_ascii(word_end)) ++word_end;
  }
  const std::size_t dropped = (word_end - word_start) - item.term.name.size();
  if (dropped != 0) {
    const std::string_view written = spec_.substr(word_start, word_end - word_start);
    const std::size_t end = std::max<std::size_t>(item.term.offset + item.term.length, word_end);
    d = spec_error(DiagId::term_unknown, spec_, word_start, end - word_start,
                   fmt::format("unknown term '{}' for {} '{}': perf drops the non-ASCII "
                               "characters and reads '{}'",
                               written, owner_kind_, pmu_.name(), item.term.name));
  }
  std::string hint;
  if (auto nearest = nearest_name(item.term.name, candidates)) {
    hint = fmt::format("did you mean '{}'? ", *nearest);
    if (item.alias == nullptr) {
      d.fixit = FixIt{make_diagnostic(Severity::note, "", kSpecFile, spec_, word_start,
                                      word_end - word_start, "")
                          .range,
                      *nearest};
    }
  }
  d.hint = hint + fmt::format("valid terms: {}", fmt::join(valid, ","));
  return d;
}

TermLookup TermEncoder::look_up(std::string_view name) const {
  return table_ != nullptr ? table_->find(name) : look_up_term(pmu_, name, options_.semantics);
}

std::optional<Diagnostic> TermEncoder::classify(Item& item) const {
  const TermLookup lookup = look_up(item.term.name);
  return classify(item, lookup.special, lookup.format);
}

std::optional<Diagnostic> TermEncoder::classify(Item& item, std::optional<Special> special,
                                                const Format* format) const {
  const TermView& term = item.term;
  if ((item.special = special)) {
    item.role = Role::special;
    if (auto problem = check_special(*item.special, term)) {
      Diagnostic d = error_at(item, problem->at_value, problem->id, problem->message);
      if (problem->at_value) offer_lowercase_hex_prefix(d, term);
      return d;
    }
    if (options_.tool == Tool::stat && !usable_in_stat(*item.special)) {
      return error_at(item, false, DiagId::term_not_in_stat,
                      fmt::format("'{}' is not usable in 'perf stat'", term.name));
    }
    return std::nullopt;
  }
  if ((item.format = format)) {
    item.role = term.kind == TermValueKind::param ? Role::param : Role::format;
    return std::nullopt;
  }
  if (term.kind == TermValueKind::none) {
    if (auto raw = raw_term_value(term.name)) {
      item.role = Role::raw_config;
      item.term.value = *raw;
      return std::nullopt;
    }
  }
  return unknown_term(item);
}

std::optional<Diagnostic> TermEncoder::splice_alias(const TermView& reference,
                                                    std::string_view name) {
  TermTable::Alias* known = table_ != nullptr ? table_->known_alias(name) : nullptr;
  const Event* event = known != nullptr ? known->event : pmu_.find_event(name);
  if (event == nullptr) return std::nullopt;  // caller reports
  if (known == nullptr && table_ != nullptr) known = &table_->remember_alias(name, *event);
  if (alias_ != nullptr) {
    Diagnostic d = spec_error(
        DiagId::term_two_events, spec_, reference.offset, reference.length,
        fmt::format("cannot combine events '{}' and '{}' in one spec", alias_->name, event->name));
    d.hint = "list them as separate events: pmu/a/,pmu/b/";
    d.notes.push_back(reference_note(fmt::format("event '{}' used here", alias_->name)));
    return d;
  }
  alias_ = event;
  alias_reference_ = &reference;
  if (event->error) {
    Diagnostic d = *event->error;
    d.notes.push_back(reference_note(fmt::format("in event '{}' used here", event->name)));
    return d;
  }
  if (known != nullptr && known->classified) {
    for (const Item& item : known->items) count_role(item);
    items_.insert(items_.end(), known->items.begin(), known->items.end());
    return std::nullopt;
  }
  const std::size_t first = items_.size();
  for (const Term& term : event->terms.terms) {
    Item item;
    item.term = TermView::of(term);
    item.alias = event;
    if (auto error = classify(item)) return error;
    keep(item);
  }
  if (known != nullptr) {
    // Classification depends only on the PMU, the options and the event's text.
    known->items.assign(items_.begin() + static_cast<std::ptrdiff_t>(first), items_.end());
    known->classified = true;
  }
  return std::nullopt;
}

std::optional<Diagnostic> TermEncoder::unknown_event_field(const Item& item) const {
  const TermView& term = item.term;
  Diagnostic d = error_at(item, true, DiagId::term_unknown_event,
                          fmt::format("unknown event '{}' for PMU '{}'", term.text, pmu_.name()));
  offer_lowercase_hex_prefix(d, term);
  if (d.fixit) return d;
  std::vector<std::string> names;
  for (const Event& event : pmu_.events()) names.push_back(event.name);
  if (auto nearest = nearest_name(term.text, names)) {
    d.hint = fmt::format("did you mean '{}'?", *nearest);
    d.fixit = FixIt{d.range, *nearest};
  } else {
    d.hint = "'event' takes a number or the name of an event of this PMU";
  }
  return d;
}

std::optional<Diagnostic> TermEncoder::expand(std::span<const TermView> terms) {
  for (const TermView& term : terms) {
    const bool names_event_field =
        term.kind == TermValueKind::string && iequals(term.name, "event");
    // Looked up once per term: these lookups are most of an encoding's cost.
    const TermLookup lookup = look_up(term.name);
    const Format* format = lookup.format;
    const std::optional<Special>& special = lookup.special;
    const bool is_format = format != nullptr;
    const bool is_special = special.has_value();
    // Alias references: `event=NAME`, bare `NAME`, and (perf 6.1 only) `NAME=1`. A bare name
    // shaped like a raw value (`read`) is an event when the PMU has one, as in newer perf.
    std::optional<std::string_view> alias_name;
    // A bare term naming a built-in event: a legacy hardware/cache name (perf 6.12), or a
    // software event on the software PMU (perf 7.3).
    if (!is_format && !is_special && term.kind == TermValueKind::none && builtin_name_terms_) {
      std::optional<LegacyEvent> builtin;
      if (has(Behaviour::legacy_terms)) builtin = legacy_term(term);
      if (!builtin && has(Behaviour::builtin_events_in_pmu_terms)) builtin = software_term(term);
      if (builtin) {
        legacy_ = builtin;
        legacy_name_ = term.name;
        items_before_legacy_ = items_.size();
        continue;
      }
    }
    if (names_event_field) {
      alias_name = term.text;
    } else if (!is_format && !is_special) {
      const bool bare = term.kind == TermValueKind::none;
      const bool one = !has(Behaviour::name_eq_1_is_no_reference) &&
                       term.kind == TermValueKind::number && term.value == 1;
      // raw_term_value() only accepts `r...`: asked only then (it is out of line, and most
      // bare names are event names).
      const bool raw = bare && term.name.size() >= 2 && term.name.front() == 'r' &&
                       raw_term_value(term.name).has_value() &&
                       pmu_.find_event(term.name) == nullptr;
      if ((bare || one) && !raw) alias_name = term.name;
    }
    if (alias_name) {
      if (auto error = splice_alias(term, *alias_name)) return error;
      if (alias_reference_ == &term) continue;
      if (names_event_field) {
        Item item;
        item.term = term;
        return unknown_event_field(item);
      }
    }
    // Built in place from the term: `Item item;` zeroes the whole item first (GCC emits a
    // `rep stos`, slow to start) and copying a local in stalls store forwarding.
    Item& item = items_.emplace_back(term);
    if (auto error = classify(item, special, format)) {
      // `NAME=value` naming an event: say so (perf only reports an unknown term).
      if (!is_format && !is_special && term.kind != TermValueKind::none &&
          pmu_.find_event(term.name) != nullptr) {
        error->hint = fmt::format("'{}' is an event of PMU '{}': refer to it without a value",
                                  term.name, pmu_.name());
        error->fixit = FixIt{
            make_diagnostic(Severity::note, "", kSpecFile, spec_, term.offset, term.length, "")
                .range,
            std::string(term.name)};
      }
      return error;
    }
    count_role(item);
  }
  return std::nullopt;
}

void TermEncoder::keep(const Item& item) {
  count_role(item);
  items_.push_back(item);
}

void TermEncoder::count_role(const Item& item) {
  switch (item.role) {
    case Role::special:
      ++counts_.specials;
      break;
    case Role::raw_config:
      ++counts_.raw_configs;
      break;
    case Role::param:
      ++counts_.params;
      break;
    case Role::format:
      break;
  }
}

std::optional<Diagnostic> TermEncoder::resolve_params() {
  for (Item& param : items_) {
    if (param.role != Role::param) continue;
    // A user term of the same name anywhere in the list supplies the value (and is used up).
    auto supplier = std::find_if(items_.begin(), items_.end(), [&](const Item& candidate) {
      return candidate.alias == nullptr && !candidate.consumed && candidate.role == Role::format &&
             candidate.term.name == param.term.name;
    });
    if (supplier == items_.end()) {
      if (param.alias == nullptr) {
        return error_at(param, true, DiagId::term_param_missing,
                        fmt::format("required parameter '{}' not specified", param.term.name));
      }
      Diagnostic d = spec_error(DiagId::term_param_missing, spec_, alias_reference_->offset,
                                alias_reference_->length,
                                fmt::format("required parameter '{}' of event '{}' not specified",
                                            param.term.name, param.alias->name));
      d.hint = fmt::format("add '{}=<value>' to the terms", param.term.name);
      d.notes.push_back(make_diagnostic(Severity::note, "", event_file(*param.alias),
                                        param.alias->text, param.term.offset, param.term.length,
                                        "parameter declared here"));
      return d;
    }
    supplier->consumed = true;
    param.term = supplier->term;
    param.alias = nullptr;
    param.resolved_param = true;
    param.role = Role::format;
  }
  std::erase_if(items_, [](const Item& item) { return item.consumed; });
  return std::nullopt;
}

Expected<std::uint64_t> TermEncoder::field_value(const Item& item) const {
  const TermView& term = item.term;
  const Format& format = *item.format;
  const FormatSpec& spec = spec_of(format);
  if (!spec.word_supported() || spec.word >= words_) {
    return unexpected(error_at(
        item, false, DiagId::term_unsupported_word,
        fmt::format("field '{}' is in {}, which perf_event_attr does not have{}", format.name,
                    config_word_name(spec.word),
                    spec.word < kConfigWords ? fmt::format(" in {}", profile_name()) : "")));
  }
  std::uint64_t value = term.value;
  switch (term.kind) {
    case TermValueKind::number:
      break;
    case TermValueKind::none:
      value = 1;
      // More than one bit set: width() > 1.
      if ((spec.mask & (spec.mask - 1)) != 0 && has(Behaviour::bare_field_needs_value)) {
        Diagnostic d = error_at(item, false, DiagId::term_no_value,
                                fmt::format("no value assigned for term '{}'", term.name));
        d.hint = fmt::format("'{}' is a {}-bit field ({}); write '{}=<value>'", format.name,
                             spec.width(), to_string(spec), format.name);
        return unexpected(std::move(d));
      }
      break;
    case TermValueKind::string:
    case TermValueKind::param: {
      Diagnostic d = error_at(item, true, DiagId::term_type, "expected numeric value");
      offer_lowercase_hex_prefix(d, term);
      return unexpected(std::move(d));
    }
  }
  const std::uint64_t max = max_value_of(spec);
  if (value > max) {
    Diagnostic d = error_at(item, true, DiagId::value_too_big,
                            fmt::format("value {} does not fit field '{}' (maximum {} = {})",
                                        hex(value), format.name, hex(max), max));
    d.hint = fmt::format("'{}' is {} ({} bit{})", format.name, to_string(spec), spec.width(),
                         spec.width() == 1 ? "" : "s");
    return unexpected(std::move(d));
  }
  return value;
}

std::optional<Diagnostic> TermEncoder::apply_config_words(Attr& attr) {
  // perf: in list order, the last assignment wins. pmucat: the user's assignment wins over the
  // alias's, and assigning a word twice is an error.
  std::array<const Item*, kConfigWords> user_set{};
  for (int pass = 0; pass < (overrides_ ? 2 : 1); ++pass) {
    for (const Item& item : items_) {
      std::optional<unsigned> word;
      if (item.role == Role::raw_config) word = 0;
      if (item.role == Role::special) word = config_word_of(*item.special);
      if (!word) continue;
      if (overrides_ && (pass == 0) != item.from_alias()) continue;
      if (overrides_ && !item.from_alias()) {
        if (user_set[*word] != nullptr) {
          Diagnostic d = error_at(item, false, DiagId::term_repeated,
                                  fmt::format("'{}' assigned twice", config_word_name(*word)));
          d.notes.push_back(located_at(*user_set[*word], false, "", "first assigned here"));
          d.notes.back().severity = Severity::note;
          return d;
        }
        user_set[*word] = &item;
      }
      attr.config[*word] = item.term.value;
    }
  }
  return std::nullopt;
}

bool TermEncoder::config_set_after_legacy_term() const {
  for (std::size_t index = items_before_legacy_; index < items_.size(); ++index) {
    const Item& item = items_[index];
    if (item.role == Role::raw_config) return true;
    if (item.role == Role::special && config_word_of(*item.special) == 0u) return true;
  }
  return false;
}

bool TermEncoder::valid_field_value(const Item& item, std::uint64_t& value) const {
  const TermView& term = item.term;
  const FormatSpec& spec = spec_of(*item.format);
  if (spec.word >= words_) return false;  // words_ <= kConfigWords: word_supported() too
  switch (term.kind) {
    case TermValueKind::number:
      value = term.value;
      break;
    case TermValueKind::none:
      if (has(Behaviour::bare_field_needs_value) && (spec.mask & (spec.mask - 1)) != 0) {
        return false;
      }
      value = 1;
      break;
    case TermValueKind::string:
    case TermValueKind::param:
      return false;
  }
  return value <= max_value_of(spec);
}

bool TermEncoder::apply_or_fields(Attr& attr) const {
  std::array<std::uint64_t, kConfigWords> words{};
  for (auto item = items_.begin(); item != items_.end(); ++item) {
    if (item->role != Role::format) continue;
    std::uint64_t value = 0;
    if (!valid_field_value(*item, value)) return false;
    auto user_gives_field = [&](const Item& other) {
      return other.role == Role::format && !other.from_alias() && other.format == item->format;
    };
    if (item->from_alias()) {
      // The user's value replaces the event's (checked all the same, as the general path does).
      if (std::any_of(items_.begin(), items_.end(), user_gives_field)) continue;
    } else if (std::any_of(items_.begin(), item, user_gives_field)) {
      return false;  // the user gave the field twice: the general path reports it
    }
    // Values fit their fields, so scattering each of an event's repeated values and OR-ing the
    // results is scattering their OR.
    const FormatSpec& spec = spec_of(*item->format);
    words[spec.word] |= scatter_bits(value, spec.mask);
  }
  for (unsigned word = 0; word < kConfigWords; ++word) attr.config[word] |= words[word];
  return true;
}

std::optional<Diagnostic> TermEncoder::apply_fields(Attr& attr) {
  if (!overrides_) {
    for (const Item& item : items_) {
      if (item.role != Role::format) continue;
      std::uint64_t value = 0;
      if (!valid_field_value(item, value)) {
        auto checked = field_value(item);
        if (!checked) return std::move(checked).error();
        value = *checked;
      }
      store_field(attr, spec_of(*item.format), value, default_config_.has_value());
    }
    return std::nullopt;
  }
  // Without a default config every field's value is OR-ed into its word, in any order, so the
  // fields need no gathering. A problem takes the general path below, which reports it as always.
  if (!default_config_ && apply_or_fields(attr)) return std::nullopt;
  std::vector<FieldValue>& fields = scratch_.fields;
  fields.clear();
  // Kept in the formats' (natural name) order, which matters where replaced fields overlap. By
  // name, not address: a field read on its own (Pmu::find_format) is not in the listing's array.
  auto field_of = [&](const Format* format) -> FieldValue& {
    auto at = std::find_if(fields.begin(), fields.end(), [&](const FieldValue& field) {
      return !natural_less(field.format->name, format->name);
    });
    if (at != fields.end() && at->format->name == format->name) return *at;
    return *fields.insert(at, FieldValue{format, 0, nullptr});
  };
  for (const bool alias_pass : {true, false}) {
    for (const Item& item : items_) {
      if (item.role != Role::format || item.from_alias() != alias_pass) continue;
      std::uint64_t value = 0;
      if (!valid_field_value(item, value)) {
        auto checked = field_value(item);
        if (!checked) return std::move(checked).error();
        value = *checked;
      }
      FieldValue& field = field_of(item.format);
      if (alias_pass) {
        field.value |= value;  // a field repeated inside an event file: OR, as perf does
        continue;
      }
      if (field.user != nullptr) {
        Diagnostic d = error_at(item, false, DiagId::term_repeated,
                                fmt::format("field '{}' given twice", item.term.name));
        d.hint = "perf 6.1 would OR both values; give the field once";
        Diagnostic first = located_at(*field.user, false, "", "first given here");
        first.severity = Severity::note;
        d.notes.push_back(std::move(first));
        return d;
      }
      field.user = &item;
      field.value = value;  // the user's value replaces the event's
    }
  }
  for (const FieldValue& field : fields) {
    store_field(attr, spec_of(*field.format), field.value, default_config_.has_value());
  }
  return std::nullopt;
}

std::optional<Diagnostic> TermEncoder::apply_specials(Attr& attr, const CoreExtras& extras) {
  CallchainRequest callchain;
  for (int pass = 0; pass < (overrides_ ? 2 : 1); ++pass) {
    for (const Item& item : items_) {
      if (item.role != Role::special || config_word_of(*item.special)) continue;
      if (overrides_ && (pass == 0) != item.from_alias()) continue;
      if (auto problem = apply_special(*item.special, item.term, options_.tool, attr,
                                       extras.settings, callchain)) {
        return error_at(item, problem->at_value, problem->id, problem->message);
      }
      if (std::vector<TermView>* printed = extras.printed_specials) {
        // One printed term per name, the effective (last) one.
        std::erase_if(*printed, [&](const TermView& t) { return t.name == item.term.name; });
        printed->push_back(item.term);
      }
    }
  }
  if (options_.tool == Tool::record) apply_callchain(callchain, attr);
  return std::nullopt;
}

std::vector<Diagnostic> TermEncoder::warnings() const {
  std::vector<Diagnostic> warnings;
  if (legacy_ && !config_set_after_legacy_term()) {
    for (std::size_t index = items_before_legacy_; index-- > 0;) {
      const Item& item = items_[index];
      if (item.role != Role::raw_config &&
          !(item.role == Role::special && config_word_of(*item.special) == 0u)) {
        continue;
      }
      const std::string written = item.role == Role::raw_config
                                      ? std::string(item.term.name)
                                      : fmt::format("{}={:#x}", item.term.name, item.term.value);
      Diagnostic d = located_at(
          item, false, to_string(DiagId::term_overridden),
          fmt::format("'{}' changes nothing: '{}' after it sets config", written, legacy_name_));
      d.severity = Severity::warning;
      d.hint =
          fmt::format("write '{},{}' to set config in place of the event's", legacy_name_, written);
      warnings.push_back(std::move(d));
      break;
    }
  }
  // perf warns when it loads the PMU, so it reads every format file for any event. pmucat
  // semantics report an unusable word only where a term uses it (field_value's error), and
  // then need no format file the spec does not name (docs/perf-compat.md, difference 8).
  if (has(Behaviour::unused_format_word_quiet)) return warnings;
  for (const Format& format : pmu_.formats()) {
    if (format.spec.word < words_) continue;
    Diagnostic d = make_file_diagnostic(
        Severity::warning, DiagId::format_unsupported_word,
        format.path.empty() ? format.name : format.path,
        fmt::format(
            "'{}' format '{}' requires 'perf_event_attr::{}', which {} does not have", pmu_.name(),
            format.name, config_word_name(format.spec.word),
            format.spec.word < kConfigWords ? profile_name() : std::string_view("this ABI")));
    warnings.push_back(std::move(d));
  }
  return warnings;
}

std::optional<Diagnostic> TermEncoder::pmu_type(Attr& attr) const {
  if (auto type =
          table_ != nullptr ? table_->pmu_type() : usable_pmu_type(pmu_, options_.semantics)) {
    attr.type = *type;
    return std::nullopt;
  }
  const PmuAttributes& attributes = pmu_.attributes();
  Diagnostic d = spec_error(
      DiagId::pmu_no_type, spec_, 0, 0,
      attributes.type_text.empty()
          ? fmt::format("PMU '{}' has no 'type' file", pmu_.name())
          : fmt::format("PMU '{}' has an unusable type '{}'", pmu_.name(), attributes.type_text));
  d.hint = "the kernel's type file holds a decimal number";
  return d;
}

TermEncoder::TermEncoder(const Pmu& pmu, std::string_view spec, const EncodeOptions& options,
                         CoreScratch& scratch, TermTable* table)
    : pmu_(pmu),
      spec_(spec),
      options_(options),
      overrides_(options.semantics.has(Behaviour::user_term_overrides_alias)),
      last_format_term_(options.semantics.has(Behaviour::last_format_term)),
      words_(options.semantics.has(Behaviour::config4)   ? 5u
             : options.semantics.has(Behaviour::config3) ? 4u
                                                         : 3u),
      scratch_(scratch),
      table_(table),
      items_(scratch.items),
      default_config_(table != nullptr ? table->default_config() : pmu_default_config(pmu)) {}

std::optional<Diagnostic> TermEncoder::run(std::span<const TermView> terms,
                                           const Modifiers& modifiers, Attr& attr,
                                           const CoreExtras& extras) {
  items_.clear();
  alias_ = nullptr;
  alias_reference_ = nullptr;
  legacy_.reset();
  legacy_name_ = {};
  counts_ = RoleCounts{};
  if (table_ != nullptr && table_->pmu_type()) {
    attr = table_->start_attr();
  } else {
    attr = Attr{};
    if (auto error = pmu_type(attr)) return error;
    attr.size = options_.semantics.attr_size();
    if (default_config_) attr.config = *default_config_;
  }
  if (auto error = expand(terms)) return error;
  if (legacy_) {
    attr.type = static_cast<std::uint32_t>(legacy_->type);
    attr.config[0] = legacy_->config;
  }
  // The passes below find nothing to do without items of their role (most specs have only
  // format terms), so they are skipped then.
  if (counts_.params > 0) {
    if (auto error = resolve_params()) return error;
  }
  if (counts_.specials + counts_.raw_configs > 0) {
    if (auto error = apply_config_words(attr)) return error;
    if (legacy_ && !config_set_after_legacy_term()) attr.config[0] = legacy_->config;
  }
  if (auto error = apply_fields(attr)) return error;
  if (counts_.specials > 0) {
    if (auto error = apply_specials(attr, extras)) return error;
  }
  apply_modifiers(modifiers, attr, options_.semantics);
  // perf stat counts: `S` (sample read) changes nothing in its attr.
  if (options_.tool == Tool::stat) attr.sample_type &= ~sample::read;
  return std::nullopt;
}

bool TermEncoder::has_event_612(std::string_view name) const {
  const Event* event = pmu_.find_event(name);
  if (event == nullptr) return false;
  // pmucat semantics: any event of the name (difference 19 of docs/perf-compat.md).
  if (has(Behaviour::mixed_case_legacy_term_event) || event->source != EventSource::sysfs) {
    return true;
  }
  // perf 6.12 reads a PMU's sysfs aliases only when events/<name in lower case> or
  // events/<name in upper case> exists, so a mixed-case file (power's `L1-dcache-load-misses`)
  // is not found by this lookup.
  auto all = [&](auto&& predicate) {
    return std::all_of(event->name.begin(), event->name.end(), [&](char c) {
      return !std::isalpha(static_cast<unsigned char>(c)) ||
             predicate(static_cast<unsigned char>(c));
    });
  };
  return all([](int c) { return std::islower(c) != 0; }) ||
         all([](int c) { return std::isupper(c) != 0; });
}

std::optional<LegacyEvent> TermEncoder::software_term(const TermView& term) const {
  if (pmu_.type() != static_cast<std::uint32_t>(PerfType::software)) return std::nullopt;
  if (pmu_.find_event(term.name) != nullptr || is_tool_event(term.name)) return std::nullopt;
  const std::optional<LegacyEvent> legacy = builtin_name(term.name);
  if (!legacy || legacy->type != PerfType::software) return std::nullopt;
  return legacy;
}

// A built-in name inside a PMU's terms: perf 7.3's tables (any case), else perf 6.12's lexer.
std::optional<LegacyEvent> TermEncoder::builtin_name(std::string_view name) const {
  return options_.semantics.has(Behaviour::builtin_names_any_case) ? find_legacy_event_73(name)
                                                                   : find_legacy_event_612(name);
}

std::optional<LegacyEvent> TermEncoder::legacy_term(const TermView& term) const {
  const std::optional<LegacyEvent> legacy = builtin_name(term.name);
  if (!legacy) return std::nullopt;
  if (legacy->type != PerfType::hardware && legacy->type != PerfType::hw_cache) return std::nullopt;
  if (has_event_612(term.name)) return std::nullopt;
  // perf_pmu__supports_legacy_cache: core PMUs only.
  if (legacy->type == PerfType::hw_cache && !is_perf_core_pmu(pmu_)) return std::nullopt;
  // On a hybrid core PMU the PMU's type goes into config bits 32-63 (perf's extended type, as
  // for `cpu_core/cycles/`), which the kernels of hybrid machines take.
  LegacyEvent event = *legacy;
  if (pmu_.name().starts_with("cpu_") && pmu_.attributes().cpus &&
      options_.extended_type == ExtendedType::supported) {
    if (const auto type = pmu_.type()) event.config |= std::uint64_t{*type} << 32;
  }
  return event;
}

}  // namespace encode_detail
PMUCAT_END_NAMESPACE
