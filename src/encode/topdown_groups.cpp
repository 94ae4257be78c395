// The sort and regrouping perf's parse_events applies to every event list (perf 6.12 on:
// Behaviour::regroups_lists), and perf 7.2's `slots` event for topdown metric events
// (Behaviour::topdown_adds_slots). The rules below are perf 7.3.4's, read off its behaviour on
// fixtures/sysfs/intel-spr (tests/encode/topdown_groups_test.cpp has each case with perf's
// result) and its documented x86 topdown constraints:
//  - an event is a topdown metric event when it is of type 4 (the core PMU), its config has event
//    code 0 and umask 0x80-0x87 and nothing else in its low 32 bits, and config1 is 0; `slots`
//    is type 4, config 0x400, config1 0. Both "must be in a group" when the type-4 PMU has a
//    `slots` event. (perf 6.12 decides by the event's name instead, "topdown" or "slots" in it;
//    the attrs stand for the names here.)
//  - perf 7.2: a list with a topdown metric event and no `slots` gets one, added at its end, in
//    the group of the first topdown metric event (with that event alone when it is ungrouped).
//  - the list is sorted stably by group: events that must be in a group take the group position
//    of the first of them (perf 6.12: of the first that is alone, and none without one); within
//    one position by the PMU the group is for, then `slots` first, then topdown metric events
//    before other events of another group, else list order.
//  - groups are rebuilt over the sorted list: a group never spans two PMUs, and every event that
//    must be in a group joins the first such event's group.
#include "encode/topdown_groups.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>

#include "encode/event_owners.h"
#include "encode/legacy_events.h"
#include "parser/spec_diagnostics.h"

PMUCAT_BEGIN_NAMESPACE
namespace encode_detail {
namespace {

constexpr std::uint64_t kSlotsConfig = 0x400;
constexpr std::uint64_t kTopdownMetricMask = 0xfffff8ffU;  // event, umask bits 3-7, low word
constexpr std::uint64_t kTopdownMetricConfig = 0x8000;
constexpr std::uint32_t kRawType = static_cast<std::uint32_t>(PerfType::raw);

bool is_slots(const EncodedEvent& e) {
  return e.attr.type == kRawType && e.attr.config[0] == kSlotsConfig && e.attr.config[1] == 0;
}

bool is_topdown_metric_attr(const Attr& attr) {
  return attr.type == kRawType && (attr.config[0] & kTopdownMetricMask) == kTopdownMetricConfig &&
         attr.config[1] == 0;
}

bool is_topdown_metric(const EncodedEvent& e) {
  return is_topdown_metric_attr(e.attr);
}

// perf's PMU of type 4 (PERF_TYPE_RAW).
const Pmu* raw_type_pmu(const Catalog& catalog) {
  const Pmu* core = catalog.core_pmu();
  if (core != nullptr && core->type() == kRawType) return core;
  for (const Pmu& pmu : catalog.pmus()) {
    if (pmu.type() == kRawType) return &pmu;
  }
  return nullptr;
}

// That PMU when its `slots` event says the machine has topdown metrics, else nullptr.
const Pmu* slots_pmu(const Catalog& catalog) {
  const Pmu* raw = raw_type_pmu(catalog);
  return raw != nullptr && raw->find_event("slots") != nullptr ? raw : nullptr;
}

// The PMU perf keeps an event's group on (its group PMU name): the event's own PMU, except that a
// software-like event (software, tracepoint, breakpoint, tool, kprobe/uprobe/msr) stays with its
// group's leader, or with the group's first member on a PMU that is not software-like.
class GroupPmus {
 public:
  GroupPmus(const Catalog& catalog, const std::vector<EncodedEvent>& events,
            const std::vector<std::size_t>& leader, const EncodeOptions& options) {
    std::string first_core;
    if (auto hybrid = hybrid_pmus(catalog, options.semantics); !hybrid.empty()) {
      first_core = hybrid.front()->name();
    } else if (const Pmu* core = catalog.core_pmu(); core != nullptr) {
      first_core = core->name();
    }
    std::vector<std::string> own(events.size());
    std::vector<bool> software(events.size());
    for (std::size_t i = 0; i < events.size(); ++i) {
      own[i] = events[i].pmu.empty() ? unnamed_pmu(events[i], first_core) : events[i].pmu;
      software[i] = is_software(catalog, events[i]);
    }
    names_.resize(events.size());
    for (std::size_t i = 0; i < events.size(); ++i) {
      names_[i] = own[i];
      if (!software[i]) continue;
      const std::size_t l = leader[i];
      if (!software[l]) {
        names_[i] = own[l];
        continue;
      }
      for (std::size_t m = 0; m < events.size(); ++m) {
        if (m != l && leader[m] == l && !software[m]) {
          names_[i] = own[m];
          break;
        }
      }
    }
  }
  const std::string& of(std::size_t i) const { return names_[i]; }

 private:
  // The software-like PMU an attr type belongs to (software, tracepoint, breakpoint, tool), or
  // nullptr for the others.
  static const char* software_type_pmu(std::uint32_t type) {
    switch (type) {
      case static_cast<std::uint32_t>(PerfType::software):
        return "software";
      case static_cast<std::uint32_t>(PerfType::tracepoint):
        return "tracepoint";
      case static_cast<std::uint32_t>(PerfType::breakpoint):
        return "breakpoint";
      case kToolPmuType:
        return "tool";
      default:
        return nullptr;
    }
  }

  // perf's PMU of a built-in event: its software-like PMU, else (hardware and cache events) the
  // first core PMU.
  static std::string unnamed_pmu(const EncodedEvent& e, const std::string& first_core) {
    const char* software = software_type_pmu(e.attr.type);
    return software != nullptr ? software : first_core;
  }

  static bool is_software(const Catalog& catalog, const EncodedEvent& e) {
    if (software_type_pmu(e.attr.type) != nullptr) return true;
    constexpr std::array<std::string_view, 3> kSoftwareNamed = {"kprobe", "msr", "uprobe"};
    if (std::find(kSoftwareNamed.begin(), kSoftwareNamed.end(), e.pmu) == kSoftwareNamed.end()) {
      return false;
    }
    const Pmu* pmu = catalog.find_pmu(e.pmu);
    return pmu == nullptr || (!is_perf_core_pmu(*pmu) && !pmu->attributes().cpumask.has_value());
  }

  std::vector<std::string> names_;
};

// `slots` on the first topdown metric event's PMU: that event's attr with config 0x400 (perf
// copies the attr, so modifiers, period and the like carry over), named and printed as `slots`
// with the same modifiers.
Expected<EncodedEvent> slots_like(const Catalog& catalog, const Pmu& raw,
                                  const EncodedEvent& metric, const EncodeOptions& options) {
  std::string spec = (metric.pmu.empty() ? raw.name() : metric.pmu) + "/slots/";
  const std::size_t slash = metric.perf_string.rfind('/');
  if (slash != std::string::npos) spec += metric.perf_string.substr(slash + 1);
  auto encoded = encode(catalog, spec, options);
  if (!encoded) return unexpected(std::move(encoded).error());
  EncodedEvent slots = std::move(encoded->front());
  slots.spec = "slots";
  slots.attr = metric.attr;
  slots.attr.config[0] = kSlotsConfig;
  slots.settings = EventSettings{};
  slots.settings.precise_max = metric.settings.precise_max;
  slots.settings.retire_latency = metric.settings.retire_latency;
  slots.group_name = metric.group_name;
  slots.group_modifiers = metric.group_modifiers;
  return slots;
}

// Whether the event was written `PATTERN/terms/` with a pattern that named its PMU among others:
// a glob, or the PMU's name without its instance suffix (`uncore_imc` for `uncore_imc_2`).
bool written_as_pmu_pattern(const EncodedEvent& e) {
  const std::size_t slash = e.spec.find('/');
  if (slash == std::string::npos || slash == 0) return false;
  const std::string_view written = std::string_view(e.spec).substr(0, slash);
  if (written == e.pmu) return false;
  if (written.find_first_of("*?[") != std::string_view::npos) return true;
  return e.pmu.size() > written.size() + 1 && std::string_view(e.pmu).starts_with(written) &&
         e.pmu[written.size()] == '_';
}

}  // namespace

bool adds_slots(const Catalog& catalog, const Attr& attr, const EncodeOptions& options) {
  if (!options.semantics.has(Behaviour::topdown_adds_slots) || !is_topdown_metric_attr(attr)) {
    return false;
  }
  return slots_pmu(catalog) != nullptr;
}

std::optional<Diagnostic> sort_and_regroup(const Catalog& catalog,
                                           std::vector<EncodedEvent>& events,
                                           const EncodeOptions& options, std::string_view spec) {
  const bool regroups = options.semantics.has(Behaviour::regroups_lists);
  const bool adds_slots_rule = options.semantics.has(Behaviour::topdown_adds_slots);
  if (!regroups && !adds_slots_rule) return std::nullopt;
  const auto first_metric = std::find_if(events.begin(), events.end(), is_topdown_metric);
  const bool has_slots = std::any_of(events.begin(), events.end(), is_slots);
  // Whether topdown events are forced into one group: the machine has topdown metrics and the
  // list topdown events (perf 6.12 forces them only where one of them is ungrouped, below).
  const Pmu* raw = first_metric != events.end() || has_slots ? slots_pmu(catalog) : nullptr;
  bool forcing = raw != nullptr;
  // Without topdown events only a group of two or more events can be split: a list without one
  // (every single spec) is left as written before anything is computed.
  if (!forcing && std::none_of(events.begin(), events.end(), [&](const EncodedEvent& e) {
        return e.group_leader && &events[*e.group_leader] != &e;
      })) {
    return std::nullopt;
  }

  const std::size_t n_written = events.size();
  std::vector<std::optional<std::size_t>> written_group(n_written);
  for (std::size_t i = 0; i < n_written; ++i) written_group[i] = events[i].group_leader;
  // Each event's group leader, by its index in the written list (its own when ungrouped).
  std::vector<std::size_t> leader(n_written);
  for (std::size_t i = 0; i < n_written; ++i) leader[i] = events[i].group_leader.value_or(i);
  if (forcing && adds_slots_rule && !has_slots) {
    const auto metric = static_cast<std::size_t>(first_metric - events.begin());
    auto slots = slots_like(catalog, *raw, events[metric], options);
    if (!slots) return std::move(slots).error();
    events.push_back(std::move(*slots));
    leader.push_back(leader[metric]);
  }
  const std::size_t n = events.size();
  std::vector<std::size_t> members(n, 0);
  for (std::size_t i = 0; i < n; ++i) ++members[leader[i]];
  const std::vector<std::size_t> written_members = members;
  std::vector<bool> must(n);
  for (std::size_t i = 0; i < n; ++i) {
    must[i] = forcing && (is_slots(events[i]) || is_topdown_metric(events[i]));
  }
  // perf 6.12 forces them to the place of the first one that is alone (not in a group), and not
  // at all when there is none.
  if (forcing && !adds_slots_rule) {
    bool one_alone = false;
    for (std::size_t i = 0; i < n && !one_alone; ++i) {
      one_alone = must[i] && leader[i] == i && members[i] == 1;
    }
    if (!one_alone) {
      forcing = false;
      std::fill(must.begin(), must.end(), false);
    }
  }
  const GroupPmus group_pmu(catalog, events, leader, options);
  // Without forced events perf's sort and regrouping change only a group whose events are for
  // several PMUs: it becomes one group per PMU, in PMU name order.
  if (!forcing) {
    bool spans_pmus = false;
    for (std::size_t i = 0; i < n && !spans_pmus; ++i) {
      spans_pmus = group_pmu.of(i) != group_pmu.of(leader[i]);
    }
    if (!spans_pmus) return std::nullopt;
  }

  // The group position of the first event that must be in a group (its group leader's).
  std::size_t forced_at = n;
  for (std::size_t i = 0; i < n; ++i) {
    if (must[i] && (adds_slots_rule || (leader[i] == i && members[i] == 1))) {
      forced_at = leader[i];
      break;
    }
  }
  auto keeps_place = [&](std::size_t i) { return events[i].settings.no_regroup; };  // `X`
  auto position = [&](std::size_t i) {
    if (keeps_place(i)) return i;
    if (must[i]) return forced_at;
    const bool in_group = leader[i] != i || members[i] > 1;
    return in_group ? leader[i] : i;
  };
  auto before = [&](std::size_t a, std::size_t b) {
    if (position(a) != position(b)) return position(a) < position(b);
    if (int order = group_pmu.of(a).compare(group_pmu.of(b)); order != 0) return order < 0;
    if (must[a] || must[b]) {
      if (is_slots(events[a])) return true;
      if (is_slots(events[b])) return false;
      if (leader[a] != leader[b]) {
        const bool a_metric = is_topdown_metric(events[a]);
        const bool b_metric = is_topdown_metric(events[b]);
        if (a_metric != b_metric) return a_metric;
      }
    }
    // A retirement-latency event (`R`) never leads.
    const bool a_latency = events[a].settings.retire_latency;
    const bool b_latency = events[b].settings.retire_latency;
    if (a_latency != b_latency) return b_latency;
    return a < b;
  };
  std::vector<std::size_t> order(n);
  for (std::size_t i = 0; i < n; ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), before);

  // Regroup over the sorted list; `leader` is updated as each event is placed, as the later
  // decisions read the placed events' new leaders and the unplaced events' written ones.
  constexpr std::size_t kNone = static_cast<std::size_t>(-1);
  std::size_t current = kNone, current_group = kNone, forced_leader = kNone;
  bool last_was_forced_leader = false;
  for (std::size_t k = 0; k < n; ++k) {
    const std::size_t pos = order[k];
    const std::size_t written_leader = leader[pos];
    const bool forced = must[pos] && !keeps_place(pos);
    if (current == kNone || keeps_place(pos)) {
      current = keeps_place(pos) ? written_leader : pos;
      current_group = current;
      if (forced) forced_leader = pos;
    }
    if (group_pmu.of(current) != group_pmu.of(pos)) {
      current = pos;
      current_group = leader[pos];
      if (forced && forced_leader == kNone) forced_leader = pos;
    } else if (current_group != leader[pos]) {
      bool split = true;
      if (last_was_forced_leader) {
        for (std::size_t later = k + 1; later < n; ++later) {
          if (leader[order[later]] == leader[pos] && must[order[later]]) {
            split = false;
            break;
          }
        }
      }
      if (!last_was_forced_leader || split) {
        if (forced && forced_leader != kNone) {
          current = forced_leader;
          current_group = leader[forced_leader];
        } else if (forced) {
          current = forced_leader = pos;
          current_group = pos;
        } else {
          current = pos;
          current_group = leader[pos];
        }
      }
    }
    if (written_leader != current) leader[pos] = current;
    last_was_forced_leader = forced_leader == pos;
  }

  // The list in its new order, group leaders as indices into it. An event alone in its group is
  // ungrouped unless it was written as a group of one (`{slots}`).
  std::vector<std::size_t> new_index(n);
  for (std::size_t k = 0; k < n; ++k) new_index[order[k]] = k;
  std::fill(members.begin(), members.end(), 0);
  for (std::size_t i = 0; i < n; ++i) ++members[leader[i]];
  std::vector<EncodedEvent> placed;
  placed.reserve(n);
  for (std::size_t k = 0; k < n; ++k) {
    const std::size_t pos = order[k];
    EncodedEvent e = std::move(events[pos]);
    const std::size_t l = leader[pos];
    const bool group_of_one = e.group_leader == pos && written_members[pos] == 1;
    if (members[l] > 1 || (l == pos && group_of_one)) {
      e.group_leader = new_index[l];
    } else {
      e.group_leader.reset();
      e.group_name.clear();
      e.group_modifiers.clear();
    }
    placed.push_back(std::move(e));
  }
  // Members print with their leader's group name and modifiers.
  for (EncodedEvent& e : placed) {
    if (!e.group_leader || *e.group_leader == static_cast<std::size_t>(&e - placed.data()))
      continue;
    const EncodedEvent& head = placed[*e.group_leader];
    e.group_name = head.group_name;
    e.group_modifiers = head.group_modifiers;
  }
  bool regrouped = n != n_written;
  for (std::size_t i = 0; i < n_written && !regrouped; ++i) {
    regrouped = new_index[i] != i || placed[new_index[i]].group_leader != written_group[i];
  }
  // perf does not warn about a list that names PMUs by a pattern (`uncore_imc/.../` for
  // uncore_imc_0..3; perf 7.3.4 prints no warning for `{uncore_imc/cas_count_read/}`).
  const bool names_pmu_pattern =
      std::any_of(placed.begin(), placed.end(),
                  [](const EncodedEvent& e) { return written_as_pmu_pattern(e); });
  if (regrouped && !names_pmu_pattern) {
    Diagnostic d = spec_detail::spec_error(
        DiagId::events_regrouped, spec, 0, spec.size(),
        forcing ? fmt::format("events were regrouped to match PMUs: {} opens the topdown events "
                              "and slots in one group, slots first{}",
                              options.semantics.name(), n != n_written ? " (slots added)" : "")
                : fmt::format("events were regrouped to match PMUs: {} opens a group's events "
                              "for each PMU as a group of their own",
                              options.semantics.name()));
    d.severity = Severity::warning;
    d.hint = fmt::format("write the list as {} opens it (pmuencode --perf prints it){}",
                         options.semantics.name(),
                         options.semantics.has(Behaviour::no_regroup_modifier)
                             ? ", or mark an event with X to keep its place"
                             : "");
    placed.front().warnings.push_back(std::move(d));
  }
  events = std::move(placed);
  return std::nullopt;
}

}  // namespace encode_detail
PMUCAT_END_NAMESPACE
