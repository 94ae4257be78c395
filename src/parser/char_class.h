// The byte classes of perf's event grammar (term names, numbers, PMU and event names), in one
// table that the term lexer, the spec parser and the spec scanner all read, and ASCII case
// folding: the one definition of each for every module (a module that uses parser includes
// "parser/char_class.h"). ASCII only: no byte above 0x7f is in any class, whatever the locale.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "pmucat/version.h"

PMUCAT_BEGIN_NAMESPACE
namespace char_class {

enum Class : std::uint16_t {
  kBlank = 1 << 0,        // ' ' \t \n \r \v \f
  kDigit = 1 << 1,        // [0-9]
  kHexDigit = 1 << 2,     // [0-9a-fA-F]
  kAlpha = 1 << 3,        // [a-zA-Z]
  kNameStart = 1 << 4,    // a term name's first byte: [a-zA-Z_*?]
  kNameChar = 1 << 5,     // a term name's other bytes: [a-zA-Z0-9_*?.:-]
  kPmuChar = 1 << 6,      // a PMU name or pattern (newer perf accepts '-'): [a-zA-Z0-9_.*?[\]!-]
  kEventChar = 1 << 7,    // an event name before `:modifiers`: [a-zA-Z0-9_.*?-]
  kDriverCfg = 1 << 8,    // `@name`: [a-zA-Z0-9_.]
  kDriverValue = 1 << 9,  // `@name=value`: [a-zA-Z0-9_*?.:]
};

namespace detail {

constexpr std::array<std::uint16_t, 256> make_table() {
  std::array<std::uint16_t, 256> table{};
  auto add = [&](unsigned char c, unsigned bits) { table[c] |= static_cast<std::uint16_t>(bits); };
  constexpr unsigned kAlnum = kNameChar | kPmuChar | kEventChar | kDriverCfg | kDriverValue;
  for (unsigned char c = '0'; c <= '9'; ++c) add(c, kDigit | kHexDigit | kAlnum);
  for (unsigned char c = 'a'; c <= 'z'; ++c) add(c, kAlpha | kNameStart | kAlnum);
  for (unsigned char c = 'A'; c <= 'Z'; ++c) add(c, kAlpha | kNameStart | kAlnum);
  for (unsigned char c = 'a'; c <= 'f'; ++c) add(c, kHexDigit);
  for (unsigned char c = 'A'; c <= 'F'; ++c) add(c, kHexDigit);
  for (unsigned char c : {' ', '\t', '\n', '\r', '\v', '\f'}) add(c, kBlank);
  add('_', kNameStart | kNameChar | kPmuChar | kEventChar | kDriverCfg | kDriverValue);
  for (unsigned char c : {'*', '?'}) {
    add(c, kNameStart | kNameChar | kPmuChar | kEventChar | kDriverValue);
  }
  add('.', kNameChar | kPmuChar | kEventChar | kDriverCfg | kDriverValue);
  add('-', kNameChar | kPmuChar | kEventChar);
  add(':', kNameChar | kDriverValue);
  for (unsigned char c : {'[', ']', '!'}) add(c, kPmuChar);
  return table;
}

inline constexpr std::array<std::uint16_t, 256> kTable = make_table();

}  // namespace detail

// True when `c` is in any of the classes of `classes` (an OR of Class bits).
constexpr bool in(char c, unsigned classes) {
  return (detail::kTable[static_cast<unsigned char>(c)] & classes) != 0;
}

constexpr bool is_blank(char c) {
  return in(c, kBlank);
}
constexpr bool is_digit(char c) {
  return in(c, kDigit);
}
constexpr bool is_hex_digit(char c) {
  return in(c, kHexDigit);
}
constexpr bool is_alpha(char c) {
  return in(c, kAlpha);
}
constexpr bool is_alnum(char c) {
  return in(c, kAlpha | kDigit);
}
constexpr bool is_name_start(char c) {
  return in(c, kNameStart);
}
constexpr bool is_name_char(char c) {
  return in(c, kNameChar);
}
constexpr bool is_pmu_name_char(char c) {
  return in(c, kPmuChar);
}
constexpr bool is_event_name_char(char c) {
  return in(c, kEventChar);
}
constexpr bool is_driver_cfg_char(char c) {
  return in(c, kDriverCfg);
}
constexpr bool is_driver_value_char(char c) {
  return in(c, kDriverValue);
}

// ASCII case folding, whatever the locale: names are ASCII, and a lookup must not depend on
// LC_CTYPE.
constexpr char ascii_lower(char c) {
  return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
}
inline std::string ascii_lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = ascii_lower(c);
  return out;
}
constexpr bool ascii_iequal(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (ascii_lower(a[i]) != ascii_lower(b[i])) return false;
  }
  return true;
}
// strcasestr: the first position of `needle` in `haystack` ignoring ASCII case, or npos.
constexpr std::size_t ascii_ifind(std::string_view haystack, std::string_view needle) {
  for (std::size_t i = 0; i + needle.size() <= haystack.size(); ++i) {
    if (ascii_iequal(haystack.substr(i, needle.size()), needle)) return i;
  }
  return std::string_view::npos;
}

// True when `name` lexes as one term NAME token (so it can be printed without quotes).
// Either of perf's two name rules may cover it: [a-zA-Z_*?][a-zA-Z0-9_*?.:-]* or, with '!'
// (escaped metric-ids) and brackets, [a-zA-Z_*?][a-zA-Z0-9_*?.[\]!]*.
constexpr bool is_plain_name(std::string_view name) {
  if (name.empty() || !is_name_start(name.front())) return false;
  bool minus_rule = true;
  bool bang_rule = true;
  for (char c : name) {
    minus_rule = minus_rule && is_name_char(c);
    bang_rule = bang_rule && is_pmu_name_char(c) && c != '-';
  }
  return minus_rule || bang_rule;
}

}  // namespace char_class
PMUCAT_END_NAMESPACE
