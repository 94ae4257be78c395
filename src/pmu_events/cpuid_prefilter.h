// A cheap necessary condition for a mapfile row to match a CPU identifier, so that choosing a
// model compiles (regcomp, far dearer than the test) only the rows that could match.
#pragma once

#include <string_view>

#include "pmucat/version.h"

PMUCAT_BEGIN_NAMESPACE
namespace pmu_events {

// False only when no match of the POSIX extended regular expression `pattern` can occur in `id`:
// every match holds the pattern's literal start (`GenuineIntel-6-`), followed, when the pattern
// makes it plain, by one whole alternative of a group of plain ones (`(97|9A)`) or one byte of a
// bracket (`[56789A-F]`). True says nothing: the row must still be compiled and run.
bool cpuid_may_match(std::string_view pattern, std::string_view id);

}  // namespace pmu_events
PMUCAT_END_NAMESPACE
