// "Why isn't it counting": every reason an encoded event would fail to open or count nothing,
// decided from facts about the host (/proc, /sys, tracefs; or a capture of them) and the
// catalog, without opening anything. explain() is pure; read_host_facts() is the thin reader.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "pmucat/catalog.h"
#include "pmucat/diagnostic.h"
#include "pmucat/diagnostic_ids.h"
#include "pmucat/encode.h"
#include "pmucat/version.h"

PMUCAT_BEGIN_NAMESPACE

// Capability numbers (bits of /proc/<pid>/status CapEff) that lift perf_event_paranoid.
inline constexpr unsigned kCapSysAdmin = 21;
inline constexpr unsigned kCapPerfmon = 38;

// A kernel release's version, from `osrelease` ("6.1.0-18-amd64" -> 6.1).
struct KernelVersion {
  std::uint32_t major = 0;  // 6 of 6.1
  std::uint32_t minor = 0;  // 1 of 6.1
  friend auto operator<=>(const KernelVersion&, const KernelVersion&) = default;
};

// The leading `MAJOR.MINOR` of a release string; nullopt when it does not start that way.
std::optional<KernelVersion> parse_kernel_version(std::string_view release);

// What the host says about perf_event_open's permissions and the kernel. Every fact is optional:
// nullopt means unknown (not readable, not captured), and a rule that needs it says so.
struct HostFacts {
  std::optional<int> perf_event_paranoid;  // /proc/sys/kernel/perf_event_paranoid
  std::optional<bool> nmi_watchdog;        // /proc/sys/kernel/nmi_watchdog is non-zero
  // /proc/sys/kernel/perf_event_max_sample_rate: the highest sample_freq the kernel takes (Hz)
  std::optional<std::uint64_t> max_sample_rate;
  std::optional<std::string> kernel_release;   // /proc/sys/kernel/osrelease, newline removed
  std::optional<std::uint64_t> capabilities;   // CapEff of /proc/self/status (bit n = CAP n)
  std::optional<std::uint32_t> uid;            // effective uid (second field of status's Uid:)
  std::optional<std::string> tracefs;          // the tracefs directory found under the root
  std::optional<std::uint32_t> tracefs_mode;   // its permission bits (0700 by default)
  std::optional<std::uint32_t> tracefs_owner;  // its owner's uid
  friend bool operator==(const HostFacts&, const HostFacts&) = default;
};

// Reads the facts from `root`, a directory laid out like `/` (the live `/`, a pmusnap capture, a
// test tree): proc/sys/kernel/{perf_event_paranoid,nmi_watchdog,perf_event_max_sample_rate,
// osrelease}, proc/self/status, sys/kernel/tracing (else sys/kernel/debug/tracing). A file that
// is missing or unreadable leaves its fact unknown; nothing here fails. A text holding a NUL byte
// leaves its fact unknown too, and adds a host-fact-nul warning to `problems` when given (perf
// would read the text only up to that byte).
HostFacts read_host_facts(const std::filesystem::path& root,
                          std::vector<Diagnostic>* problems = nullptr);

// Where the events are counted, as perf's target options say.
enum class Scope : std::uint8_t {
  task,      // a workload or -p/-t: per task (perf stat/record's default)
  all_cpus,  // -a: every CPU, every task
  cpus,      // -C LIST: those CPUs, every task
};

// What the counter planner (planner.h, a separate module this one does not use) found for
// one event. The explainer does not plan counters; a caller that ran the planner passes its
// verdicts here and each becomes an explain-counters-taken reason.
struct CounterVerdict {
  std::size_t event = 0;          // index into explain()'s events
  bool never_scheduled = false;   // its group never fits the PMU's free counters
  double running_fraction = 1.0;  // share of the time it is expected to count (1: always)
  std::string why;                // the planner's one-line account ("4 events for 3 counters")
  friend bool operator==(const CounterVerdict&, const CounterVerdict&) = default;
};

struct ExplainOptions {
  Scope scope = Scope::task;
  std::vector<std::uint32_t> cpus;  // Scope::cpus: the CPUs asked for (-C); ignored otherwise
  Tool tool = Tool::stat;           // the perf command the events are meant for
  // From the planner (empty: counters were not planned, and no counter reason is given).
  std::vector<CounterVerdict> counters;
};

// One reason an event would not count as asked.
struct Reason {
  std::size_t event = 0;  // index into explain()'s events
  DiagId id{};            // an explain-* id of diagnostic_ids.def (stable, for scripts)
  // error: the open fails or the event counts nothing; warning: it opens but counts other than
  // asked (user space only, multiplexed, ...); note: a fact worth knowing, or one unknown.
  Severity severity = Severity::error;
  std::string message;    // our explanation, one line
  std::string perf_says;  // what perf stat/record prints for it; empty when perf prints nothing
  std::string fix;        // what to change, one line
  // The facts it was decided from, each "name = value" ("perf_event_paranoid = 2").
  std::vector<std::string> facts;
  friend bool operator==(const Reason&, const Reason&) = default;
};

// Every reason each of `events` (encode()'s result, on `catalog`) would fail to open or count
// nothing on a host with `facts`: in event order; for each event errors, then warnings, then notes,
// each in the order docs/explain.md lists the reasons. No I/O beyond what the catalog reads lazily;
// an empty result means no reason found. An event whose `pmu` names no PMU of `catalog` stands for
// a spec naming a PMU the host lacks, which could not be encoded (its spec and pmu are all that
// is read): it gets explain-no-core-pmu (a core PMU's name, and the host has none) or
// explain-pmu-absent, and no other reason.
std::vector<Reason> explain(const HostFacts& facts, const Catalog& catalog,
                            std::span<const EncodedEvent> events, const ExplainOptions& options);

PMUCAT_END_NAMESPACE
