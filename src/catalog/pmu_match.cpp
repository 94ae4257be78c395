// PMU and event name comparison: perf's PMU-name matching, natural order, ASCII iequals.
#include <fnmatch.h>

#include <algorithm>
#include <cctype>
#include <string>
#include <vector>

#include "parser/char_class.h"
#include "pmucat/catalog.h"

PMUCAT_BEGIN_NAMESPACE
namespace {

constexpr std::string_view kUncorePrefix = "uncore_";

using char_class::is_digit;
using char_class::is_hex_digit;

bool is_glob(std::string_view pattern) {
  return pattern.find_first_of("*?[") != std::string_view::npos;
}

// `name` is `pattern` followed by an instance suffix: optionally '_', then hex digits; a
// suffix holding a hex letter must be longer than two characters (so `_a3` is part of the
// name, not a suffix). A pattern that is a prefix of a decimal suffix also matches
// (`pmuname_1` selects `pmuname_10`), as perf's own tests require.
bool matches_with_suffix(std::string_view name, std::string_view pattern) {
  if (!name.starts_with(pattern)) return false;
  std::string_view suffix = name.substr(pattern.size());
  if (suffix.empty()) return true;
  if (suffix.front() == '_') suffix.remove_prefix(1);
  if (suffix.empty()) return false;
  bool has_hex_letter = false;
  for (char c : suffix) {
    if (!is_hex_digit(c)) return false;
    has_hex_letter = has_hex_letter || !is_digit(c);
  }
  return !has_hex_letter || suffix.size() > 2;
}

// Compares two runs of decimal digits by value; leading zeros do not count.
int compare_numbers(std::string_view a, std::string_view b) {
  auto strip = [](std::string_view digits) {
    std::size_t zeros = 0;
    while (zeros + 1 < digits.size() && digits[zeros] == '0') ++zeros;
    return digits.substr(zeros);
  };
  a = strip(a);
  b = strip(b);
  if (a.size() != b.size()) return a.size() < b.size() ? -1 : 1;
  int order = a.compare(b);
  return order < 0 ? -1 : (order > 0 ? 1 : 0);
}

std::string_view digit_run(std::string_view text, std::size_t start) {
  std::size_t end = start;
  while (end < text.size() && is_digit(text[end])) ++end;
  return text.substr(start, end - start);
}

}  // namespace

bool pmu_name_matches(std::string_view pmu_name, std::string_view pattern) {
  if (pattern.empty()) return false;
  if (pmu_name == pattern) return true;
  // `cbox` selects `uncore_cbox_0`: perf ignores the uncore_ prefix when the user left it out.
  if (pmu_name.starts_with(kUncorePrefix) && !pattern.starts_with(kUncorePrefix)) {
    pmu_name.remove_prefix(kUncorePrefix.size());
  }
  if (matches_with_suffix(pmu_name, pattern)) return true;
  if (!is_glob(pattern)) return false;
  // fnmatch needs NUL-terminated strings.
  std::string name_z(pmu_name);
  std::string pattern_z(pattern);
  return ::fnmatch(pattern_z.c_str(), name_z.c_str(), 0) == 0;
}

bool vendor_pmu_matches(std::string_view vendor_pmu, std::string_view pmu_name) {
  // perf's pmu_uncore_alias_match(): the comma-separated tokens are found in order in the PMU
  // name, the last one followed by nothing or by an optional '_' and decimal digits. perf moves
  // past a found token by the length of the token that comes next, not of the one found; the
  // same quirk is kept, bounded by the end of the name.
  std::vector<std::string_view> tokens;
  for (std::size_t start = 0; start <= vendor_pmu.size();) {
    std::size_t comma = vendor_pmu.find(',', start);
    if (comma == std::string_view::npos) comma = vendor_pmu.size();
    if (comma > start) tokens.push_back(vendor_pmu.substr(start, comma - start));
    start = comma + 1;
  }
  if (tokens.empty()) return false;
  std::string_view rest = pmu_name;
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    std::size_t found = rest.find(tokens[i]);
    if (found == std::string_view::npos) return false;
    rest.remove_prefix(found);
    if (i + 1 == tokens.size()) {
      std::string_view suffix = rest.substr(tokens[i].size());
      if (suffix.empty()) return true;
      if (suffix.front() == '_') suffix.remove_prefix(1);
      return !suffix.empty() && std::all_of(suffix.begin(), suffix.end(), is_digit);
    }
    rest.remove_prefix(std::min(tokens[i + 1].size(), rest.size()));
  }
  return false;
}

bool natural_less(std::string_view a, std::string_view b) {
  // Names share long prefixes ("uncore_iio_free_running_"): walk the common bytes at memcmp
  // speed, back up to the start of the digit run they end in, and compare from there. Runs
  // before that point are identical in both names, so they cannot decide the order.
  const std::size_t shorter = std::min(a.size(), b.size());
  std::size_t common = 0;
  while (common < shorter && a[common] == b[common]) ++common;
  while (common > 0 && is_digit(a[common - 1])) --common;
  std::size_t i = common;
  std::size_t j = common;
  while (i < a.size() && j < b.size()) {
    if (is_digit(a[i]) && is_digit(b[j])) {
      std::string_view run_a = digit_run(a, i);
      std::string_view run_b = digit_run(b, j);
      if (int order = compare_numbers(run_a, run_b); order != 0) return order < 0;
      i += run_a.size();
      j += run_b.size();
      continue;
    }
    if (a[i] != b[j]) {
      return static_cast<unsigned char>(a[i]) < static_cast<unsigned char>(b[j]);
    }
    ++i;
    ++j;
  }
  if ((a.size() - i) != (b.size() - j)) return (a.size() - i) < (b.size() - j);
  // Equal up to leading zeros ("a01" vs "a1"): fall back to bytes so the order stays strict.
  return a < b;
}

bool iequals(std::string_view a, std::string_view b) {
  return char_class::ascii_iequal(a, b);
}

PMUCAT_END_NAMESPACE
