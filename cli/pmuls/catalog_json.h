// pmuls --json: the selected part of the catalog as one JSON document (docs/cli.md,
// docs/schema/pmuls.schema.json).
#pragma once

#include <functional>
#include <span>
#include <string>
#include <string_view>

#include "common/json.h"
#include "pmucat/catalog.h"
#include "pmucat/perf_profile.h"
#include "pmuls/event_filter.h"

PMUCAT_BEGIN_NAMESPACE
namespace cli {

// One PMU: attributes, formats with their bit lists, and its events with terms and encodings.
// When `only_event` is set, just that event is included; else the events `filter` selects. The
// `perf list -j` fields are those of the perf `semantics` follow (list_json_fields: perf 7.3's).
Json pmu_to_json(const Pmu& pmu, const Event* only_event = nullptr, const EventFilter& filter = {},
                 const Profile& semantics = {});

// The Unit perf 6.12's `perf list` gives an event of `pmu`: for a vendor JSON event the PMU the
// event's table names (VendorEvent::pmu: `uncore_cha` for an event on uncore_cha_0..3, which perf
// lists once when it has a description, once per instance as `uncore_cha_0/name/` when not;
// `uncore_cbox_0` for broadwell's `cbox_0` event), the PMU's own name for a core event (no
// Unit); for a sysfs event the PMU's name.
std::string perf_list_unit(const Pmu& pmu, const Event& event);

// A JSON ScaleUnit as perf 6.12's tables hold it: its number printed again as C's `%G`
// (`6.103515625E-5MB/sec` -> `6.10352E-05MB/sec`, `6000000000ns` -> `6E+09ns`, `64Bytes` as it
// was); a text without a leading number as written.
std::string perf612_scale_unit(std::string_view scale_unit);

// `PMU/terms/`, what `perf list -j` (perf 6.2+) calls an event's Encoding: the terms the event
// encodes with (the sysfs file's for an event both have), numbers spelled as C's `%#x` (`0x3c`,
// and `0` for zero), bare terms bare, other values as print_terms writes them.
std::string perf_list_encoding(std::string_view pmu_name, const Event& event);
// The same as perf 7.3 prints it (list_json_fields): the terms as its tables hold them, the
// events/ file's text (trailing blanks and newlines removed) for a sysfs event or one both have,
// the term string jevents built (VendorEvent::terms) for a JSON-only one
// (`cpu/event=0xb0,cmask=1,period=1000003,umask=9/`).
std::string perf73_list_encoding(std::string_view pmu_name, const Event& event);

// Whether perf 7.3's `perf list -j` leaves the event of `pmu` out (list_json_fields): a core
// PMU's sysfs event named as a legacy hardware event (`instructions`, `cpu-cycles`, any case),
// which perf 7.3 takes as that legacy event of its tables and lists, if at all, as a hardware
// event.
bool perf73_list_hides(const Pmu& pmu, const Event& event);

// One format: name, word, canonical spec, bit list, mask, width and max.
Json format_to_json(const Format& format);

// {"sysfs": <devices dir>, "pmus": [...]}.
Json catalog_to_json(const Catalog& catalog, std::span<const Json> pmus);

// The text of dump_json(catalog_to_json(catalog, {pmu_to_json(pmu)...})), printed PMU by PMU
// (JsonWriter, no Json values) and handed to `write` in order, in pieces: only a few PMUs' text
// exists at once, so memory does not grow with the tree. Each directory-backed PMU is read into
// a scratch Pmu that is dropped once printed, so the catalog's own PMUs stay unloaded. PMUs are
// read and printed on up to `jobs` threads; `write` is called on the calling thread only. Each
// PMU lists the events `filter` selects. A catalog with vendor JSON events prints its own PMUs
// (a scratch copy would lack those events), which then stay loaded. `more_members` is written
// after `pmus` as it is (`,\n  "events": [...]`: the built-in events, laid out one level deep).
void write_catalog_json(const Catalog& catalog, std::span<const Pmu* const> pmus, unsigned jobs,
                        const EventFilter& filter, const Profile& semantics,
                        const std::function<void(std::string_view)>& write,
                        std::string_view more_members = {});

}  // namespace cli
PMUCAT_END_NAMESPACE
