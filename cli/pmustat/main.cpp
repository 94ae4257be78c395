// pmustat [-e SPEC]... [-M METRIC]... [-a | -C CPUS | -p PID | -t TID] [--] [COMMAND ARGS...]:
// counts events as perf stat does, each value with its trust grades.
#include <fmt/format.h>
#include <signal.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "common/app.h"
#include "common/json.h"
#include "common/output_buffer.h"
#include "common/tree.h"
#include "pmucat/builtin_events.h"
#include "pmucat/count.h"
#include "pmucat/diagnostic_ids.h"
#include "pmucat/encode.h"
#include "pmucat/explain.h"
#include "pmucat/metrics.h"
#include "pmucat/planner.h"
#include "pmucat/stat_defaults.h"
#include "pmuencode/explain_cli.h"
#include "pmuencode/plan_cli.h"
#include "pmustat/report.h"

PMUCAT_BEGIN_NAMESPACE
namespace cli {
namespace {

constexpr const char* kExamples = R"(
  $ pmustat -e page-faults,context-switches true
      count two software events of a command, as perf stat -e does
  $ pmustat -e task-clock -r 5 -- sleep 0.01
      five runs: the mean of each count and its spread, ( +- x% ) as perf stat -r prints
  $ pmustat -a -I 1000 -e msr/tsc/
      every CPU, a line per event each second until Ctrl-C
  $ pmustat --json -e cycles,instructions ./app
      counts with their trust grades (multiplexed, zero-count, not-supported ...) as JSON
)";

// The signal that ended counting (0: none), set by the handler; the child's pid to forward it
// to. Process-wide because a signal handler can reach nothing else.
volatile sig_atomic_t g_signal = 0;
volatile sig_atomic_t g_child = 0;

extern "C" void on_signal(int signal) {
  g_signal = signal;
  if (g_child > 0) ::kill(static_cast<pid_t>(g_child), signal);
}

extern "C" void on_child_exit(int) {}

// A handler (not SIG_IGN, which the command would inherit through exec) for the signals that
// end counting: the command gets them forwarded, pmustat prints what was counted. SIGCHLD's
// handler does nothing but end -I's sleep (clock_nanosleep is never restarted), so the last
// interval ends when the command does, as perf stat's; other calls restart.
void catch_signals() {
  struct sigaction action {};
  action.sa_handler = on_signal;
  sigemptyset(&action.sa_mask);
  for (int signal : {SIGINT, SIGTERM, SIGHUP}) ::sigaction(signal, &action, nullptr);
  struct sigaction child_exit {};
  child_exit.sa_handler = on_child_exit;
  child_exit.sa_flags = SA_RESTART | SA_NOCLDSTOP;
  sigemptyset(&child_exit.sa_mask);
  ::sigaction(SIGCHLD, &child_exit, nullptr);
}

void set_sigpipe(void (*handler)(int)) {
  struct sigaction action {};
  action.sa_handler = handler;
  sigemptyset(&action.sa_mask);
  ::sigaction(SIGPIPE, &action, nullptr);
}

struct Options {
  CommonOptions common;
  std::vector<std::string> events;
  std::vector<std::string> metrics;
  bool all_cpus = false;
  std::string cpu_list;
  std::vector<pid_t> pids;
  std::vector<pid_t> tids;
  bool no_aggr = false;
  bool per_core = false;
  bool per_socket = false;
  std::optional<std::string> separator;
  unsigned interval_ms = 0;
  unsigned repeat = 1;
  bool no_inherit = false;
  bool fallback = false;
  bool plan = false;
  bool explain = false;
  std::vector<std::string> command;
};

// Sleeps until `deadline` (CLOCK_MONOTONIC) unless a signal comes first: false then.
bool sleep_until(const timespec& deadline) {
  const int result = ::clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &deadline, nullptr);
  return result == 0 && g_signal == 0;
}

timespec now_monotonic() {
  timespec now{};
  ::clock_gettime(CLOCK_MONOTONIC, &now);
  return now;
}

double seconds_of(const timeval& time) {
  return static_cast<double>(time.tv_sec) + static_cast<double>(time.tv_usec) / 1e6;
}

double seconds_between(const timespec& from, const timespec& to) {
  return static_cast<double>(to.tv_sec - from.tv_sec) +
         static_cast<double>(to.tv_nsec - from.tv_nsec) / 1e9;
}

timespec plus_ms(timespec at, unsigned ms) {
  at.tv_sec += ms / 1000;
  at.tv_nsec += static_cast<long>(ms % 1000) * 1000000L;
  if (at.tv_nsec >= 1000000000L) {
    at.tv_sec += 1;
    at.tv_nsec -= 1000000000L;
  }
  return at;
}

// The command's status once it exits (a signal meanwhile is forwarded by the handler); 1 with
// the reason printed when it cannot be waited for.
int waited_status(CountSession& session, DiagnosticPrinter& printer) {
  auto status = session.wait();
  if (status) return *status;
  printer.print(status.error());
  return 1;
}

int run(int argc, char** argv) {
  CLI::App app{
      "Count events as perf stat does: open them on a command (started here, its children "
      "inherit the counters), threads (-p, -t) or CPUs (-a, -C), read them, scale multiplexed "
      "counts by enabled/running, and grade every value (exact, multiplexed, not-counted, "
      "zero-count, not-supported, counts-lost, errata ...) with a one-line reason. A value "
      "pmustat cannot trust says so; one it could not count is never made up.\n"
      "Usage: pmustat [OPTIONS] [--] [COMMAND [ARGS...]]",
      "pmustat"};
  Options options;
  add_common_options(app, options.common, {.sysfs = false});
  app.get_option("--json")->description(
      "Print the counts as JSON (one object, or one per interval with -I): each value with its "
      "grades (schema in docs/schema/pmustat.schema.json)");
  app.add_option("-e,--event", options.events,
                 "Events to count, as perf stat -e takes them (comma-separated, groups in "
                 "{...}); repeatable. Default: the events plain perf stat counts")
      ->allow_extra_args(false)
      ->type_name("SPEC");
  app.add_option("-M,--metrics", options.metrics,
                 "Metrics or metric groups of the CPU's model to count and compute, as perf stat "
                 "-M takes them (IPC, TopdownL1), comma-separated; each value graded")
      ->delimiter(',')
      ->allow_extra_args(false)
      ->type_name("NAME,...");
  app.add_flag("-a,--all-cpus", options.all_cpus, "Count every online CPU, every task");
  app.add_option("-C,--cpu", options.cpu_list, "Count these CPUs, every task (0-3,8)")
      ->type_name("CPUS");
  app.add_option("-p,--pid", options.pids, "Count every thread of these processes")
      ->delimiter(',')
      ->allow_extra_args(false)
      ->type_name("PID");
  app.add_option("-t,--tid", options.tids, "Count these threads")
      ->delimiter(',')
      ->allow_extra_args(false)
      ->type_name("TID");
  app.add_flag("-A,--no-aggr", options.no_aggr, "With -a or -C: a value per CPU, not their sum");
  app.add_flag("--per-core", options.per_core,
               "With -a or -C: a value per core (S0-D0-C1), its CPUs summed, as perf stat "
               "--per-core");
  app.add_flag("--per-socket", options.per_socket,
               "With -a or -C: a value per socket (S0), its CPUs summed");
  app.add_option("-x,--field-separator", options.separator,
                 "Print perf stat's CSV, separated by SEP: value, unit, event, (with -r) "
                 "spread, running time, percent running, metric value, metric unit")
      ->type_name("SEP");
  app.add_option("-I,--interval-print", options.interval_ms,
                 "Print the counts of each interval of MS milliseconds (at least 10)")
      ->check(CLI::Range(10U, 86400000U))
      ->type_name("MS");
  app.add_option("-r,--repeat", options.repeat,
                 "Run the command N times: the mean of each count and its spread")
      ->check(CLI::Range(1U, 100000U))
      ->type_name("N");
  app.add_flag("--fallback", options.fallback,
               "When an event does not open, count the next one profilers fall back to (a "
               "lower :p, a vendor event's built-in equivalent, cycles -> cpu-clock), named in "
               "its substituted grade; never without this option");
  app.add_flag("--plan", options.plan,
               "Print the counter planner's plan of the events (groups, counters, the share of "
               "time each will count) instead of counting, as pmuencode --plan");
  app.add_flag("--explain", options.explain,
               "Print why each event would not open or count on this host (permissions, PMUs, "
               "kernel, counters) instead of counting, as pmuencode --explain");
  app.add_flag("--no-inherit", options.no_inherit,
               "Count the command itself, not the processes it starts");
  // The first word that is no option starts the command; the rest are its own arguments.
  app.prefix_command();
  app.footer(help_footer(
      {.examples = kExamples,
       .rejected = "a spec was rejected or no event could be opened; with a COMMAND, pmustat "
                   "exits with the command's own status instead (127: not found, 128+N: "
                   "killed by signal N)",
       .reads_sysfs = false}));
  if (const auto status = parse_command_line(app, argc, argv)) return *status;
  options.command = app.remaining();
  if (!options.command.empty() && options.command.front() == "--") {
    options.command.erase(options.command.begin());
  } else if (!options.command.empty() && options.command.front().starts_with('-')) {
    // An option pmustat does not know, before any command: a usage error, not a command.
    fmt::print(stderr,
               "pmustat: error: The following argument was not expected: {}\nRun "
               "'pmustat --help' for usage and examples.\n",
               options.command.front());
    return to_int(ExitCode::usage);
  }
  DiagnosticPrinter printer(stderr, stream_wants_color(color_mode(options.common), stderr),
                            "pmustat");

  const int targets = (options.all_cpus ? 1 : 0) + (options.cpu_list.empty() ? 0 : 1) +
                      (options.pids.empty() ? 0 : 1) + (options.tids.empty() ? 0 : 1);
  if (targets > 1) {
    printer.error("give one of -a, -C, -p and -t");
    return to_int(ExitCode::usage);
  }
  if ((options.no_aggr ? 1 : 0) + (options.per_core ? 1 : 0) + (options.per_socket ? 1 : 0) > 1) {
    printer.error("give one of -A, --per-core and --per-socket");
    return to_int(ExitCode::usage);
  }
  const bool dry_run = options.plan || options.explain;
  if (targets == 0 && options.command.empty() && !dry_run) {
    printer.error("nothing to count: give a COMMAND, or -a, -C, -p or -t");
    return to_int(ExitCode::usage);
  }
  if (options.repeat > 1 && options.command.empty()) {
    printer.error("-r repeats a COMMAND: give one");
    return to_int(ExitCode::usage);
  }

  CountOptions count;
  CountTarget& target = count.target;
  target.inherit = !options.no_inherit;
  target.command = options.command;
  if (options.all_cpus) {
    target.kind = CountTarget::Kind::all_cpus;
  } else if (!options.cpu_list.empty()) {
    target.kind = CountTarget::Kind::cpus;
    auto cpus = parse_cpu_list(options.cpu_list, "-C");
    if (!cpus) {
      printer.print(cpus.error());
      return to_int(ExitCode::usage);
    }
    for (std::uint32_t cpu : cpus->cpus) target.cpus.push_back(static_cast<int>(cpu));
  } else if (!options.pids.empty() || !options.tids.empty()) {
    target.kind = CountTarget::Kind::threads;
    target.threads = options.tids;
    for (pid_t pid : options.pids) {
      auto threads = threads_of(pid);
      if (!threads) {
        printer.print(threads.error());
        return to_int(ExitCode::usage);
      }
      target.threads.insert(target.threads.end(), threads->begin(), threads->end());
    }
  }
  // With -a, -C, -p or -t a COMMAND only says how long to count (perf stat -a sleep 1).
  const bool counts_command = target.kind == CountTarget::Kind::command;
  count.aggregation = options.no_aggr      ? Aggregation::per_cpu
                      : options.per_core   ? Aggregation::per_core
                      : options.per_socket ? Aggregation::per_socket
                                           : Aggregation::global;
  count.fallback = options.fallback;

  auto tree = open_tree(options.common, printer);
  if (!tree) {
    printer.print(tree.error());
    return to_int(ExitCode::io);
  }
  const Catalog& catalog = tree->catalog;
  std::vector<EncodedEvent> events;
  SessionMetrics session_metrics;
  EncodeOptions encode_options;
  encode_options.tool = Tool::stat;
  const bool cpu_target =
      target.kind == CountTarget::Kind::all_cpus || target.kind == CountTarget::Kind::cpus;
  // The host's literals and NMI watchdog matter to metrics only: a list of events alone reads
  // neither (the one-event start-up cost, docs/count.md).
  const bool counts_metrics = !options.metrics.empty() || options.events.empty();
  MetricLiterals literals;
  if (counts_metrics) literals = host_metric_literals("/");
  literals.target_cpu = cpu_target ? 1.0 : 0.0;
  // Metric events join the list after the given ones; their ids keep pointing at them.
  const auto add_metrics = [&](std::vector<ExpandedMetric> expanded,
                               std::vector<EncodedEvent> metric_events,
                               const std::vector<std::vector<std::vector<std::size_t>>>& ids) {
    const std::size_t offset = events.size();
    for (EncodedEvent& event : metric_events) {
      if (event.group_leader) *event.group_leader += offset;
      events.push_back(std::move(event));
    }
    for (std::size_t m = 0; m < expanded.size(); ++m) {
      auto& metric_ids = session_metrics.id_events.emplace_back(ids[m]);
      for (auto& id : metric_ids) {
        for (std::size_t& index : id) index += offset;
      }
      session_metrics.metrics.push_back(std::move(expanded[m]));
    }
  };
  if (options.events.empty() && options.metrics.empty()) {
    StatDefaultsOptions defaults_options;
    defaults_options.cpu_target = cpu_target;
    defaults_options.metrics.literals = literals;
    auto defaults = stat_default_events(catalog, defaults_options, encode_options);
    if (!defaults) {
      printer.print(defaults.error());
      return to_int(ExitCode::rejected);
    }
    add_metrics(std::move(defaults->metrics), std::move(defaults->events), defaults->metric_events);
  }
  if (!options.metrics.empty()) {
    MetricExpandOptions expand_options;
    expand_options.literals = literals;
    expand_options.nmi_watchdog = host_nmi_watchdog("/");
    auto expanded = expand_metrics(catalog, fmt::format("{}", fmt::join(options.metrics, ",")),
                                   expand_options, encode_options);
    if (!expanded) {
      printer.print(expanded.error());
      return to_int(ExitCode::rejected);
    }
    add_metrics(std::move(expanded->expansion.metrics), std::move(expanded->events),
                expanded->id_events);
  }
  for (const std::string& spec : options.events) {
    auto encoded = encode(catalog, spec, encode_options);
    if (!encoded) {
      printer.print(encoded.error());
      return to_int(ExitCode::rejected);
    }
    const std::size_t offset = events.size();
    for (EncodedEvent& event : *encoded) {
      for (const Diagnostic& warning : event.warnings) printer.print(warning);
      if (event.group_leader) *event.group_leader += offset;
      events.push_back(std::move(event));
    }
  }

  if (options.plan) {
    PlanCliOptions plan_options;
    plan_options.json = options.common.json;
    return run_plan(catalog, events, plan_options, printer);
  }
  if (options.explain) {
    ExplainRequest request;
    request.options.scope = target.kind == CountTarget::Kind::all_cpus ? Scope::all_cpus
                            : target.kind == CountTarget::Kind::cpus   ? Scope::cpus
                                                                       : Scope::task;
    for (int cpu : target.cpus) request.options.cpus.push_back(static_cast<std::uint32_t>(cpu));
    const HostFacts facts = read_host_facts(request.host_root);
    const std::vector<Reason> reasons = explain(facts, catalog, events, request.options);
    write_stdout(options.common.json ? explanation_json(facts, request, events, reasons)
                                     : render_explanation(facts, request, events, reasons));
    return to_int(has_blocking_reason(reasons) ? ExitCode::rejected : ExitCode::success);
  }
  // The planner's share of time for each hardware event, which a multiplexed value's grade
  // then compares with what was measured.
  if (std::any_of(events.begin(), events.end(), [](const EncodedEvent& event) {
        const std::uint32_t type = event.attr.type;
        return type == static_cast<std::uint32_t>(PerfType::hardware) ||
               type == static_cast<std::uint32_t>(PerfType::hw_cache) ||
               (type >= static_cast<std::uint32_t>(PerfType::raw) &&
                type != static_cast<std::uint32_t>(PerfType::breakpoint) && type != kToolPmuType);
      })) {
    PlanBuildOptions build;
    build.nmi_watchdog = host_nmi_watchdog("/");
    count.predicted_fraction =
        predicted_fractions(plan_counters(build_plan_input(catalog, events, build)), events.size());
  }
  const auto kernel = linux_perf_events();
  ReportOptions report;
  report.json = options.common.json;
  report.separator = options.separator;
  report.aggregation = count.aggregation;
  report.target = counts_command ? fmt::format("{}", fmt::join(options.command, " "))
                                 : describe_target(target, options.pids);
  catch_signals();

  EvalOptions eval_options;
  eval_options.literals = evaluation_literals(literals);
  // The model's metrics parsed once (none when no metric is asked for), then evaluated on every
  // reading.
  const MetricEvaluator evaluator(session_metrics.metrics.empty() ? std::span<const VendorMetric>()
                                                                  : catalog.vendor_metrics());
  report.metric_events = metric_host_events(session_metrics, evaluator);
  std::vector<Reading> runs;
  std::vector<std::vector<MetricReading>> run_metrics;
  std::vector<CountEvent> opened_events;
  int exit_status = 0;
  for (unsigned run_number = 0; run_number < options.repeat && g_signal == 0; ++run_number) {
    // The command starts with the default SIGPIPE; pmustat ignores it once the command is
    // forked, so a closed pipe on its own output never ends it before the command's status.
    set_sigpipe(SIG_DFL);
    auto session = CountSession::open(catalog, *kernel, events, count);
    set_sigpipe(SIG_IGN);
    if (!session) {
      printer.print(session.error());
      return to_int(session.error().code == DiagId::count_command_failed ? ExitCode::usage
                                                                         : ExitCode::rejected);
    }
    if (run_number == 0) {
      report.unit_width = unit_width_of(session->events());
      for (const CountEvent& event : session->events()) {
        if (event.refused && event.refused->grade == TrustGrade::not_supported) {
          printer.print(make_file_diagnostic(Severity::warning, DiagId::count_not_supported,
                                             event.name, event.refused->reason));
        }
      }
    }
    // The command (counted, or timing a CPU or thread count) is the session's, held until
    // start(); without one, pmustat counts until a signal.
    const pid_t waited = session->child();
    g_child = waited;
    const timespec run_start = now_monotonic();
    session->start();
    if (options.interval_ms > 0) {
      // Three readings reused every interval: no allocation once warm.
      Reading current;
      Reading previous;
      Reading interval;
      std::size_t interval_number = 0;
      bool have_previous = false;
      timespec deadline = plus_ms(run_start, options.interval_ms);
      for (;;) {
        const bool slept = sleep_until(deadline);
        std::optional<int> status = session->exited();
        if (auto error = session->read_counts(current)) {
          printer.print(*error);
          return to_int(ExitCode::io);
        }
        if (have_previous) {
          difference(current, previous, session->events(), count.predicted_fraction, interval);
        } else {
          interval.values = current.values;
          grade_values(interval, session->events(), count.predicted_fraction);
        }
        print_interval(report, session->events(), interval,
                       evaluate_session_metrics(interval, session->events(), session_metrics,
                                                evaluator, eval_options),
                       seconds_between(run_start, now_monotonic()), interval_number++);
        std::swap(previous, current);
        have_previous = true;
        if (status) {
          exit_status = *status;
          break;
        }
        if (!slept && g_signal != 0) {
          if (waited > 0) exit_status = waited_status(*session, printer);
          break;
        }
        deadline = plus_ms(deadline, options.interval_ms);
      }
    } else if (waited > 0) {
      exit_status = waited_status(*session, printer);
    } else {
      while (g_signal == 0) ::pause();
    }
    g_child = 0;
    if (auto failed = session->command_error()) {
      printer.print(*failed);
      return exit_status;
    }
    session->stop();
    const timespec ended = now_monotonic();
    auto reading = session->read();
    if (!reading) {
      printer.print(reading.error());
      return to_int(ExitCode::io);
    }
    run_metrics.push_back(evaluate_session_metrics(*reading, session->events(), session_metrics,
                                                   evaluator, eval_options));
    runs.push_back(std::move(*reading));
    opened_events = session->events();
    report.elapsed_seconds.push_back(seconds_between(run_start, ended));
  }
  if (options.interval_ms == 0 && !runs.empty()) {
    // perf stat's user and sys lines: one run of a counted command (no -a, -C, -p or -t), the
    // only child pmustat waited for.
    rusage children{};
    if (options.repeat == 1 && counts_command && ::getrusage(RUSAGE_CHILDREN, &children) == 0) {
      report.command_times =
          CommandTimes{seconds_of(children.ru_utime), seconds_of(children.ru_stime)};
    }
    print_totals(report, opened_events, runs, run_metrics);
  }
  return counts_command || !options.command.empty() ? exit_status : 0;
}

}  // namespace
}  // namespace cli
PMUCAT_END_NAMESPACE

int main(int argc, char** argv) {
  return pmucat::cli::run_main(argc, argv, "pmustat", pmucat::cli::run);
}
