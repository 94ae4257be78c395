// `pmudata info`: what a perf.data holds, as text or JSON.
#pragma once

#include <string>

#include "common/json.h"
#include "pmucat/catalog.h"
#include "pmudata/inputs.h"

PMUCAT_BEGIN_NAMESPACE
namespace cli {

// Events (decoded back to PMU terms and event names when `catalog` is given), features and
// record counts by type.
Json info_json(const LoadedData& loaded, const Catalog* catalog);
std::string info_text(const LoadedData& loaded, const Catalog* catalog);

}  // namespace cli
PMUCAT_END_NAMESPACE
