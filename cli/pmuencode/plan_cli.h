// pmuencode --plan: the counter planner over the encoded events (docs/planner.md), as text a
// person reads at a shell or as JSON.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "common/diagnostics.h"
#include "common/json.h"
#include "pmucat/catalog.h"
#include "pmucat/encode.h"
#include "pmucat/planner.h"

PMUCAT_BEGIN_NAMESPACE
namespace cli {

// Per PMU instance: counters, the assignment table, the verdict, the running fractions; then the
// regrouping as a `perf stat -e` line.
std::string render_plan(const PlanInput& input, const Plan& plan);
Json plan_to_json(const PlanInput& input, const Plan& plan);

struct PlanCliOptions {
  std::vector<std::string> counters;  // --counters PMU=GENERIC[+FIXED], repeatable
  std::string nmi_watchdog;           // --nmi-watchdog on|off; empty: the host's
  bool json = false;
};

// Whether the NMI watchdog is on: as --nmi-watchdog says (on|off), else this host's
// (/proc/sys/kernel/nmi_watchdog). -M, --plan and plain perf stat's events read it.
bool nmi_watchdog_on(const std::string& option);

// Plans `events` and prints the plan; returns the exit status (0: a plan, 1: a group can never
// be scheduled, 2: a malformed --counters).
int run_plan(const Catalog& catalog, std::span<const EncodedEvent> events,
             const PlanCliOptions& options, DiagnosticPrinter& printer);

// The --counters values parsed (a plan-counters-syntax error for the first malformed one); each
// whose PMU is neither a PMU of `catalog` nor the common name of numbered instances of one
// (uncore_cha for uncore_cha_0...) would change nothing, and gets a plan-counters-unknown-pmu
// warning on `printer` with the nearest name.
Expected<std::vector<CounterOverride>> counter_overrides(const Catalog& catalog,
                                                         std::span<const std::string> texts,
                                                         DiagnosticPrinter& printer);

// Whether some group can never be on (the plan's exit status is then 1).
bool plan_has_unschedulable_group(const Plan& plan);

}  // namespace cli
PMUCAT_END_NAMESPACE
