// Counts that metrics are evaluated on: one value per event name, with the times perf scales
// multiplexed counts by, read from `perf stat -j` (JSON lines) or `perf stat -x,` (CSV) output.
// A perf.data written by `perf stat record` is read by metric_counts_perfdata.h.
//
// Readers keep going after a bad line: each garbled line is one located diagnostic
// (file:line:column) and every other line is kept.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "pmucat/diagnostic.h"
#include "pmucat/version.h"

PMUCAT_BEGIN_NAMESPACE

enum class CountStatus : std::uint8_t {
  counted,
  not_counted,    // perf printed <not counted> (the event was never scheduled: running time 0)
  not_supported,  // perf printed <not supported> (the event could not be opened)
};

std::string_view to_string(CountStatus status);

// One event's count.
//
// `value` is what the source holds: perf stat's printed counter value (already scaled for
// multiplexing, `multiplex_scaled`, and multiplied by the event's unit scale, `unit_scale`:
// task-clock is printed in msec, scale 1e-6), or a raw kernel count (perf.data STAT records),
// which evaluation scales by enabled / running as perf does.
struct Count {
  std::string event;  // the event name as perf prints it ("inst_retired.any", "cpu/cycles/")
  double value = 0;
  std::string unit;                       // "msec", "ns", "" ...
  double unit_scale = 1.0;                // value = raw count * unit_scale (perf's evsel scale)
  std::optional<std::uint64_t> enabled;   // time enabled, ns (perf.data)
  std::optional<std::uint64_t> running;   // time running, ns
  std::optional<double> percent_running;  // perf stat's "pcnt-running"
  bool multiplex_scaled = false;          // value already scaled by enabled / running
  CountStatus status = CountStatus::counted;
  std::uint32_t lines = 1;  // how many input lines/records were summed into this count
  SourceRange where;        // the first line it was read from
};

// The value a metric expression sees for `count`, as perf 6.1's stat-shadow computes it: the
// raw count scaled by enabled / running (truncated to an integer as perf's counter scaling does),
// with the event's unit scale undone. nullopt when the event was not counted (status other than
// counted, or a running time of 0).
std::optional<double> metric_input_value(const Count& count);

// Counts by event name. Adding a name twice sums the two (per-CPU or per-interval lines):
// raw counts and their times are summed before scaling, as perf aggregates; printed values are
// summed as printed. A not-counted line leaves the sum not counted.
class Counts {
 public:
  void add(Count count);
  const std::vector<Count>& entries() const { return entries_; }
  // To fix up what a reader could not know (an event's unit scale from the catalog).
  std::vector<Count>& entries() { return entries_; }
  bool empty() const { return entries_.empty(); }
  std::size_t size() const { return entries_.size(); }

  // The count a metric-expression id refers to. Matching rule (docs/metrics.md, "Matching
  // counts to events"): the exact name; then the id with perf's `@` escapes turned back into
  // `/` (perf stat prints `cpu@INST_RETIRED.ANY@` as `cpu/INST_RETIRED.ANY/`); then the same
  // two ignoring ASCII case; then a printed name with a `:modifiers` suffix that -M NAME:mods
  // added, compared without it. nullptr when nothing matches.
  const Count* find(std::string_view id) const;

 private:
  std::vector<Count> entries_;
  std::unordered_map<std::string, std::size_t> index_;  // event -> its entry
};

enum class CountsFormat : std::uint8_t { json_lines, csv, perf_data };

std::string_view to_string(CountsFormat format);

// What a reader returns: the counts it could read, and one diagnostic per line it could not.
struct CountsRead {
  Counts counts;
  CountsFormat format = CountsFormat::json_lines;
  std::vector<Diagnostic> diagnostics;
  std::size_t lines_read = 0;  // count lines kept (before summing duplicates)
};

// `perf stat -j` output (perf 6.1: one JSON object a line, keys "counter-value", "unit",
// "event", "event-runtime", "pcnt-running", optionally "interval", an aggregation key such as
// "cpu" or "socket", "variance", "metric-value", "metric-unit"). Lines without "event" (the
// --metric-only form, perf's own messages) and blank lines are skipped; a line that is not
// JSON, or whose keys have the wrong types, is a diagnostic "counts-garbled".
CountsRead read_stat_json(std::string_view text, std::string_view file);

// `perf stat -x SEP` output: [interval,][aggregation fields,]value,unit,event,run time,percent
// running[,metric value,metric unit]. The value may be <not counted> or <not supported>. Lines
// starting with '#' and blank lines are skipped; a line whose fields do not fit is a diagnostic.
CountsRead read_stat_csv(std::string_view text, std::string_view file, char separator = ',');

// The most diagnostics a reader keeps: past them, one more counts the lines left unshown.
inline constexpr std::size_t kMaxCountsDiagnostics = 100;
// The longest line a reader looks at; a longer one is a diagnostic and is skipped.
inline constexpr std::size_t kMaxCountsLine = std::size_t{1} << 20;

// A text reader fed a file a piece at a time (pieces may split lines anywhere): it holds the
// counts, one line and the diagnostics, never the file, so memory stays flat however many
// lines `perf stat -I` wrote. read_stat_json and read_stat_csv are it fed once.
class StatTextReader {
 public:
  StatTextReader(CountsFormat format, std::string_view file, char separator = ',');
  void feed(std::string_view piece);
  // The counts of every line fed (a last line without '\n' included).
  CountsRead finish();

 private:
  void line(std::string_view text);
  void json_line(std::string_view text);
  // The common case without a JSON document: false when json_line must read the line.
  bool fast_json_line(std::string_view text);
  void csv_line(std::string_view text);
  void diagnose(std::string_view text, std::size_t at, std::size_t length, std::string message);
  void add(Count count);

  CountsRead read_;
  std::string file_;
  char separator_;
  std::string partial_;       // a line split between pieces
  bool skipping_ = false;     // in a line longer than kMaxCountsLine
  std::uint32_t line_ = 1;    // 1-based number of the line being read
  std::uint64_t offset_ = 0;  // byte offset of its start
  std::uint64_t length_ = 0;  // its bytes so far
  std::size_t unshown_ = 0;   // diagnostics past kMaxCountsDiagnostics
};

// Which reader fits a file starting with `head`: perf.data magic ("PERFILE2", either byte
// order), a '{' (JSON lines) or anything else (CSV). Leading blank lines and '#' comment lines
// are skipped.
CountsFormat detect_counts_format(std::span<const std::byte> head);
CountsFormat detect_counts_format(std::string_view head);

// Reads text counts (JSON lines or CSV, detected); perf.data needs
// read_stat_perf_data (metric_counts_perfdata.h).
CountsRead read_stat_text(std::string_view text, std::string_view file);

PMUCAT_END_NAMESPACE
