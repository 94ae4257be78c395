// pmuls --json: the selected part of the catalog as one JSON document (docs/cli.md,
// docs/schema/pmuls.schema.json).
#pragma once

#include <span>
#include <string>

#include "common/json.h"
#include "pmucat/catalog.h"

namespace pmucat::cli {

// One PMU: attributes, formats with their bit lists, and its events with terms and encodings.
// When `only_event` is set, just the event of that name (case-insensitive) is included.
Json pmu_to_json(const Pmu& pmu, const Event* only_event = nullptr);

// One format: name, word, canonical spec, bit list, mask, width and max.
Json format_to_json(const Format& format);

// {"sysfs": <devices dir>, "pmus": [...]}.
Json catalog_to_json(const Catalog& catalog, std::span<const Json> pmus);

}  // namespace pmucat::cli
