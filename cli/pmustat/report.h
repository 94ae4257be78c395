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

struct ReportOptions {
  bool json = false;
  std::optional<std::string> separator;           // -x SEP
  Aggregation aggregation = Aggregation::global;  // -A, --per-core, --per-socket: a column
  std::string target;                             // "'sleep 1'", "CPU(s) 0-3", "process id '42'"
  std::vector<double> elapsed_seconds;            // per run
};

// How perf stat names a target that is not a command: "system wide", "CPU(s) 0,1",
// "process id '42'", "thread id '43'".
std::string describe_target(const CountTarget& target, std::span<const pid_t> pids);

// The counts of one run (or the mean of several, with their spread), then the time elapsed and
// the grades that are not `exact`. Written to standard error, as perf stat writes.
// Then the metrics (-M, or plain perf stat's), of the last run or the mean of the runs.
void print_totals(const ReportOptions& options, std::span<const CountEvent> events,
                  std::span<const Reading> runs,
                  std::span<const std::vector<MetricReading>> run_metrics);
// One interval's counts (-I) and metrics, `seconds` after counting started.
void print_interval(const ReportOptions& options, std::span<const CountEvent> events,
                    const Reading& reading, std::span<const MetricReading> metrics, double seconds);

}  // namespace cli
PMUCAT_END_NAMESPACE
