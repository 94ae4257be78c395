// The content digest of a compiled index file and of a cache stamp: XXH64 (written from the
// published xxHash specification, seed 0). Not a defence against someone who can write the
// file (the cache checks ownership and mode for that); it detects damage: any change of the
// bytes changes the digest but with probability 2^-64.
#pragma once

#include <cstdint>
#include <string_view>

#include "pmucat/version.h"

PMUCAT_BEGIN_NAMESPACE
namespace pmu_events_index {

std::uint64_t digest64(std::string_view bytes);

}  // namespace pmu_events_index
PMUCAT_END_NAMESPACE
