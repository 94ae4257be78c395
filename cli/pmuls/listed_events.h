// The events pmuls lists besides the PMUs' own: perf's built-in hardware, software, tool and
// hardware cache events (pmucat/builtin_events.h) and tracepoints (pmucat/tracefs.h). Each is one
// ListedEvent, whatever its source, so every view (perf list's lines, --event detail, --json) and
// every filter treats them alike; a new source only has to produce entries.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "common/json.h"
#include "pmucat/catalog.h"
#include "pmucat/expected.h"
#include "pmuls/event_filter.h"

PMUCAT_BEGIN_NAMESPACE
namespace cli {

// --kind values, perf list's selectors: in perf list's section order.
enum class ListKind : unsigned char { hw, sw, tool, cache, pmu, tracepoint };

class KindSet {
 public:
  static KindSet all_builtins();  // hw, sw, tool, cache
  void add(ListKind kind) { bits_ |= 1u << static_cast<unsigned>(kind); }
  bool has(ListKind kind) const { return (bits_ & (1u << static_cast<unsigned>(kind))) != 0; }
  // Any kind besides `pmu`: the listing has entries from listed_event sources.
  bool has_non_pmu() const { return (bits_ & ~(1u << static_cast<unsigned>(ListKind::pmu))) != 0; }

 private:
  unsigned bits_ = 0;
};

// The kind a --kind item names: `hw`, `sw`, `tool`, `cache`, `pmu`, `tracepoint`, and perf list's
// long spellings `hardware`, `software`, `hwcache`; nullopt for anything else.
std::optional<ListKind> parse_kind(std::string_view text);

// --kind values: each a comma list of kinds or `all` (every kind but tracepoint, which needs a
// tracefs). Unknown items
// are rejected by CLI11's check (kind_check) before this runs.
KindSet parse_kinds(std::span<const std::string> values);

// "" when every item of a --kind value is a kind or `all`, else the message for the first bad one.
std::string kind_check(const std::string& value);

// One event that is not a PMU's sysfs or JSON event.
struct ListedEvent {
  std::string kind;                  // `hw`, `sw`, `tool`, `cache`, `tracepoint`
  std::string tag;                   // perf list's `[...]` text: `Hardware event`, ...
  std::string name;                  // perf's name
  std::vector<std::string> aliases;  // listed after `OR`, accepted by the encoder too
  std::string description;
  std::uint32_t type = 0;  // perf_event_attr type and config the name encodes to
  std::uint64_t config = 0;
  bool available = true;          // by the tree rule of docs/catalog.md
  std::vector<std::string> pmus;  // the PMUs that count it (core PMUs for hw/cache), else empty
};

// perf's built-in events of the kinds `kinds` selects, in perf list's order, with availability
// on `catalog`'s tree.
std::vector<ListedEvent> builtin_listed_events(const Catalog& catalog, KindSet kinds);

// The tracepoints of the tracefs at `root` (empty: the running kernel's), as perf list prints
// them (`sched:sched_switch`, `[Tracepoint event]`, type 2, config = id), sorted; a located
// error when there is no tracefs there or an id is unreadable.
Expected<std::vector<ListedEvent>> tracepoint_listed_events(const std::string& root);

// Whether `event` passes `filter`: the glob matches its name or an alias, each --search word is
// in its name, an alias, its tag or its description; a --topic filter selects none (these events
// have no topic).
bool listed_event_selected(const ListedEvent& event, const EventFilter& filter);

// The entries named `name` (or with it as an alias), case-insensitively, as --event compares.
std::vector<const ListedEvent*> find_listed_events(std::span<const ListedEvent> events,
                                                   std::string_view name);

// perf list's lines: `  NAME[ OR ALIAS]` padded to 50 columns, then `[TAG]`; an event not
// available on the tree ends in `(not available: no core PMU)`.
std::string render_listed_events(std::span<const ListedEvent> events);

// --event NAME for one entry: its names, kind, encoding, availability and description.
std::string render_listed_event_detail(const ListedEvent& event);

// The entries as the `events` array of pmuls --json (docs/cli.md): a Json value, and the same
// text for the streamed document (dump_json's layout, one level deep).
Json listed_events_to_json(std::span<const ListedEvent> events);
std::string listed_events_json_text(std::span<const ListedEvent> events);

}  // namespace cli
PMUCAT_END_NAMESPACE
