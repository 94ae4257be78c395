// pmustat as a whole process on this machine's kernel: software events and tracepoints count
// without a PMU. Beside perf stat where the count is deterministic (execs, context switches of
// sleeps), within a stated tolerance where it is not (page faults); the exit status passed
// through; the JSON against its schema. Skipped where this kernel does not let this user open
// perf events.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "json_schema.h"
#include "pmucat/version.h"
#include "support/files.h"
#include "support/tools.h"

PMUCAT_BEGIN_NAMESPACE
namespace {

namespace fs = std::filesystem;
using testing::CommandResult;
using testing::run_tool_command;

std::string describe(const std::string& command, const CommandResult& result) {
  return "$ " + command + "\nstatus " + std::to_string(result.status) + "\nstdout:\n" + result.out +
         "\nstderr:\n" + result.err;
}

CommandResult run(const std::string& command) {
  return run_tool_command(command, "-");
}

// Why pmustat cannot count here (perf_event_paranoid, no perf_event_open), or empty.
std::string cannot_count() {
  const CommandResult probe = run("pmustat -x, -e page-faults true");
  if (probe.status == 0) return std::string();
  return probe.err;
}

// The fields of each line of -x, output.
std::vector<std::vector<std::string>> csv_rows(const std::string& text) {
  std::vector<std::vector<std::string>> rows;
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) {
    std::vector<std::string>& fields = rows.emplace_back();
    std::istringstream split(line);
    std::string field;
    while (std::getline(split, field, ',')) fields.push_back(field);
  }
  return rows;
}

// The first field of each -x, line whose third field is `event`.
std::vector<std::string> csv_values(const std::string& text, const std::string& event) {
  std::vector<std::string> values;
  for (const std::vector<std::string>& fields : csv_rows(text)) {
    if (fields.size() >= 3 && fields[2] == event) values.push_back(fields[0]);
  }
  return values;
}

double csv_value(const std::string& text, const std::string& event) {
  const auto values = csv_values(text, event);
  return values.size() == 1 ? std::strtod(values[0].c_str(), nullptr) : -1;
}

// Whether pmustat refused a metric of the common table (linux 7.3's) as unknown: a build with
// older tables.
bool lacks_common_metrics(const CommandResult& result) {
  return result.err.find("metric-not-found") != std::string::npos ||
         result.err.find("metric-unknown") != std::string::npos;
}

#define SKIP_UNLESS_COUNTING()                              \
  if (const std::string why = cannot_count(); !why.empty()) \
  GTEST_SKIP() << "pmustat cannot count here: " << why

// Why this host's tracepoints cannot be named (no tracefs mounted: a chroot whose /sys is a bind
// mount of the host's without its submounts), or empty. Any other failure is the test's to report.
std::string no_tracefs() {
  const CommandResult probe = run("pmustat -x, -e sched:sched_process_exec true");
  if (probe.err.find("[tracepoint-no-tracefs]") == std::string::npos) return std::string();
  return probe.err;
}

#define SKIP_UNLESS_TRACEPOINTS()                         \
  SKIP_UNLESS_COUNTING();                                 \
  if (const std::string why = no_tracefs(); !why.empty()) \
  GTEST_SKIP() << "no tracepoints to count here: " << why

TEST(Pmustat, CountsSoftwareEventsOfACommand) {
  SKIP_UNLESS_COUNTING();
  const std::string command = "pmustat -x, -e page-faults,task-clock -- sh -c 'true; /bin/true'";
  const CommandResult result = run(command);
  ASSERT_EQ(result.status, 0) << describe(command, result);
  EXPECT_GT(csv_value(result.err, "page-faults"), 10) << describe(command, result);
  EXPECT_GT(csv_value(result.err, "task-clock"), 0) << describe(command, result);
}

TEST(Pmustat, CountsTracepointsOfACommandAndItsChildren) {
  SKIP_UNLESS_TRACEPOINTS();
  const std::string command =
      "pmustat -x, -e sched:sched_process_exec,page-faults -- sh -c 'true; /bin/true'";
  const CommandResult result = run(command);
  ASSERT_EQ(result.status, 0) << describe(command, result);
  // sh's own exec, then /bin/true's (the children inherit the counters).
  EXPECT_EQ(csv_value(result.err, "sched:sched_process_exec"), 2) << describe(command, result);
  EXPECT_GT(csv_value(result.err, "page-faults"), 10) << describe(command, result);
  const std::string no_inherit =
      "pmustat -x, --no-inherit -e sched:sched_process_exec -- sh -c 'true; /bin/true'";
  const CommandResult alone = run(no_inherit);
  EXPECT_EQ(csv_value(alone.err, "sched:sched_process_exec"), 1) << describe(no_inherit, alone);
}

TEST(Pmustat, ThePerfStatTextShape) {
  SKIP_UNLESS_COUNTING();
  const std::string command = "pmustat -e page-faults,task-clock true";
  const CommandResult result = run(command);
  ASSERT_EQ(result.status, 0) << describe(command, result);
  EXPECT_EQ(result.out, "") << "counts go to standard error, as perf stat's";
  EXPECT_NE(result.err.find(" Performance counter stats for 'true':"), std::string::npos)
      << describe(command, result);
  EXPECT_NE(result.err.find(" msec task-clock"), std::string::npos) << describe(command, result);
  EXPECT_NE(result.err.find(" seconds time elapsed"), std::string::npos)
      << describe(command, result);
}

TEST(Pmustat, TheCommandsExitStatusIsPassedThrough) {
  SKIP_UNLESS_COUNTING();
  EXPECT_EQ(run("pmustat -e page-faults -- sh -c 'exit 7'").status, 7);
  EXPECT_EQ(run("pmustat -e page-faults -- sh -c 'kill -TERM $$'").status, 128 + 15);
  const CommandResult missing = run("pmustat -e page-faults pmucat-no-such-command");
  EXPECT_EQ(missing.status, 127) << describe("missing", missing);
  EXPECT_NE(missing.err.find("command not found: pmucat-no-such-command [count-command-failed]"),
            std::string::npos)
      << missing.err;
}

// Ctrl-C ends a system-wide count and prints it; a SIGTERM to pmustat reaches the command, whose
// status pmustat then exits with; a closed pipe on pmustat's output does not end it first.
TEST(Pmustat, SignalsAndAClosedOutput) {
  SKIP_UNLESS_COUNTING();
  const std::string interrupted =
      "pmustat -a -e context-switches & p=$!; sleep 1; kill -INT $p; wait $p";
  const CommandResult stopped = run(interrupted);
  EXPECT_EQ(stopped.status, 0) << describe(interrupted, stopped);
  EXPECT_NE(stopped.err.find("context-switches"), std::string::npos)
      << describe(interrupted, stopped);
  const std::string terminated =
      "pmustat -e page-faults -- sleep 5 & p=$!; sleep 1; kill -TERM $p; wait $p";
  const CommandResult forwarded = run(terminated);
  EXPECT_EQ(forwarded.status, 128 + 15) << describe(terminated, forwarded);
  EXPECT_NE(forwarded.err.find("page-faults"), std::string::npos)
      << describe(terminated, forwarded);
  const std::string piped =
      "f=$(mktemp); { pmustat -e page-faults -- sh -c 'exit 5' 2>&1; echo $? > $f; } | head -c0; "
      "s=$(cat $f); rm -f $f; exit $s";
  EXPECT_EQ(run(piped).status, 5);
}

TEST(Pmustat, RepeatsAndIntervals) {
  SKIP_UNLESS_TRACEPOINTS();
  const std::string repeated = "pmustat -r 3 -e sched:sched_process_exec true";
  const CommandResult result = run(repeated);
  ASSERT_EQ(result.status, 0) << describe(repeated, result);
  EXPECT_NE(result.err.find("(3 runs)"), std::string::npos) << describe(repeated, result);
  // The same count each run: perf stat prints no spread for it in text, 0.00% in -x's field.
  EXPECT_NE(result.err.find("                 1      sched:sched_process_exec    "),
            std::string::npos)
      << describe(repeated, result);
  EXPECT_EQ(result.err.find("( +-  0.00% )"), std::string::npos) << describe(repeated, result);
  EXPECT_NE(result.err.find(" +- "), std::string::npos) << "the time elapsed has its spread";
  const std::string csv = "pmustat -x, -r 3 -e sched:sched_process_exec true";
  const CommandResult repeated_csv = run(csv);
  const auto rows = csv_rows(repeated_csv.err);
  ASSERT_EQ(rows.size(), 1u) << describe(csv, repeated_csv);
  // value, unit, event, spread, running, percent, and two empty metric fields (the split drops
  // the last)
  ASSERT_EQ(rows[0].size(), 7u) << describe(csv, repeated_csv);
  EXPECT_EQ(rows[0][0], "1");
  EXPECT_EQ(rows[0][2], "sched:sched_process_exec");
  EXPECT_EQ(rows[0][3], "0.00%") << describe(csv, repeated_csv);
  EXPECT_EQ(rows[0][5], "100.00");
  // The intervals' counts add up to the command's execs: sh, sleep, /bin/true.
  const std::string intervals =
      "pmustat -x, -I 20 -e sched:sched_process_exec -- sh -c 'sleep 0.1; exec /bin/true'";
  const CommandResult lines = run(intervals);
  ASSERT_EQ(lines.status, 0) << describe(intervals, lines);
  double sum = 0;
  std::size_t counted = 0;
  for (const std::vector<std::string>& fields : csv_rows(lines.err)) {
    if (fields.size() < 4 || fields[3] != "sched:sched_process_exec") continue;
    ++counted;
    if (fields[1] != "<not counted>") sum += std::strtod(fields[1].c_str(), nullptr);
  }
  EXPECT_GE(counted, 3u) << describe(intervals, lines);
  EXPECT_EQ(sum, 3) << describe(intervals, lines);
}

// perf stat 7.3's columns: the count in 18, the unit in 4 (or the longest unit), the name in 32,
// the metric column in 38 (blank without a metric); then, for one run of a command, its user and
// system time.
TEST(Pmustat, TheColumnsOfPerfStat) {
  SKIP_UNLESS_COUNTING();
  const std::string command = "pmustat -e page-faults,task-clock true";
  const CommandResult result = run(command);
  ASSERT_EQ(result.status, 0) << describe(command, result);
  std::istringstream lines(result.err);
  std::string line;
  std::vector<std::string> counted;
  while (std::getline(lines, line)) {
    if (line.find("page-faults") != std::string::npos ||
        line.find("task-clock") != std::string::npos) {
      counted.push_back(line);
    }
  }
  ASSERT_EQ(counted.size(), 2u) << describe(command, result);
  for (const std::string& row : counted) EXPECT_EQ(row.size(), 94u) << "'" << row << "'";
  EXPECT_EQ(counted[0].substr(18, 6 + 11), "      page-faults");
  EXPECT_EQ(counted[1].substr(18, 6 + 10), " msec task-clock");
  EXPECT_NE(result.err.find(" seconds user\n"), std::string::npos) << describe(command, result);
  EXPECT_NE(result.err.find(" seconds sys\n"), std::string::npos) << describe(command, result);
  // A system-wide count has no command of its own to time: no user and sys lines.
  const CommandResult wide = run("pmustat -a -e cpu-clock -- true");
  EXPECT_EQ(wide.err.find(" seconds user"), std::string::npos) << wide.err;
}

// Metrics are printed after `#` on the line of the event their expression names first, as perf
// stat prints them: `%8.1f`, the ScaleUnit's unit, two spaces, the name; in -x, the last two
// fields of that line.
TEST(Pmustat, MetricsFollowTheirEventAfterAHash) {
  SKIP_UNLESS_COUNTING();
  const std::string command = "pmustat -M cs_per_second,page_faults_per_second -- sleep 0.01";
  const CommandResult result = run(command);
  if (lacks_common_metrics(result)) {
    GTEST_SKIP() << "no common metrics in this build's tables: " << result.err;
  }
  ASSERT_EQ(result.status, 0) << describe(command, result);
  std::istringstream lines(result.err);
  std::string line;
  bool beside_switches = false;
  bool beside_faults = false;
  while (std::getline(lines, line)) {
    const std::size_t hash = line.find(" # ");
    if (line.find("context-switches") != std::string::npos) {
      beside_switches = hash == 56 && line.find("cs/sec  cs_per_second") != std::string::npos;
    }
    if (line.find("page-faults ") != std::string::npos) {
      beside_faults =
          hash == 56 && line.find("faults/sec  page_faults_per_second") != std::string::npos;
    }
  }
  EXPECT_TRUE(beside_switches) << describe(command, result);
  EXPECT_TRUE(beside_faults) << describe(command, result);
  const std::string csv = "pmustat -x, -M cs_per_second -- sleep 0.01";
  const CommandResult fields = run(csv);
  ASSERT_EQ(fields.status, 0) << describe(csv, fields);
  bool found = false;
  for (const std::vector<std::string>& row : csv_rows(fields.err)) {
    if (row.size() == 7 && row[2] == "context-switches") {
      found = true;
      EXPECT_GT(std::strtod(row[5].c_str(), nullptr), 0) << describe(csv, fields);
      EXPECT_EQ(row[6], "cs/sec  cs_per_second");
    }
  }
  EXPECT_TRUE(found) << describe(csv, fields);
}

// With -I, the last interval ends when the command does, not at the next tick.
TEST(Pmustat, TheLastIntervalEndsWithTheCommand) {
  SKIP_UNLESS_COUNTING();
  const std::string command = "pmustat -x, -I 5000 -e page-faults -- sleep 0.05";
  const CommandResult result = run(command);
  ASSERT_EQ(result.status, 0) << describe(command, result);
  const auto rows = csv_rows(result.err);
  ASSERT_EQ(rows.size(), 1u) << describe(command, result);
  EXPECT_LT(std::strtod(rows[0][0].c_str(), nullptr), 4.0) << "the 5 s tick was not waited for\n"
                                                           << describe(command, result);
}

// msr/tsc/ (where this host has the msr PMU) measures time, so how long a run lasts moves it.
// What does not move is the TSC's rate: its ticks per nanosecond of cpu-clock (system-wide) or
// task-clock (per task), both counted over the same time. pmustat's rate is within 1% of perf
// stat's in either case.
TEST(Pmustat, TscCountsBesidePerfStatWithinTolerance) {
  SKIP_UNLESS_COUNTING();
  if (!testing::have_perf()) GTEST_SKIP() << "no perf installed";
  if (!fs::exists("/sys/bus/event_source/devices/msr/events/tsc")) {
    GTEST_SKIP() << "no msr PMU with a tsc event here";
  }
  const auto rate = [](const std::string& text, const char* clock) {
    const double clock_ms = csv_value(text, clock);
    return clock_ms > 0 ? csv_value(text, "msr/tsc/") / (clock_ms * 1e6) : -1;
  };
  const struct {
    std::string args;
    const char* clock;
  } cases[] = {
      {"-x, -a -e msr/tsc/,cpu-clock -- sleep 0.1", "cpu-clock"},
      {"-x, -e msr/tsc/,task-clock -- sh -c 'i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done'",
       "task-clock"},
  };
  for (const auto& each : cases) {
    const CommandResult perf = run("perf stat " + each.args);
    if (perf.status != 0) GTEST_SKIP() << "perf stat cannot count msr/tsc/ here: " << perf.err;
    const CommandResult ours = run("pmustat " + each.args);
    ASSERT_EQ(ours.status, 0) << describe("pmustat " + each.args, ours);
    ASSERT_GT(rate(perf.err, each.clock), 0) << perf.err;
    EXPECT_NEAR(rate(ours.err, each.clock) / rate(perf.err, each.clock), 1.0, 0.01)
        << each.args << "\nperf:\n"
        << perf.err << "pmustat:\n"
        << ours.err;
  }
}

TEST(Pmustat, JsonFollowsItsSchemaAndGradesEveryValue) {
  SKIP_UNLESS_COUNTING();
  const std::string command = "pmustat --json -e page-faults,context-switches true";
  const CommandResult result = run(command);
  ASSERT_EQ(result.status, 0) << describe(command, result);
  const nlohmann::json schema = nlohmann::json::parse(
      testing::read_text(fs::path(PMUCAT_SOURCE_DIR) / "docs/schema/pmustat.schema.json"));
  const nlohmann::json document = nlohmann::json::parse(result.err, nullptr, false);
  ASSERT_FALSE(document.is_discarded()) << result.err;
  EXPECT_EQ(testing::validate_json(schema, document), std::vector<std::string>{});
  ASSERT_EQ(document["events"].size(), 2u);
  EXPECT_EQ(document["events"][0]["grades"][0]["id"], "exact") << result.err;
}

// The common table's metrics (linux 7.3: CPUs_utilized = task-clock over duration_time) count on
// any host: software events and the time measured by pmustat.
TEST(Pmustat, CommonMetricsAreComputedAndGraded) {
  SKIP_UNLESS_COUNTING();
  const std::string command = "pmustat --json -M CPUs_utilized -- sleep 0.02";
  const CommandResult result = run(command);
  if (lacks_common_metrics(result)) {
    GTEST_SKIP() << "no common metrics in this build's tables: " << result.err;
  }
  ASSERT_EQ(result.status, 0) << describe(command, result);
  const nlohmann::json document = nlohmann::json::parse(result.err, nullptr, false);
  ASSERT_FALSE(document.is_discarded()) << result.err;
  const nlohmann::json schema = nlohmann::json::parse(
      testing::read_text(fs::path(PMUCAT_SOURCE_DIR) / "docs/schema/pmustat.schema.json"));
  EXPECT_EQ(testing::validate_json(schema, document), std::vector<std::string>{});
  ASSERT_EQ(document["metrics"].size(), 1u) << result.err;
  EXPECT_EQ(document["metrics"][0]["metric"], "CPUs_utilized");
  EXPECT_GT(document["metrics"][0]["value"].get<double>(), 0) << result.err;
  EXPECT_LT(document["metrics"][0]["value"].get<double>(), 1) << "a sleep is mostly idle";
}

// This machine has no core PMU: cycles does not open, and --fallback counts cpu-clock instead.
TEST(Pmustat, FallbackCountsCpuClockForCyclesAndSaysSo) {
  SKIP_UNLESS_COUNTING();
  const CommandResult strict = run("pmustat -x, -e cycles,page-faults true");
  if (strict.err.find("<not supported>") == std::string::npos) {
    GTEST_SKIP() << "cycles opens here: nothing to fall back from";
  }
  // Without --fallback: the refused event is said (count-not-supported) and the others count.
  EXPECT_EQ(strict.status, 0) << describe("strict", strict);
  EXPECT_NE(strict.err.find("[count-not-supported]"), std::string::npos)
      << describe("strict", strict);
  EXPECT_GT(csv_value(strict.err, "page-faults"), 0) << describe("strict", strict);
  const std::string command = "pmustat --fallback -e cycles true";
  const CommandResult result = run(command);
  ASSERT_EQ(result.status, 0) << describe(command, result);
  EXPECT_NE(result.err.find(" msec cpu-clock"), std::string::npos) << describe(command, result);
  EXPECT_NE(result.err.find("[substituted]: --fallback: cycles -> cpu-clock"), std::string::npos)
      << describe(command, result);
}

// --plan and --explain print pmuencode's reports on the same specs and count nothing.
TEST(Pmustat, PlanAndExplainInsteadOfCounting) {
  const CommandResult plan = run("pmustat --plan -e page-faults,task-clock");
  EXPECT_EQ(plan.status, 0) << describe("plan", plan);
  EXPECT_NE(plan.out.find("verdict: fits"), std::string::npos) << describe("plan", plan);
  const CommandResult explained = run("pmustat --explain -e page-faults");
  EXPECT_EQ(explained.status, 0) << describe("explain", explained);
  EXPECT_NE(explained.out.find("page-faults"), std::string::npos) << describe("explain", explained);
  EXPECT_EQ(explained.err.find("Performance counter stats"), std::string::npos);
}

// On a machine with a core PMU: more hardware events than counters multiplex, and the share of
// time each ran is what the planner predicted (within 15 points: the kernel's rotation runs on
// timer ticks, and the events start and stop with the command). Skipped, saying so, without one.
TEST(Pmustat, MeasuredRunningFractionsMatchThePlannersPrediction) {
  SKIP_UNLESS_COUNTING();
  const CommandResult probe = run("pmustat -x, -e instructions true");
  if (probe.status != 0 || probe.err.find("<not supported>") != std::string::npos) {
    GTEST_SKIP() << "no core PMU here (instructions does not count): the planner's predicted "
                    "running fractions cannot be compared with measured ones";
  }
  std::string events = "instructions";
  for (int i = 0; i < 11; ++i) events += ",instructions:u";
  const std::string command = "pmustat --json -e " + events +
                              " -- sh -c 'i=0; while [ $i -lt 300000 ]; do i=$((i+1)); done'";
  const CommandResult result = run(command);
  ASSERT_EQ(result.status, 0) << describe(command, result);
  const nlohmann::json document = nlohmann::json::parse(result.err, nullptr, false);
  ASSERT_FALSE(document.is_discarded()) << result.err;
  std::size_t compared = 0;
  for (const nlohmann::json& value : document["events"]) {
    for (const nlohmann::json& grade : value["grades"]) {
      if (grade["id"] != "multiplexed") continue;
      const std::string reason = grade["reason"];
      const std::size_t at = reason.find("the planner predicted ");
      if (at == std::string::npos) continue;
      const double predicted = std::strtod(reason.c_str() + at + 22, nullptr);
      const double measured = value["running-percent"].get<double>();
      EXPECT_NEAR(measured, predicted, 15.0) << reason;
      ++compared;
    }
  }
  if (compared == 0) GTEST_SKIP() << "nothing multiplexed, or the planner knows no counts here";
}

TEST(Pmustat, CpusUntilTheTimingCommandEnds) {
  SKIP_UNLESS_COUNTING();
  const std::string command = "pmustat -x, -A -C 0 -e cpu-clock sleep 0.05";
  const CommandResult result = run(command);
  ASSERT_EQ(result.status, 0) << describe(command, result);
  EXPECT_NE(result.err.find("CPU0,"), std::string::npos) << describe(command, result);
}

TEST(Pmustat, UsageErrors) {
  EXPECT_EQ(run("pmustat -e page-faults").status, 2);
  EXPECT_EQ(run("pmustat -a -C 0 -e page-faults true").status, 2);
  EXPECT_EQ(run("pmustat -r 2 -a -e page-faults").status, 2);
  EXPECT_EQ(run("pmustat -e 'cpu/nosuchterm=1/' true").status, 1);
  EXPECT_EQ(run("pmustat -p 2147483600 -e page-faults").status, 2);
}

// Beside Debian's perf stat on the same workloads: equal where the count is deterministic.
TEST(Pmustat, BesidePerfStat) {
  SKIP_UNLESS_TRACEPOINTS();
  if (!testing::have_perf()) GTEST_SKIP() << "no perf installed";
  const std::string workload = "-- sh -c 'sleep 0.01; sleep 0.01; /bin/true'";
  const std::string events = "-e sched:sched_process_exec,sched:sched_process_fork";
  const CommandResult perf = run("perf stat -x, " + events + " " + workload);
  if (perf.status != 0) GTEST_SKIP() << "perf stat cannot count here: " << perf.err;
  const CommandResult ours = run("pmustat -x, " + events + " " + workload);
  ASSERT_EQ(ours.status, 0) << describe("pmustat", ours);
  for (const char* event : {"sched:sched_process_exec", "sched:sched_process_fork"}) {
    EXPECT_EQ(csv_value(ours.err, event), csv_value(perf.err, event)) << event << "\nperf:\n"
                                                                      << perf.err << "\npmustat:\n"
                                                                      << ours.err;
  }
  // Context switches of three sleeps: 9 voluntary ones; a loaded machine adds preemptions to
  // either tool's runs (perf's fewest of five was 12 once during the full suite, pmustat's 10).
  // What pmustat must not do is add switches of its own (a parent woken at the command's exec
  // costs it one), so its fewest of five is at most perf's fewest plus one (docs/count.md).
  const std::string sleeps = "-e context-switches -- sh -c 'sleep 0.01; sleep 0.01; sleep 0.01'";
  double perf_switches = 1e9;
  double our_switches = 1e9;
  for (int i = 0; i < 5; ++i) {
    perf_switches =
        std::min(perf_switches, csv_value(run("perf stat -x, " + sleeps).err, "context-switches"));
    our_switches =
        std::min(our_switches, csv_value(run("pmustat -x, " + sleeps).err, "context-switches"));
  }
  EXPECT_GE(perf_switches, 6);
  EXPECT_GE(our_switches, 6);
  EXPECT_LE(our_switches, perf_switches + 1) << our_switches << " " << perf_switches;
}

}  // namespace
PMUCAT_END_NAMESPACE
