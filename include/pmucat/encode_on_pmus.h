// Encoding with a PMU selection (pmuencode --pmu): one spec on the PMUs a pattern chose.
#pragma once

#include <span>
#include <string_view>
#include <vector>

#include "pmucat/catalog.h"
#include "pmucat/encode.h"
#include "pmucat/expected.h"
#include "pmucat/version.h"

PMUCAT_BEGIN_NAMESPACE

// encode(catalog, spec, options) on the PMUs `pmus` (those the user's `pattern` selected, for
// messages): bare terms and `rHEX` are encoded on each of them in turn, an event that other forms
// give once per round kept once; a bare event name keeps only the attrs of those PMUs, or, when
// none of them came out (a built-in name such as `cycles`), is each selected PMU's own event of
// that name; `pmu/.../` specs name their own PMU and are left alone. Group leaders index the
// result. A bare event name no selected PMU has is rejected (event-not-on-pmu).
Expected<std::vector<EncodedEvent>> encode_on_pmus(const Catalog& catalog, std::string_view spec,
                                                   std::span<const Pmu* const> pmus,
                                                   std::string_view pattern,
                                                   const EncodeOptions& options);

PMUCAT_END_NAMESPACE
