// Validation of sysfs PMU trees (pmucheck). Rules are small functions over catalog values that
// return findings; reporters render a Report and never decide anything themselves.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "pmucat/catalog.h"
#include "pmucat/diagnostic.h"
#include "pmucat/expected.h"
#include "pmucat/version.h"

PMUCAT_BEGIN_NAMESPACE
namespace check {

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
// read becomes a finding and the rest is still checked. When the catalog was opened with a vendor
// catalog and a CPU identifier (VendorOptions), the vendor JSON rules run too: the model's load
// problems and unmatched Units as tree findings, JSON events per PMU in its events check. JSON-only
// events are judged by those rules alone, never as events/ files.
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

}  // namespace check
PMUCAT_END_NAMESPACE
