#include "encode/term_items.h"

#include <cctype>

namespace pmucat::encode_detail {

std::optional<std::uint64_t> raw_term_value(std::string_view name) {
  if (name.size() < 2 || name[0] != 'r') return std::nullopt;
  std::string_view digits = name.substr(1);
  if (digits.size() > 2 && digits.starts_with("0x")) digits.remove_prefix(2);
  if (digits.size() > 16) return std::nullopt;
  std::uint64_t value = 0;
  for (char c : digits) {
    const int lower = std::tolower(static_cast<unsigned char>(c));
    if (std::isdigit(lower)) {
      value = value * 16 + static_cast<std::uint64_t>(lower - '0');
    } else if (lower >= 'a' && lower <= 'f') {
      value = value * 16 + static_cast<std::uint64_t>(lower - 'a' + 10);
    } else {
      return std::nullopt;
    }
  }
  return value;
}

namespace {

// perf 6.1 reads `type` with fscanf("%u"): leading blanks, then digits; "0x2e" reads as 0.
std::optional<std::uint32_t> perf_scanned_type(std::string_view text) {
  std::size_t i = 0;
  while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
  if (i == text.size() || !std::isdigit(static_cast<unsigned char>(text[i]))) return std::nullopt;
  std::uint64_t value = 0;
  for (; i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])); ++i) {
    value = value * 10 + static_cast<std::uint64_t>(text[i] - '0');
    if (value > UINT32_MAX) return std::nullopt;
  }
  return static_cast<std::uint32_t>(value);
}

}  // namespace

std::optional<std::uint32_t> usable_pmu_type(const Pmu& pmu, Semantics semantics) {
  if (auto type = pmu.type()) return type;
  if (semantics == Semantics::perf) return perf_scanned_type(pmu.attributes().type_text);
  return std::nullopt;
}

}  // namespace pmucat::encode_detail
