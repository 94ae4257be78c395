// The explainer's rules, one family per file, over one event at a time (explain.cpp runs them in
// the order docs/explain.md lists the reasons). Internal to src/explain.
#pragma once

#include <cstddef>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "pmucat/explain.h"

PMUCAT_BEGIN_NAMESPACE
namespace explain_detail {

// Whether the process holds a capability: yes, no, or not known (no CapEff fact).
enum class Holds : std::uint8_t { yes, no, unknown };

// What every rule of one event sees, and where its reasons go.
struct EventContext {
  const HostFacts& facts;
  const Catalog& catalog;
  const ExplainOptions& options;
  const EncodedEvent& event;
  std::size_t index = 0;
  // The PMU the kernel hands the attr to: the named PMU, or the core PMU for hardware, cache
  // and raw types (nullptr when there is none, or for perf's software events).
  const Pmu* pmu = nullptr;
  std::vector<Reason>& out;
  // The facts some rule needed but did not have; explain.cpp adds one note per fact at the end.
  std::set<std::string>& unknown;

  Holds holds(unsigned capability) const;
  // CAP_PERFMON or CAP_SYS_ADMIN: what lifts every paranoid limit but Debian's level 3.
  Holds perfmon_capable() const;
  // Adds a reason with the event index filled in; returns it for callers that add facts.
  Reason& add(DiagId id, Severity severity, std::string message, std::string perf_says,
              std::string fix);
};

// "perf_event_paranoid = 2", "CapEff = 0x0 (no CAP_PERFMON, no CAP_SYS_ADMIN)", ...
std::string paranoid_fact(int paranoid);
std::string capability_fact(const HostFacts& facts);

// True for a hardware, cache or raw attr type, which the kernel hands to the core PMU.
bool is_core_type(std::uint32_t type);
// True when the kernel refuses a CPU-less (per-task) event on this PMU: uncore PMUs, which
// publish a cpumask and no cpus.
bool counts_per_cpu_only(const Pmu& pmu);
// True for drivers that mark themselves PERF_PMU_CAP_NO_EXCLUDE: the x86 uncore drivers
// (Intel, AMD), RAPL (`power`, which has a cpumask) and `msr`.
bool rejects_exclude_bits(const Pmu& pmu);

// perf's generic refusal text for an errno it has no special wording for.
std::string perf_syscall_error(int error_number, std::string_view error_name,
                               std::string_view spec);

// An event whose `pmu` the catalog lacks stands for a spec naming a PMU the host does not have
// (the caller could not encode it): its one reason, and true; false for any other event.
bool pmu_absent_rules(EventContext& context);  // rules_pmu.cpp
void permission_rules(EventContext& context);  // rules_permission.cpp
void pmu_rules(EventContext& context);         // rules_pmu.cpp
void kernel_rules(EventContext& context);      // rules_kernel.cpp
void counter_rules(EventContext& context);     // rules_counters.cpp

}  // namespace explain_detail
PMUCAT_END_NAMESPACE
