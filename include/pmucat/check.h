// Validation of sysfs PMU trees (pmucheck), tree comparison (pmudiff) and tree capture (pmusnap).
// Rules are small functions over catalog values that return findings; reporters render a Report
// and never decide anything themselves.
#pragma once

#include <array>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "pmucat/catalog.h"
#include "pmucat/diagnostic.h"
#include "pmucat/expected.h"

namespace pmucat::check {

// The check a rule belongs to: one KTAP subtest / JUnit test case per PMU and group.
enum class Group : std::uint8_t {
  tree,        // the devices directory itself
  attributes,  // type and the other scalar files
  cpumask,     // cpumask and cpus
  pmu_name,
  format,
  events,
  metadata,  // .unit .scale .per-pkg .snapshot
  names,     // event names
  live,      // perf_event_open on the running machine
};
// The check's name as reports print it ("attributes", "pmu-name", "event-names", ...).
std::string_view to_string(Group group);

struct Rule {
  std::string_view id;  // stable, kebab-case; documented in docs/rules.md
  Severity severity;
  Group group;
  bool enabled_by_default;
  std::string_view rationale;  // one line: why this matters
};

// Every rule pmucheck knows, in documentation order.
std::span<const Rule> rules();
// The rule with this id, or nullptr.
const Rule* find_rule(std::string_view id);

struct Finding {
  std::string rule;  // rule id (== diagnostic.id)
  Group group = Group::tree;
  std::string pmu;         // empty for findings about the tree itself
  std::string file;        // path relative to the devices dir ("cpu/format/umask"), may be empty
  Diagnostic diagnostic;   // severity is the rule's; located when the rule can point at bytes
  bool baselined = false;  // matched a --baseline entry: reported, never fails the run
  friend bool operator==(const Finding&, const Finding&) = default;
};

// Known findings that must not fail CI. One entry per line: `RULE PMU [FILE]`, where PMU and FILE
// are shell globs (fnmatch) and FILE is relative to the devices dir; `#` starts a comment.
struct BaselineEntry {
  std::string rule;
  std::string pmu;
  std::string file = "*";
  friend bool operator==(const BaselineEntry&, const BaselineEntry&) = default;
};
struct Baseline {
  std::vector<BaselineEntry> entries;
  // True when some entry covers `finding`.
  bool covers(const Finding& finding) const;
};
// Parses a baseline file's text; errors are located in `file`.
Expected<Baseline> parse_baseline(std::string_view text, std::string_view file);
// A baseline that covers exactly `findings` (what `pmucheck --write-baseline` prints).
std::string format_baseline(std::span<const Finding> findings);

struct Options {
  std::vector<std::string> pmu_patterns;  // Catalog::match_pmus patterns; empty selects all
  std::vector<std::string> disabled;      // rule ids switched off
  std::vector<std::string> enabled;       // rule ids switched on (also those off by default)
  unsigned jobs = 1;                      // PMUs checked in parallel; output does not depend on it
  Baseline baseline;
  bool live = false;  // also open every event with perf_event_open
  // --live on a tree that is not the running kernel's (a fixture, a capture): its type numbers
  // name other PMUs, or none, on this kernel. Refused (live-foreign-tree) unless this is set.
  bool live_any_tree = false;
  bool werror = false;  // warnings fail the run (and KTAP/JUnit tests) too
};

// Why --live must not run on `catalog` (live-foreign-tree), or nothing when its devices
// directory is the running kernel's /sys/bus/event_source/devices (same inode) or
// `options.live_any_tree` allows any tree.
std::optional<Diagnostic> live_tree_problem(const Catalog& catalog, const Options& options);

// Unknown ids in `options.disabled`/`enabled`, so a CLI can refuse them.
std::vector<std::string> unknown_rule_ids(const Options& options);

struct GroupResult {
  Group group = Group::tree;
  bool applicable = true;  // false: KTAP SKIP (e.g. no events/ directory)
  std::string skip_reason;
  std::vector<Finding> findings;  // sorted by file, line, column, rule
};

struct PmuReport {
  std::string name;
  std::vector<GroupResult> groups;  // in Group order; the tree group is not here
};

struct Report {
  std::string sysfs;                   // the devices dir checked
  bool werror = false;                 // copied from Options: warnings count as failures
  std::vector<Finding> tree_findings;  // duplicate types, unreadable entries, ...
  std::vector<PmuReport> pmus;         // natural name order

  // Every finding, tree findings first, then PMU by PMU in group order.
  std::vector<Finding> all_findings() const;
  // Findings of `severity` that are not baselined.
  std::size_t count(Severity severity) const;
  // True when `finding` fails the run: an error, or a warning under werror; never baselined.
  bool fails(const Finding& finding) const;
};

// Runs every enabled rule over the PMUs `options` selects. Never throws; a file that cannot be
// read becomes a finding and the rest is still checked.
Report run(const Catalog& catalog, const Options& options);

// 0 when no error is left after the baseline (no warning either with `werror`), else 1.
int exit_status(const Report& report, bool werror);

// Reporters. Each renders the whole report as one string.
struct TextOptions {
  bool color = false;
  bool summary = true;  // closing "N errors, N warnings, N notes" line
};
// `file:line:col: severity: message [ID]`, source line and caret, per finding (clang style).
std::string render_text(const Report& report, const TextOptions& options = {});
// KTAP v1: one test per PMU (plus the tree), one subtest per group, SKIP where not applicable.
std::string render_ktap(const Report& report);
// JSON document described by docs/schema/pmucheck.schema.json.
std::string render_json(const Report& report);
// JUnit XML: one testsuite per PMU, one testcase per group, a <failure> per failing group.
std::string render_junit(const Report& report);
// KCIDB ids must be unique across every submission: each test id holds the run id, so two
// runs (or two builds) never collide.
struct KcidbOptions {
  std::string origin = "pmucheck";
  // The caller's KCIDB build the tests belong to; empty: "<origin>:<run id>".
  std::string build_id;
  // Names this run in every test id; empty: PMUCAT_KCIDB_RUN_ID, else make_kcidb_run_id().
  std::string run_id;
  std::string path_prefix = "pmu_sysfs";
};
// A run id no other run produces: UTC time, then a hash of host, pid, clock and randomness
// ("20261201T052600Z-3fa2b1c4").
std::string make_kcidb_run_id();
// A KCIDB v5 `tests` fragment: {"version":{"major":5,"minor":3},"tests":[...]}.
std::string render_kcidb(const Report& report, const KcidbOptions& options = {});

// What an errno from perf_event_open usually means ("ENOENT: the PMU does not know this config").
std::string explain_open_errno(int error_number);

}  // namespace pmucat::check

namespace pmucat::diff {

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
  // Event encodings (config..config3) where the event could be encoded on its tree.
  std::optional<std::array<std::uint64_t, 4>> old_config;
  std::optional<std::array<std::uint64_t, 4>> new_config;
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

}  // namespace pmucat::diff

namespace pmucat::snap {

// Files larger than this are not copied (an empty placeholder and a manifest entry stand in):
// 16 times the catalog's kMaxSysfsFileSize, so a file the catalog calls too large is still
// captured as it is, and hv_24x7's binary interface/catalog fits.
inline constexpr std::size_t kMaxCapturedFileSize = std::size_t{1} << 20;
// The manifest at the root of every capture, and the version of its layout.
inline constexpr std::string_view kManifestName = "pmusnap-manifest.json";
inline constexpr int kManifestVersion = 2;

// An entry of the tree that is not in the capture byte for byte.
struct NotCaptured {
  std::string path;    // relative to the devices dir: "cpu/events/pipe", "ghostpmu"
  std::string rule;    // the pmucheck rule the original entry hits; empty when none reads it
  std::string reason;  // "expected a regular file, found a FIFO"
  friend bool operator==(const NotCaptured&, const NotCaptured&) = default;
};

struct Summary {
  std::size_t pmus = 0;
  std::size_t files = 0;                  // files copied byte for byte
  std::vector<NotCaptured> not_captured;  // in tree order
  std::vector<std::string> unreadable;    // the paths of not_captured (older callers)
};

struct CaptureOptions {
  // Replace an existing OUT: a regular .tar.gz file, or a directory holding a previous capture.
  // Never a symlink, FIFO, device or a directory pmusnap did not write.
  bool force = false;
};

// Copies the PMU files that matter (type, cpumask, cpus, alias, identifier, caps/, format/,
// events/, interface/, scalar attributes) of every PMU under `sysfs` (a devices dir or a root
// above one; symlinks followed) to `out`/bus/event_source/devices/. `out` is a new or empty
// directory, or a `.tar.gz`/`.tgz` file written with the system `tar`; other archive suffixes
// (.tar, .zip, ...) are refused. Only regular files are opened (never blocking: a FIFO or a
// device is not opened at all); an entry that is not copied byte for byte (not a regular file,
// unreadable, larger than kMaxCapturedFileSize, a dangling PMU link) gets an empty placeholder
// (an empty directory for a directory) and is listed in Summary::not_captured and in
// `out`/pmusnap-manifest.json with the pmucheck rule the original hits. Fails (nothing left
// behind) when the tree cannot be read or `out` cannot be written.
Expected<Summary> capture(const std::filesystem::path& sysfs, const std::filesystem::path& out,
                          const CaptureOptions& options = {});

// One `pmusnap: warning: PATH: not captured: REASON [RULE]` line per entry, then a count line;
// empty when everything was captured.
std::string describe_not_captured(const Summary& summary);

// The not-captured entries of the capture holding `devices_dir` (read from the manifest at
// `devices_dir`/../../../pmusnap-manifest.json). Empty when there is no manifest (not a capture);
// an error when there is one that cannot be read or parsed. Version-1 manifests (an
// `unreadable` list) are read as file-unreadable entries.
Expected<std::vector<NotCaptured>> read_manifest(const std::filesystem::path& devices_dir);

// A capture unpacked into a fresh temporary directory, removed again on destruction. Lets tools
// take `--sysfs capture.tar.gz`.
class Unpacked {
 public:
  // Unpacks `tar_gz` with the system tar into a new temporary directory.
  static Expected<Unpacked> open(const std::filesystem::path& tar_gz);
  Unpacked(Unpacked&& other) noexcept;
  Unpacked& operator=(Unpacked&& other) noexcept;
  Unpacked(const Unpacked&) = delete;
  Unpacked& operator=(const Unpacked&) = delete;
  ~Unpacked();
  // The directory the capture was unpacked into (holds bus/event_source/devices).
  const std::filesystem::path& root() const { return root_; }

 private:
  explicit Unpacked(std::filesystem::path root) : root_(std::move(root)) {}
  std::filesystem::path root_;
};

// True when `path` names a gzip-compressed tar (by its `.tar.gz`/`.tgz` name).
bool is_tarball(const std::filesystem::path& path);

// A catalog opened from a tree directory or from a pmusnap `.tar.gz` (kept unpacked while this
// lives; members are destroyed catalog first).
struct OpenedTree {
  std::optional<Unpacked> unpacked;
  Catalog catalog;
};
// Opens `path` (a directory or a capture tarball), or the default tree when `path` is empty.
Expected<OpenedTree> open_tree(const std::filesystem::path& path);

}  // namespace pmucat::snap
