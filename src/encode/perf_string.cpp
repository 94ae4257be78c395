#include "encode/perf_string.h"

#include <fmt/format.h>

#include "encode/decode_internal.h"
#include "pmucat/hwmon.h"
#include "pmucat/version.h"

PMUCAT_BEGIN_NAMESPACE
namespace encode_detail {

std::string perf_string(const Pmu& pmu, const ConfigWords& config,
                        std::span<const Format* const> used, std::span<const Term> specials,
                        const Modifiers& modifiers) {
  // A hwmon PMU's sensor by its name (`temp1`), which perf's parser takes where it refuses
  // `config=` (docs/hwmon.md), whether or not the device has it (perf does not check).
  std::string terms;
  if (const auto type = pmu.attributes().type; type && is_hwmon_type(*type)) {
    const bool config_only = config[1] == 0 && config[2] == 0 && config[3] == 0 && config[4] == 0;
    if (const auto key = hwmon_event_key_of_config(config[0]); key && config_only) {
      terms = key->event_name();
    }
  }
  if (terms.empty()) terms = decode_preferring(pmu, config, used).terms_string;
  if (!specials.empty()) {
    if (!terms.empty()) terms += ',';
    terms += print_terms(specials);
  }
  return fmt::format("{}/{}/{}", pmu.name(), terms, canonical_modifiers(modifiers));
}

}  // namespace encode_detail
PMUCAT_END_NAMESPACE
