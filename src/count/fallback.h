// --fallback's ladder (fallback.cpp): the next attr to try when one does not open.
#pragma once

#include <optional>
#include <string>

#include "pmucat/count.h"
#include "pmucat/version.h"

PMUCAT_BEGIN_NAMESPACE
namespace count_detail {

struct Fallback {
  Attr attr;                // what to open instead
  std::string description;  // "cycles -> cpu-clock (...)", for the substituted grade
  std::string name;         // the event's new name ("cpu-clock"); empty: unchanged
};

// The next rung below `tried` (the attr that was refused) for `event`: precise_ip lowered by
// one; a vendor event's built-in equivalent (inst_retired.any -> instructions); cycles ->
// cpu-clock. nullopt at the bottom.
std::optional<Fallback> next_fallback(const CountEvent& event, const Attr& tried);

}  // namespace count_detail
PMUCAT_END_NAMESPACE
