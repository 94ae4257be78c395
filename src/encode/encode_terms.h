// encode_terms over term views: the core's attr wrapped into an EncodedEvent.
#pragma once

#include <span>
#include <string_view>

#include "pmucat/encode.h"
#include "pmucat/terms.h"

PMUCAT_BEGIN_NAMESPACE
namespace encode_detail {

// encode_terms() for terms that view the spec text (or catalog Terms).
Expected<EncodedEvent> encode_term_views(const Pmu& pmu, std::span<const TermView> terms,
                                         const Modifiers& modifiers, std::string_view spec_text,
                                         const EncodeOptions& options);

}  // namespace encode_detail
PMUCAT_END_NAMESPACE
