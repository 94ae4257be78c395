// JSON helpers shared by the tools. 64-bit words are stored as JSON unsigned integers (never
// doubles), and keys keep the order they were added in so output is stable and readable.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "pmucat/attr.h"
#include "pmucat/diagnostic.h"
#include "pmucat/diagnostic_json.h"
#include "pmucat/encode.h"

PMUCAT_BEGIN_NAMESPACE
namespace cli {

using Json = nlohmann::ordered_json;

// The JSON of a diagnostic (pmucat/diagnostic_json.h), as every tool writes it.
inline Json diagnostic_to_json(const Diagnostic& diagnostic) {
  return pmucat::diagnostic_to_json<Json>(diagnostic);
}

// Adds `type`, `size`, `config`..`config3` (always), `config4` (when set) and every other attr
// field that is set to `object`: one-bit flags as `true`, everything else as a number.
void add_attr_fields(const Attr& attr, Json& object);

// pmuencode --json's object for one event (the Python module's EncodedEvent.to_dict() too):
// spec, pmu, event, every attr field that is set (type and config words always), the evsel
// settings perf keeps beside the attr, and `perf`.
Json encoded_to_json(const EncodedEvent& event);

// The text of `value`, indented by two spaces, ending in a newline.
std::string dump_json(const Json& value);

}  // namespace cli
PMUCAT_END_NAMESPACE
