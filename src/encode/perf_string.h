// The canonical, fully resolved spec printed for an encoded event.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>

#include "pmucat/attr.h"
#include "pmucat/catalog.h"
#include "pmucat/spec.h"
#include "pmucat/terms.h"

PMUCAT_BEGIN_NAMESPACE
namespace encode_detail {

// `pmu/<decoded format terms>[,config=residue][,special terms]/<modifiers>`: re-encodes to the
// same config words with OR and with override semantics alike, because no two printed terms
// share a bit.
// `used` are the formats the encoding assigned: they keep their bits where fields overlap.
std::string perf_string(const Pmu& pmu, const ConfigWords& config,
                        std::span<const Format* const> used, std::span<const Term> specials,
                        const Modifiers& modifiers);

}  // namespace encode_detail
PMUCAT_END_NAMESPACE
