// Splitting a `-e` style list into event specs: `pmu/terms/mods`, `name:mods`, `rHEX`, terms.
#include "pmucat/spec.h"

#include <fmt/format.h>

#include <optional>
#include <utility>

#include "parser/char_class.h"
#include "parser/spec_diagnostics.h"
#include "parser/spec_views.h"
#include "pmucat/diagnostic_ids.h"

PMUCAT_BEGIN_NAMESPACE
namespace {

using spec_detail::spec_error;

// One top-level item of the list: [begin, end) in the whole text.
struct ListItem {
  std::size_t begin = 0;
  std::size_t end = 0;
  bool has_slash = false;
  bool has_equals = false;  // an '=' outside slashes and quotes
};

bool is_quote(char c) {
  return c == '\'' || c == '"';
}

Diagnostic unterminated_quote(std::string_view text, std::size_t quote_at) {
  auto d = spec_error(DiagId::spec_unterminated_quote, text, quote_at, 1, "unterminated quote");
  d.fixit = FixIt{
      make_diagnostic(Severity::note, "", spec_detail::kSpecFile, text, text.size(), 0, "").range,
      std::string(1, text[quote_at])};
  return d;
}

// Calls `on_item(const ListItem&)` for each comma-separated item (commas inside `/.../` and quotes
// do not split); stops at the first error `on_item` returns. An unterminated quote fails before
// the last item is visited, so a first walk that only collects flags finds it before a second
// walk parses anything.
template <class OnItem>
std::optional<Diagnostic> for_each_item(std::string_view text, OnItem&& on_item) {
  ListItem current;
  bool in_slashes = false;
  char quote = 0;
  std::size_t quote_at = 0;
  // `mem:ADDR/LEN` has one '/', which opens no terms.
  auto starts_breakpoint = [&](std::size_t begin) {
    while (begin < text.size() && char_class::is_blank(text[begin])) ++begin;
    return spec_detail::is_breakpoint_item(text, begin, text.size());
  };
  bool breakpoint = starts_breakpoint(0);
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quote != 0) {
      if (c == quote) quote = 0;
      continue;
    }
    if (is_quote(c)) {
      quote = c;
      quote_at = i;
    } else if (c == '/') {
      if (!breakpoint) in_slashes = !in_slashes;
      current.has_slash = true;
    } else if (c == '=' && !in_slashes) {
      current.has_equals = true;
    } else if (c == ',' && !in_slashes) {
      current.end = i;
      if (auto error = on_item(current)) return error;
      current = ListItem{};
      current.begin = i + 1;
      breakpoint = starts_breakpoint(i + 1);
    }
  }
  if (quote != 0) return unterminated_quote(text, quote_at);
  current.end = text.size();
  return on_item(current);
}

// `rHEX` / `r0xHEX`: the hex digits, or nullopt when `name` is not of that shape.
std::optional<std::string_view> raw_digits(std::string_view name) {
  if (name.size() < 2 || name[0] != 'r') return std::nullopt;
  std::string_view digits = name.substr(1);
  if (digits.size() > 2 && digits.starts_with("0x")) digits.remove_prefix(2);
  for (char c : digits) {
    if (!char_class::is_hex_digit(c)) return std::nullopt;
  }
  return digits;
}

// The position of the first byte of [begin, end) that `accept` rejects, or `end`.
template <class Pred>
std::size_t first_rejected(std::string_view text, std::size_t begin, std::size_t end, Pred accept) {
  for (std::size_t i = begin; i < end; ++i) {
    if (!accept(text[i])) return i;
  }
  return end;
}

using spec_detail::describe_byte;
using spec_detail::EventSpecView;
using spec_detail::SpecViews;

std::uint32_t u32(std::size_t value) {
  return static_cast<std::uint32_t>(value);
}

// Parses the terms in [begin, end) of `text` into out.terms, recording their range in `spec`.
std::optional<Diagnostic> parse_spec_terms(std::string_view text, std::size_t begin,
                                           std::size_t end, SpecViews& out, EventSpecView& spec) {
  spec.terms_begin = u32(out.terms.size());
  spec.lints_begin = u32(out.lints.size());
  auto parsed =
      parse_term_views(text.substr(begin, end - begin), spec_detail::kSpecFile,
                       TermSyntax::command_line, u32(begin), out.terms, out.lints, out.lexing);
  if (!parsed) return rebase_diagnostic(parsed.error(), text);
  for (std::size_t i = spec.lints_begin; i < out.lints.size(); ++i) {
    out.lints[i] = rebase_diagnostic(out.lints[i], text);
  }
  spec.terms_end = u32(out.terms.size());
  spec.lints_end = u32(out.lints.size());
  return std::nullopt;
}

std::optional<Diagnostic> parse_pmu_item(std::string_view text, std::size_t begin, std::size_t end,
                                         SpecViews& out, EventSpecView& spec) {
  const std::size_t open = text.find('/', begin);
  // The closing slash is the next one outside quotes.
  std::size_t close = std::string_view::npos;
  char quote = 0;
  for (std::size_t i = open + 1; i < end; ++i) {
    if (quote != 0) {
      if (text[i] == quote) quote = 0;
    } else if (is_quote(text[i])) {
      quote = text[i];
    } else if (text[i] == '/') {
      close = i;
      break;
    }
  }
  if (open == begin) {
    return spec_error(DiagId::spec_missing_pmu, text, open, 1, "missing PMU name before '/'");
  }
  const std::size_t bad = first_rejected(text, begin, open, char_class::is_pmu_name_char);
  if (bad != open) {
    return spec_error(DiagId::spec_bad_pmu_name, text, bad, 1,
                      fmt::format("unexpected {} in PMU name", describe_byte(text[bad])));
  }
  if (close == std::string_view::npos) {
    auto d = spec_error(
        DiagId::spec_missing_slash, text, end, 0,
        fmt::format("missing '/' to close the terms of '{}'", text.substr(begin, open - begin)));
    d.fixit = FixIt{d.range, "/"};
    return d;
  }
  spec.form = SpecForm::pmu_terms;
  spec.pmu = text.substr(begin, open - begin);
  spec.pmu_offset = u32(begin);
  if (auto error = parse_spec_terms(text, open + 1, close, out, spec)) return error;

  const std::size_t mods_begin = close + 1;
  if (mods_begin < end && text[mods_begin] == ':') {
    auto d = spec_error(DiagId::spec_modifier_colon, text, mods_begin, 1,
                        "unexpected ':' after '/': modifiers follow the closing '/' directly");
    d.fixit = FixIt{d.range, ""};
    return d;
  }
  const std::size_t stray_slash = text.substr(0, end).find('/', mods_begin);
  if (stray_slash != std::string_view::npos) {
    return spec_error(DiagId::spec_stray_slash, text, stray_slash, 1,
                      "unexpected '/' after the modifiers (missing ','?)");
  }
  auto mods = parse_modifiers(text.substr(mods_begin, end - mods_begin), text, u32(mods_begin));
  if (!mods) return std::move(mods).error();
  spec.modifiers = std::move(*mods);
  return std::nullopt;
}

// `name[:mods]` or `rHEX[:mods]`.
std::optional<Diagnostic> parse_named_item(std::string_view text, std::size_t begin,
                                           std::size_t end, EventSpecView& spec) {
  std::size_t name_end = text.substr(0, end).find(':', begin);
  if (name_end == std::string_view::npos) name_end = end;
  const std::string_view name = text.substr(begin, name_end - begin);
  if (name.empty()) {
    return spec_error(DiagId::spec_empty_name, text, begin, 1, "missing event name before ':'");
  }
  const std::size_t bad = first_rejected(text, begin, name_end, char_class::is_event_name_char);
  if (bad != name_end) {
    return spec_error(DiagId::spec_bad_event_name, text, bad, 1,
                      fmt::format("unexpected {} in event name", describe_byte(text[bad])));
  }
  spec.name = name;
  if (auto digits = raw_digits(name)) {
    if (digits->size() > 16) {
      return spec_error(DiagId::spec_raw_overflow, text, begin, name.size(),
                        "raw value does not fit in 64 bits");
    }
    spec.form = SpecForm::raw;
    spec.raw_config = spec_detail::raw_term_value(name).value_or(0);
  } else {
    spec.form = SpecForm::event_name;
  }
  if (name_end < end) {
    auto mods =
        parse_modifiers(text.substr(name_end + 1, end - name_end - 1), text, u32(name_end + 1));
    if (!mods) return std::move(mods).error();
    spec.modifiers = std::move(*mods);
  }
  return std::nullopt;
}

// The first `c` in [begin, end) outside quotes and `/.../`, or npos.
std::size_t find_top_level(std::string_view text, std::size_t begin, std::size_t end, char c) {
  bool in_slashes = false;
  char quote = 0;
  for (std::size_t i = begin; i < end; ++i) {
    const char at = text[i];
    if (quote != 0) {
      if (at == quote) quote = 0;
    } else if (is_quote(at)) {
      quote = at;
    } else if (at == '/') {
      in_slashes = !in_slashes;
    } else if (at == c && !in_slashes) {
      return i;
    }
  }
  return std::string_view::npos;
}

bool has_top_level_brace(std::string_view text) {
  return find_top_level(text, 0, text.size(), '{') != std::string_view::npos ||
         find_top_level(text, 0, text.size(), '}') != std::string_view::npos;
}

std::size_t skip_blanks(std::string_view text, std::size_t begin, std::size_t end) {
  while (begin < end && char_class::is_blank(text[begin])) ++begin;
  return begin;
}

std::size_t trim_blanks_back(std::string_view text, std::size_t begin, std::size_t end) {
  while (end > begin && char_class::is_blank(text[end - 1])) --end;
  return end;
}

Diagnostic nested_group_error(std::string_view text, std::size_t brace,
                              const spec_detail::SpecGroupView& open) {
  auto d = spec_error(DiagId::spec_group_nested, text, brace, 1,
                      "nested event group: perf's groups do not nest");
  d.hint = fmt::format("the enclosing group opens at column {}; close it with '}}' first",
                       open.offset + 1);
  return d;
}

// perf 6.12's name token, which a group name is: [a-zA-Z0-9_*?[\]][a-zA-Z0-9_*?.[\]!-]*. The
// encoder narrows it to perf 6.1's and turns away names another lexer rule takes
// (encode_detail::group_name_problem).
bool is_group_name_char(char c, bool first) {
  if (char_class::is_alpha(c) || char_class::is_digit(c) || c == '_' || c == '*' || c == '?' ||
      c == '[' || c == ']') {
    return true;
  }
  return !first && (c == '.' || c == '!' || c == '-');
}

// A list item's group punctuation: an opening `[name]{` before the event and a closing
// `}[:mods]` after it. Narrows [begin, end) to the event itself and opens/closes groups in `out`.
// `open` is the index of the group the previous item left open.
std::optional<Diagnostic> strip_group_punctuation(std::string_view text, std::size_t& begin,
                                                  std::size_t& end, SpecViews& out,
                                                  std::optional<std::uint32_t>& open,
                                                  bool& closes) {
  closes = false;
  const std::size_t brace = find_top_level(text, begin, end, '{');
  if (brace != std::string_view::npos) {
    if (open) return nested_group_error(text, brace, out.groups[*open]);
    // After a PMU's terms or an event's modifiers the brace cannot open a group; any other
    // prefix is a group name.
    const std::string_view prefix = text.substr(begin, brace - begin);
    if (prefix.find_first_of("/:") != std::string_view::npos) {
      return spec_error(DiagId::spec_group_brace, text, brace, 1,
                        "unexpected '{': a group opens at the start of an event, "
                        "optionally after its name (name{...})");
    }
    for (std::size_t i = begin; i < brace; ++i) {
      if (!is_group_name_char(text[i], i == begin)) {
        return spec_error(DiagId::spec_group_name, text, i, 1,
                          fmt::format("unexpected {} in group name", describe_byte(text[i])));
      }
    }
    spec_detail::SpecGroupView& group = out.groups.emplace_back();
    group.name = text.substr(begin, brace - begin);
    group.offset = u32(begin);
    group.first_event = u32(out.events.size());
    open = u32(out.groups.size() - 1);
    begin = skip_blanks(text, brace + 1, end);
    const std::size_t again = find_top_level(text, begin, end, '{');
    if (again != std::string_view::npos) return nested_group_error(text, again, group);
  }
  const std::size_t close = find_top_level(text, begin, end, '}');
  if (close == std::string_view::npos) return std::nullopt;
  if (!open) {
    auto d = spec_error(DiagId::spec_group_unopened, text, close, 1,
                        "'}' without a '{' opening its group");
    d.fixit = FixIt{d.range, ""};
    return d;
  }
  spec_detail::SpecGroupView& group = out.groups[*open];
  const std::size_t event_end = trim_blanks_back(text, begin, close);
  if (event_end == begin) {
    if (group.first_event == out.events.size()) {
      return spec_error(DiagId::spec_group_empty, text, group.offset, close + 1 - group.offset,
                        "empty event group: a group needs at least one event");
    }
    auto d = spec_error(DiagId::spec_empty_event, text, begin, 0, "empty event in the list");
    return d;
  }
  const std::size_t rest = close + 1;
  const std::size_t stray = find_top_level(text, rest, end, '}');
  if (stray != std::string_view::npos) {
    auto d = spec_error(DiagId::spec_group_unopened, text, stray, 1,
                        "'}' without a '{' opening its group");
    d.fixit = FixIt{d.range, ""};
    return d;
  }
  if (rest < end) {
    if (rest + 1 == end && text[rest] == ':') {
      auto d = spec_error(DiagId::spec_group_trailing, text, rest, 1,
                          "missing modifiers after the group's ':'");
      d.fixit = FixIt{d.range, ""};
      return d;
    }
    if (text[rest] != ':') {
      auto d = spec_error(DiagId::spec_group_trailing, text, rest, end - rest,
                          "unexpected text after '}': a group's modifiers follow ':'");
      if (parse_modifiers(text.substr(rest, end - rest), text, u32(rest))) {
        d.fixit = FixIt{spec_error(DiagId::spec_group_trailing, text, rest, 0, "").range, ":"};
      }
      return d;
    }
    auto mods = parse_modifiers(text.substr(rest + 1, end - rest - 1), text, u32(rest + 1));
    if (!mods) return std::move(mods).error();
    group.modifiers = std::move(*mods);
    group.has_modifiers = true;
  }
  group.length = u32(end - group.offset);
  end = event_end;
  closes = true;
  return std::nullopt;
}

Diagnostic unclosed_group_error(std::string_view text, const spec_detail::SpecGroupView& group) {
  auto d = spec_error(
      DiagId::spec_group_unclosed, text, text.size(), 0,
      fmt::format("missing '}}' to close the group opened at column {}", group.offset + 1));
  d.fixit = FixIt{d.range, "}"};
  return d;
}

// The optional `/terms/` after a named event (a tracepoint, a numeric event) at `pos`, into
// `spec`'s terms; `pos` ends past the closing '/'.
std::optional<Diagnostic> parse_event_terms(std::string_view text, std::size_t& pos,
                                            std::size_t end, SpecViews& out, EventSpecView& spec) {
  spec.terms_begin = spec.terms_end = u32(out.terms.size());
  spec.lints_begin = spec.lints_end = u32(out.lints.size());
  if (pos >= end || text[pos] != '/') return std::nullopt;
  const std::size_t close = text.substr(0, end).find('/', pos + 1);
  if (close == std::string_view::npos) {
    auto d = spec_error(DiagId::spec_missing_slash, text, end, 0,
                        fmt::format("missing '/' to close the terms of '{}'", spec.name));
    d.fixit = FixIt{d.range, "/"};
    return d;
  }
  if (auto error = parse_spec_terms(text, pos + 1, close, out, spec)) return error;
  pos = close + 1;
  return std::nullopt;
}

// `TYPE:CONFIG[/terms/][:][mods]` (perf's event_legacy_numeric: `4:0x3c`, `1:3/period=1/u`), an
// item that starts with a digit.
std::optional<Diagnostic> parse_numeric_item(std::string_view text, std::size_t begin,
                                             std::size_t end, SpecViews& out, EventSpecView& spec) {
  std::size_t pos = begin;
  auto number = [&](std::string_view what) -> Expected<std::uint64_t> {
    const std::size_t start = pos;
    const auto scanned = spec_detail::scan_number(text, pos, end);
    if (!scanned) {
      auto d = spec_error(DiagId::spec_numeric_event, text, start, start < end ? 1 : 0,
                          fmt::format("expected the event's {} here (TYPE:CONFIG)", what));
      d.hint = "a decimal number or 0x followed by hex digits";
      return unexpected(std::move(d));
    }
    if (scanned->overflow) {
      return unexpected(spec_error(DiagId::spec_numeric_event, text, start, pos - start,
                                   fmt::format("the event's {} does not fit in 64 bits", what)));
    }
    return scanned->value;
  };
  auto type = number("type");
  if (!type) return std::move(type).error();
  if (pos >= end || text[pos] != ':') {
    return spec_error(DiagId::spec_numeric_event, text, pos, pos < end ? 1 : 0,
                      "expected ':' and the config after the event's type (TYPE:CONFIG)");
  }
  ++pos;
  auto config = number("config");
  if (!config) return std::move(config).error();
  spec.form = SpecForm::numeric;
  spec.numeric_type = *type;
  spec.raw_config = *config;
  spec.name = text.substr(begin, pos - begin);
  if (auto error = parse_event_terms(text, pos, end, out, spec)) return error;
  if (pos < end && text[pos] == ':') ++pos;  // perf's optional ':' before the modifiers
  if (pos < end) {
    auto mods = parse_modifiers(text.substr(pos, end - pos), text, u32(pos));
    if (!mods) return std::move(mods).error();
    spec.modifiers = std::move(*mods);
  }
  return std::nullopt;
}

// `sys[-name]:event[/terms/][:][mods]` (shape found by tracepoint_shape()).
std::optional<Diagnostic> parse_tracepoint_item(std::string_view text, std::size_t begin,
                                                std::size_t end,
                                                const spec_detail::TracepointShape& shape,
                                                SpecViews& out, EventSpecView& spec) {
  const std::string_view system = text.substr(begin, shape.system_end - begin);
  const std::string_view event =
      text.substr(shape.event_begin, shape.event_end - shape.event_begin);
  auto keyword_error = [&](std::string_view word, std::size_t at) {
    auto d = spec_error(DiagId::spec_tracepoint_name, text, at, word.size(),
                        fmt::format("'{}' is a perf keyword, not a tracepoint name", word));
    d.hint =
        "perf 6.1 reads it as a built-in event or cache word, so no tracepoint spec can name it";
    return d;
  };
  // (A keyword system never gets here: tracepoint_shape() leaves such items to the modifiers.)
  if (spec_detail::is_perf_keyword(event)) return keyword_error(event, shape.event_begin);
  spec.form = SpecForm::tracepoint;
  spec.tp_system = system;
  spec.tp_event = event;
  spec.name = text.substr(begin, shape.event_end - begin);
  std::size_t pos = shape.event_end;
  if (auto error = parse_event_terms(text, pos, end, out, spec)) return error;
  if (pos < end && text[pos] == ':') ++pos;  // perf's optional ':' before the modifiers
  if (pos < end && (text[pos] == '/' || text[pos] == ':' || text[pos] == '-')) {
    return spec_error(
        DiagId::spec_tracepoint_name, text, pos, 1,
        fmt::format("unexpected '{}' in a tracepoint (sys:event[/terms/][:mods])", text[pos]));
  }
  if (pos < end) {
    auto mods = parse_modifiers(text.substr(pos, end - pos), text, u32(pos));
    if (!mods) return std::move(mods).error();
    spec.modifiers = std::move(*mods);
  }
  return std::nullopt;
}

}  // namespace

namespace spec_detail {

std::optional<std::uint64_t> raw_term_value(std::string_view name) {
  if (name.size() < 2 || name[0] != 'r') return std::nullopt;
  std::string_view digits = name.substr(1);
  if (digits.size() > 2 && digits.starts_with("0x")) digits.remove_prefix(2);
  if (digits.size() > 16) return std::nullopt;
  std::uint64_t value = 0;
  for (char c : digits) {
    if (!char_class::is_hex_digit(c)) return std::nullopt;
    const unsigned lower = static_cast<unsigned char>(c) | 0x20;  // '0'-'9' keep their value
    value = value * 16 + (char_class::is_digit(c) ? lower - '0' : lower - 'a' + 10);
  }
  return value;
}

void SpecViews::clear() {
  events.clear();
  terms.clear();
  lints.clear();
  groups.clear();
}

TermLexing term_lexing_of(const Profile& semantics) {
  return TermLexing{.digit_led_names = semantics.has(Behaviour::digit_led_term_names),
                    .bang_in_term_names = semantics.has(Behaviour::bang_in_term_names)};
}

std::optional<Diagnostic> parse_spec_views(std::string_view text, SpecViews& out) {
  if (scan_simple_spec(text, out)) {
    // The scanner takes no braces; it reuses the last event, which may have been a member.
    out.groups.clear();
    out.events.front().group.reset();
    return std::nullopt;
  }
  return parse_spec_views_full(text, out);
}

std::optional<Diagnostic> parse_spec_views_full(std::string_view text, SpecViews& out) {
  out.clear();
  bool any_slash = false;
  bool any_equals = false;
  if (auto error = for_each_item(text, [&](const ListItem& item) -> std::optional<Diagnostic> {
        any_slash = any_slash || item.has_slash;
        any_equals = any_equals || item.has_equals;
        return std::nullopt;
      })) {
    return error;
  }
  // Braces outside `/.../` and quotes: event groups. Only then does an item carry group
  // punctuation, so a list without them keeps the plain-list path.
  const bool grouped = has_top_level_brace(text);
  std::optional<std::uint32_t> open_group;
  if (any_equals && !any_slash && !grouped) {
    // A bare term list (`event=0x423,inv,cmask=0x3`) is one event for a caller-chosen PMU.
    EventSpecView& spec = out.events.emplace_back();
    spec.form = SpecForm::terms_only;
    spec.text = text;
    return parse_spec_terms(text, 0, text.size(), out, spec);
  }
  auto error = for_each_item(text, [&](const ListItem& item) -> std::optional<Diagnostic> {
    std::size_t begin = item.begin;
    std::size_t end = item.end;
    while (begin < end && char_class::is_blank(text[begin])) ++begin;
    while (end > begin && char_class::is_blank(text[end - 1])) --end;
    if (begin == end) {
      const bool trailing = item.begin == text.size() && item.begin > 0;
      auto d = spec_error(DiagId::spec_empty_event, text, trailing ? item.begin - 1 : item.begin,
                          trailing ? 1 : 0,
                          text.empty() ? "empty event list" : "empty event in the list");
      if (trailing) d.fixit = FixIt{d.range, ""};
      return d;
    }
    bool closes = false;
    if (grouped) {
      if (auto problem = strip_group_punctuation(text, begin, end, out, open_group, closes)) {
        return problem;
      }
      if (end <= begin) {
        return spec_error(DiagId::spec_empty_event, text, begin, 0, "empty event in the list");
      }
    }
    EventSpecView spec;
    spec.text = text.substr(begin, end - begin);
    spec.offset = u32(begin);
    spec.group = open_group;
    std::optional<Diagnostic> problem;
    if (spec_detail::is_breakpoint_item(text, begin, end)) {
      problem = parse_breakpoint_item(text, begin, end, spec);
    } else if (char_class::is_digit(text[begin])) {
      problem = parse_numeric_item(text, begin, end, out, spec);
    } else if (auto shape = tracepoint_shape(text, begin, end)) {
      problem = parse_tracepoint_item(text, begin, end, *shape, out, spec);
    } else {
      problem = item.has_slash ? parse_pmu_item(text, begin, end, out, spec)
                               : parse_named_item(text, begin, end, spec);
    }
    if (problem) return problem;
    out.events.push_back(std::move(spec));
    if (closes) {
      out.groups[*open_group].end_event = u32(out.events.size());
      open_group.reset();
    }
    return std::nullopt;
  });
  if (error) return error;
  if (open_group) return unclosed_group_error(text, out.groups[*open_group]);
  return std::nullopt;
}

}  // namespace spec_detail

Expected<std::vector<EventSpec>> parse_spec_list(std::string_view text) {
  auto list = parse_spec_groups(text);
  if (!list) return unexpected(std::move(list).error());
  return std::move(list->events);
}

Expected<SpecList> parse_spec_groups(std::string_view text) {
  spec_detail::SpecViews views;
  views.lexing = spec_detail::term_lexing_of(Profile::pmucat());
  if (auto error = spec_detail::parse_spec_views(text, views)) {
    return unexpected(std::move(*error));
  }
  SpecList list;
  for (const spec_detail::SpecGroupView& view : views.groups) {
    SpecGroup& group = list.groups.emplace_back();
    group.name = std::string(view.name);
    group.modifiers = view.modifiers;
    group.has_modifiers = view.has_modifiers;
    group.offset = view.offset;
    group.length = view.length;
  }
  std::vector<EventSpec>& specs = list.events;
  specs.reserve(views.events.size());
  for (const EventSpecView& view : views.events) {
    EventSpec& spec = specs.emplace_back();
    spec.form = view.form;
    spec.text = std::string(view.text);
    spec.offset = view.offset;
    spec.pmu = std::string(view.pmu);
    spec.pmu_offset = view.pmu_offset;
    spec.name = std::string(view.name);
    spec.raw_config = view.raw_config;
    spec.numeric_type = view.numeric_type;
    for (const TermView& term : views.terms_of(view)) spec.terms.terms.push_back(term.to_term());
    spec.terms.lints.assign(views.lints.begin() + view.lints_begin,
                            views.lints.begin() + view.lints_end);
    spec.modifiers = view.modifiers;
    spec.group = view.group;
    spec.bp_addr = view.bp_addr;
    spec.bp_len = view.bp_len;
    spec.bp_type = view.bp_type;
    spec.tp_system = std::string(view.tp_system);
    spec.tp_event = std::string(view.tp_event);
  }
  return list;
}

PMUCAT_END_NAMESPACE
