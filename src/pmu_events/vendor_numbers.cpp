#include "pmu_events/vendor_numbers.h"

#include <fmt/format.h>

#include <algorithm>

#include "pmucat/version.h"

PMUCAT_BEGIN_NAMESPACE
namespace pmu_events {
namespace {

bool is_python_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

std::string_view strip(std::string_view text) {
  while (!text.empty() && is_python_space(text.front())) text.remove_prefix(1);
  while (!text.empty() && is_python_space(text.back())) text.remove_suffix(1);
  return text;
}

int digit_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'z') return c - 'a' + 10;
  if (c >= 'A' && c <= 'Z') return c - 'A' + 10;
  return 99;
}

// Digits of `base` with single underscores between them; `underscore_first` allows one
// underscore before the first digit (Python accepts `0x_1f`).
std::optional<std::uint64_t> parse_digits(std::string_view digits, unsigned base,
                                          bool underscore_first) {
  std::uint64_t value = 0;
  bool any_digit = false;
  bool previous_underscore = false;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    const char c = digits[i];
    if (c == '_') {
      if (previous_underscore || (!any_digit && !(underscore_first && i == 0))) return std::nullopt;
      previous_underscore = true;
      continue;
    }
    const int digit = digit_value(c);
    if (digit >= static_cast<int>(base)) return std::nullopt;
    if (value > (UINT64_MAX - static_cast<unsigned>(digit)) / base) return std::nullopt;
    value = value * base + static_cast<unsigned>(digit);
    any_digit = true;
    previous_underscore = false;
  }
  if (!any_digit || previous_underscore) return std::nullopt;
  return value;
}

// Splits the sign off; nullopt when the value is negative and not zero.
std::optional<std::uint64_t> apply_sign(bool negative, std::optional<std::uint64_t> value) {
  if (!value || (negative && *value != 0)) return std::nullopt;
  return value;
}

bool take_sign(std::string_view& text) {
  if (text.empty() || (text.front() != '+' && text.front() != '-')) return false;
  const bool negative = text.front() == '-';
  text.remove_prefix(1);
  return negative;
}

}  // namespace

std::optional<std::uint64_t> parse_python_int_auto(std::string_view text) {
  text = strip(text);
  const bool negative = take_sign(text);
  if (text.size() >= 2 && text[0] == '0') {
    const char prefix = static_cast<char>(text[1] | 0x20);
    const unsigned base = prefix == 'x' ? 16 : prefix == 'o' ? 8 : prefix == 'b' ? 2 : 0;
    if (base != 0) return apply_sign(negative, parse_digits(text.substr(2), base, true));
  }
  // Decimal: a leading zero is only allowed when every digit is zero (`00`, `0_0`).
  const std::optional<std::uint64_t> value = parse_digits(text, 10, false);
  if (value && *value != 0 && text.front() == '0') return std::nullopt;
  return apply_sign(negative, value);
}

std::optional<std::uint64_t> parse_python_int_decimal(std::string_view text) {
  text = strip(text);
  const bool negative = take_sign(text);
  return apply_sign(negative, parse_digits(text, 10, false));
}

std::string hex_like_printf(std::uint64_t value) {
  return value == 0 ? std::string("0") : fmt::format("{:#x}", value);
}

std::string hex_unless_below_ten(std::uint64_t value) {
  return value < 10 ? std::to_string(value) : fmt::format("{:#x}", value);
}

std::optional<TermValue> canonical_term_value(std::string_view text) {
  if (text.starts_with("0x")) {
    // int(text, 16) on a text with the prefix: what parse_python_int_auto does with it.
    const std::optional<std::uint64_t> value = parse_python_int_auto(text);
    if (!value) return std::nullopt;
    return TermValue{hex_unless_below_ten(*value), *value == 0};
  }
  std::string_view digits = strip(text);
  const bool negative = take_sign(digits);
  const std::optional<std::uint64_t> value = parse_digits(digits, 10, false);
  if (!value) return std::nullopt;
  if (*value == 0) return TermValue{"0", true};
  TermValue canonical;
  if (negative) canonical.text = "-";
  canonical.text += std::to_string(*value);
  return canonical;
}

std::string ascii_lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

}  // namespace pmu_events
PMUCAT_END_NAMESPACE

PMUCAT_BEGIN_NAMESPACE
namespace pmu_events {

bool scanf_int_is_one(std::string_view text) {
  std::size_t i = 0;
  while (i < text.size() && is_python_space(text[i])) ++i;
  bool negative = false;
  if (i < text.size() && (text[i] == '+' || text[i] == '-')) negative = text[i++] == '-';
  const std::size_t digits_start = i;
  std::uint64_t value = 0;
  while (i < text.size() && text[i] >= '0' && text[i] <= '9') {
    value = std::min<std::uint64_t>(value * 10 + static_cast<unsigned>(text[i] - '0'), 1u << 31);
    ++i;
  }
  return i > digits_start && !negative && value == 1;
}

}  // namespace pmu_events
PMUCAT_END_NAMESPACE
