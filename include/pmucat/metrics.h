// Vendor metrics expanded into the events `perf stat -M` opens, perf 6.1's or perf 6.12's
// (MetricExpandOptions::semantics): the metrics a name selects (a metric, a metric group, `all`),
// metric references resolved, the event strings perf builds (`{...}:W` weak groups, `metric-id=`
// terms, tool events outside groups, events shared between metrics), and those strings encoded
// into attrs. See docs/metrics.md ("Expansion", "Agreement with perf 6.12").
#pragma once

#include <cstddef>
#include <filesystem>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "pmucat/catalog.h"
#include "pmucat/diagnostic.h"
#include "pmucat/encode.h"
#include "pmucat/expected.h"
#include "pmucat/metric_expr.h"
#include "pmucat/version.h"

PMUCAT_BEGIN_NAMESPACE

// One metric of a model's table, as perf's table holds it (views into the caller's strings).
// Empty strings are absent fields, as in perf's table.
struct MetricDefinition {
  std::string_view name;        // MetricName
  std::string_view expr;        // MetricExpr
  std::string_view group;       // MetricGroup (`a;b;c`)
  std::string_view constraint;  // MetricConstraint (`NO_NMI_WATCHDOG`)
  std::string_view unit;        // ScaleUnit
  std::string_view file;        // where the metric comes from, for diagnostics (may be empty)
  // perf 6.12's fields (perf 6.1's tables have none of them; its expansion ignores them):
  std::string_view threshold;                 // MetricThreshold
  std::string_view metricgroup_no_group;      // MetricgroupNoGroup (`TopdownL1;Default`)
  std::string_view default_metricgroup_name;  // DefaultMetricgroupName
  std::string_view pmu;  // the PMU the metric is for (`cpu_core`); empty: the core (`default_core`)
};

// The values of the `#` literals a metric expression may use. perf 6.1 reads them from the host
// (`#smt_on`: /sys/devices/system/cpu/smt/active; `#num_cpus`: the highest present CPU + 1;
// `#core_wide`: 0 unless system-wide; ...); unset means unknown, and an expression using an
// unknown literal cannot be expanded (perf: a broken metric).
struct MetricLiterals {
  std::optional<double> smt_on;           // #smt_on (case-insensitive)
  std::optional<double> num_cpus;         // #num_cpus
  std::optional<double> num_cores;        // #num_cores
  std::optional<double> num_dies;         // #num_dies
  std::optional<double> num_packages;     // #num_packages
  std::optional<double> core_wide;        // #core_wide
  std::optional<double> system_tsc_freq;  // #system_tsc_freq (case-insensitive)
  std::optional<double> num_cpus_online;  // #num_cpus_online (perf 6.12)
  std::optional<double> has_pmem;         // #has_pmem (perf 6.12)
  std::optional<double> slots;            // #slots (perf 6.12; unknown on x86)
  std::optional<double> target_cpu;       // #target_cpu (perf 7.3; 1 under -a or -C)
  // Sets a literal by its name with or without `#` (`smt_on`, `#num_cpus`); false when unknown.
  bool set(std::string_view name, double value);
};

// perf 6.1's rule for whether `name` (a word of `-M`) selects a metric: `all`; or `name`
// case-insensitively equal to the metric's name or to one of its groups (`;`-separated; perf
// compares words starting after `;` or ' ' and ending at `;` or the end); or `No_group` for a
// metric without groups.
bool metric_matches(const MetricDefinition& metric, std::string_view name);
// The same question under `semantics`: perf 6.12 (and pmucat's semantics) compare `name` with
// each `;`-separated word from its start only (a blank separates nothing).
bool metric_matches(const MetricDefinition& metric, std::string_view name, Profile semantics);

struct MetricExpandOptions {
  // Whose `perf stat -M` to follow: the profile's metricgroup rules and expression dialect
  // (Profile::pmucat() has the newest perf's; docs/perf-compat.md, "perf 6.12: what changed since
  // 6.1, measured").
  Profile semantics = Profile::pmucat();
  bool no_group = false;  // --metric-no-group: no `{...}:W` groups
  bool no_merge = false;  // --metric-no-merge: no events shared between metrics
  // --metric-no-threshold (perf 6.12): a metric's MetricThreshold adds no events. Without it
  // perf 6.12 reads a metric with a threshold through the threshold's expression, so the
  // metrics the threshold names add their events too.
  bool no_threshold = false;
  // /proc/sys/kernel/nmi_watchdog is 1: NO_NMI_WATCHDOG (6.12: also NO_GROUP_EVENTS_NMI)
  // metrics ungrouped
  bool nmi_watchdog = false;
  MetricLiterals literals;  // #smt_on also decides NO_GROUP_EVENTS_SMT (perf 6.12)
  // perf 6.12's has_event(EVENT): whether perf parses the event string (expand_metrics() asks
  // its catalog's encoder). Unset: not known, and a metric's `A if has_event(E) else B` needs
  // the ids of both branches.
  std::function<bool(std::string_view event)> event_parses;
  // perf 6.12's strcmp_cpuid_str(ID): whether the CPU identifier matches ID (an architecture's
  // rule: no x86 table uses it). Unset or nothing: not known (NaN).
  std::function<std::optional<bool>(std::string_view id)> cpuid_matches;
};

// One metric perf computes, after sorting. Under perf 6.12 a metric with a MetricThreshold lists
// itself and the metrics its threshold names among its references, their events among its ids.
struct ExpandedMetric {
  std::string name;                     // MetricName
  std::optional<std::string> modifier;  // `IPC:u` -> "u"
  std::string expr;                     // MetricExpr
  std::string unit;                     // ScaleUnit
  // Every event id the metric (with the metrics it references) needs, in perf's order; tool
  // events (`duration_time`) included when perf adds them.
  std::vector<std::string> ids;
  // Per id: the chain of metrics whose expression named it ("tma_a -> tma_b"), for errors;
  // empty for the tool events perf adds.
  std::vector<std::string> id_sources;
  std::vector<std::string> references;  // the metrics it references, in the order perf adds them
  bool grouped = true;                  // false: its events are not in a weak group
  std::size_t event_list = 0;           // index into MetricExpansion::event_lists it reads
};

struct MetricExpansion {
  // The event strings perf parses, in order ("Parsing metric events '...'" of `perf stat -vv`).
  std::vector<std::string> event_lists;
  std::vector<ExpandedMetric> metrics;  // perf's order: most ids first
};

// Expands `names` (comma-separated, each a metric name or group, optionally `:modifier`) over
// the metrics of `table` (perf's table order). Errors: an unknown name (with the nearest name as
// a hint), a cycle between metrics (naming it), a broken expression (located in it).
Expected<MetricExpansion> expand_metric_table(std::span<const MetricDefinition> table,
                                              std::string_view names,
                                              const MetricExpandOptions& options = {});

// The expansion with its events encoded.
struct EncodedMetrics {
  MetricExpansion expansion;
  std::vector<EncodedEvent> events;     // every event list's attrs, in order
  std::vector<std::size_t> list_begin;  // per event list: its first index in `events`
  // Per metric (same order as expansion.metrics), per id (same order as its ids): the indices in
  // `events` of the attrs carrying that id (several for an uncore event on several PMUs).
  std::vector<std::vector<std::vector<std::size_t>>> id_events;
};

// Encodes each event list of `expansion` with encode() (EncodeOptions: Tool::stat as perf stat).
Expected<EncodedMetrics> encode_metrics(const Catalog& catalog, MetricExpansion expansion,
                                        const EncodeOptions& options);

// The model's metrics of `catalog` (Catalog::vendor_metrics(), perf's table order) as definitions
// (views into the catalog's metrics; system-table metrics left out: perf 6.1 adds those only for
// a system PMU whose identifier matches, which no x86 table has).
std::vector<MetricDefinition> metric_definitions(const Catalog& catalog);

// expand_metric_table() over the catalog's model, then encode_metrics().
Expected<EncodedMetrics> expand_metrics(const Catalog& catalog, std::string_view names,
                                        const MetricExpandOptions& options,
                                        const EncodeOptions& encode_options);

// The `#` literal values perf 6.1 would use on the host whose root is `root` (`/`): #smt_on from
// sys/devices/system/cpu/smt/active (else whether a CPU has thread siblings), #num_cpus the
// highest CPU of .../cpu/present + 1, #num_cores/#num_dies/#num_packages the distinct CPU lists
// of the online CPUs' topology, #core_wide 0 (perf stat without -a), #system_tsc_freq as perf
// computes it on x86 (CPUID leaf 0x15, else the model name's `@ x.xxGHz`; 0 on a CPU that is not
// Intel, and on other architectures); perf 6.12's #num_cpus_online (the CPUs of .../cpu/online)
// and #has_pmem (sys/firmware/acpi/tables/NFIT exists); #slots unknown, as perf 6.12 has it on
// x86. Reads the running CPU's CPUID: `root` only moves the files.
MetricLiterals host_metric_literals(const std::filesystem::path& root = "/");

// The same literals as an expression evaluator takes them (EvalOptions::literals).
metric_expr::Literals evaluation_literals(const MetricLiterals& literals);

// `root`/proc/sys/kernel/nmi_watchdog holds a non-zero number.
bool host_nmi_watchdog(const std::filesystem::path& root = "/");

// perf's metric-id escaping in event strings: `,` `-` `=` `@` become `!0` `!1` `!2` `!3`.
std::string encode_metric_id(std::string_view id);
std::string decode_metric_id(std::string_view id);

PMUCAT_END_NAMESPACE
