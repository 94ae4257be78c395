// plan_counters(): the pure model put together. Per PMU instance: which groups can never go on
// (and why), the first tick's counters, the rotation's running fractions; then the regrouping.
#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <map>

#include "planner/assign.h"
#include "planner/regroup.h"
#include "planner/rotation.h"
#include "pmucat/planner.h"

PMUCAT_BEGIN_NAMESPACE

std::string_view to_string(CounterSource source) {
  switch (source) {
    case CounterSource::unknown:
      return "unknown";
    case CounterSource::user:
      return "--counters";
    case CounterSource::counter_json:
      return "counter.json";
    case CounterSource::kernel:
      return "kernel";
  }
  return "unknown";
}

std::string_view to_string(CounterKind kind) {
  switch (kind) {
    case CounterKind::generic:
      return "generic";
    case CounterKind::fixed:
      return "fixed";
    case CounterKind::metric:
      return "metric";
    case CounterKind::none:
      return "none";
  }
  return "none";
}

namespace {

using planner_detail::allowed_counters;
using planner_detail::ConstraintList;

constexpr std::string_view kOpenFails = "perf_event_open fails (EINVAL): perf stat cannot open it";
constexpr std::string_view kWeakSplit = "a weak group: perf stat reopens its events ungrouped";

// "generic 0-3", "fixed 1", "metric 2": one kind's bits as ranges.
void describe_bits(std::string& out, std::string_view kind, std::uint64_t bits) {
  if (bits == 0) return;
  if (!out.empty()) out += ", ";
  out += kind;
  out += ' ';
  bool first = true;
  for (int i = 0; i < 32; ++i) {
    if ((bits >> i & 1) == 0) continue;
    int j = i;
    while (j + 1 < 32 && (bits >> (j + 1) & 1) != 0) ++j;
    if (!first) out += ',';
    out += j == i ? fmt::format("{}", i) : fmt::format("{}-{}", i, j);
    first = false;
    i = j;
  }
}

std::string describe_counters(std::uint64_t allowed) {
  std::string out;
  describe_bits(out, "generic", allowed & 0xffffffffu);
  describe_bits(out, "fixed", (allowed >> 32) & 0xffffu);
  describe_bits(out, "topdown metric", (allowed >> 48) & 0xffu);
  return out.empty() ? "none" : out;
}

// Why the kernel's assignment leaves a group without counters: a set of events that may only use
// fewer counters than they are (Hall's condition), or else the greedy order itself.
std::string competition(const CounterSet& counters, std::span<const PlanEvent> events,
                        std::span<const std::size_t> group) {
  std::vector<std::pair<std::size_t, std::uint64_t>> needs;
  for (std::size_t i : group) {
    if (events[i].constraint.need == CounterNeed::none) continue;
    needs.emplace_back(i, allowed_counters(counters, events[i].constraint));
  }
  for (const auto& [i, allowed] : needs) {
    if (allowed == 0) {
      return fmt::format("{} may use no counter this PMU has ({})", events[i].name,
                         events[i].constraint.origin);
    }
  }
  std::vector<std::uint64_t> sets;
  std::uint64_t all = 0;
  for (const auto& need : needs) {
    sets.push_back(need.second);
    all |= need.second;
  }
  sets.push_back(all);
  std::sort(sets.begin(), sets.end());
  for (std::uint64_t set : sets) {
    std::vector<std::string> names;
    for (const auto& [i, allowed] : needs) {
      if ((allowed & ~set) == 0) names.push_back(events[i].name);
    }
    if (names.size() > static_cast<std::size_t>(std::popcount(set))) {
      return fmt::format("{} events compete for {} counter{} ({}): {}", names.size(),
                         std::popcount(set), std::popcount(set) == 1 ? "" : "s",
                         describe_counters(set), fmt::join(names, ", "));
    }
  }
  return "the kernel's order (fewest choices first, fixed counters preferred) leaves an event "
         "without a counter although an assignment exists";
}

// A topdown metric event opens only with the slots event as its group leader.
std::optional<std::string> topdown_leader_problem(std::span<const PlanEvent> events,
                                                  std::span<const std::size_t> group) {
  for (std::size_t i : group) {
    if (events[i].constraint.need != CounterNeed::topdown_metric) continue;
    if (group.front() == i || !events[group.front()].constraint.slots) {
      return fmt::format("topdown metric event {} needs the slots event as its group leader",
                         events[i].name);
    }
  }
  return std::nullopt;
}

ConstraintList constraints_of(std::span<const PlanEvent> events,
                              std::span<const std::size_t> indices) {
  ConstraintList list;
  for (std::size_t i : indices) list.push_back(&events[i].constraint);
  return list;
}

// Whether `group` passes perf_event_open's checks: the topdown leader rule, and counters for
// the group on its own (the kernel's validate_group).
bool opens_alone(const CounterSet& counters, std::span<const PlanEvent> events,
                 std::span<const std::size_t> group) {
  return !topdown_leader_problem(events, group) &&
         planner_detail::assign_counters(counters, constraints_of(events, group)).has_value();
}

// What perf opens for one group of one PMU, after the open-time checks.
struct Opened {
  std::size_t group = 0;
  std::vector<std::size_t> events;
  bool pinned = false;
};

// The events (leader first) of a group that cannot open, split into what still must stay
// together: the slots event with its metric events, every other event that needs a counter
// alone (counterless_of() gives the rest).
std::vector<std::vector<std::size_t>> split_units(std::span<const PlanEvent> events,
                                                  std::span<const std::size_t> group) {
  std::vector<std::vector<std::size_t>> units;
  std::vector<std::size_t> topdown;
  const bool slots_leader = !group.empty() && events[group.front()].constraint.slots;
  for (std::size_t i : group) {
    const auto& c = events[i].constraint;
    if (c.need == CounterNeed::none) continue;  // no counter: listed ungrouped
    if (slots_leader && (i == group.front() || c.need == CounterNeed::topdown_metric || c.slots)) {
      topdown.push_back(i);
    } else {
      units.push_back({i});
    }
  }
  if (!topdown.empty()) units.insert(units.begin(), topdown);
  return units;
}

std::vector<std::size_t> counterless_of(std::span<const PlanEvent> events,
                                        std::span<const std::size_t> group) {
  std::vector<std::size_t> out;
  for (std::size_t i : group) {
    if (events[i].constraint.need == CounterNeed::none) out.push_back(i);
  }
  return out;
}

// Why a group that opens is on in no tick: it does not fit beside the pinned groups (which
// events compete), or the rotation never brings it to a place where it goes on.
std::string never_on_reason(const CounterSet& counters, std::span<const PlanEvent> events,
                            std::span<const Opened* const> pinned_groups,
                            std::span<const ConstraintList> pinned,
                            std::span<const std::size_t> group) {
  if (planner_detail::group_fits(counters, pinned, constraints_of(events, group))) {
    return "never on: in every tick of the rotation an earlier group fails first";
  }
  std::vector<std::size_t> all;
  for (const Opened* opened : pinned_groups) {
    all.insert(all.end(), opened->events.begin(), opened->events.end());
  }
  all.insert(all.end(), group.begin(), group.end());
  return "fits alone, but never beside the pinned events (" + competition(counters, events, all) +
         ")";
}

struct PmuWork {
  std::vector<Opened> opened;  // in list order
};

// An event as `field` writes it; the perf string for an event without a spec (made by hand).
const std::string& event_text(const PlanEvent& event, std::string PlanEvent::*field) {
  const std::string& text = event.*field;
  return text.empty() ? event.perf_string : text;
}

// A group as `perf stat -e` takes it, each event written as `field` says (perf_string or spec).
std::string perf_group_string(std::span<const PlanEvent> events, std::span<const std::size_t> group,
                              std::string PlanEvent::*field = &PlanEvent::perf_string) {
  std::vector<std::string_view> parts;
  for (std::size_t i : group) {
    const std::string& text = event_text(events[i], field);
    if (!text.empty()) parts.push_back(text);
  }
  if (parts.empty()) return {};
  if (parts.size() == 1) return std::string(parts.front());
  return fmt::format("{{{}}}", fmt::join(parts, ","));
}

}  // namespace

Plan plan_counters(const PlanInput& input) {
  Plan plan;
  const std::span<const PlanEvent> events = input.events;
  std::map<std::string, std::size_t, std::less<>> pmu_index;
  for (std::size_t i = 0; i < input.counters.size(); ++i) {
    pmu_index.emplace(input.counters[i].pmu, i);
    PmuPlan pmu;
    pmu.counters = input.counters[i];
    pmu.counts_known = pmu.counters.source != CounterSource::unknown;
    plan.pmus.push_back(std::move(pmu));
  }
  std::vector<PmuWork> work(plan.pmus.size());
  std::vector<std::vector<std::vector<std::size_t>>> units(plan.pmus.size());

  // Each group to its PMU, with the checks perf_event_open makes.
  for (std::size_t g = 0; g < input.groups.size(); ++g) {
    const PlanGroup& group = input.groups[g];
    std::vector<std::string_view> pmus;
    for (std::size_t i : group.events) {
      if (events[i].constraint.need == CounterNeed::none) continue;
      if (std::find(pmus.begin(), pmus.end(), events[i].pmu) == pmus.end()) {
        pmus.push_back(events[i].pmu);
      }
    }
    if (pmus.empty()) {
      plan.counterless_groups.push_back(g);
      if (!group.pinned) {
        plan.regrouping.ungrouped.insert(plan.regrouping.ungrouped.end(), group.events.begin(),
                                         group.events.end());
      }
      continue;
    }
    if (pmus.size() > 1) {
      plan.problems.push_back(
          {g, fmt::format("its events need counters of {}", fmt::join(pmus, " and ")),
           std::string(kOpenFails)});
      if (!group.pinned) {
        plan.regrouping.left_out.insert(plan.regrouping.left_out.end(), group.events.begin(),
                                        group.events.end());
      }
      continue;
    }
    const auto found = pmu_index.find(pmus.front());
    if (found == pmu_index.end()) continue;  // build_plan_input lists every PMU; keep it total
    const std::size_t p = found->second;
    PmuPlan& pmu = plan.pmus[p];
    if (!pmu.counts_known) {
      if (!group.pinned) {
        plan.regrouping.ungrouped.insert(plan.regrouping.ungrouped.end(), group.events.begin(),
                                         group.events.end());
      }
      continue;
    }
    auto reason = topdown_leader_problem(events, group.events);
    const bool opens = !reason && planner_detail::assign_counters(
                                      pmu.counters, constraints_of(events, group.events));
    if (opens) {
      work[p].opened.push_back({g, group.events, group.pinned});
      if (!group.pinned) units[p].push_back(group.events);
      continue;
    }
    if (!reason) reason = competition(pmu.counters, events, group.events);
    const bool split = group.weak && group.events.size() > 1;
    pmu.never.push_back({g, *reason, std::string(split ? kWeakSplit : kOpenFails), split});
    if (split) {
      // perf stat's fallback for a weak group: its events reopened on their own, except the
      // topdown events, which stay with a slots leader (evsel__remove_from_group).
      for (auto& unit : split_units(events, group.events)) {
        if (opens_alone(pmu.counters, events, unit)) {
          work[p].opened.push_back({g, std::move(unit), group.pinned});
          continue;
        }
        std::vector<std::string_view> names;
        for (std::size_t i : unit) names.push_back(events[i].name);
        pmu.never.push_back(
            {g,
             fmt::format("reopened without the group, {} cannot open: {}", fmt::join(names, ", "),
                         topdown_leader_problem(events, unit)
                             .value_or(competition(pmu.counters, events, unit))),
             std::string(kOpenFails)});
      }
    }
    if (group.pinned) continue;  // pinned groups are kept as written, outside the regrouping
    // Offered to the regrouping in the pieces that can open.
    const auto loose = counterless_of(events, group.events);
    plan.regrouping.ungrouped.insert(plan.regrouping.ungrouped.end(), loose.begin(), loose.end());
    for (auto& unit : split_units(events, group.events)) {
      if (opens_alone(pmu.counters, events, unit)) {
        units[p].push_back(std::move(unit));
      } else {
        plan.regrouping.left_out.insert(plan.regrouping.left_out.end(), unit.begin(), unit.end());
      }
    }
  }

  bool fits = plan.problems.empty();
  plan.all_known = true;
  std::vector<std::string> pinned_strings;
  std::vector<std::string> pinned_specs;
  for (const PlanGroup& group : input.groups) {
    if (!group.pinned) continue;
    std::string text = perf_group_string(events, group.events);
    if (!text.empty()) pinned_strings.push_back(std::move(text));
    text = perf_group_string(events, group.events, &PlanEvent::spec);
    if (!text.empty()) pinned_specs.push_back(std::move(text));
  }
  for (std::size_t p = 0; p < plan.pmus.size(); ++p) {
    PmuPlan& pmu = plan.pmus[p];
    if (!pmu.counts_known) {
      plan.all_known = false;
      continue;
    }
    std::vector<ConstraintList> pinned;
    std::vector<ConstraintList> flexible;
    std::vector<const Opened*> pinned_groups;
    std::vector<const Opened*> flexible_groups;
    for (const Opened& opened : work[p].opened) {
      (opened.pinned ? pinned : flexible).push_back(constraints_of(events, opened.events));
      (opened.pinned ? pinned_groups : flexible_groups).push_back(&opened);
    }
    const auto rotation = planner_detail::simulate_rotation(pmu.counters, pinned, flexible);
    pmu.rotation_ticks = rotation.ticks;
    pmu.rotation_exact = rotation.exact;
    pmu.fits = pmu.never.empty() && !rotation.rotates &&
               std::all_of(rotation.pinned_on.begin(), rotation.pinned_on.end(),
                           [](bool on) { return on; });
    fits = fits && pmu.fits;
    auto record = [&](const Opened& opened, double fraction, std::span<const CounterSlot> slots) {
      pmu.runs.push_back({opened.group, opened.events, opened.pinned, fraction});
      for (std::size_t k = 0; k < opened.events.size(); ++k) {
        pmu.assignment.emplace_back(opened.events[k], k < slots.size() ? slots[k] : CounterSlot{});
      }
    };
    for (std::size_t k = 0; k < pinned_groups.size(); ++k) {
      const bool on = rotation.pinned_on[k];
      record(*pinned_groups[k], on ? 1.0 : 0.0, rotation.first_tick[k]);
      if (!on) {
        pmu.never.push_back({pinned_groups[k]->group,
                             "a pinned group that does not fit beside the pinned groups before it",
                             "never counts: the kernel puts it in error state (<not counted>)"});
      }
    }
    for (std::size_t k = 0; k < flexible_groups.size(); ++k) {
      record(*flexible_groups[k], rotation.fraction[k], rotation.first_tick[pinned.size() + k]);
      if (rotation.fraction[k] == 0.0 && rotation.exact) {
        pmu.never.push_back({flexible_groups[k]->group,
                             never_on_reason(pmu.counters, events, pinned_groups, pinned,
                                             flexible_groups[k]->events),
                             "never counts (<not counted>)"});
      }
    }
    // The regrouping: units that go on beside the pinned groups, packed; a group that does not
    // is offered in its pieces (the slots event with its metrics, every other event alone).
    std::vector<std::vector<std::size_t>> placeable;
    auto fits_beside_pinned = [&](const std::vector<std::size_t>& unit) {
      return planner_detail::group_fits(pmu.counters, pinned, constraints_of(events, unit));
    };
    for (auto& unit : units[p]) {
      if (fits_beside_pinned(unit)) {
        placeable.push_back(std::move(unit));
        continue;
      }
      const auto loose = counterless_of(events, unit);
      plan.regrouping.ungrouped.insert(plan.regrouping.ungrouped.end(), loose.begin(), loose.end());
      for (auto& piece : split_units(events, unit)) {
        if (piece.size() < unit.size() && fits_beside_pinned(piece)) {
          placeable.push_back(std::move(piece));
        } else {
          plan.regrouping.left_out.insert(plan.regrouping.left_out.end(), piece.begin(),
                                          piece.end());
        }
      }
    }
    auto packing = planner_detail::pack_units(pmu.counters, pinned, events, placeable);
    plan.regrouping.lower_bound += packing.lower_bound;
    for (auto& group : packing.groups) plan.regrouping.groups.push_back(std::move(group));
  }
  plan.fits = fits;
  Regrouping& regrouping = plan.regrouping;
  std::sort(regrouping.left_out.begin(), regrouping.left_out.end());
  regrouping.proven_fewest = regrouping.groups.size() == regrouping.lower_bound;
  regrouping.pinned_kept = pinned_strings.size();
  const auto argument = [&](std::vector<std::string> parts, std::string PlanEvent::*field) {
    for (const auto& group : regrouping.groups) {
      std::string text = perf_group_string(events, group, field);
      if (!text.empty()) parts.push_back(std::move(text));
    }
    for (std::size_t i : regrouping.ungrouped) {
      const std::string& text = event_text(events[i], field);
      if (!text.empty()) parts.push_back(text);
    }
    return fmt::format("{}", fmt::join(parts, ","));
  };
  regrouping.perf_events = argument(std::move(pinned_strings), &PlanEvent::perf_string);
  regrouping.events = argument(std::move(pinned_specs), &PlanEvent::spec);
  return plan;
}

std::vector<std::optional<double>> predicted_fractions(const Plan& plan, std::size_t count) {
  std::vector<std::optional<double>> fractions(count);
  for (const PmuPlan& pmu : plan.pmus) {
    if (!pmu.counts_known) continue;
    for (const GroupRun& run : pmu.runs) {
      for (std::size_t event : run.events) {
        if (event < count) fractions[event] = run.fraction;
      }
    }
  }
  return fractions;
}

PMUCAT_END_NAMESPACE
