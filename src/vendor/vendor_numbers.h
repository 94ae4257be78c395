// Numbers and names as perf's jevents.py (Python) reads them from the vendor JSON strings.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace pmucat::vendor {

// Python's int(text, 0): surrounding whitespace, an optional sign, a 0x/0o/0b prefix (any case)
// or a decimal number without leading zeros, single underscores between digits. Negative values
// and values past 64 bits are nullopt: perf could not build a term from them either.
std::optional<std::uint64_t> parse_python_int_auto(std::string_view text);
// Python's int(text): decimal only, leading zeros allowed.
std::optional<std::uint64_t> parse_python_int_decimal(std::string_view text);

// `%#llx`: "0" for zero, else "0x" and lower-case hex digits.
std::string hex_like_printf(std::uint64_t value);

// ASCII lower-casing (Python's str.lower() for the ASCII names and units the tables use).
std::string ascii_lower(std::string_view text);

}  // namespace pmucat::vendor

namespace pmucat::vendor {
// perf's `sscanf(text, "%d", &n) == 1 && n == 1` (PerPkg).
bool scanf_int_is_one(std::string_view text);
}  // namespace pmucat::vendor
