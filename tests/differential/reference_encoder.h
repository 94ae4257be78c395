// A small, independent encoder for the generated cases, written from the documented pmucat
// semantics (a user term overrides the alias' value for the same field; repeated user fields,
// unknown terms, missing parameters and values over a field's maximum are errors). It checks
// pmucat's default semantics where perf 6.1 cannot serve as the oracle (hyphenated PMU names,
// config3 fields).
#pragma once

#include <optional>
#include <vector>

#include "perf_oracle.h"
#include "pmucat/version.h"
#include "spec_generator.h"
#include "tree_model.h"

PMUCAT_BEGIN_NAMESPACE
namespace differential {

// The PMUs a case's PMU name selects: the exact name, else its `_<n>` instances.
std::vector<const PmuModel*> select_pmus(const std::string& name, const TreeModel& tree);

// The distinct sorted attrs pmucat's default semantics should build, or nullopt for an error.
std::optional<std::vector<AttrWords>> reference_encode(const SpecCase& spec_case,
                                                       const TreeModel& tree);

}  // namespace differential
PMUCAT_END_NAMESPACE
