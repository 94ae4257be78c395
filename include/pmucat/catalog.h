// The sysfs PMU catalog: /sys/bus/event_source/devices or any tree laid out like it, read lazily.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "pmucat/diagnostic.h"
#include "pmucat/expected.h"
#include "pmucat/format.h"
#include "pmucat/perf_profile.h"
#include "pmucat/terms.h"
#include "pmucat/vendor_events.h"
#include "pmucat/version.h"

PMUCAT_BEGIN_NAMESPACE

// Files larger than this are not read (a diagnostic says so); real sysfs files are < 4 KiB.
inline constexpr std::size_t kMaxSysfsFileSize = 64 * 1024;

// Diagnostic ids the catalog reports (parser ids such as format-* pass through unchanged):
//  file-unreadable     open/read failed (EACCES, EIO, ELOOP, a dangling link, ...)
//  file-not-regular    a directory, FIFO, socket or device where a file belongs (never opened
//                      for reading, so a FIFO cannot hang the reader)
//  file-too-large      more than kMaxSysfsFileSize bytes
//  file-nul-byte       a NUL byte in a text attribute (located at the byte)
//  pmu-dir-unreadable  the PMU entry is a dangling symlink, a symlink loop or not a directory
//  pmu-type-missing    no `type` file (perf 6.1 ignores such a directory)
//  pmu-type-invalid    `type` has no digits or does not fit 32 bits: type() is empty
//  pmu-type-hex        `type` reads "0x.." (perf's %u reads 0; type() is 0, severity error)
//  pmu-type-trailing   text after the number (ignored, warning)
//  pmu-attribute-invalid  nr_addr_filters / perf_event_mux_interval_ms not a decimal number
//  cpulist-syntax, cpulist-reversed-range, cpulist-cpu-too-large   (parse_cpu_list)
//  event-orphan-metadata  a .unit/.scale/.per-pkg/.snapshot file without its event (error)
//  event-empty         an empty event file (perf skips it; warning)
//  catalog-unreadable, catalog-not-pmu-tree   (Catalog::open errors)
//  catalog-stray-entry a file, not a directory, in the devices folder (skipped; warning)

// A format/ field. An unreadable or unparsable file is still listed, with an empty spec (no
// bits, so every non-zero value is "too big" as in newer perf); why is in Pmu::diagnostics().
struct Format {
  std::string name;  // the file name: the term users write (case-sensitive)
  FormatSpec spec;
  std::string path;  // for diagnostics
  std::string text;  // raw content, kept for validators and carets
  // Empty for a file of one term; else its last term, which perf 6.12 encodes with (`spec` holds
  // the first, as perf 6.1 and pmucat use).
  std::vector<FormatSpec> last_term = {};
  friend bool operator==(const Format&, const Format&) = default;
};

// Where an event of a PMU comes from.
enum class EventSource : std::uint8_t {
  sysfs,  // an events/ file only
  json,   // the vendor JSON catalog only
  // Both, under one name (compared case-insensitively, as perf does): the sysfs file's terms
  // encode (perf 6.1 keeps the first alias's terms, and sysfs aliases come first), the JSON event
  // gives the descriptions.
  both,
};
std::string_view to_string(EventSource source);

struct Event {
  std::string name;  // the file name as found on disk; a JSON-only event's lower-cased EventName
  // For diagnostics: the events/ file, or `<json file>[<name>]` for a JSON-only event.
  std::string path;
  std::string text;  // raw content; a JSON-only event's term string (VendorEvent::terms)
  TermList terms;    // parsed terms; empty when `error` is set
  std::optional<Diagnostic> error;  // unreadable or unparsable file
  // Metadata; only filled when the whole events/ directory was listed (Pmu::events()).
  bool metadata_loaded = false;
  std::optional<std::string> unit;
  std::optional<double> scale;
  std::string scale_text;
  bool per_pkg = false;
  bool snapshot = false;
  // Metadata problems and the parser's lints of this event (a copy of terms.lints), so this
  // one list holds every warning about the event; `error` is not repeated here.
  std::vector<Diagnostic> diagnostics;
  EventSource source = EventSource::sysfs;
  // The JSON event (source json or both), shared by every PMU instance it belongs to. For
  // `both`, the sysfs metadata above is kept (perf 6.1 overwrites it with the JSON's; see
  // docs/perf-compat.md) and `vendor->terms` may encode differently from `terms`.
  std::shared_ptr<const VendorEvent> vendor;
  friend bool operator==(const Event&, const Event&) = default;
};

// A sorted list of CPUs from a `cpumask`/`cpus` file ("0-3,8" -> 0,1,2,3,8).
struct CpuList {
  std::string text;  // as read, trailing newline removed
  std::vector<std::uint32_t> cpus;
  friend bool operator==(const CpuList&, const CpuList&) = default;
};
// Parses a kernel cpulist ("0-3,8", "0", "" is empty). Errors are located.
Expected<CpuList> parse_cpu_list(std::string_view text, std::string_view file);

enum class PmuKind : std::uint8_t { core, uncore, software, other };
std::string_view to_string(PmuKind kind);

// The PMU directory's scalar attributes, read together on first use (one small file each).
struct PmuAttributes {
  std::optional<std::uint32_t> type;  // absent when `type` is missing or unparsable
  std::string type_text;
  std::optional<CpuList> cpumask;
  std::optional<CpuList> cpus;
  std::map<std::string, std::string> caps;  // caps/<name> -> first line
  std::optional<std::string> alias;
  std::optional<std::string> identifier;
  std::optional<std::uint32_t> nr_addr_filters;
  std::optional<std::uint32_t> mux_interval_ms;  // perf_event_mux_interval_ms
  std::vector<Diagnostic> diagnostics;
  friend bool operator==(const PmuAttributes&, const PmuAttributes&) = default;
};

// Everything about one PMU, as values. Used to build a PMU without a directory (tests, fuzzers,
// perf.data readers) and as the fully loaded state of a directory-backed one.
struct PmuInfo {
  std::string name;
  PmuAttributes attributes;
  std::vector<Format> formats;  // sorted naturally by name (from_info sorts them)
  std::vector<Event> events;    // sorted by name
};

// One PMU. Directory-backed PMUs load each part (attributes, formats, events) on first use and
// cache it; every accessor is safe to call from several threads at once.
namespace detail {
class VendorCatalog;
class VendorCatalogs;
}  // namespace detail

class Pmu {
 public:
  // A PMU whose parts are all given (nothing is read from disk).
  static Pmu from_info(PmuInfo info);
  // A PMU backed by `dir` (a directory or a symlink to one); nothing is read yet. A dangling or
  // looping link shows as pmu-dir-unreadable in attributes() on first use.
  static Pmu from_directory(std::string name, std::string dir);

  Pmu(Pmu&&) noexcept;
  Pmu& operator=(Pmu&&) noexcept;
  ~Pmu();

  const std::string& name() const;
  const std::filesystem::path& path() const;  // empty for from_info PMUs

  const PmuAttributes& attributes() const;  // reads type, cpumask, cpus, caps/, ...
  // Reads only the `type` file (attributes() reuses it): what an encode needs of the PMU.
  std::optional<std::uint32_t> type() const;
  PmuKind kind() const;

  // Naturally sorted by name (f1, f2, f10); reads format/ (one listing + each file).
  std::span<const Format> formats() const;
  // Exact, case-sensitive. Before formats() has run this reads format/<name> alone (no
  // listing), up to a few names per PMU; a file the listing would report a problem with (or a
  // ninth name) reads the listing, so the answer is the same either way. The pointer stays
  // valid for the PMU's lifetime, but one read alone is not an element of formats().
  const Format* find_format(std::string_view name) const;

  std::span<const Event> events() const;  // reads events/ once, with metadata files
  // Case-insensitive lookup; the exact spelling wins, then the all-lower, then the all-upper one,
  // then the first other case variant in byte order. Before events() has run this probes
  // events/<name>, events/<lower> and events/<UPPER> only (no directory read, no metadata); if
  // none exists it lists the directory and reads that name's case variants (with metadata), so
  // the answer is the same either way. A name the vendor catalog has for this PMU is merged on
  // its own (that name's sysfs variants and JSON events), never the whole listing.
  const Event* find_event(std::string_view name) const;

  // Diagnostics gathered so far while loading this PMU (unreadable files, parse errors, lints):
  // those of the loaded parts only; nothing is loaded by asking.
  std::vector<Diagnostic> diagnostics() const;

 private:
  friend class Catalog;
  // The vendor events this PMU merges with its own; set by the catalog before the PMU is shared.
  void attach_vendor(std::shared_ptr<const detail::VendorCatalogs> vendor);

  struct State;
  explicit Pmu(std::unique_ptr<State> state);
  std::unique_ptr<State> state_;
};

// Perf's PMU-name matching: exact; `uncore_cha` matches `uncore_cha_<n>` instances (decimal
// suffix, or hex with more than two digits); `pmu*`-style globs. See perf's test__pmu_match.
bool pmu_name_matches(std::string_view pmu_name, std::string_view pattern);

// perf's rule for attaching a JSON event of PMU `vendor_pmu` (its mapped Unit, `uncore_cha`,
// or a comma list like `hisi_sicl,cpa`) to an uncore PMU named `pmu_name`: the tokens appear in
// order, the last followed by nothing or by `[_]<digits>` (pmu_uncore_alias_match).
bool vendor_pmu_matches(std::string_view vendor_pmu, std::string_view pmu_name);

// Natural order: digit runs compare as numbers ("uncore_cha_2" < "uncore_cha_10").
bool natural_less(std::string_view a, std::string_view b);

// Case-insensitive (ASCII) equality, as event names compare.
bool iequals(std::string_view a, std::string_view b);

// Where the vendor JSON events of a catalog come from.
struct VendorOptions {
  // A directory laid out like the kernel's tools/perf/pmu-events/arch (<arch>/mapfile.csv and
  // model directories of JSON files); empty: sysfs only.
  std::filesystem::path events_dir;
  // perf's CPU identifier (the format of PERF_CPUID) that chooses the model; empty: no model
  // (the system tables still apply).
  std::string cpuid;
  // A sysfs root (`/sys`, a capture) whose devices/system/cpu/cpuN/regs/identification/midr_el1
  // files describe the tree's CPUs. When set, each PMU's model is chosen by the identifier of
  // its own CPUs, as perf 6.1 does on arm64 without PERF_CPUID: the MIDR of the first CPU of its
  // cpumask (else cpus) with a readable one; a PMU with neither gets no model. `cpuid` then
  // only names the machine's model (Catalog::vendor_model()). Empty: `cpuid` for every PMU.
  std::filesystem::path midr_root = {};
  // When `events_dir` is a JSON tree (not a compiled index): a cache directory
  // (VendorIndexCache, vendor_index_cache.h) where the JSON a catalog reads is compiled once
  // and found again by later catalogs, which then read it as they read a compiled index.
  // Empty: the JSON is parsed by every catalog. A cache that cannot be used (unwritable, a
  // damaged entry) is passed over for the JSON: same events, and a note (vendor_diagnostics).
  std::filesystem::path index_cache = {};
  // The jevents rules the vendor events are wanted under. A JSON tree is read with them (the
  // tools always set them: the perf they follow, else the newest); unset, with perf 6.1's, what
  // the library read every tree with before the rules were versioned. A compiled index holds
  // events read with the rules it was built with and is used as it is: unset takes them, and
  // other rules than these get a vendor-index-rules warning.
  std::optional<PerfRelease> rules = {};
};

struct HwmonPmus;  // pmucat/hwmon.h

class Catalog {
 public:
  // `dir` is either the devices folder itself (named `devices`, or holds some <pmu>/type) or
  // any root above one that holds bus/event_source/devices, sys/bus/event_source/devices or
  // event_source/devices (`/sys`, `/`, a captured tree). Opens the devices folder without
  // listing it, unless a folder of another name has to be looked into to be accepted. The
  // listing (files among the entries are skipped with a diagnostic) is read once, by the first
  // call that needs every PMU: pmus(), match_pmus() of a pattern that is not a name,
  // core_pmu()'s fallback, diagnostics().
  static Expected<Catalog> open(const std::filesystem::path& dir);
  // The same, with the vendor JSON events of the model `vendor.cpuid` selects merged into the
  // PMUs perf attaches them to. The JSON files are read on first need (an event lookup by a name
  // sysfs lacks, or a listing); their problems are in vendor_diagnostics().
  static Expected<Catalog> open(const std::filesystem::path& dir, VendorOptions vendor);
  // This catalog with the vendor events `vendor` selects merged in, as open(dir, vendor) would
  // have opened it, without opening the tree again: for a caller whose choice of model depends
  // on the tree it found (a capture's manifest, whether it is the live one). Meant for a catalog
  // none of whose PMUs was used yet; a PMU found before gets the vendor events from then on.
  Catalog with_vendor(VendorOptions vendor) &&;
  // The same with the options worked out by `resolve`, called once, when they are first needed:
  // an event looked up by name, a listing, vendor_options() or any vendor_*() call. For a caller
  // whose choice costs file-system work (finding the installed catalog, recognising the live
  // tree) that a run which never looks up an event name should not pay, such as encoding
  // `cpu/event=0x3c/`. Options without an events directory mean sysfs only, as above.
  Catalog with_vendor(std::function<VendorOptions()> resolve) &&;
  // $PMUCAT_SYSFS when set, else /sys/bus/event_source/devices.
  static Expected<Catalog> open_default();
  // A catalog of in-memory PMUs (tests, perf.data readers).
  static Catalog from_pmus(std::vector<Pmu> pmus);
  static Catalog from_pmus(std::vector<Pmu> pmus, VendorOptions vendor);

  Catalog(Catalog&&) noexcept;
  Catalog& operator=(Catalog&&) noexcept;
  ~Catalog();

  const std::filesystem::path& devices_dir() const;  // empty for from_pmus catalogs
  std::span<const Pmu> pmus() const;                 // naturally sorted by name; nothing loaded
  // Before the listing exists this looks up the one entry (a directory or symlink is a PMU),
  // and keeps that Pmu valid for the catalog's lifetime; after it, the listed Pmu is returned.
  const Pmu* find_pmu(std::string_view exact_name) const;
  // Every PMU `pattern` selects: the exact name if it exists, else instances and globs.
  std::vector<const Pmu*> match_pmus(std::string_view pattern) const;
  // The core PMU bare terms go to: `cpu`, else `cpu_core`, else the first PMU with `cpus`.
  const Pmu* core_pmu() const;
  // Problems with the tree itself (entries that are not PMU directories, unreadable entries).
  std::span<const Diagnostic> diagnostics() const;
  // perf 7.2+'s hwmon PMUs of the tree (its sysfs root's class/hwmon; pmucat/hwmon.h), read on
  // first call; none for a from_pmus catalog. They are not among pmus(): only the semantics
  // that have Behaviour::hwmon_pmus see them.
  const HwmonPmus& hwmon_pmus() const;

  // A new Pmu over the same directory as `pmu` (one of this catalog's), with this catalog's
  // vendor events attached and nothing loaded; nullopt for a PMU without a directory
  // (from_pmus). For a caller that visits each PMU once, such as a whole listing: the copy's
  // events are freed with it, where the listed PMU keeps them for the catalog's lifetime.
  std::optional<Pmu> unloaded_copy(const Pmu& pmu) const;

  const VendorOptions& vendor_options() const;
  // The vendor model in use (read now if it was not yet), or nullptr: no events_dir or cpuid,
  // no mapfile row for the cpuid, or an unreadable model directory.
  const VendorModel* vendor_model() const;
  // The metrics of the vendor model in use (VendorModel::metrics: perf 6.1's table order; read
  // now if it was not yet); empty without a model. With VendorOptions::midr_root (arm64: a model
  // per core PMU) the model is the core PMU's (core_pmu(): `cpu`, else `cpu_core`, else the
  // first PMU with `cpus`), as perf 6.1 picks one table for -M; without a core PMU, `cpuid`'s.
  std::span<const VendorMetric> vendor_metrics() const;
  // The metric groups of vendor_metrics() (vendor_metric_groups(): sorted by name).
  std::vector<VendorMetricGroup> vendor_metric_groups() const;
  // Problems reading the vendor catalog (reads it now if it was not yet): mapfile-no-match,
  // JSON syntax errors, skipped events.
  std::span<const Diagnostic> vendor_diagnostics() const;
  // The same, as far as the vendor catalog was read by the calls made so far, reading nothing
  // more (empty when nothing was read): for a tool that reports the problems its own lookups
  // met (a JSON file that does not parse, an identifier no mapfile row matches) without paying
  // for a listing it never needed.
  std::span<const Diagnostic> vendor_diagnostics_so_far() const;

 private:
  static void attach(Pmu& pmu, std::shared_ptr<const detail::VendorCatalogs> vendor);
  // The vendor catalog whose metrics `-M` uses (null without vendor events).
  const detail::VendorCatalog* metrics_vendor_catalog() const;

  struct State;
  explicit Catalog(std::unique_ptr<State> state);
  std::unique_ptr<State> state_;
};

PMUCAT_END_NAMESPACE
