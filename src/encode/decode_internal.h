// Decoding with a choice of which overlapping formats get the bits.
#pragma once

#include <array>
#include <cstdint>
#include <span>

#include "pmucat/attr.h"
#include "pmucat/decode.h"

PMUCAT_BEGIN_NAMESPACE
namespace encode_detail {

// Like decode(), but where formats overlap the `preferred` ones (those an encoding used) claim
// bits before the others, so `ldlat=0x1e` is not re-spelled through a wider `frontend` field.
// `events` is left empty (naming the matching events costs an encode of every event). When the
// preferred formats cover every set bit of a PMU without a default config, they alone give the
// answer and the PMU's other formats are not read; `only_preferred_when_covered = false` reads
// them all anyway (the reference the tests compare that shortcut with).
Decoded decode_preferring(const Pmu& pmu, const ConfigWords& config,
                          std::span<const Format* const> preferred,
                          bool only_preferred_when_covered = true);

}  // namespace encode_detail
PMUCAT_END_NAMESPACE
