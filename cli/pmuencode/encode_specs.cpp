#include "pmuencode/encode_specs.h"

#include "common/pmu_selection.h"
#include "pmucat/encode_on_pmus.h"

PMUCAT_BEGIN_NAMESPACE
namespace cli {

EncodeResult encode_specs(const Catalog& catalog, std::span<const std::string> specs,
                          const std::string& pmu_pattern, const EncodeOptions& options) {
  EncodeResult result;
  std::vector<const Pmu*> pmus;
  if (!pmu_pattern.empty()) {
    pmus = catalog.match_pmus(pmu_pattern);
    if (pmus.empty()) {
      result.errors.push_back(unknown_pmu_error(catalog, pmu_pattern));
      return result;
    }
  }
  for (const std::string& spec : specs) {
    auto encoded = pmu_pattern.empty() ? encode(catalog, spec, options)
                                       : encode_on_pmus(catalog, spec, pmus, pmu_pattern, options);
    if (encoded) {
      // Each argument's group leaders index its own result.
      const std::size_t base = result.events.size();
      for (EncodedEvent& event : *encoded) {
        if (event.group_leader) *event.group_leader += base;
        result.events.push_back(std::move(event));
      }
    } else {
      result.errors.push_back(std::move(encoded.error()));
    }
  }
  return result;
}

}  // namespace cli
PMUCAT_END_NAMESPACE
