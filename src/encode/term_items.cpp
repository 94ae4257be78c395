#include "encode/term_items.h"

#include <cctype>

#include "pmucat/version.h"

PMUCAT_BEGIN_NAMESPACE
namespace encode_detail {
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

std::optional<std::uint32_t> usable_pmu_type(const Pmu& pmu, Profile semantics) {
  if (auto type = pmu.type()) return type;
  if (!semantics.has(Behaviour::strict_type_file))
    return perf_scanned_type(pmu.attributes().type_text);
  return std::nullopt;
}

}  // namespace encode_detail
PMUCAT_END_NAMESPACE
