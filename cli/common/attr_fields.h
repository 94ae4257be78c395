// The fields of a perf_event_attr that are set, by perf's names and in perf's order: the common
// ground of the JSON and C-initializer outputs.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "pmucat/attr.h"

PMUCAT_BEGIN_NAMESPACE
namespace cli {

enum class FieldStyle : std::uint8_t {
  decimal,         // counts, sizes, ids
  hex,             // config words, bit masks
  flag,            // one-bit flags (value is 1)
  signed_decimal,  // clockid
};

struct AttrField {
  std::string_view name;    // perf_event_attr member name (config1, not bp_addr)
  std::uint64_t value = 0;  // for signed_decimal: the int64 value's bits
  FieldStyle style = FieldStyle::decimal;
  // For bit-mask fields perf prints by name (sample_type, read_format, branch_sample_type).
  enum class Names : std::uint8_t { none, sample_type, read_format, branch_sample_type };
  Names names = Names::none;
};

// `type`, `size` and the fields that differ from zero, in the order `perf stat -vv` prints them.
// sample_period/sample_freq and wakeup_events/wakeup_watermark appear under the name the attr's
// `freq`/`watermark` flag selects. The config words come only when `with_config` is true.
std::vector<AttrField> set_attr_fields(const Attr& attr, bool with_config = true);

// True for config, config1, config2, config3 and config4.
bool is_config_word(std::string_view field_name);

}  // namespace cli
PMUCAT_END_NAMESPACE
