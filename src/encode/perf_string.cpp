#include "encode/perf_string.h"

#include <fmt/format.h>

#include "encode/decode_internal.h"
#include "pmucat/version.h"

PMUCAT_BEGIN_NAMESPACE
namespace encode_detail {

std::string perf_string(const Pmu& pmu, const ConfigWords& config,
                        std::span<const Format* const> used, std::span<const Term> specials,
                        const Modifiers& modifiers) {
  std::string terms = decode_preferring(pmu, config, used).terms_string;
  if (!specials.empty()) {
    if (!terms.empty()) terms += ',';
    terms += print_terms(specials);
  }
  return fmt::format("{}/{}/{}", pmu.name(), terms, canonical_modifiers(modifiers));
}

}  // namespace encode_detail
PMUCAT_END_NAMESPACE
