// The pure half of the explainer: each event through the rule families, then a note per fact
// a rule needed and did not have.
#include "pmucat/explain.h"

#include <fmt/core.h>

#include <algorithm>

#include "explain/rules.h"

PMUCAT_BEGIN_NAMESPACE
namespace explain_detail {

Holds EventContext::holds(unsigned capability) const {
  if (!facts.capabilities) return Holds::unknown;
  return (*facts.capabilities >> capability) & 1u ? Holds::yes : Holds::no;
}

Holds EventContext::perfmon_capable() const {
  const Holds perfmon = holds(kCapPerfmon);
  const Holds admin = holds(kCapSysAdmin);
  if (perfmon == Holds::yes || admin == Holds::yes) return Holds::yes;
  return perfmon == Holds::unknown ? Holds::unknown : Holds::no;
}

Reason& EventContext::add(DiagId id, Severity severity, std::string message, std::string perf_says,
                          std::string fix) {
  Reason reason;
  reason.event = index;
  reason.id = id;
  reason.severity = severity;
  reason.message = std::move(message);
  reason.perf_says = std::move(perf_says);
  reason.fix = std::move(fix);
  out.push_back(std::move(reason));
  return out.back();
}

std::string paranoid_fact(int paranoid) {
  return fmt::format("perf_event_paranoid = {}", paranoid);
}

std::string capability_fact(const HostFacts& facts) {
  if (!facts.capabilities) return "capabilities = unknown";
  const auto has = [&](unsigned capability) { return (*facts.capabilities >> capability) & 1u; };
  return fmt::format("CapEff = {:#x} ({} CAP_PERFMON, {} CAP_SYS_ADMIN)", *facts.capabilities,
                     has(kCapPerfmon) ? "has" : "no", has(kCapSysAdmin) ? "has" : "no");
}

bool is_core_type(std::uint32_t type) {
  return type == static_cast<std::uint32_t>(PerfType::hardware) ||
         type == static_cast<std::uint32_t>(PerfType::hw_cache) ||
         type == static_cast<std::uint32_t>(PerfType::raw);
}

bool counts_per_cpu_only(const Pmu& pmu) {
  return pmu.kind() == PmuKind::uncore;
}

bool rejects_exclude_bits(const Pmu& pmu) {
  return pmu.kind() == PmuKind::uncore || pmu.name() == "msr";
}

std::string perf_syscall_error(int error_number, std::string_view error_name,
                               std::string_view spec) {
  return fmt::format(
      "The sys_perf_event_open() syscall returned with {} ({}) for event ({}).\n"
      "/bin/dmesg | grep -i perf may provide additional information.",
      error_number, error_name, spec);
}

namespace {

// The PMU perf_event_open reaches for this attr. Hardware and cache events with an extended
// type (the PMU's type in config bits 32-63) go to that core PMU.
const Pmu* target_pmu(const Catalog& catalog, const EncodedEvent& event) {
  if (is_core_type(event.attr.type)) {
    const auto extended = static_cast<std::uint32_t>(event.attr.config[0] >> 32);
    if (extended != 0 && event.attr.type != static_cast<std::uint32_t>(PerfType::raw)) {
      for (const Pmu& pmu : catalog.pmus()) {
        if (pmu.type() == extended) return &pmu;
      }
    }
    return catalog.core_pmu();
  }
  if (!event.pmu.empty()) {
    if (const Pmu* pmu = catalog.find_pmu(event.pmu)) return pmu;
  }
  return nullptr;
}

// Where a fact can be had: the process's own facts only from the host itself; the sysctls from
// the host or a capture of it; a PMU's caps only from its driver.
std::string how_to_know(const std::string& fact) {
  if (fact == "capabilities" || fact == "uid" || fact == "tracefs permissions") {
    return "run pmuencode --explain on the host, as the user and with the capabilities perf "
           "will run with";
  }
  if (fact.starts_with("caps")) {
    return "the PMU does not publish it in sysfs: its driver's documentation says what it takes";
  }
  return "run pmuencode --explain on the host, or give --host-root a pmusnap capture of its live "
         "/sys (which holds proc/sys/kernel)";
}

void add_unknown_notes(EventContext& context) {
  for (const std::string& fact : context.unknown) {
    Reason& reason =
        context.add(DiagId::explain_fact_unknown, Severity::note,
                    fmt::format("{} unknown: the reasons that depend on it are not decided", fact),
                    "", how_to_know(fact));
    reason.facts.push_back(fact + " = unknown");
  }
}

}  // namespace
}  // namespace explain_detail

std::vector<Reason> explain(const HostFacts& facts, const Catalog& catalog,
                            std::span<const EncodedEvent> events, const ExplainOptions& options) {
  using namespace explain_detail;
  std::vector<Reason> reasons;
  for (std::size_t index = 0; index < events.size(); ++index) {
    const std::size_t event_start = reasons.size();
    std::set<std::string> unknown;
    EventContext context{facts,         catalog, options,
                         events[index], index,   target_pmu(catalog, events[index]),
                         reasons,       unknown};
    // Nothing else is decided for a PMU that is not there: the attr is only a stand-in.
    if (!pmu_absent_rules(context)) {
      permission_rules(context);
      pmu_rules(context);
      kernel_rules(context);
      counter_rules(context);
      add_unknown_notes(context);
    }
    // The most severe first: what stops the event matters more than what qualifies it.
    const auto first = reasons.begin() + static_cast<std::ptrdiff_t>(event_start);
    std::stable_sort(first, reasons.end(),
                     [](const Reason& a, const Reason& b) { return a.severity > b.severity; });
  }
  return reasons;
}

PMUCAT_END_NAMESPACE
