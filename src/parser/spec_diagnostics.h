// Diagnostics located in the command-line spec ("<spec>").
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "pmucat/diagnostic.h"
#include "pmucat/diagnostic_ids.h"

PMUCAT_BEGIN_NAMESPACE
namespace spec_detail {

inline constexpr std::string_view kSpecFile = "<spec>";

// A byte as a message names it: 'x' when printable, else "byte 0x1f".
std::string describe_byte(char c);

// An error under bytes [offset, offset+length) of the spec list `spec` (cold, as
// make_diagnostic).
[[gnu::cold]] Diagnostic spec_error(DiagId id, std::string_view spec, std::size_t offset,
                                    std::size_t length, std::string message);

}  // namespace spec_detail
PMUCAT_END_NAMESPACE
