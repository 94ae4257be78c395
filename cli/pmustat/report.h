// pmustat's output: perf stat's text (or its -x CSV) and pmustat's JSON, each value with its
// trust grades.
#pragma once

#include <sys/types.h>

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "pmucat/count.h"

PMUCAT_BEGIN_NAMESPACE
namespace cli {

// The CPU time of the command a run counted or timed (its rusage, with its children's).
struct CommandTimes {
  double user_seconds = 0;
  double system_seconds = 0;
};

struct ReportOptions {
  bool json = false;
  std::optional<std::string> separator;           // -x SEP
  Aggregation aggregation = Aggregation::global;  // -A, --per-core, --per-socket: a column
  std::string target;                             // "'sleep 1'", "CPU(s) 0-3", "process id '42'"
  std::vector<double> elapsed_seconds;            // per run
  std::size_t unit_width = 4;                     // the unit column: unit_width_of(events)
  std::optional<CommandTimes> command_times;      // one run of a command: its user and sys lines
  // Per metric (in the order of the readings' metrics): the event it is printed beside
  // (metric_host_events()); a metric without one has a line of its own.
  std::vector<std::optional<std::size_t>> metric_events;
};

// The width of the text output's unit column, as perf stat sizes it: 4, or the longest unit of
// an event that opened.
std::size_t unit_width_of(std::span<const CountEvent> events);

// How perf stat names a target that is not a command: "system wide", "CPU(s) 0,1",
// "process id '42'", "thread id '43'".
std::string describe_target(const CountTarget& target, std::span<const pid_t> pids);

// The counts of one run (or the mean of several, with their spread), then the time elapsed and
// the grades that are not `exact`. Written to standard error, as perf stat writes.
// Then the metrics (-M, or plain perf stat's), of the last run or the mean of the runs.
void print_totals(const ReportOptions& options, std::span<const CountEvent> events,
                  std::span<const Reading> runs,
                  std::span<const std::vector<MetricReading>> run_metrics);
// One interval's counts (-I) and metrics, `seconds` after counting started; the text output's
// column header before interval 0 and every 26th after it, as perf stat prints it.
void print_interval(const ReportOptions& options, std::span<const CountEvent> events,
                    const Reading& reading, std::span<const MetricReading> metrics, double seconds,
                    std::size_t interval_number);

}  // namespace cli
PMUCAT_END_NAMESPACE
