// The output forms of pmuencode for encoded events: perf -vv style dump, canonical perf strings,
// a C initializer, and JSON (docs/cli.md, docs/schema/pmuencode.schema.json).
#pragma once

#include <span>
#include <string>

#include "common/json.h"
#include "pmucat/encode.h"

PMUCAT_BEGIN_NAMESPACE
namespace cli {

// For each event: the set attr fields between perf's dashed lines, then the canonical string.
std::string render_attr_dumps(std::span<const EncodedEvent> events);
// Events [begin, end) of `events` (one of a metric expansion's event lists), numbered from
// `begin`; their group leaders are indices into the whole of `events`.
std::string render_attr_dumps(std::span<const EncodedEvent> events, std::size_t begin,
                              std::size_t end);

// The canonical strings, one per line, ready for `perf stat -e`.
std::string render_perf_strings(std::span<const EncodedEvent> events);

// A compilable C initializer: `struct perf_event_attr attr = {...};` for one event, an array
// `attrs[]` for several, each with its spec in a comment.
std::string render_c_initializer(std::span<const EncodedEvent> events);

}  // namespace cli
PMUCAT_END_NAMESPACE
