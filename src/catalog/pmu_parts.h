// Loaders for the three lazily read parts of a PMU directory (internal to the catalog).
// Each takes the PMU directory path (also used in diagnostics) and never throws for I/O or
// content problems: they become diagnostics.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "pmucat/catalog.h"

PMUCAT_BEGIN_NAMESPACE
namespace detail {

// The `type` file alone, read first and on its own because encoding needs nothing else of the
// PMU directory.
struct TypeAttribute {
  std::optional<std::uint32_t> type;
  std::string text;  // trailing newline removed
  std::vector<Diagnostic> diagnostics;
  bool pmu_dir_unreadable = false;  // the PMU directory itself could not be opened
};
TypeAttribute load_type(const std::string& pmu_dir);

// What one listing of the PMU directory gave: cpumask, cpus, caps/, alias, identifier,
// nr_addr_filters, perf_event_mux_interval_ms and `type`, and whether format/ and events/ exist
// (so that loading an absent one costs no failing open).
struct LoadedAttributes {
  PmuAttributes attributes;  // with `type` copied in
  TypeAttribute type;
  // True unless the listing shows the entry is absent (also true when there was no listing).
  bool may_have_formats = true;
  bool may_have_events = true;
};
// `known_type` is the `type` file read before, or nullptr: `type` is then read through the
// listing, which spares the path walk and the fstat() of a separate open.
LoadedAttributes load_attributes(const std::string& pmu_dir, const TypeAttribute* known_type);

// Reads `type` text like perf's fscanf("%u"): leading blanks, digits, trailing junk ignored
// (with a warning; "0x2e" reads as 0 with an error). No digits: no type, and an error.
struct TypeReading {
  std::optional<std::uint32_t> type;
  std::vector<Diagnostic> diagnostics;
};
TypeReading read_type(std::string_view text, std::string_view file);

struct LoadedFormats {
  std::vector<Format> formats;          // sorted by name
  std::vector<Diagnostic> diagnostics;  // unreadable or unparsable files (lints stay in specs)
};
// Every file of format/; an unreadable or unparsable one is still listed, with an empty spec.
LoadedFormats load_formats(const std::string& pmu_dir);

// One field read by its path, format/<name>, without listing format/: what an encode that names
// a few fields needs. `name` must be a possible directory entry (no '/' or NUL, not "." or
// ".."). Anything the listing would report (an unreadable, unparsable or non-regular file, a
// dangling link) is `ask_listing`, so the caller answers from load_formats() and reports it.
struct ProbedFormat {
  enum class Outcome : std::uint8_t {
    found,       // `format` is the listing's entry of that name, read and parsed the same way
    absent,      // nothing of that name in format/ (or no format/): the listing lacks it too
    ask_listing  // only the listing can answer as it would
  };
  Outcome outcome = Outcome::ask_listing;
  Format format;
};
ProbedFormat probe_format(const std::string& pmu_dir, std::string_view name);

struct LoadedEvents {
  std::vector<Event> events;            // sorted by name, metadata attached
  std::vector<Diagnostic> diagnostics;  // directory problems and orphan metadata files
};
// One listing of events/; metadata files are attached to their base events. With
// `only_lower_name`, only the entries whose (base) name lower-cases to it are read: every case
// variant of one name and its metadata, for a lookup that merges one name (Pmu::find_event).
LoadedEvents load_events(const std::string& pmu_dir, std::string_view only_lower_name = {});

// One name's sysfs events for a lookup before the PMU's listing, with events/ opened once: each
// of `spellings` (in order) probed by openat() on that directory (ENOENT, ENOTDIR, ELOOP or
// ENAMETOOLONG: not there, the listing decides), the first found returned alone, without
// metadata, with `error` set when it could not be read or parsed; when none is there, the same
// directory listed for every case variant of `lower` (load_events(pmu_dir, lower)'s answer). A PMU
// without events/ costs one failed open.
struct NamedEvents {
  std::optional<Event> probed;  // a spelling's file, opened directly
  LoadedEvents variants;        // otherwise: every case variant of the name, metadata attached
};
NamedEvents find_named_events(const std::string& pmu_dir, std::span<const std::string> spellings,
                              std::string_view lower);

}  // namespace detail
PMUCAT_END_NAMESPACE
