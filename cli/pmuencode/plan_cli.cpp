#include "pmuencode/plan_cli.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "common/exit_codes.h"
#include "common/output_buffer.h"
#include "pmucat/diagnostic_ids.h"
#include "pmucat/metrics.h"
#include "pmucat/suggest.h"

PMUCAT_BEGIN_NAMESPACE
namespace cli {
namespace {

std::string slot_text(const CounterSlot& slot) {
  switch (slot.kind) {
    case CounterKind::generic:
      return fmt::format("generic {}", slot.index);
    case CounterKind::fixed:
      return fmt::format("fixed {}", slot.index);
    case CounterKind::metric:
      return fmt::format("metric {}", slot.index);
    case CounterKind::none:
      break;
  }
  return "waiting";
}

std::string percent(double fraction) {
  return fmt::format("{:.2f}%", fraction * 100.0);
}

std::string counters_text(const CounterSet& set) {
  std::string text = fmt::format("{} generic + {} fixed", set.generic, set.fixed);
  if (set.metrics != 0) text += fmt::format(" + {} topdown metric slots", set.metrics);
  return text;
}

std::vector<std::string> names(const PlanInput& input, std::span<const std::size_t> events) {
  std::vector<std::string> out;
  for (std::size_t i : events) out.push_back(input.events[i].name);
  return out;
}

Json constraint_json(const EventConstraint& c) {
  Json out{{"need", c.need == CounterNeed::counter          ? "counter"
                    : c.need == CounterNeed::topdown_metric ? "topdown_metric"
                                                            : "none"}};
  if (c.need == CounterNeed::counter) {
    out["generic_mask"] = c.generic_mask;
    out["fixed_mask"] = c.fixed_mask;
  }
  if (c.need == CounterNeed::topdown_metric) out["metric"] = c.metric;
  if (c.slots) out["slots"] = true;
  out["origin"] = c.origin;
  return out;
}

Json problem_json(const PlanInput& input, const GroupProblem& problem) {
  return Json{{"group", problem.group},
              {"events", names(input, input.groups[problem.group].events)},
              {"reason", problem.reason},
              {"consequence", problem.consequence},
              {"reopened_ungrouped", problem.reopened_ungrouped}};
}

}  // namespace

bool plan_has_unschedulable_group(const Plan& plan) {
  if (!plan.problems.empty()) return true;
  return std::any_of(plan.pmus.begin(), plan.pmus.end(), [](const PmuPlan& pmu) {
    return std::any_of(pmu.never.begin(), pmu.never.end(),
                       [](const GroupProblem& p) { return !p.reopened_ungrouped; });
  });
}

std::string render_plan(const PlanInput& input, const Plan& plan) {
  std::string out;
  for (const PmuPlan& pmu : plan.pmus) {
    const CounterSet& set = pmu.counters;
    if (!pmu.counts_known) {
      out += fmt::format("{}: counters unknown ({})\n", set.pmu, set.origin);
      for (std::size_t i = 0; i < input.events.size(); ++i) {
        if (input.events[i].pmu == set.pmu) out += fmt::format("  {}\n", input.events[i].name);
      }
      out += '\n';
      continue;
    }
    out += fmt::format("{}: {} ({})\n", set.pmu, counters_text(set), set.origin);
    std::map<std::size_t, double> running;  // event -> its group's fraction
    std::map<std::size_t, std::size_t> group_of;
    for (const GroupRun& run : pmu.runs) {
      for (std::size_t i : run.events) {
        running[i] = run.fraction;
        group_of[i] = run.group + 1;
      }
    }
    std::size_t width = 5;
    for (const auto& [i, slot] : pmu.assignment)
      width = std::max(width, input.events[i].name.size());
    // No group of this PMU ever goes on: the never lines below say why, a table would be empty.
    if (!pmu.assignment.empty()) {
      out += fmt::format("  {:<{}}  {:>5}  {:<10}  {:>8}\n", "event", width, "group", "counter",
                         "running");
    }
    for (const auto& [i, slot] : pmu.assignment) {
      const bool pinned = input.groups[group_of[i] - 1].pinned;
      out += fmt::format("  {:<{}}  {:>5}  {:<10}  {:>8}\n", input.events[i].name, width,
                         fmt::format("{}{}", group_of[i], pinned ? "P" : ""), slot_text(slot),
                         percent(running[i]));
    }
    for (const GroupProblem& problem : pmu.never) {
      out += fmt::format("  never: group {} ({}): {}; {}\n", problem.group + 1,
                         fmt::join(names(input, input.groups[problem.group].events), ", "),
                         problem.reason, problem.consequence);
    }
    if (pmu.fits) {
      out += "  verdict: fits: every group is on at once\n";
    } else if (pmu.rotation_ticks > 1 || !pmu.rotation_exact) {
      out += fmt::format("  verdict: multiplexed: the rotation repeats every {} tick{}{}\n",
                         pmu.rotation_ticks, pmu.rotation_ticks == 1 ? "" : "s",
                         pmu.rotation_exact ? "" : " (no repeat found: fractions approximate)");
    } else {
      out += "  verdict: does not fit (see never)\n";
    }
    out += '\n';
  }
  if (!plan.counterless_groups.empty()) {
    std::vector<std::string> list;
    for (std::size_t g : plan.counterless_groups) {
      for (const auto& name : names(input, input.groups[g].events)) list.push_back(name);
    }
    out += fmt::format("no counter needed (always running): {}\n", fmt::join(list, ", "));
  }
  for (const GroupProblem& problem : plan.problems) {
    out += fmt::format("never: group {} ({}): {}; {}\n", problem.group + 1,
                       fmt::join(names(input, input.groups[problem.group].events), ", "),
                       problem.reason, problem.consequence);
  }
  const Regrouping& regrouping = plan.regrouping;
  const std::size_t formed = regrouping.groups.size();
  const std::size_t pinned = regrouping.pinned_kept;
  const std::string pinned_text = fmt::format("{} pinned group{} {} kept as written", pinned,
                                              pinned == 1 ? "" : "s", pinned == 1 ? "is" : "are");
  if (formed == 0) {
    // Pinned groups are never regrouped, and "0 groups, the fewest" would say nothing.
    out += pinned != 0 ? fmt::format(
                             "regrouping: none to form: the {} (pinned groups are "
                             "never regrouped)\n",
                             pinned_text)
                       : "regrouping: none to form: no event needs a counter of a PMU with "
                         "known counts\n";
  } else {
    out += fmt::format("regrouping: {} group{} that {}fit{}", formed, formed == 1 ? "" : "s",
                       formed == 1 ? "" : "each ", formed == 1 ? "s" : "");
    if (pinned != 0) {
      out += fmt::format(", beside the {} pinned group{} kept as written", pinned,
                         pinned == 1 ? "" : "s");
    }
    if (regrouping.proven_fewest) {
      out += fmt::format(" (the fewest: it meets the lower bound {})\n", regrouping.lower_bound);
    } else {
      out += fmt::format(" (first-fit heuristic; the lower bound is {})\n", regrouping.lower_bound);
    }
  }
  if (!regrouping.left_out.empty()) {
    out += fmt::format("  left out (fit in no group): {}\n",
                       fmt::join(names(input, regrouping.left_out), ", "));
  }
  if (!regrouping.events.empty()) {
    out += fmt::format("  perf stat -e '{}'\n", regrouping.events);
  }
  if (plan.fits && plan.all_known) {
    out += "verdict: fits: every event counts all the time\n";
  } else if (plan.fits) {
    out += "verdict: fits where the counters are known; give --counters for the others\n";
  } else if (plan_has_unschedulable_group(plan)) {
    out += "verdict: some events never count\n";
  } else {
    out += "verdict: does not fit at once: multiplexed\n";
  }
  return out;
}

Json plan_to_json(const PlanInput& input, const Plan& plan) {
  Json events = Json::array();
  for (const PlanEvent& event : input.events) {
    events.push_back(Json{{"name", event.name},
                          {"spec", event.spec},
                          {"pmu", event.pmu},
                          {"perf", event.perf_string},
                          {"constraint", constraint_json(event.constraint)}});
  }
  Json groups = Json::array();
  for (const PlanGroup& group : input.groups) {
    groups.push_back(Json{{"events", group.events},
                          {"pinned", group.pinned},
                          {"weak", group.weak},
                          {"user_group", group.user_group}});
  }
  Json pmus = Json::array();
  for (const PmuPlan& pmu : plan.pmus) {
    Json item{{"pmu", pmu.counters.pmu},
              {"generic", pmu.counters.generic},
              {"fixed", pmu.counters.fixed},
              {"topdown_metrics", pmu.counters.metrics},
              {"source", to_string(pmu.counters.source)},
              {"origin", pmu.counters.origin},
              {"counts_known", pmu.counts_known}};
    if (pmu.counts_known) {
      item["fits"] = pmu.fits;
      Json assignment = Json::array();
      for (const auto& [i, slot] : pmu.assignment) {
        Json entry{{"event", i}, {"kind", to_string(slot.kind)}};
        if (slot.kind != CounterKind::none) entry["index"] = slot.index;
        assignment.push_back(std::move(entry));
      }
      item["first_tick"] = std::move(assignment);
      Json runs = Json::array();
      for (const GroupRun& run : pmu.runs) {
        runs.push_back(Json{{"group", run.group},
                            {"events", run.events},
                            {"pinned", run.pinned},
                            {"running", run.fraction}});
      }
      item["runs"] = std::move(runs);
      Json never = Json::array();
      for (const GroupProblem& problem : pmu.never) never.push_back(problem_json(input, problem));
      item["never"] = std::move(never);
      item["rotation_ticks"] = pmu.rotation_ticks;
      item["rotation_exact"] = pmu.rotation_exact;
    }
    pmus.push_back(std::move(item));
  }
  Json problems = Json::array();
  for (const GroupProblem& problem : plan.problems)
    problems.push_back(problem_json(input, problem));
  const Regrouping& r = plan.regrouping;
  return Json{{"fits", plan.fits},
              {"all_known", plan.all_known},
              {"events", std::move(events)},
              {"groups", std::move(groups)},
              {"pmus", std::move(pmus)},
              {"counterless_groups", plan.counterless_groups},
              {"problems", std::move(problems)},
              {"regrouping", Json{{"groups", r.groups},
                                  {"ungrouped", r.ungrouped},
                                  {"left_out", r.left_out},
                                  {"lower_bound", r.lower_bound},
                                  {"proven_fewest", r.proven_fewest},
                                  {"pinned_kept", r.pinned_kept},
                                  {"events", r.events},
                                  {"perf_events", r.perf_events}}}};
}

namespace {

// A PMU's name without its instance number (uncore_cha_0 -> uncore_cha), the name --counters
// also takes for all of them; the name itself when it has none.
std::string_view without_instance(std::string_view pmu) {
  const std::size_t underscore = pmu.rfind('_');
  if (underscore == std::string_view::npos || underscore + 1 == pmu.size()) return pmu;
  const std::string_view digits = pmu.substr(underscore + 1);
  const bool numbered =
      std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; });
  return numbered ? pmu.substr(0, underscore) : pmu;
}

}  // namespace

Expected<std::vector<CounterOverride>> counter_overrides(const Catalog& catalog,
                                                         std::span<const std::string> texts,
                                                         DiagnosticPrinter& printer) {
  std::vector<CounterOverride> overrides;
  std::vector<std::string> names;  // what --counters can name here, for the suggestion
  for (const std::string& text : texts) {
    auto given = parse_counter_override(text);
    if (!given) return unexpected(std::move(given).error());
    if (catalog.find_pmu(given->pmu) == nullptr) {
      if (names.empty()) {
        for (const Pmu& pmu : catalog.pmus()) {
          for (std::string_view name :
               {std::string_view(pmu.name()), without_instance(pmu.name())}) {
            if (std::find(names.begin(), names.end(), name) == names.end())
              names.emplace_back(name);
          }
        }
      }
      if (std::find(names.begin(), names.end(), given->pmu) == names.end()) {
        Diagnostic warning =
            make_diagnostic(Severity::warning, DiagId::plan_counters_unknown_pmu, "<--counters>",
                            text, 0, given->pmu.size(),
                            fmt::format("no PMU '{}' in this tree: --counters {} changes nothing",
                                        given->pmu, text));
        if (const auto nearest = nearest_name(given->pmu, names)) {
          warning.hint = fmt::format("did you mean '{}'?", *nearest);
          warning.fixit = FixIt{warning.range, *nearest};
        } else {
          warning.hint = "see pmuls for the PMUs of the tree";
        }
        printer.print(warning);
      }
    }
    overrides.push_back(std::move(*given));
  }
  return overrides;
}

bool nmi_watchdog_on(const std::string& option) {
  return option.empty() ? host_nmi_watchdog() : option == "on";
}

int run_plan(const Catalog& catalog, std::span<const EncodedEvent> events,
             const PlanCliOptions& options, DiagnosticPrinter& printer) {
  PlanBuildOptions build;
  build.nmi_watchdog = nmi_watchdog_on(options.nmi_watchdog);
  auto overrides = counter_overrides(catalog, options.counters, printer);
  if (!overrides) {
    printer.print(overrides.error());
    return to_int(ExitCode::usage);
  }
  build.counters = std::move(*overrides);
  const PlanInput input = build_plan_input(catalog, events, build);
  const Plan plan = plan_counters(input);
  write_stdout(options.json ? dump_json(plan_to_json(input, plan)) : render_plan(input, plan));
  return to_int(plan_has_unschedulable_group(plan) ? ExitCode::rejected : ExitCode::success);
}

}  // namespace cli
PMUCAT_END_NAMESPACE
