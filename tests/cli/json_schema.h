// A small validator for the subset of JSON Schema that docs/schema/*.json use (nlohmann has
// none): type (a name or a list), properties, required, additionalProperties (bool or schema),
// items, enum, const, minimum, maximum, minItems, and $ref to "#/$defs/<name>".
// "integer" accepts only integers (a 64-bit word stored as a double fails).
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "pmucat/version.h"

PMUCAT_BEGIN_NAMESPACE
namespace testing {

// Every violation of `schema` by `instance`, each as "<json pointer>: <what is wrong>"; empty when
// the instance is valid. Unknown keywords are errors too, so a schema cannot silently use more
// than this validator checks.
std::vector<std::string> validate_json(const nlohmann::json& schema,
                                       const nlohmann::json& instance);

// Every keyword in `schema` or any schema nested in it that validate_json does not know, and every
// $ref it cannot resolve, as "<schema pointer>: <problem>".
std::vector<std::string> check_schema(const nlohmann::json& schema);

}  // namespace testing
PMUCAT_END_NAMESPACE
