// Comparison of two PMU trees (pmudiff): what was added, removed or changed, and which changes
// break what perf users already rely on.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "pmucat/attr.h"
#include "pmucat/catalog.h"
#include "pmucat/version.h"

PMUCAT_BEGIN_NAMESPACE
namespace diff {

enum class ChangeKind : std::uint8_t { added, removed, changed };
// What changed. Event metadata (unit .. snapshot) is named by its event; cap by its caps/ file;
// attribute by its PMU file (alias, identifier, nr_addr_filters, perf_event_mux_interval_ms).
enum class Subject : std::uint8_t {
  pmu,
  type,
  cpumask,
  cpus,
  attribute,
  cap,
  format,
  event,
  unit,
  scale,
  per_pkg,
  snapshot,
};
// "added", "removed", "changed".
std::string_view to_string(ChangeKind kind);
// "pmu", "type", "cpumask", "cpus", "attribute", "cap", "format", "event", "unit", "scale",
// "per-pkg", "snapshot".
std::string_view to_string(Subject subject);

struct Change {
  ChangeKind kind = ChangeKind::changed;
  Subject subject = Subject::event;
  std::string pmu;
  std::string name;      // format, event, cap or attribute name; empty for PMU-level changes
  std::string old_text;  // file content (trimmed), type number, cpu list, "(none)"
  std::string new_text;
  // Event encodings (config..config4) where the event could be encoded on its tree.
  std::optional<ConfigWords> old_config;
  std::optional<ConfigWords> new_config;
  // What perf reports for an existing name changes: an event removed or encoding other bits,
  // a format field removed or narrowed, an event's unit or scale changed. Everything else
  // (additions, types, cpu lists, caps, attributes, .per-pkg/.snapshot) is informational.
  bool abi_break = false;
  std::string reason;  // why it is (or is not) a break, one line
  friend bool operator==(const Change&, const Change&) = default;
};

struct Result {
  std::vector<Change> changes;  // PMU order, then subject, then name
  // True when some change is an ABI break.
  bool has_abi_break() const;
};

// Compares two catalogs: PMUs, types, cpu lists, attributes, caps, formats, events and event
// metadata added, removed or changed.
Result compare(const Catalog& old_catalog, const Catalog& new_catalog);
// One line per change (`~ event uncore_qpi_0/drs_data: ... [ABI break]`), then a summary.
std::string render_text(const Result& result);
// {"changes":[...],"abi_break":bool}
std::string render_json(const Result& result);

}  // namespace diff
PMUCAT_END_NAMESPACE
