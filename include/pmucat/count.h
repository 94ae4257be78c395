// Counting: encoded events opened through the kernel (count_kernel.h), read, scaled for
// multiplexing as perf stat scales, and graded: every value carries the trust grades of
// trust_grades.def, each with a one-line reason. docs/count.md.
//
// A session opens what `perf stat` opens (apply_tool_defaults with Tool::stat: the same groups,
// inherit, enable_on_exec for a workload), adding PERF_FORMAT_ID to every counter and
// PERF_FORMAT_LOST where the kernel takes it. A failed open is kept as the event's
// `not-supported` grade with perf's wording, unless it is one perf stat stops at (permission):
// then opening fails as a whole. A number is never made up: an event without a value has none.
#pragma once

#include <sys/types.h>

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "pmucat/catalog.h"
#include "pmucat/count_kernel.h"
#include "pmucat/encode.h"
#include "pmucat/expected.h"
#include "pmucat/metric_eval.h"
#include "pmucat/metrics.h"
#include "pmucat/version.h"

PMUCAT_BEGIN_NAMESPACE

enum class TrustLevel : std::uint8_t { trusted, caution, untrusted };
std::string_view to_string(TrustLevel level);

enum class TrustGrade : std::uint8_t {
#define PMUCAT_GRADE(name, id, level, summary) name,
#include "pmucat/trust_grades.def"
};
std::string_view to_string(TrustGrade grade);  // the kebab id ("multiplexed")
TrustLevel level_of(TrustGrade grade);
std::string_view summary_of(TrustGrade grade);
std::span<const TrustGrade> all_trust_grades();
std::optional<TrustGrade> parse_trust_grade(std::string_view id);

// One grade of one value, with what made it so ("counted 50.00% of the time; the planner
// predicted 50.00%").
struct Trust {
  TrustGrade grade = TrustGrade::exact;
  std::string reason;
  friend bool operator==(const Trust&, const Trust&) = default;
};

// ---- What read() returns -------------------------------------------------------------------

struct CounterRead {
  std::uint64_t value = 0;
  std::optional<std::uint64_t> id;    // PERF_FORMAT_ID
  std::optional<std::uint64_t> lost;  // PERF_FORMAT_LOST
  friend bool operator==(const CounterRead&, const CounterRead&) = default;
};

struct ReadBuffer {
  std::optional<std::uint64_t> enabled;  // PERF_FORMAT_TOTAL_TIME_ENABLED, ns
  std::optional<std::uint64_t> running;  // PERF_FORMAT_TOTAL_TIME_RUNNING, ns
  std::vector<CounterRead> counters;     // one, or a group's members leader first
  friend bool operator==(const ReadBuffer&, const ReadBuffer&) = default;
};

// The most members a group read is parsed for (the kernel has no such limit; a PMU has tens of
// counters, so a group beyond this never schedules).
inline constexpr std::size_t kMaxGroupRead = 4096;

// The bytes read() returns for a counter opened with `read_format` leading `members` counters
// (1 without PERF_FORMAT_GROUP).
std::size_t read_buffer_size(std::uint64_t read_format, std::size_t members);

// Parses what read() returned for a counter opened with `read_format` (PERF_FORMAT_GROUP: a
// group leader's, `members` counters). Errors (count-read-short, count-read-garbled): fewer
// bytes than the layout needs, a group count other than `members` or past kMaxGroupRead, bytes
// left over. `what` names the counter in the message.
Expected<ReadBuffer> parse_read_buffer(std::span<const std::byte> bytes, std::uint64_t read_format,
                                       std::size_t members, std::string_view what);
// The same into `into`, whose storage is reused; the error, or nullopt.
std::optional<Diagnostic> parse_read_buffer(std::span<const std::byte> bytes,
                                            std::uint64_t read_format, std::size_t members,
                                            std::string_view what, ReadBuffer& into);

// perf stat's scaling: nullopt when the counter never ran (running or enabled 0); the count
// as read when it ran all the time; else (u64)(count * enabled / running), truncated as
// libperf's perf_counts_values__scale does.
std::optional<double> scale_count(std::uint64_t value, std::uint64_t enabled,
                                  std::uint64_t running);

// ---- Where the events count ----------------------------------------------------------------

struct CountTarget {
  enum class Kind : std::uint8_t {
    command,   // a command the session starts (its children inherit the counters)
    threads,   // existing threads (-p PID: each thread of the process; -t TID)
    all_cpus,  // -a: every online CPU, every task
    cpus,      // -C LIST
  };
  Kind kind = Kind::command;
  // argv (command[0] looked up in PATH): for a command target what is counted; for the others,
  // when given, what says how long to count (perf stat -a sleep 1), started and waited for the
  // same way but not counted.
  std::vector<std::string> command;
  std::vector<pid_t> threads;
  std::vector<int> cpus;  // cpus: the list; all_cpus: filled from the host when empty
  bool inherit = true;    // perf stat's default; --no-inherit clears it
};

// The threads of process `pid` (`root`/proc/PID/task), in order; an error when it does not exist.
Expected<std::vector<pid_t>> threads_of(pid_t pid, const std::string& root = "/");
// The online CPUs (`root`/sys/devices/system/cpu/online). A -C list parses with the catalog's
// parse_cpu_list (catalog.h).
Expected<std::vector<int>> online_cpus(const std::string& root = "/");
// The target the bindings name in one of three ways, the first given: `command` (non-empty),
// else every thread of `pid` (> 0), else the CPUs of `cpus` ("0-3"; "" every online CPU).
// Errors: count-target-invalid (no such process), cpulist-syntax. Giving none is the caller's
// argument error, checked before.
Expected<CountTarget> count_target(std::vector<std::string> command, pid_t pid,
                                   std::string_view cpus);

// ---- The session ---------------------------------------------------------------------------

// One opened (or refused) event.
struct CountEvent {
  EncodedEvent encoded;   // the attr as opened (tool defaults applied, read_format completed)
  std::string name;       // as printed: the spec the user wrote for it (perf stat's name)
  double scale = 1.0;     // the event's .scale (perf prints count * scale)
  std::string unit;       // its .unit ("Joules", "msec" for task-clock)
  std::vector<int> cpus;  // where it is opened; {-1} for a task on any CPU
  std::optional<Trust> refused;  // not-supported or uncore-per-task, with perf's wording
  std::string refused_errno;     // the errno name of a refused open ("EOPNOTSUPP")
  std::size_t group = 0;         // its group: the index of the leader in the session's events
  std::string errata;            // the vendor tables' Errata for the event ("" none)
  // It counts on a hardware counter (a hardware, cache or raw event, or a core or uncore PMU's):
  // a zero count is then suspect, where a software event's zero is an answer.
  bool counts_hardware = false;
  // A perf tool event (kToolPmuType, builtin_events.h) the session measures itself rather than
  // opening: its number (1 duration_time), 0 for a kernel event.
  std::uint64_t tool = 0;
  // --fallback replaced the attr asked for: which rungs (the `substituted` grade).
  std::optional<Trust> substituted;
};

// Where a CPU sits (sys/devices/system/cpu/cpuN/topology): its package, die and core ids.
struct CpuPlace {
  int socket = -1;
  int die = -1;
  int core = -1;
  friend bool operator==(const CpuPlace&, const CpuPlace&) = default;
};

// One event's value: summed over every CPU and thread (`cpu` -1), or of one CPU.
struct EventValue {
  std::size_t event = 0;  // index into CountSession::events()
  int cpu = -1;
  CpuPlace place;             // with --per-core / --per-socket: the core's or socket's
  std::uint32_t cpus = 0;     // the CPUs summed into it (per core / socket)
  std::uint64_t raw = 0;      // the counts read, summed
  std::uint64_t enabled = 0;  // ns, summed as perf sums them
  std::uint64_t running = 0;
  std::uint64_t lost = 0;
  std::optional<double> value;  // scaled by enabled/running and by the event's scale
  std::vector<Trust> trust;     // at least one grade
  double running_fraction() const {
    return enabled == 0 ? 0.0 : static_cast<double>(running) / static_cast<double>(enabled);
  }
};

struct Reading {
  std::vector<EventValue> values;  // per event (in event order), per CPU when asked
};

// How readings are summed: as perf stat's default; per CPU (-A, --no-aggr); per core or per
// socket (--per-core, --per-socket: the CPUs' topology files).
enum class Aggregation : std::uint8_t { global, per_cpu, per_core, per_socket };

// The places of `cpus` read from `root` (`/`); a CPU whose files cannot be read is left out.
std::map<int, CpuPlace> cpu_places(std::span<const int> cpus, const std::string& root = "/");
// `per_cpu` values summed per core or per socket (`aggregation`), as perf stat --per-core and
// --per-socket sum them: counts and times added, then scaled and graded again. Each value's `cpu`
// is the first CPU of its core or socket, `place` its place and `cpus` how many were summed. A
// CPU without a place is kept on its own.
Reading aggregate(const Reading& per_cpu, Aggregation aggregation,
                  const std::map<int, CpuPlace>& places, std::span<const CountEvent> events);

struct CountOptions {
  CountTarget target;
  Aggregation aggregation = Aggregation::global;
  // The share of time the planner predicts for each event (index into the events), when the
  // caller planned them: a multiplexed grade then says both.
  std::vector<std::optional<double>> predicted_fraction;
  // When an event does not open (other than for permission), try the ladder profilers use: a
  // lower precise_ip, a vendor event's built-in equivalent, cycles -> cpu-clock; each
  // substitution is the value's `substituted` grade. Off: never substitute.
  bool fallback = false;
};

class CountSession {
 public:
  // Opens `events` (encode()'s results on `catalog`, Tool::stat) on the target. The command of
  // a command target is started but held before exec until start(). Errors: a permission error
  // (count-open-denied, with the explainer's reason and perf's wording), a command that cannot
  // be started (count-command-failed), no event opened at all (count-nothing-opened).
  static Expected<CountSession> open(const Catalog& catalog, PerfEventKernel& kernel,
                                     std::span<const EncodedEvent> events,
                                     const CountOptions& options);
  CountSession(CountSession&&) noexcept;
  CountSession& operator=(CountSession&&) noexcept;
  ~CountSession();  // closes every counter; a command never started is killed and reaped

  const std::vector<CountEvent>& events() const;
  // The command's pid (the counted command, or the one that times a CPU or thread count), else 0.
  pid_t child() const;

  // Starts counting: lets the command exec (its counters enable on exec), else enables every
  // group.
  void start();
  // Waits for the command to exit: its status as a shell gives it (127 not found, 126 not
  // executable, 128+N killed by signal N). Errors (count-command-failed): no command, or one
  // not started yet (it is held before exec until start(), so waiting would never end). A
  // signal interrupting the wait (EINTR) is waited through.
  Expected<int> wait();
  // Whether the started command has exited, without waiting: its status as wait() gives it, once
  // (it is then reaped); nullopt while it runs, or when there is no started command.
  std::optional<int> exited();
  // Why the command could not exec (count-command-failed: not found, its exit status 127; not
  // executable, 126), or nullopt. Blocks until the command has exec'd or exited, so it is asked
  // after waiting for it.
  std::optional<Diagnostic> command_error();
  // Stops counting (disables every group).
  void stop();
  // Reads every counter now: cumulative since start().
  Expected<Reading> read() const;
  // The same into `into`, whose storage is reused (-I reads every interval: no allocation once
  // warm). On an error `into` holds nothing valid.
  std::optional<Diagnostic> read(Reading& into) const;
  // The same, the values' counts and times only: no value scaled, no grade. What -I reads each
  // interval, for difference() to scale and grade the interval alone.
  std::optional<Diagnostic> read_counts(Reading& into) const;

 private:
  struct State;
  explicit CountSession(std::unique_ptr<State> state);
  std::unique_ptr<State> state_;
};

// The grades of every value of `reading`: exact, multiplexed (with the predicted fraction when
// known), not-counted, zero-count, counts-lost, errata, not-supported. Called by
// CountSession::read(); public for the tests and for readings built elsewhere.
void grade_values(Reading& reading, std::span<const CountEvent> events,
                  std::span<const std::optional<double>> predicted_fraction);

// ---- Metrics over a session's counts -------------------------------------------------------

// The metrics a session's events were expanded for.
struct SessionMetrics {
  std::vector<ExpandedMetric> metrics;  // expand_metric_table()'s, perf's order
  // Per metric, per id (ExpandedMetric::ids): the indices in the session's events of the attrs
  // carrying it (several for an uncore event on several PMUs).
  std::vector<std::vector<std::vector<std::size_t>>> id_events;
};

struct MetricReading {
  std::string name;
  std::string unit;             // ScaleUnit's unit ("%", "GB/sec"); empty without one
  std::optional<double> value;  // ScaleUnit applied; nullopt when not computed
  std::vector<Trust> trust;     // at least one grade
};

// The metrics' values from `reading`, each graded: exact; metric-input-missing (with the
// evaluator's reason) when it has no value; metric-split-groups when its events were in
// different groups and one of them was multiplexed; out-of-range for a percentage outside 0 to
// 100; child-above-parent for a TMA metric (MetricGroup `tma_<parent>_group`) larger than its
// parent. `evaluator` holds the catalog's metrics the expansion came from, parsed once for
// every reading (-I evaluates each interval); `options` the literals.
std::vector<MetricReading> evaluate_session_metrics(const Reading& reading,
                                                    std::span<const CountEvent> events,
                                                    const SessionMetrics& metrics,
                                                    const MetricEvaluator& evaluator,
                                                    const EvalOptions& options);

// Per metric of `metrics`, in its order: the event (index into the session's events) whose line
// its value is printed on, after `#`: that of the id its expression names first (its numerator,
// as a rule), or of an id it does not spell out (a tool event perf adds). perf stat picks one of
// the metric's events in the order of its hash of their ids. None for a metric `evaluator`'s
// table does not hold. Once per run: it does not depend on the counts.
std::vector<std::optional<std::size_t>> metric_host_events(const SessionMetrics& metrics,
                                                           const MetricEvaluator& evaluator);

// `later` less `earlier`, value by value (the same events and CPUs): the counts of an interval
// (-I). Times and counts are differences; values are scaled again and graded again.
Reading difference(const Reading& later, const Reading& earlier, std::span<const CountEvent> events,
                   std::span<const std::optional<double>> predicted_fraction);
// The same into `into`, whose storage is reused.
void difference(const Reading& later, const Reading& earlier, std::span<const CountEvent> events,
                std::span<const std::optional<double>> predicted_fraction, Reading& into);

PMUCAT_END_NAMESPACE
