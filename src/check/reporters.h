// Helpers the reporters share.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "pmucat/check.h"

PMUCAT_BEGIN_NAMESPACE
namespace check::detail {

// One finding as a JSON object (shared by the JSON and KCIDB reporters).
nlohmann::json finding_json(const Finding& finding);
// The finding rendered clang-style without colour, marked when baselined.
std::string plain_text(const Finding& finding);
// True when some finding of the group fails the run.
bool group_fails(const Report& report, const GroupResult& group);
bool pmu_fails(const Report& report, const PmuReport& pmu);
bool tree_fails(const Report& report);
// The name the tree's own test carries in KTAP, JUnit and KCIDB.
inline constexpr std::string_view kTreeTestName = "devices";

}  // namespace check::detail
PMUCAT_END_NAMESPACE
