// The vendor JSON event catalogs perf builds into itself (`tools/perf/pmu-events/arch` of the
// kernel tree): each architecture's mapfile.csv, the CPU identifier that selects a model, and a
// model's JSON events turned into the term strings perf builds from them (jevents.py), under the
// rules of the perf release the tables came with (PerfRelease: 6.1 or 6.12).
// Pure reading and conversion: nothing here knows about a sysfs tree (the catalog attaches these
// events to its PMUs).
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "pmucat/diagnostic.h"
#include "pmucat/expected.h"
#include "pmucat/perf_profile.h"
#include "pmucat/version.h"

PMUCAT_BEGIN_NAMESPACE

// Diagnostic ids of this module:
//  vendor-json-syntax     a JSON file that does not parse (located at the byte that failed); the
//                         other files of the model still load
//  vendor-json-field      an event object with a field of the wrong type or an unparsable number
//                         (EventCode "0xzz"; under 6.12's rules also a term field such as
//                         UMask "0X1F", which stops perf 6.12's jevents); the event is skipped,
//                         located at its object
//  vendor-json-unreadable a JSON file or model directory that cannot be read
//  vendor-event-duplicate two events of one model with the same name and PMU (perf keeps both and
//                         uses the first in its table order; so do we: warning)
//  vendor-std-event-unknown  ArchStdEvent names no architecture standard event (the event keeps
//                         its own fields, as perf does; warning)
//  vendor-metric-field    a metric object (MetricName or MetricExpr present) with a field of the
//                         wrong type, or without its MetricName or MetricExpr; skipped, located
//  vendor-metric-duplicate  two metrics of one model with the same name and PMU (perf 6.1 uses
//                         both when the name is asked for; warning)
//  mapfile-syntax         a mapfile.csv row without its four fields (skipped, located)
//  mapfile-regex          a mapfile.csv CPU identifier that is not a POSIX extended regular
//                         expression (the row never matches, as in perf; located)
//  mapfile-no-match       no row of any mapfile matches the CPU identifier (note)

// One row of an architecture's mapfile.csv: `CPUID-regex,Version,Directory,Type`.
struct MapfileRow {
  std::string cpuid;    // a POSIX extended regular expression (x86 `GenuineIntel-6-8F`)
  std::string version;  // as written (unused by perf)
  std::string
      directory;     // relative to the architecture directory: `sapphirerapids`, `arm/cortex-a53`
  std::string type;  // `core` (the only type perf 6.1 uses)
  std::uint32_t line = 0;  // 1-based line in the file, for diagnostics
  friend bool operator==(const MapfileRow&, const MapfileRow&) = default;
};

struct Mapfile {
  std::string arch;  // the architecture directory's name: x86, arm64, powerpc, s390, ...
  std::string path;  // for diagnostics
  std::vector<MapfileRow> rows;         // in file order (the first match wins)
  std::vector<Diagnostic> diagnostics;  // skipped rows and bad regular expressions
};

// Parses mapfile.csv text: comment lines (`#`) and the header row (`Family-model,...`) are
// skipped; blank lines too. Never fails: bad rows become diagnostics.
Mapfile parse_mapfile(std::string_view text, std::string_view path, std::string arch);

// How an architecture compares CPU identifiers with mapfile rows.
enum class CpuidRules : std::uint8_t {
  // x86 (perf's arch/x86 strcmp_cpuid_str): `Vendor-Family-Model-Stepping`. A row with all four
  // parts needs an identifier with all four; a row with three ignores the identifier's stepping.
  // The leftmost match must be as long as the compared part.
  x86,
  // Every other architecture: the leftmost match must be as long as the whole identifier.
  whole,
};
CpuidRules cpuid_rules_for_arch(std::string_view arch);

// True when `row_cpuid` (a POSIX extended regular expression, compiled as perf does with regcomp)
// matches `cpuid` under `rules`. A pattern that does not compile matches nothing.
bool cpuid_matches(std::string_view row_cpuid, std::string_view cpuid, CpuidRules rules);

// The first row of `mapfile` that matches `cpuid`, or nullptr.
const MapfileRow* find_mapfile_row(const Mapfile& mapfile, std::string_view cpuid);

// A JSON event as perf's jevents.py of `rules` makes it. Strings are as written in the JSON unless
// said otherwise.
struct VendorEvent {
  std::string name;  // EventName, lower-cased (perf lower-cases JSON names)
  // The PMU perf attaches the event to: Unit mapped by perf's table (`CBO` -> `uncore_cbox`,
  // `L3PMC` -> `amd_l3`, `cpu_core`, ..., else `uncore_<unit lower-cased>`; 6.12's table adds
  // `UMCPMC` -> `amd_umc`, `PAI-EXT`, `imx9_ddr`, `ali_drw`, `arm_cmn`); empty for an event
  // without Unit, which belongs to the core PMU(s) (perf 6.12's table says `default_core`).
  std::string pmu;
  std::string unit;  // Unit as written
  // The term string perf builds and parses like an events/ file: `config=` (ConfigCode), under
  // 6.12 `eventid=` (EventidCode), or `event=` (EventCode's first value | ExtSel << 8; `%#llx` in
  // 6.1, values below 10 in decimal in 6.12), then each of AnyThread `any=`, PortMask `ch_mask=`,
  // CounterMask `cmask=`, EdgeDetect `edge=`, FCMask `fc_mask=`, Invert `inv=`, SampleAfterValue
  // `period=`, UMask `umask=` (6.12 adds NodeType `type=`, RdWrMask `rdwrmask=`, EnAllCores
  // `enallcores=`, EnAllSlices `enallslices=`, SliceId `sliceid=`, ThreadMask `threadmask=`) in
  // that order: 6.1 takes each whose value is not the string "0" as written, 6.12 each whose
  // value is not zero, canonicalised (`0x0A` -> `0xa`, `0x01` -> `1`, `007` -> `7`); then
  // Filter, then `ldlat=`/`offcore_rsp=`/`frontend=` + MSRValue for MSRIndex 0x3F6 / 0x1A6 or
  // 0x1A7 / 0x3F7. perf's six fixed names (inst_retired.any, cpu_clk_unhalted.thread, ...) get
  // perf's fixed strings; an ArchStdEvent takes the standard event's string.
  std::string terms;
  std::string topic;               // the file name without `.json`, `-` as ' ' (`uncore memory`)
  std::string brief_description;   // BriefDescription as written
  std::string public_description;  // PublicDescription as written
  std::string scale_unit;          // ScaleUnit (`64Bytes`, `1MB`)
  bool per_pkg = false;            // PerPkg "1"
  bool deprecated = false;         // Deprecated present and not "0"
  std::string errata;              // Errata ("null" kept as written)
  std::string pebs;                // PEBS ("0", "1", "2"; empty when absent)
  bool data_la = false;            // Data_LA present (addresses when precise)
  std::string counter;             // Counter ("0,1,2,3", "Fixed counter 1")
  std::string counter_mask;        // CounterMask as written (also a term: cmask=)
  std::string compat;              // Compat (system PMU identifier), empty for core tables
  std::string arch_std_event;      // ArchStdEvent as written
  // When the event names a known ArchStdEvent and has no description of its own, perf copies the
  // standard event's finished (decorated) description: brief/public_description then hold that
  // text and the perf_*_description() functions return it unchanged.
  bool brief_from_std_event = false;
  bool public_from_std_event = false;
  // perf's table key puts events without a BriefDescription (and, in 6.1, without a Unit or a
  // standard event's description) first; true when the event has one, even an empty one.
  bool has_perf_description = false;
  // RetirementLatencyMean/Min/Max as written (perf 7.3: the cycles an x86 retire-latency event
  // stands for when it is not sampled; empty when absent or under older rules).
  std::string retirement_latency_mean;
  std::string retirement_latency_min;
  std::string retirement_latency_max;
  // The jevents rules that built the event: its descriptions depend on them.
  PerfRelease rules = PerfRelease::v6_1;
  // Where the event's object starts, for diagnostics: file, line, column.
  SourceRange location;
  // From a system table (a `sys` directory): perf adds it to a PMU whose `identifier` equals
  // Compat and whose name matches the PMU, whatever the CPU model (load_vendor_sys_tables).
  bool system_table = false;
  friend bool operator==(const VendorEvent&, const VendorEvent&) = default;
};

// perf's decorated descriptions (its table's `desc` and `long_desc`): the trailing `.`/`. `/`.  `
// removed, `  Supports address when precise` (Data_LA), `  Spec update: <Errata>`,
// ` (Precise event)` / ` (Must be precise)` (PEBS, when not already said) appended, and under
// 6.1's rules, for events with a PMU, `. Unit: <pmu> ` after the brief one (perf 6.12's jevents
// no longer adds it: its `perf list` prints the PMU itself). Empty stays empty (except the 6.1
// Unit suffix).
std::string perf_brief_description(const VendorEvent& event);
std::string perf_public_description(const VendorEvent& event);

// A JSON metric as perf's jevents.py keeps it: an object with MetricName and MetricExpr (it
// may be an event too: a few uncore objects have both EventName and MetricName). Strings are as
// written in the JSON, after JSON's own unescaping; perf's table holds MetricExpr unchanged (its
// jevents.py doubles backslashes only to write them into C source), so `expr` is perf 6.1's
// string. perf 6.12's jevents parses, simplifies and prints the expression again (metric.py);
// pmucat keeps it as written under both rules (docs/catalog.md: what that leaves different).
struct VendorMetric {
  std::string name;        // MetricName as written (perf matches it case-insensitively)
  std::string expr;        // MetricExpr as written (`@`-escaped names keep their backslashes)
  std::string group;       // MetricGroup as written: groups separated by ';' (may be empty)
  std::string threshold;   // MetricThreshold (perf 6.12; no perf 6.1 table has it)
  std::string scale_unit;  // ScaleUnit (`100%`, `1GB/sec`, `1per_instr`)
  std::string brief_description;   // BriefDescription as written
  std::string public_description;  // PublicDescription as written
  std::string constraint;          // MetricConstraint (`NO_NMI_WATCHDOG`, `NO_GROUP_EVENTS`)
  std::string no_group;            // MetricgroupNoGroup (perf 6.12; none in perf 6.1's tables)
  // DefaultMetricgroupName (perf 6.12: the group `perf stat` shows a Default metric under).
  std::string default_metricgroup_name;
  // DefaultShowEvents (perf 7.3: whether `perf stat` prints a Default metric's events too).
  std::string default_show_events;
  std::string unit;              // Unit as written (`cpu_core` on hybrid models)
  std::string pmu;               // Unit mapped as for events (VendorEvent::pmu)
  std::string compat;            // Compat (system tables: the PMU identifier it needs)
  std::string aggregation_mode;  // AggregationMode as written (`PerChip`, `PerCore`)
  bool per_pkg = false;          // PerPkg "1"
  bool deprecated = false;       // Deprecated present and not empty
  // The object's EventName lower-cased when it also names an event: part of perf's table key.
  std::string event_name;
  std::string topic;  // as for events: `metrics` for *metrics.json files
  // perf's table key puts objects without a description (no BriefDescription and no Unit) first.
  bool has_perf_description = false;
  SourceRange location;                   // where the metric's object starts
  bool system_table = false;              // from a system table (a `sys` directory)
  PerfRelease rules = PerfRelease::v6_1;  // the jevents rules that read it
  friend bool operator==(const VendorMetric&, const VendorMetric&) = default;
};

// perf's `desc` of a metric (what `perf list` prints in brackets): BriefDescription with one
// trailing ".  ", ". " or "." removed, then under 6.1's rules `. Unit: <pmu> ` for a metric with
// a Unit (as for events). Empty when the metric has neither.
std::string perf_metric_description(const VendorMetric& metric);

// The metric groups perf 6.1's list shows a metric under: MetricGroup split on ';', leading
// blanks skipped, an empty part `No_group`; without MetricGroup `No_group`, unless the object
// is an event too (then perf lists it under no group: empty result).
std::vector<std::string> metric_group_names(const VendorMetric& metric);

// True when perf 6.1's match_metric() accepts `list` (a metric or group name, as given to -M)
// for `field` (a MetricName or MetricGroup; empty is perf's absent field): "all" matches
// everything; an empty field matches `No_group` (any case); else the first case-insensitive
// occurrence of `list` in `field` must start it or follow ';' or ' ', and end it or precede ';'.
bool perf_metric_matches(std::string_view field, std::string_view list);

// A metric group's description, from a model's metricgroups.json (linux 6.3 on; perf 6.12's
// describe_metricgroup()).
struct VendorMetricGroupDescription {
  std::string name;
  std::string description;
  friend bool operator==(const VendorMetricGroupDescription&,
                         const VendorMetricGroupDescription&) = default;
};

// A metric group and the metrics listed under it (indices into VendorModel::metrics, table
// order). perf 6.1 has no group descriptions (metricgroups.json came with 6.3): `description`
// is empty unless the model's metricgroups.json describes the group.
struct VendorMetricGroup {
  std::string name;
  std::string description;
  std::vector<std::size_t> metrics;
  friend bool operator==(const VendorMetricGroup&, const VendorMetricGroup&) = default;
};

// The groups of `metrics` sorted by name (strcmp, as perf's list), each with its metrics in
// table order and its description from `descriptions` (sorted by name, as
// VendorModel::metric_group_descriptions).
std::vector<VendorMetricGroup> vendor_metric_groups(
    std::span<const VendorMetric> metrics,
    std::span<const VendorMetricGroupDescription> descriptions = {});

// One object of a model's counter.json (linux 6.12's x86 models): how many counters a PMU unit has.
// perf 6.12's jevents reads the file as events and keeps nothing of it (no EventName); pmucat
// keeps the numbers for a counter planner. Strings as written.
struct VendorCounterInfo {
  std::string unit;     // Unit as written (`core`, `CHA`, `cpu_atom`)
  std::string generic;  // CountersNumGeneric
  std::string fixed;    // CountersNumFixed
  SourceRange location;
  friend bool operator==(const VendorCounterInfo&, const VendorCounterInfo&) = default;
};

// One model directory's events.
struct VendorModel {
  std::string arch;                       // x86
  std::string directory;                  // sapphirerapids (the mapfile's Directory)
  std::string cpuid;                      // the mapfile row's CPU identifier pattern that chose it
  PerfRelease rules = PerfRelease::v6_1;  // the jevents rules the model was read with
  // Sorted as perf orders its table, which decides which of two same-named events perf uses:
  // 6.1 one table (events with a description first, then by topic, name, PMU); 6.12 a table per
  // PMU (by PMU, `default_core` for the core one, then name, description or not, topic).
  // Metric-only objects (no EventName) are not events and are left out.
  std::vector<VendorEvent> events;
  // The model's metrics in perf's table order, which perf expands and lists them in: 6.1 the
  // events' key (objects without a description first, then topic, lower-cased EventName, PMU)
  // then MetricName; 6.12 a table per PMU (by PMU, MetricName, MetricExpr, description). Files
  // read in name order and a stable sort.
  std::vector<VendorMetric> metrics;
  // 6.12's rules: the model's metricgroups.json, sorted by name (empty under 6.1's rules, whose
  // perf read no such file).
  std::vector<VendorMetricGroupDescription> metric_group_descriptions;
  // The model's counter.json objects in file order (any rules).
  std::vector<VendorCounterInfo> counters;
  std::vector<Diagnostic> diagnostics;  // files that failed, skipped events, duplicates
};

// Reads every `*.json` file directly in `arch_dir / directory` (files in subdirectories are
// other models) with the jevents rules of `rules`. `arch_dir` is `.../pmu-events/arch/<arch>`;
// its own `*.json` files are the architecture standard events ArchStdEvent refers to (arm64).
// Under 6.12's rules `metricgroups.json` holds group descriptions, not events. A file that fails
// to parse is a diagnostic and the rest still load; fails only when the model directory cannot
// be listed.
Expected<VendorModel> load_vendor_model(const std::filesystem::path& arch_dir,
                                        std::string_view directory, PerfRelease rules);

// The system tables of one architecture: every directory named `sys` under `arch_dir`, found
// as perf's jevents walks the tree (entries in name order, depth first), each loaded like a model
// directory (load_vendor_model: its own table order) and appended in that order, every event
// marked system_table. `directory` is "sys"; no `sys` directory gives an empty model. A
// directory that cannot be listed is a diagnostic, and the rest still load.
VendorModel load_vendor_sys_tables(const std::filesystem::path& arch_dir, PerfRelease rules);

// Parses one JSON file's text (an array of event objects) into events with the jevents rules of
// `rules`, appending problems to `diagnostics`. `std_events` are the architecture standard
// events (may be empty; read with the same rules). Exposed for tests and the fuzzer;
// load_vendor_model() uses it.
std::vector<VendorEvent> parse_vendor_json(std::string_view text, std::string_view path,
                                           std::string_view topic,
                                           const std::vector<VendorEvent>& std_events,
                                           PerfRelease rules, std::vector<Diagnostic>& diagnostics);
// The same, appending the file's metrics (file order) to `metrics` too, and its counter objects
// (CountersNumGeneric, CountersNumFixed) to `counters`. `std_metrics` are the metrics of the
// architecture's standard files: under 6.12's rules an ArchStdEvent may name one, and the object
// is that metric with its own fields over the standard one's.
std::vector<VendorEvent> parse_vendor_json(std::string_view text, std::string_view path,
                                           std::string_view topic,
                                           const std::vector<VendorEvent>& std_events,
                                           std::span<const VendorMetric> std_metrics,
                                           PerfRelease rules, std::vector<Diagnostic>& diagnostics,
                                           std::vector<VendorMetric>& metrics,
                                           std::vector<VendorCounterInfo>& counters);

// A metricgroups.json text (an object: group name -> description) to descriptions sorted by
// name; a value that is not a string, or a text that is not such an object, is a diagnostic.
std::vector<VendorMetricGroupDescription> parse_metric_group_descriptions(
    std::string_view text, std::string_view path, std::vector<Diagnostic>& diagnostics);

// Sorts `events` / `metrics` into perf's table order of `rules` (VendorModel::events, ::metrics),
// stable.
void sort_vendor_events(std::vector<VendorEvent>& events, PerfRelease rules);
void sort_vendor_metrics(std::vector<VendorMetric>& metrics, PerfRelease rules);

// The architecture directory perf is built for on this host (`x86`, `arm64`, `powerpc`, `s390`;
// empty elsewhere): its mapfile is tried first, and its system tables are the ones perf has.
std::string_view vendor_host_arch();

// The model for `cpuid` found under `events_root` (a directory laid out like
// `pmu-events/arch`: <arch>/mapfile.csv + model directories). The host's architecture is tried
// first, then the others in name order. nullopt (and a mapfile-no-match note in `notes`) when
// no mapfile row matches.
struct VendorModelChoice {
  std::string arch;
  MapfileRow row;
};
std::optional<VendorModelChoice> choose_vendor_model(const std::filesystem::path& events_root,
                                                     std::string_view cpuid,
                                                     std::vector<Diagnostic>& notes);

// perf's arm64 identifier from the text of a midr_el1 file: the number read as strtoul(text, 0,
// 16) reads it, variant and revision cleared, printed `0x%016lx`; nullopt when that is zero.
std::optional<std::string> arm64_cpuid_from_midr(std::string_view text);

// perf's arm64 identifier of a tree's CPUs: the MIDR of the lowest-numbered CPU with a readable
// `sysfs_root`/devices/system/cpu/cpuN/regs/identification/midr_el1, variant and revision
// cleared, printed `0x%016lx`; nullopt when none has one or it is zero.
std::optional<std::string> arm64_midr_cpuid(const std::filesystem::path& sysfs_root);

// perf's powerpc identifier: the processor version register printed `%.8lx` (`004e1202`).
std::string powerpc_cpuid(std::uint64_t pvr);

// perf's s390 identifier from the texts of /proc/sysinfo and /proc/service_levels (nullopt when
// that file is absent, as in a z/VM guest): `Manufacturer,Type,Model[,version,authorization]`
// (`IBM,8561,703,T01,3.6,002f`), each field the words of its line joined as perf joins them and
// cut to perf's buffer sizes; nullopt when Manufacturer, Type or Model is missing.
std::optional<std::string> s390_cpuid(std::string_view sysinfo,
                                      std::optional<std::string_view> service_levels);

// The identifier perf computes for this machine: x86 `Vendor-Family-Model-Stepping` from CPUID
// (model and stepping in upper-case hex), arm64 the MIDR of the first CPU with variant and
// revision cleared (`0x%016lx`, read from `sysfs_root`/devices/system/cpu/cpuN/regs/
// identification/midr_el1), powerpc the PVR, s390 /proc/sysinfo and /proc/service_levels, else
// nullopt. `sysfs_root` is `/sys` normally.
std::optional<std::string> host_cpuid(const std::filesystem::path& sysfs_root);

PMUCAT_END_NAMESPACE
