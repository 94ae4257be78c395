// Event specs for the differential test: every event of a tree, plus random specs and random
// trees from a seeded generator (so a failure is reproducible from PMUCAT_DIFF_SEED).
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "pmucat/version.h"
#include "tree_model.h"

PMUCAT_BEGIN_NAMESPACE
namespace differential {

enum class CaseKind : std::uint8_t {
  event,              // pmu/alias/ with every `?` parameter supplied
  missing_param,      // pmu/alias/ with one `?` parameter left out
  fields,             // random format terms, values in range
  field_max,          // one field at its maximum
  field_over,         // one field one past its maximum
  alias_other_field,  // alias + user terms for fields the alias does not set
  alias_same_field,   // alias + a user term for a field the alias sets (override vs OR)
  repeated_field,     // the same field twice from the user
  raw_config,         // config=/config1=/config2= terms, maybe with a field
  unknown_term,       // a term no format defines
  pmu_pattern,        // an instance prefix (`uncore_imc/...`) selecting several PMUs
};
const char* to_string(CaseKind kind);

struct SpecCase {
  std::string spec;
  CaseKind kind = CaseKind::event;
  std::string pmu;                      // the PMU (or pattern) written
  std::string alias;                    // the event used, if any
  std::vector<std::string> user_terms;  // terms written after the alias (`name=value`)
  std::string field;                    // alias_same_field / repeated_field: the field concerned
};

using Rng = std::mt19937_64;

// One `event` (and, for events with parameters, one `missing_param`) case per event of the tree.
std::vector<SpecCase> event_cases(const TreeModel& tree, Rng& rng);

// For every field of every PMU (one PMU per instance group): the field at its maximum and one
// past it.
std::vector<SpecCase> field_limit_cases(const TreeModel& tree, Rng& rng);

// `count` random cases over the PMUs of the tree that have formats.
std::vector<SpecCase> random_cases(const TreeModel& tree, Rng& rng, unsigned count);

// A random tree: `pmu_count` PMUs with random (sometimes hyphenated) names, unique dynamic
// types, non-contiguous formats over config..config2 (config3 when `with_config3`), and events
// with random terms (hex/decimal values, `?` parameters), units and scales.
TreeModel random_tree(Rng& rng, unsigned pmu_count, bool with_config3);

// Rewrites an alias_same_field case as the explicit terms pmucat's override semantics mean:
// the alias' terms with `field` replaced by the user's value, then the other user terms.
std::string override_equivalent(const SpecCase& spec_case, const TreeModel& tree);

}  // namespace differential
PMUCAT_END_NAMESPACE
