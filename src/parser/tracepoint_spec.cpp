// Telling `sys:event` (a tracepoint) from `name:modifiers`, as perf 6.1's lexer does.
#include <array>
#include <string_view>

#include "parser/char_class.h"
#include "parser/spec_views.h"
#include "pmucat/version.h"

PMUCAT_BEGIN_NAMESPACE
namespace spec_detail {
namespace {

// perf 6.1's {name} token: [a-zA-Z_*?[\]][a-zA-Z0-9_*?.[\]!]*
bool is_name_start(char c) {
  return char_class::is_alpha(c) || c == '_' || c == '*' || c == '?' || c == '[' || c == ']';
}
bool is_name_char(char c) {
  return is_name_start(c) || char_class::is_digit(c) || c == '.' || c == '!';
}

// Advances `pos` over one {name} token; false when none starts there.
bool scan_name(std::string_view text, std::size_t& pos, std::size_t end) {
  if (pos >= end || !is_name_start(text[pos])) return false;
  while (pos < end && is_name_char(text[pos])) ++pos;
  return true;
}

// perf's modifier_event token [ukhpPGHSDIWebRX]+ (R from perf 6.12, X from 7.3): a token made only
// of these letters after `:` is
// modifiers (the lexer rule comes first at equal length), not an event.
bool is_modifier_letters(std::string_view token) {
  constexpr std::string_view kLetters = "ukhpPGHSDIWebRX";
  return token.find_first_not_of(kLetters) == std::string_view::npos;
}

}  // namespace

bool is_perf_keyword(std::string_view token) {
  // The lexer's fixed words that a {name} match of the same length loses to (built-in events,
  // cache types, ops and results), and r<hex> (a raw event).
  static constexpr std::array<std::string_view, 33> kKeywords = {
      "cycles",        "instructions", "branches",    "faults", "cs",       "migrations", "dummy",
      "duration_time", "user_time",    "system_time", "LLC",    "L2",       "node",       "branch",
      "bpu",           "btb",          "bpc",         "l1d",    "l1i",      "load",       "loads",
      "read",          "store",        "stores",      "write",  "prefetch", "prefetches", "refs",
      "Reference",     "ops",          "access",      "misses", "miss"};
  for (std::string_view keyword : kKeywords) {
    if (token == keyword) return true;
  }
  if (token.size() >= 2 && token[0] == 'r') {
    bool hex = true;
    for (char c : token.substr(1)) hex = hex && char_class::is_hex_digit(c);
    if (hex) return true;
  }
  return false;
}

std::optional<TracepointShape> tracepoint_shape(std::string_view text, std::size_t begin,
                                                std::size_t end) {
  std::size_t pos = begin;
  if (!scan_name(text, pos, end)) return std::nullopt;
  if (pos < end && text[pos] == '-') {
    ++pos;
    if (!scan_name(text, pos, end)) return std::nullopt;
  }
  if (pos >= end || text[pos] != ':') return std::nullopt;
  // A system perf's lexer takes as a keyword (`cycles:x`, `mem-loads:q`) makes no tracepoint
  // either: perf 6.1 says only "parser error", and the item's modifier error says more.
  const std::string_view system = text.substr(begin, pos - begin);
  const std::size_t hyphen = system.find('-');
  if (is_perf_keyword(system) ||
      (hyphen != std::string_view::npos &&
       (is_perf_keyword(system.substr(0, hyphen)) || is_perf_keyword(system.substr(hyphen + 1))))) {
    return std::nullopt;
  }
  TracepointShape shape;
  shape.system_end = pos;
  shape.event_begin = ++pos;
  if (!scan_name(text, pos, end)) return std::nullopt;
  shape.event_end = pos;
  if (is_modifier_letters(text.substr(shape.event_begin, pos - shape.event_begin))) {
    return std::nullopt;
  }
  return shape;
}

}  // namespace spec_detail
PMUCAT_END_NAMESPACE
