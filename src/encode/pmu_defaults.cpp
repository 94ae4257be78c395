// The default-config table and its evaluation against a PMU's formats and caps.
#include "encode/pmu_defaults.h"

#include <cctype>
#include <string_view>

#include "pmucat/version.h"

PMUCAT_BEGIN_NAMESPACE
namespace encode_detail {
namespace {

// How perf reads a caps file: like scanf "%d" (decimal) or "%x" (hex, optional 0x), after
// leading blanks; nullopt when no number starts the first line or the file is missing.
std::optional<std::uint64_t> read_cap(const Pmu& pmu, const std::string& name, bool hex) {
  const auto& caps = pmu.attributes().caps;
  const auto found = caps.find(name);
  if (found == caps.end()) return std::nullopt;
  std::string_view text = found->second;
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front())) != 0) {
    text.remove_prefix(1);
  }
  bool negative = false;
  if (!text.empty() && (text.front() == '-' || text.front() == '+')) {
    negative = text.front() == '-';
    text.remove_prefix(1);
  }
  if (hex && text.size() >= 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
    // "0x" alone still reads as 0: the '0' is a digit.
    text.remove_prefix(text.size() > 2 && std::isxdigit(static_cast<unsigned char>(text[2])) ? 2
                                                                                             : 0);
  }
  std::uint64_t value = 0;
  std::size_t digits = 0;
  for (char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (hex ? std::isxdigit(u) == 0 : std::isdigit(u) == 0) break;
    const int digit = std::isdigit(u) != 0 ? u - '0' : std::tolower(u) - 'a' + 10;
    value = value * (hex ? 16u : 10u) + static_cast<std::uint64_t>(digit);
    ++digits;
  }
  if (digits == 0) return std::nullopt;
  return negative ? ~value + 1 : value;
}

// The set bit of `bits` nearest `target` from below, else the lowest one above it; -1 if none.
int pick_bit(std::uint32_t bits, int target) {
  int pick = -1;
  for (int pos = 0; bits != 0; bits >>= 1, ++pos) {
    if ((bits & 1u) == 0) continue;
    if (pos <= target || pick < 0) pick = pos;
    if (pos >= target) break;
  }
  return pick;
}

// perf 6.1 (arch/x86 intel-pt): `tsc`, then `mtc,mtc_period=P` when caps/mtc is not 0 and
// caps/mtc_periods is non-zero, then `psb_period=Q` when caps/psb_cyc is not 0 and mtc periods
// exist and caps/psb_periods is non-zero, then `pt,branch` when both formats exist. P and Q are
// the supported periods nearest 3. A missing or unreadable caps/mtc or caps/psb_cyc counts as 1.
std::vector<DefaultTerm> intel_pt_terms(const Pmu& pmu) {
  std::vector<DefaultTerm> terms{{"tsc", 1}};
  const std::uint64_t mtc = read_cap(pmu, "mtc", false).value_or(1);
  std::uint32_t mtc_periods = 0;
  if (static_cast<std::uint32_t>(mtc) != 0) {
    mtc_periods = static_cast<std::uint32_t>(read_cap(pmu, "mtc_periods", true).value_or(0));
    if (mtc_periods != 0) {
      terms.emplace_back("mtc", 1);
      terms.emplace_back("mtc_period", static_cast<std::uint64_t>(pick_bit(mtc_periods, 3)));
    }
  }
  const std::uint64_t psb_cyc = read_cap(pmu, "psb_cyc", false).value_or(1);
  if (static_cast<std::uint32_t>(psb_cyc) != 0 && mtc_periods != 0) {
    const auto psb_periods =
        static_cast<std::uint32_t>(read_cap(pmu, "psb_periods", true).value_or(0));
    if (psb_periods != 0) {
      terms.emplace_back("psb_period", static_cast<std::uint64_t>(pick_bit(psb_periods, 3)));
    }
  }
  if (pmu.find_format("pt") != nullptr && pmu.find_format("branch") != nullptr) {
    terms.emplace_back("pt", 1);
    terms.emplace_back("branch", 1);
  }
  return terms;
}

struct DefaultConfigEntry {
  std::string_view pmu_name;  // exact PMU name, as perf compares it
  std::vector<DefaultTerm> (*terms)(const Pmu&);
};

// perf 6.1 on Arm has no config default for cs_etm (only driver config), and arm_spe's default
// sets sample_period, not config bits; neither can be checked with the x86 perf oracle.
constexpr DefaultConfigEntry kDefaultConfigs[] = {
    {"intel_pt", intel_pt_terms},
};

}  // namespace

std::optional<std::vector<DefaultTerm>> pmu_default_terms(const Pmu& pmu) {
  for (const DefaultConfigEntry& entry : kDefaultConfigs) {
    if (pmu.name() == entry.pmu_name) return entry.terms(pmu);
  }
  return std::nullopt;
}

std::optional<ConfigWords> pmu_default_config(const Pmu& pmu) {
  auto terms = pmu_default_terms(pmu);
  if (!terms) return std::nullopt;
  ConfigWords config{};
  for (const auto& [name, value] : *terms) {
    const Format* format = pmu.find_format(name);
    if (format == nullptr || !format->spec.word_supported()) return ConfigWords{};
    const std::uint64_t mask = format->spec.mask;
    const std::uint64_t fitted = scatter_bits(value & format->spec.max_value(), mask);
    config[format->spec.word] = (config[format->spec.word] & ~mask) | fitted;
  }
  return config;
}

}  // namespace encode_detail
PMUCAT_END_NAMESPACE
