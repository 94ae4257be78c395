// The counting session: perf stat's attrs opened on the target through the kernel seam, read,
// summed, scaled and graded.
#include <fmt/format.h>
#include <sys/wait.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <map>

#include "count/fallback.h"
#include "count/workload.h"
#include "pmucat/builtin_events.h"
#include "pmucat/count.h"
#include "pmucat/diagnostic_ids.h"
#include "pmucat/explain.h"
#include "pmucat/tool_defaults.h"

PMUCAT_BEGIN_NAMESPACE
namespace {

using count_detail::Workload;

// The tool PMU's duration_time (tool.json's ConfigCode 1).
constexpr std::uint64_t kDurationTime = 1;

// One file descriptor: an event on one CPU (or any, -1) for one task (or all, -1).
struct Counter {
  std::size_t event = 0;
  int cpu = -1;
  pid_t pid = -1;
  int fd = -1;
  // A group leader's read returns its members' values too (PERF_FORMAT_GROUP): the events it
  // reads, leader first, those opened beside it on its CPU and task. Empty for a member, which
  // is read through its leader.
  std::vector<std::size_t> reads;
  // Per value the leader's read returns (its opened members, leader first): the index of the
  // value it adds to in State::values.
  std::vector<std::size_t> slots;
  // The leader's read_format and the bytes its read returns, kept beside the descriptor: -I
  // reads every counter each interval, and the events' attrs lie far apart in memory.
  std::uint64_t read_format = 0;
  std::size_t read_size = 0;
};

// An errno's name ("EOPNOTSUPP"), as pmustat's JSON says it.
std::string errno_name(int error) {
  const char* name = ::strerrorname_np(error);
  return name != nullptr ? name : fmt::format("errno {}", error);
}

// The exit status a shell gives for waitpid's `status`: the code, or 128+N killed by signal N.
int shell_status(int status) {
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return 1;
}

bool is_permission(int error) {
  return error == EACCES || error == EPERM;
}

// perf stat's units for its software clocks: it prints them in msec.
void clock_unit(const Attr& attr, CountEvent& event) {
  if (attr.type == static_cast<std::uint32_t>(PerfType::software) &&
      (attr.config[0] == 0 || attr.config[0] == 1)) {  // cpu-clock, task-clock
    event.unit = "msec";
    event.scale = 1e-6;
  }
}

// The event's .unit and .scale from the catalog, where a sysfs or JSON event named it.
void catalog_metadata(const Catalog& catalog, CountEvent& event) {
  const Pmu* pmu = catalog.find_pmu(event.encoded.pmu);
  if (pmu == nullptr) return;
  const PmuKind kind = pmu->kind();
  event.counts_hardware = kind == PmuKind::core || kind == PmuKind::uncore;
  if (event.encoded.event.empty()) return;
  const Event* found = pmu->find_event(event.encoded.event);
  if (found == nullptr) return;
  if (found->vendor && found->vendor->errata != "null") event.errata = found->vendor->errata;
  // find_event() may answer from a probe of events/<name> alone, without the metadata files;
  // the listing (read once per PMU) has them.
  for (const Event& listed : pmu->events()) {
    if (listed.name != found->name) continue;
    if (listed.unit) event.unit = *listed.unit;
    if (listed.scale) event.scale = *listed.scale;
    break;
  }
}

bool counts_on_hardware(const Attr& attr) {
  return attr.type == static_cast<std::uint32_t>(PerfType::hardware) ||
         attr.type == static_cast<std::uint32_t>(PerfType::hw_cache) ||
         attr.type == static_cast<std::uint32_t>(PerfType::raw);
}

// Where an event opens for a CPU target: its PMU's cpumask (uncore: one CPU per package or
// die) or cpus (a hybrid core PMU's CPUs), within the CPUs asked for when they were listed.
std::vector<int> cpus_for(const Catalog& catalog, const CountEvent& event,
                          const std::vector<int>& asked, bool listed) {
  const Pmu* pmu = catalog.find_pmu(event.encoded.pmu);
  if (pmu == nullptr) return asked;
  const PmuAttributes& attributes = pmu->attributes();
  const std::optional<CpuList>& own = attributes.cpumask ? attributes.cpumask : attributes.cpus;
  if (!own || own->cpus.empty()) return asked;
  std::vector<int> cpus;
  for (std::uint32_t cpu : own->cpus) {
    const int as_int = static_cast<int>(cpu);
    if (!listed || std::find(asked.begin(), asked.end(), as_int) != asked.end()) {
      cpus.push_back(as_int);
    }
  }
  return cpus;
}

// A PMU that only counts whole CPUs: it has a cpumask file and is no core PMU.
bool counts_whole_cpus(const Catalog& catalog, const CountEvent& event) {
  const Pmu* pmu = catalog.find_pmu(event.encoded.pmu);
  return pmu != nullptr && pmu->kind() == PmuKind::uncore && pmu->attributes().cpumask;
}

}  // namespace

struct CountSession::State {
  PerfEventKernel* kernel = nullptr;
  std::vector<CountEvent> events;
  std::vector<Counter> counters;
  Aggregation aggregation = Aggregation::global;
  std::vector<std::optional<double>> predicted;
  Workload workload;
  bool is_command = false;
  std::optional<std::chrono::steady_clock::time_point> started;  // duration_time counts from it
  // The values a read() fills, zero: per event (in event order), per CPU when asked for.
  std::vector<EventValue> values;
  mutable std::vector<std::byte> buffer;     // reused by every read()
  mutable ReadBuffer parsed;                 // the same
  std::vector<std::size_t> duration_values;  // the values of duration_time, measured by read()
  std::map<int, CpuPlace> places;            // --per-core, --per-socket: the CPUs' topology

  ~State() {
    for (Counter& counter : counters) {
      if (counter.fd >= 0) kernel->close(counter.fd);
    }
  }

  bool lost_supported = true;  // false once the kernel refused PERF_FORMAT_LOST

  // Opens `event`'s attr on (pid, cpu) beside `group_fd` as perf probes a kernel: again without
  // PERF_FORMAT_LOST when it answers EINVAL (a kernel before 6.0; then no counter asks for it),
  // again without the exclusion bits (a PMU that takes none); with `fallback`, down the ladder
  // (fallback.cpp) until a rung opens, each rung named in the substituted grade. The fd, or
  // -errno of the last try.
  int open_counter(CountEvent& event, pid_t pid, int cpu, int group_fd, bool fallback) {
    Attr& attr = event.encoded.attr;
    if (!lost_supported) attr.read_format &= ~read_fmt::lost;
    int fd = kernel->open(attr, pid, cpu, group_fd);
    if (fd == -EINVAL && (attr.read_format & read_fmt::lost)) {
      Attr without = attr;
      without.read_format &= ~read_fmt::lost;
      fd = kernel->open(without, pid, cpu, group_fd);
      if (fd >= 0) {
        lost_supported = false;
        for (CountEvent& other : events) other.encoded.attr.read_format &= ~read_fmt::lost;
      }
    }
    if (fd == -EINVAL && (attr.exclude_guest || attr.exclude_host)) {
      Attr plain = attr;
      plain.exclude_guest = false;
      plain.exclude_host = false;
      fd = kernel->open(plain, pid, cpu, group_fd);
      if (fd >= 0) attr = plain;
    }
    std::vector<std::string> steps;
    for (Attr tried = attr; fd < 0 && !is_permission(-fd) && fallback;) {
      std::optional<count_detail::Fallback> step = count_detail::next_fallback(event, tried);
      if (!step) break;
      steps.push_back(step->description);
      tried = step->attr;
      fd = kernel->open(tried, pid, cpu, group_fd);
      if (fd < 0) continue;
      attr = tried;
      event.substituted =
          Trust{TrustGrade::substituted, fmt::format("--fallback: {} (the event asked for did not "
                                                     "open)",
                                                     fmt::join(steps, ", then "))};
      event.counts_hardware = counts_on_hardware(attr);
      clock_unit(attr, event);
      // Printed under what was counted, as perf stat prints its own fallback.
      if (!step->name.empty()) event.name = step->name;
    }
    return fd;
  }

  // The host's facts the explainer reads, read at the first refused open.
  std::optional<HostFacts> facts;

  // The reason a refused open gets: the explainer's first error for the event when it has one
  // (its id and perf's wording), else the errno.
  Trust refusal(const Catalog& catalog, std::size_t index, int error) {
    std::string reason =
        fmt::format("perf_event_open: {} ({})", errno_name(error), std::strerror(error));
    if (!facts) facts = read_host_facts("/");
    const std::vector<Reason> reasons =
        explain(*facts, catalog, std::span(&events[index].encoded, 1), ExplainOptions{});
    for (const Reason& found : reasons) {
      if (found.severity != Severity::error) continue;
      reason += fmt::format("; {} [{}]", found.message, to_string(found.id));
      if (!found.perf_says.empty()) reason += fmt::format("; perf says: {}", found.perf_says);
      break;
    }
    return {TrustGrade::not_supported, std::move(reason)};
  }
};

CountSession::CountSession(std::unique_ptr<State> state) : state_(std::move(state)) {}
CountSession::CountSession(CountSession&&) noexcept = default;
CountSession& CountSession::operator=(CountSession&&) noexcept = default;
CountSession::~CountSession() = default;

const std::vector<CountEvent>& CountSession::events() const {
  return state_->events;
}

pid_t CountSession::child() const {
  return state_->workload.pid();
}

Expected<CountSession> CountSession::open(const Catalog& catalog, PerfEventKernel& kernel,
                                          std::span<const EncodedEvent> encoded,
                                          const CountOptions& options) {
  auto state = std::make_unique<State>();
  state->kernel = &kernel;
  state->aggregation = options.aggregation;
  state->predicted = options.predicted_fraction;
  const CountTarget& target = options.target;
  state->is_command = target.kind == CountTarget::Kind::command;

  std::vector<EncodedEvent> attrs(encoded.begin(), encoded.end());
  apply_tool_defaults(attrs, Tool::stat);
  for (std::size_t i = 0; i < attrs.size(); ++i) {
    CountEvent event;
    event.encoded = std::move(attrs[i]);
    // As perf stat names it: the name= term, else a metric's id, else the spec as written.
    const EventSettings& settings = event.encoded.settings;
    event.name = settings.name        ? *settings.name
                 : settings.metric_id ? decode_metric_id(*settings.metric_id)
                                      : event.encoded.spec;
    event.group = event.encoded.group_leader.value_or(i);
    Attr& attr = event.encoded.attr;
    attr.read_format |= read_fmt::id | read_fmt::lost;
    attr.inherit = target.inherit && target.kind != CountTarget::Kind::all_cpus &&
                   target.kind != CountTarget::Kind::cpus;
    if (!state->is_command) attr.enable_on_exec = false;
    if (attr.type == kToolPmuType) event.tool = attr.config[0];
    clock_unit(attr, event);
    catalog_metadata(catalog, event);
    event.counts_hardware = event.counts_hardware || counts_on_hardware(attr);
    state->events.push_back(std::move(event));
  }
  // perf's tool events are measured here, never opened (alone or in a group): duration_time is
  // the time counted; the others are not measured.
  std::size_t opened = 0;
  for (CountEvent& event : state->events) {
    if (event.tool == 0) continue;
    event.cpus = {-1};
    if (event.tool == kDurationTime) {
      event.unit = "ns";
      ++opened;
      continue;
    }
    const auto names = tool_pmu_event_names();
    event.refused = Trust{
        TrustGrade::not_supported,
        fmt::format("{} is a perf tool event pmustat does not measure (it measures duration_time)",
                    event.tool <= names.size() ? names[event.tool - 1] : event.name)};
  }
  // One spec opened on several PMUs (a hybrid CPU's cpu_core and cpu_atom): each value is
  // that PMU's share, never summed, and named by its PMU as perf stat names it.
  for (CountEvent& event : state->events) {
    if (event.encoded.pmu.empty() || event.name.find('/') != std::string::npos) continue;
    const bool shared =
        std::any_of(state->events.begin(), state->events.end(), [&](const CountEvent& other) {
          return other.encoded.spec == event.encoded.spec && other.encoded.pmu != event.encoded.pmu;
        });
    if (shared) event.name = fmt::format("{}/{}/", event.encoded.pmu, event.name);
  }

  // Where each group opens: (cpu, pid) slots of its leader, which its members share.
  std::vector<int> asked_cpus = target.cpus;
  if (target.kind == CountTarget::Kind::all_cpus && asked_cpus.empty()) {
    Expected<std::vector<int>> online = online_cpus("/");
    if (!online) return unexpected(online.error());
    asked_cpus = std::move(*online);
  }
  // The counted command, or the one that only times a CPU or thread count.
  if (state->is_command || !target.command.empty()) {
    Expected<Workload> workload = Workload::prepare(target.command);
    if (!workload) return unexpected(workload.error());
    state->workload = std::move(*workload);
  }

  for (std::size_t leader = 0; leader < state->events.size(); ++leader) {
    if (state->events[leader].group != leader) continue;
    // The kernel events of the group, its leader first (a tool event is no kernel event).
    std::vector<std::size_t> members;
    for (std::size_t i = leader; i < state->events.size(); ++i) {
      if (state->events[i].group == leader && state->events[i].tool == 0) members.push_back(i);
    }
    if (members.empty()) continue;
    const std::size_t kernel_leader = members.front();
    if (kernel_leader != leader) {
      // A tool event led the group: its first kernel event leads what the kernel sees, opened
      // as perf stat opens a leader.
      Attr& attr = state->events[kernel_leader].encoded.attr;
      attr.disabled = true;
      attr.enable_on_exec = state->is_command;
    }
    std::vector<std::pair<int, pid_t>> slots;
    switch (target.kind) {
      case CountTarget::Kind::command:
        if (counts_whole_cpus(catalog, state->events[kernel_leader])) break;
        slots.emplace_back(-1, state->workload.pid());
        break;
      case CountTarget::Kind::threads:
        if (counts_whole_cpus(catalog, state->events[kernel_leader])) break;
        for (pid_t tid : target.threads) slots.emplace_back(-1, tid);
        break;
      case CountTarget::Kind::all_cpus:
      case CountTarget::Kind::cpus:
        for (int cpu : cpus_for(catalog, state->events[kernel_leader], asked_cpus,
                                target.kind == CountTarget::Kind::cpus)) {
          slots.emplace_back(cpu, -1);
        }
        break;
    }
    if (slots.empty()) {
      const bool per_task =
          target.kind == CountTarget::Kind::command || target.kind == CountTarget::Kind::threads;
      for (std::size_t member : members) {
        CountEvent& event = state->events[member];
        event.refused =
            per_task
                ? Trust{TrustGrade::uncore_per_task,
                        fmt::format("{} counts whole CPUs (its cpumask), never one "
                                    "task: count it with -a [explain-uncore-per-task]",
                                    event.encoded.pmu)}
                : Trust{TrustGrade::not_supported,
                        fmt::format("{} counts on none of the CPUs asked for", event.encoded.pmu)};
      }
      continue;
    }
    for (std::size_t member : members) {
      std::vector<int> cpus;
      for (const auto& [cpu, pid] : slots) {
        if (std::find(cpus.begin(), cpus.end(), cpu) == cpus.end()) cpus.push_back(cpu);
      }
      state->events[member].cpus = std::move(cpus);
    }
    for (const auto& [cpu, pid] : slots) {
      int leader_fd = -1;
      std::size_t leader_counter = 0;
      for (std::size_t member : members) {
        CountEvent& event = state->events[member];
        if (event.refused) continue;
        if (member != kernel_leader && leader_fd < 0) {
          event.refused = Trust{TrustGrade::not_supported,
                                fmt::format("its group leader {} could not be opened",
                                            state->events[kernel_leader].name)};
          continue;
        }
        const int fd = state->open_counter(
            event, pid, cpu, member == kernel_leader ? -1 : leader_fd, options.fallback);
        if (fd < 0) {
          const int error = -fd;
          if (is_permission(error)) {
            Trust why = state->refusal(catalog, member, error);
            return unexpected(
                make_file_diagnostic(Severity::error, DiagId::count_open_denied, event.name,
                                     fmt::format("cannot open {}: {}", event.name, why.reason)));
          }
          event.refused = state->refusal(catalog, member, error);
          event.refused_errno = std::string(errno_name(error));
          continue;
        }
        ++opened;
        Counter counter;
        counter.event = member;
        counter.cpu = cpu;
        counter.pid = pid;
        counter.fd = fd;
        if (member == kernel_leader) {
          leader_fd = fd;
          leader_counter = state->counters.size();
          counter.reads = {kernel_leader};
        } else {
          // The leader's group read holds the members opened beside it on this slot.
          state->counters[leader_counter].reads.push_back(member);
        }
        state->counters.push_back(std::move(counter));
      }
    }
  }
  // Where each read value goes: one value per event (per CPU with per-CPU aggregation).
  for (std::size_t i = 0; i < state->events.size(); ++i) {
    const CountEvent& event = state->events[i];
    if (options.aggregation != Aggregation::global && !event.refused && !event.cpus.empty()) {
      for (int cpu : event.cpus) {
        EventValue value;
        value.event = i;
        value.cpu = cpu;
        state->values.push_back(value);
      }
    } else {
      EventValue value;
      value.event = i;
      state->values.push_back(value);
    }
  }
  // Each event's values start at first_value[event], its CPUs' in the order of its cpus.
  std::vector<std::size_t> first_value(state->events.size());
  for (std::size_t v = state->values.size(); v-- > 0;) first_value[state->values[v].event] = v;
  const auto slot_of = [&](std::size_t event, int cpu) {
    const std::vector<int>& cpus = state->events[event].cpus;
    const auto at = std::find(cpus.begin(), cpus.end(), cpu);
    const bool own = state->values[first_value[event]].cpu >= 0 && at != cpus.end();
    return first_value[event] + (own ? static_cast<std::size_t>(at - cpus.begin()) : 0);
  };
  for (Counter& counter : state->counters) {
    for (std::size_t member : counter.reads) counter.slots.push_back(slot_of(member, counter.cpu));
    if (counter.reads.empty()) continue;
    counter.read_format = state->events[counter.event].encoded.attr.read_format;
    const bool group = (counter.read_format & read_fmt::group) != 0;
    counter.read_size = read_buffer_size(counter.read_format, group ? counter.slots.size() : 1);
  }
  for (std::size_t v = 0; v < state->values.size(); ++v) {
    const CountEvent& event = state->events[state->values[v].event];
    if (event.tool == kDurationTime && !event.refused) state->duration_values.push_back(v);
  }
  if (options.aggregation == Aggregation::per_core ||
      options.aggregation == Aggregation::per_socket) {
    std::vector<int> cpus;
    for (const EventValue& value : state->values) {
      if (value.cpu >= 0) cpus.push_back(value.cpu);
    }
    std::sort(cpus.begin(), cpus.end());
    cpus.erase(std::unique(cpus.begin(), cpus.end()), cpus.end());
    state->places = cpu_places(cpus);
  }
  if (opened == 0) {
    std::string why;
    for (const CountEvent& event : state->events) {
      if (event.refused) {
        why = fmt::format(": {} — {}", event.name, event.refused->reason);
        break;
      }
    }
    return unexpected(make_file_diagnostic(Severity::error, DiagId::count_nothing_opened,
                                           "<events>",
                                           fmt::format("no event could be opened{}", why)));
  }
  return CountSession(std::move(state));
}

void CountSession::start() {
  State& state = *state_;
  state.started = std::chrono::steady_clock::now();
  // A counted command's counters enable at its exec; the others are enabled here, and a
  // command that only times the count starts after them.
  if (state.is_command) {
    state.workload.go();
    return;
  }
  for (const Counter& counter : state.counters) {
    if (counter.reads.empty()) continue;
    state.kernel->enable(counter.fd, counter.reads.size() > 1);
  }
  state.workload.go();
}

Expected<int> CountSession::wait() {
  State& state = *state_;
  const pid_t child = state.workload.pid();
  if (child <= 0 || !state.started) {
    return unexpected(make_file_diagnostic(
        Severity::error, DiagId::count_command_failed, "<command>",
        child <= 0 ? "no command to wait for: the session counts threads or CPUs"
                   : "start() first: the command is held before exec until then"));
  }
  int status = 0;
  while (::waitpid(child, &status, 0) < 0) {
    if (errno != EINTR) {
      return unexpected(make_file_diagnostic(Severity::error, DiagId::count_command_failed,
                                             "<command>",
                                             fmt::format("waitpid: {}", std::strerror(errno))));
    }
  }
  return shell_status(status);
}

std::optional<int> CountSession::exited() {
  const pid_t child = state_->workload.pid();
  if (child <= 0 || !state_->started) return std::nullopt;
  int status = 0;
  if (::waitpid(child, &status, WNOHANG) != child) return std::nullopt;
  return shell_status(status);
}

std::optional<Diagnostic> CountSession::command_error() {
  return state_->workload.exec_error();
}

void CountSession::stop() {
  State& state = *state_;
  for (const Counter& counter : state.counters) {
    if (counter.reads.empty()) continue;
    state.kernel->disable(counter.fd, counter.reads.size() > 1);
  }
}

Expected<Reading> CountSession::read() const {
  Reading reading;
  if (auto error = read(reading)) return unexpected(std::move(*error));
  return reading;
}

std::optional<Diagnostic> CountSession::read(Reading& reading) const {
  const State& state = *state_;
  if (auto error = read_counts(reading)) return error;
  grade_values(reading, state.events, state.predicted);
  return std::nullopt;
}

std::optional<Diagnostic> CountSession::read_counts(Reading& reading) const {
  const State& state = *state_;
  // Assigned element by element: the values' grade vectors keep their storage.
  reading.values = state.values;
  std::vector<std::byte>& buffer = state.buffer;
  ReadBuffer& parsed = state.parsed;
  for (const Counter& counter : state.counters) {
    if (counter.reads.empty()) continue;
    buffer.resize(counter.read_size);
    const long got = state.kernel->read(counter.fd, buffer);
    if (got < 0) {
      return make_file_diagnostic(Severity::error, DiagId::count_read_short,
                                  state.events[counter.event].name,
                                  fmt::format("read() on CPU {}, task {} failed: {}", counter.cpu,
                                              counter.pid, std::strerror(static_cast<int>(-got))));
    }
    const std::size_t members = (counter.read_format & read_fmt::group) ? counter.slots.size() : 1;
    // The event's name (far off in its CountEvent) is looked up only for an error.
    if (auto error = parse_read_buffer(std::span(buffer).first(static_cast<std::size_t>(got)),
                                       counter.read_format, members, std::string_view(), parsed)) {
      error->range.file = state.events[counter.event].name;
      return error;
    }
    for (std::size_t k = 0; k < parsed.counters.size(); ++k) {
      EventValue& value = reading.values[counter.slots[k]];
      value.raw += parsed.counters[k].value;
      value.enabled += parsed.enabled.value_or(0);
      value.running += parsed.running.value_or(0);
      value.lost += parsed.counters[k].lost.value_or(0);
    }
  }
  // duration_time: the time since start(), always running.
  const std::uint64_t elapsed =
      state.started
          ? static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                           std::chrono::steady_clock::now() - *state.started)
                                           .count())
          : 0;
  for (std::size_t v : state.duration_values) {
    EventValue& value = reading.values[v];
    value.raw = elapsed;
    value.enabled = elapsed;
    value.running = elapsed;
  }
  if (state.aggregation == Aggregation::per_core || state.aggregation == Aggregation::per_socket) {
    reading = aggregate(reading, state.aggregation, state.places, state.events);
  }
  return std::nullopt;
}

PMUCAT_END_NAMESPACE
