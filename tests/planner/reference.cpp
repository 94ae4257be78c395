#include "reference.h"

#include <algorithm>
#include <deque>
#include <set>

namespace planner_reference {
namespace {

using pmucat::CounterNeed;
using pmucat::CounterSet;
using pmucat::PlanInput;

// An event's counters by name, in the order the kernel tries them: fixed (and metric) ones
// first, then generic ones.
struct Choices {
  std::vector<std::string> first;   // "f0", "f1", ..., "m3"
  std::vector<std::string> second;  // "g0", "g1", ...
  std::size_t weight() const { return first.size() + second.size(); }
};

Choices choices_of(const pmucat::EventConstraint& c, const CounterSet& counters) {
  Choices out;
  if (c.need == CounterNeed::topdown_metric) {
    if (c.metric < counters.metrics) out.first.push_back("m" + std::to_string(c.metric));
    return out;
  }
  for (std::uint32_t f = 0; f < counters.fixed && f < 32; ++f) {
    if ((c.fixed_mask >> f) & 1) out.first.push_back("f" + std::to_string(f));
  }
  for (std::uint32_t g = 0; g < counters.generic && g < 32; ++g) {
    if ((c.generic_mask >> g) & 1) out.second.push_back("g" + std::to_string(g));
  }
  return out;
}

bool needs_counter(const PlanInput& input, std::size_t event) {
  return input.events[event].constraint.need != CounterNeed::none;
}

std::string pmu_of_group(const PlanInput& input, const std::vector<std::size_t>& group,
                         bool& mixed) {
  std::set<std::string> pmus;
  for (std::size_t e : group) {
    if (needs_counter(input, e)) pmus.insert(input.events[e].pmu);
  }
  mixed = pmus.size() > 1;
  return pmus.empty() ? std::string() : *pmus.begin();
}

bool topdown_ok(const PlanInput& input, const std::vector<std::size_t>& group) {
  for (std::size_t k = 0; k < group.size(); ++k) {
    if (input.events[group[k]].constraint.need != CounterNeed::topdown_metric) continue;
    if (k == 0 || !input.events[group[0]].constraint.slots) return false;
  }
  return true;
}

// One tick of a PMU: pinned groups, then the flexible list up to the first that fails.
struct TickOutcome {
  std::vector<bool> pinned_on;
  std::vector<int> flexible_on;  // group ids that went on, in list order
  bool someone_waits = false;
};

TickOutcome tick(const PlanInput& input, const CounterSet& counters,
                 const std::vector<std::vector<std::size_t>>& pinned,
                 const std::vector<std::vector<std::size_t>>& flexible,
                 const std::deque<int>& order) {
  TickOutcome out;
  std::vector<std::size_t> on;
  for (const auto& group : pinned) {
    std::vector<std::size_t> next = on;
    next.insert(next.end(), group.begin(), group.end());
    const bool ok = reference_schedules(input, counters, next);
    out.pinned_on.push_back(ok);
    if (ok) on = next;
  }
  for (int id : order) {
    std::vector<std::size_t> next = on;
    next.insert(next.end(), flexible[static_cast<std::size_t>(id)].begin(),
                flexible[static_cast<std::size_t>(id)].end());
    if (!reference_schedules(input, counters, next)) {
      out.someone_waits = true;
      break;
    }
    on = next;
    out.flexible_on.push_back(id);
  }
  return out;
}

std::string key_of(const std::deque<int>& order) {
  std::string key;
  for (int id : order) key += std::to_string(id) + ",";
  return key;
}

// What perf opens on `counters`' PMU: groups that open, weak ones that cannot split into their
// events; `never` counts the groups that cannot open.
void opened_groups(const PlanInput& input, const CounterSet& counters,
                   std::vector<std::vector<std::size_t>>& pinned,
                   std::vector<std::vector<std::size_t>>& flexible, std::size_t& never) {
  for (const auto& group : input.groups) {
    bool mixed = false;
    if (pmu_of_group(input, group.events, mixed) != counters.pmu || mixed) continue;
    if (reference_opens(input, counters, group.events)) {
      (group.pinned ? pinned : flexible).push_back(group.events);
      continue;
    }
    ++never;
    if (!group.weak || group.events.size() < 2) continue;
    // perf's weak-group fallback: topdown events stay with a slots leader, the other events
    // that need a counter are reopened alone.
    const bool slots_leader = input.events[group.events[0]].constraint.slots;
    std::vector<std::vector<std::size_t>> pieces;
    std::vector<std::size_t> kept;
    for (std::size_t e : group.events) {
      const auto& c = input.events[e].constraint;
      if (c.need == CounterNeed::none) continue;
      if (slots_leader &&
          (e == group.events[0] || c.slots || c.need == CounterNeed::topdown_metric)) {
        kept.push_back(e);
      } else {
        pieces.push_back({e});
      }
    }
    if (!kept.empty()) pieces.insert(pieces.begin(), kept);
    for (const auto& piece : pieces) {
      if (reference_opens(input, counters, piece)) {
        (group.pinned ? pinned : flexible).push_back(piece);
      } else {
        ++never;
      }
    }
  }
}

}  // namespace

bool reference_schedules(const PlanInput& input, const CounterSet& counters,
                         const std::vector<std::size_t>& events) {
  std::vector<std::pair<std::size_t, Choices>> todo;
  for (std::size_t e : events) {
    if (needs_counter(input, e))
      todo.emplace_back(todo.size(), choices_of(input.events[e].constraint, counters));
  }
  std::stable_sort(todo.begin(), todo.end(), [](const auto& a, const auto& b) {
    return a.second.weight() < b.second.weight();
  });
  std::set<std::string> taken;
  for (const auto& [position, choices] : todo) {
    bool placed = false;
    for (const auto* list : {&choices.first, &choices.second}) {
      for (const std::string& name : *list) {
        if (taken.insert(name).second) {
          placed = true;
          break;
        }
      }
      if (placed) break;
    }
    if (!placed) return false;
  }
  return true;
}

bool reference_opens(const PlanInput& input, const CounterSet& counters,
                     const std::vector<std::size_t>& group) {
  return topdown_ok(input, group) && reference_schedules(input, counters, group);
}

bool reference_fits_beside_pinned(const PlanInput& input, const CounterSet& counters,
                                  const std::vector<std::size_t>& group) {
  std::vector<std::vector<std::size_t>> pinned;
  std::vector<std::vector<std::size_t>> flexible;
  std::size_t never = 0;
  opened_groups(input, counters, pinned, flexible, never);
  const TickOutcome out = tick(input, counters, pinned, {group}, std::deque<int>{0});
  return !out.flexible_on.empty();
}

Verdict reference_plan(const PlanInput& input) {
  Verdict verdict;
  verdict.fits = true;
  for (const CounterSet& counters : input.counters) {
    if (counters.source == pmucat::CounterSource::unknown) continue;
    PmuVerdict& pmu = verdict.pmus[counters.pmu];
    std::vector<std::vector<std::size_t>> pinned;
    std::vector<std::vector<std::size_t>> flexible;
    opened_groups(input, counters, pinned, flexible, pmu.never);
    std::deque<int> order;
    for (std::size_t i = 0; i < flexible.size(); ++i) order.push_back(static_cast<int>(i));
    std::map<std::string, std::size_t> seen;
    std::vector<std::vector<int>> history;
    std::vector<bool> pinned_on;
    std::size_t begin = 0;
    bool rotated = false;
    for (std::size_t t = 0; t < 4096; ++t) {
      const auto [it, fresh] = seen.emplace(key_of(order), t);
      if (!fresh) {
        begin = it->second;
        break;
      }
      TickOutcome out = tick(input, counters, pinned, flexible, order);
      if (t == 0) pinned_on = out.pinned_on;
      history.push_back(out.flexible_on);
      if (!out.someone_waits) {
        begin = t;
        break;
      }
      rotated = true;
      const int moved = out.flexible_on.empty() ? order.front() : out.flexible_on.front();
      order.erase(std::find(order.begin(), order.end(), moved));
      order.push_back(moved);
    }
    for (std::size_t k = 0; k < pinned.size(); ++k) {
      pmu.opened.push_back(pinned[k]);
      pmu.running.push_back(pinned_on[k] ? 1.0 : 0.0);
      if (!pinned_on[k]) ++pmu.never;
    }
    const std::size_t length = history.size() - begin;
    for (std::size_t g = 0; g < flexible.size(); ++g) {
      std::size_t on = 0;
      for (std::size_t t = begin; t < history.size(); ++t) {
        on += std::count(history[t].begin(), history[t].end(), static_cast<int>(g));
      }
      pmu.opened.push_back(flexible[g]);
      pmu.running.push_back(rotated ? static_cast<double>(on) / static_cast<double>(length) : 1.0);
      if (rotated && on == 0) ++pmu.never;
    }
    pmu.fits = pmu.never == 0 && !rotated;
    verdict.fits = verdict.fits && pmu.fits;
  }
  for (const auto& group : input.groups) {
    bool mixed = false;
    pmu_of_group(input, group.events, mixed);
    if (mixed) verdict.fits = false;
  }
  return verdict;
}

}  // namespace planner_reference
