// Numbers and names as perf's jevents.py (Python) reads them from the vendor JSON strings.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "pmucat/version.h"

PMUCAT_BEGIN_NAMESPACE
namespace pmu_events {

// Python's int(text, 0): surrounding whitespace, an optional sign, a 0x/0o/0b prefix (any case)
// or a decimal number without leading zeros, single underscores between digits. Negative values
// and values past 64 bits are nullopt: perf could not build a term from them either.
std::optional<std::uint64_t> parse_python_int_auto(std::string_view text);
// Python's int(text): decimal only, leading zeros allowed.
std::optional<std::uint64_t> parse_python_int_decimal(std::string_view text);

// `%#llx`: "0" for zero, else "0x" and lower-case hex digits (perf 6.1's jevents).
std::string hex_like_printf(std::uint64_t value);
// perf 6.12's jevents prints a number below 10 in decimal, any other as "0x" and lower-case hex.
std::string hex_unless_below_ten(std::uint64_t value);

// A term field's value as perf 6.12's jevents rewrites it: a value starting "0x" is read as hex
// and printed by hex_unless_below_ten, any other as a decimal number (Python's int(text):
// whitespace, a sign, leading zeros and single underscores allowed) and printed in decimal.
// nullopt when it is neither (perf 6.12's jevents stops on it) or does not fit 64 bits.
struct TermValue {
  std::string text;
  bool zero = false;  // the field is left out
};
std::optional<TermValue> canonical_term_value(std::string_view text);

// ASCII lower-casing (Python's str.lower() for the ASCII names and units the tables use).
std::string ascii_lower(std::string_view text);

}  // namespace pmu_events
PMUCAT_END_NAMESPACE

PMUCAT_BEGIN_NAMESPACE
namespace pmu_events {
// perf's `sscanf(text, "%d", &n) == 1 && n == 1` (PerPkg).
bool scanf_int_is_one(std::string_view text);
}  // namespace pmu_events
PMUCAT_END_NAMESPACE
