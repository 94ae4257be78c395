// Counters: the NMI watchdog's hold on one core counter, and the planner's verdicts when a caller
// passes them (ExplainOptions::counters; this module plans nothing itself).
#include <fmt/core.h>

#include "explain/rules.h"
#include "pmucat/version.h"

PMUCAT_BEGIN_NAMESPACE
namespace explain_detail {

void counter_rules(EventContext& context) {
  const bool on_core_pmu = context.pmu != nullptr && context.pmu->kind() == PmuKind::core;
  if (on_core_pmu && context.facts.nmi_watchdog.value_or(false)) {
    Reason& reason = context.add(
        DiagId::explain_nmi_watchdog, Severity::note,
        "the NMI watchdog is on and holds one counter of the core PMU (a generic one on x86 "
        "where no fixed counter serves it), so one fewer is free for these events",
        "Some events weren't counted. Try disabling the NMI watchdog:\n"
        "\techo 0 > /proc/sys/kernel/nmi_watchdog\n\tperf stat ...\n"
        "\techo 1 > /proc/sys/kernel/nmi_watchdog",
        "sysctl kernel.nmi_watchdog=0 while measuring, if a group does not fit");
    reason.facts.emplace_back("nmi_watchdog = 1");
  }
  for (const CounterVerdict& verdict : context.options.counters) {
    if (verdict.event != context.index) continue;
    Reason& reason = context.add(
        DiagId::explain_counters_taken,
        verdict.never_scheduled ? Severity::error : Severity::warning,
        verdict.never_scheduled
            ? fmt::format("the counter planner finds its group never fits the free counters: "
                          "{}",
                          verdict.why)
            : fmt::format("the counter planner expects it to count {:.2f}% of the time "
                          "(multiplexed): {}",
                          verdict.running_fraction * 100, verdict.why),
        verdict.never_scheduled
            ? fmt::format("<not counted>      {}", context.event.spec)
            : fmt::format("({:.2f}%) after the count", verdict.running_fraction * 100),
        verdict.never_scheduled
            ? "split the group into groups that fit (pmuencode --plan proposes them)"
            : "count fewer events at once (perf stat scales the count by its running time)");
    reason.facts.emplace_back("planner: " + verdict.why);
  }
}

}  // namespace explain_detail
PMUCAT_END_NAMESPACE
