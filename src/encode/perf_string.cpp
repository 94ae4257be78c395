#include "encode/perf_string.h"

#include <fmt/format.h>

#include "encode/decode_internal.h"
#include "pmucat/hwmon.h"
#include "pmucat/version.h"

PMUCAT_BEGIN_NAMESPACE
namespace encode_detail {

namespace {

// A hwmon PMU's sensor by the config it encodes to (`temp1` for 0xa0001), which perf's parser
// takes where it refuses `config=` (docs/hwmon.md), whether or not the device has it (perf does
// not check); empty for a config no sensor encodes to.
std::string hwmon_sensor_name(const ConfigWords& config) {
  if (config[1] != 0 || config[2] != 0 || config[3] != 0 || config[4] != 0 ||
      config[0] > 0xffffffU) {
    return {};
  }
  for (const HwmonSensorKind& kind : hwmon_sensor_kinds()) {
    if (kind.code != (config[0] >> 16)) continue;
    return fmt::format("{}{}", kind.prefix, static_cast<std::int16_t>(config[0] & 0xffffU));
  }
  return {};
}

}  // namespace

std::string perf_string(const Pmu& pmu, const ConfigWords& config,
                        std::span<const Format* const> used, std::span<const Term> specials,
                        const Modifiers& modifiers) {
  const auto type = pmu.attributes().type;
  std::string terms = type && is_hwmon_type(*type) ? hwmon_sensor_name(config) : std::string();
  if (terms.empty()) terms = decode_preferring(pmu, config, used).terms_string;
  if (!specials.empty()) {
    if (!terms.empty()) terms += ',';
    terms += print_terms(specials);
  }
  return fmt::format("{}/{}/{}", pmu.name(), terms, canonical_modifiers(modifiers));
}

}  // namespace encode_detail
PMUCAT_END_NAMESPACE
