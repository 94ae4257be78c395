// build_plan_input(): encoded events + the catalog -> the model's input. Which PMU instance each
// attr occupies, its constraint (the kernel's own rule, else the vendor JSON's Counter field,
// else any generic counter), the groups as perf opens them, the watchdog, and the counter sets.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <map>

#include "planner/kernel_facts.h"
#include "pmucat/hwmon.h"
#include "pmucat/planner.h"
#include "pmucat/spec.h"
#include "pmucat/vendor_events.h"

PMUCAT_BEGIN_NAMESPACE
namespace {

using planner_detail::CpuVendor;

constexpr std::uint32_t kTypeHardware = 0;
constexpr std::uint32_t kTypeSoftware = 1;
constexpr std::uint32_t kTypeTracepoint = 2;
constexpr std::uint32_t kTypeHwCache = 3;
constexpr std::uint32_t kTypeRaw = 4;
constexpr std::uint32_t kTypeBreakpoint = 5;
// perf 7.2's tool PMU (duration_time, num_cpus, ...): perf reads these itself, no counter.
constexpr std::uint32_t kTypeTool = 0xfffffffeU;

// `uncore_cha_3` -> `uncore_cha`; a name without a `_<digits>` suffix is its own prefix.
std::string_view instance_prefix(std::string_view pmu) {
  const auto underscore = pmu.rfind('_');
  if (underscore == std::string_view::npos || underscore + 1 == pmu.size()) return pmu;
  const std::string_view digits = pmu.substr(underscore + 1);
  const bool all_digits =
      std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; });
  return all_digits ? pmu.substr(0, underscore) : pmu;
}

std::string lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// counter.json's Unit -> the PMU prefix perf gives its events (`CHA` -> `uncore_cha`).
std::string unit_pmu(std::string_view unit, const Catalog& catalog) {
  if (unit == "core") {
    const Pmu* core = catalog.core_pmu();
    return core != nullptr ? core->name() : "cpu";
  }
  if (unit == "cpu_core" || unit == "cpu_atom") return std::string(unit);
  if (unit == "CBO") return "uncore_cbox";
  return "uncore_" + lower(unit);
}

std::optional<std::uint32_t> json_count(const std::string& text) {
  if (text.empty()) return 0;
  std::uint32_t value = 0;
  for (char c : text) {
    if (c < '0' || c > '9' || value > 1000) return std::nullopt;
    value = value * 10 + static_cast<std::uint32_t>(c - '0');
  }
  return value;
}

// Reads `key=` (hex or decimal) from a JSON event's term string.
std::optional<std::uint64_t> term_value(std::string_view terms, std::string_view key) {
  std::size_t at = 0;
  while (at < terms.size()) {
    const auto end = std::min(terms.find(',', at), terms.size());
    const std::string_view term = terms.substr(at, end - at);
    if (term.size() > key.size() && term.substr(0, key.size()) == key && term[key.size()] == '=') {
      return std::strtoull(std::string(term.substr(key.size() + 1)).c_str(), nullptr, 0);
    }
    at = end + 1;
  }
  return std::nullopt;
}

// An event's perf string with its group's `}:mods` (but `W`: the regrouping makes its own groups)
// added to its own modifiers, so that it means the same attr outside the group.
std::string with_group_modifiers(const std::string& perf_string, std::string_view modifiers) {
  std::string kept;
  for (char c : modifiers) {
    if (c != 'W') kept += c;
  }
  if (kept.empty()) return perf_string;
  const auto slash = perf_string.rfind('/');
  if (slash != std::string::npos) return perf_string + kept;  // `pmu/terms/mods`
  return perf_string + (perf_string.find(':') == std::string::npos ? ":" : "") + kept;
}

// The spec the user wrote for this attr, standing for it alone outside its group: the group's
// `}:mods` (but `W`) added to the event's own, and the PMU instance named when the spec reached
// several (`on_several_pmus`). The perf string where the written form cannot say it.
std::string user_spec(const EncodedEvent& event, bool on_several_pmus) {
  const std::string fallback = with_group_modifiers(event.perf_string, event.group_modifiers);
  auto list = parse_spec_list(event.spec);
  if (!list || list->size() != 1) return fallback;
  const EventSpec& item = list->front();
  std::string text = event.spec;
  bool slash_form = item.form == SpecForm::pmu_terms;
  if (item.form == SpecForm::terms_only && !event.pmu.empty()) {
    // Bare terms went to a PMU the command line chose (--pmu, or the core PMU).
    text = event.pmu + "/" + event.spec + "/";
    slash_form = true;
  } else if (on_several_pmus) {
    const std::size_t pmu_end = item.pmu_offset + item.pmu.size();
    const std::size_t last_slash = text.rfind('/');
    if (item.form == SpecForm::pmu_terms && pmu_end <= text.size() &&
        pmu_name_matches(event.pmu, item.pmu)) {
      text.replace(item.pmu_offset, item.pmu.size(), event.pmu);
    } else if (item.form == SpecForm::pmu_terms && pmu_end < last_slash &&
               last_slash < text.size()) {
      // `EVENT/terms/` (perf's -M form): the event inside the instance, `PMU/EVENT,terms/`.
      const std::string terms = text.substr(pmu_end + 1, last_slash - pmu_end - 1);
      text = event.pmu + "/" + item.pmu + (terms.empty() ? "" : "," + terms) + "/" +
             text.substr(last_slash + 1);
    } else if (item.form == SpecForm::event_name && !event.pmu.empty()) {
      text = event.pmu + "/" + item.name + "/" + item.modifiers.text;
      slash_form = true;
    } else {
      return fallback;
    }
  }
  std::string kept;
  for (char c : event.group_modifiers) {
    if (c != 'W') kept += c;
  }
  if (kept.empty()) return text;
  if (slash_form) return text + kept;
  const bool breakpoint_or_numeric =
      item.form == SpecForm::breakpoint || item.form == SpecForm::numeric;
  if (breakpoint_or_numeric) return fallback;  // their `:` fields leave no room to be sure
  return text + (item.modifiers.text.empty() ? ":" : "") + kept;
}

// Without a CPU identifier, the tree tells the vendor: Intel's core driver exports
// caps/pmu_name and names hybrid PMUs cpu_core and cpu_atom; AMD's have ibs_op and amd_l3.
CpuVendor vendor_of_tree(const Catalog& catalog) {
  if (catalog.find_pmu("cpu_core") != nullptr || catalog.find_pmu("cpu_atom") != nullptr) {
    return CpuVendor::intel;
  }
  if (const Pmu* core = catalog.core_pmu();
      core != nullptr && core->attributes().caps.count("pmu_name") != 0) {
    return CpuVendor::intel;
  }
  if (catalog.find_pmu("ibs_op") != nullptr || catalog.find_pmu("amd_l3") != nullptr) {
    return CpuVendor::amd;
  }
  return CpuVendor::other;
}

class InputBuilder {
 public:
  InputBuilder(const Catalog& catalog, const PlanBuildOptions& options)
      : catalog_(catalog), options_(options), model_(catalog.vendor_model()) {
    vendor_ = planner_detail::cpu_vendor_of(catalog.vendor_options().cpuid);
    if (vendor_ == CpuVendor::other) vendor_ = vendor_of_tree(catalog);
  }

  PlanInput build(std::span<const EncodedEvent> encoded) {
    // A spec whose attrs are on several PMU instances: each one's spec names its instance.
    std::map<std::string_view, std::string_view> pmu_of_spec;
    std::map<std::string_view, bool> several;
    for (const EncodedEvent& event : encoded) {
      const auto [at, inserted] = pmu_of_spec.emplace(event.spec, event.pmu);
      if (!inserted && at->second != event.pmu) several[event.spec] = true;
    }
    for (std::size_t i = 0; i < encoded.size(); ++i) {
      input_.events.push_back(plan_event(encoded[i]));
      const auto found = several.find(encoded[i].spec);
      input_.events.back().spec = user_spec(encoded[i], found != several.end());
    }
    add_watchdogs();
    add_groups(encoded);
    force_topdown_group();
    for (const std::string& pmu : used_pmus_) input_.counters.push_back(counter_set(pmu));
    return std::move(input_);
  }

 private:
  bool is_core(std::string_view pmu) const {
    const Pmu* found = catalog_.find_pmu(pmu);
    if (found != nullptr) return found->kind() == PmuKind::core;
    return pmu == "cpu" || pmu == "cpu_core" || pmu == "cpu_atom";
  }

  void use_pmu(const std::string& pmu) {
    if (std::find(used_pmus_.begin(), used_pmus_.end(), pmu) == used_pmus_.end()) {
      used_pmus_.push_back(pmu);
    }
  }

  // The PMU instance a legacy hardware or cache event lands on: the extended type's, else core.
  std::string legacy_pmu(const Attr& attr) const {
    const auto type = static_cast<std::uint32_t>(attr.config[0] >> 32);
    if (type != 0) {
      for (const Pmu& pmu : catalog_.pmus()) {
        if (pmu.type() == type) return pmu.name();
      }
    }
    const Pmu* core = catalog_.core_pmu();
    return core != nullptr ? core->name() : "cpu";
  }

  PlanEvent plan_event(const EncodedEvent& event) {
    PlanEvent out;
    out.name = event.event.empty() ? event.spec : event.event;
    out.perf_string = with_group_modifiers(event.perf_string, event.group_modifiers);
    out.pmu = event.pmu;
    const Attr& attr = event.attr;
    if (attr.type == kTypeSoftware || attr.type == kTypeTracepoint ||
        attr.type == kTypeBreakpoint || attr.type == kTypeTool || is_hwmon_type(attr.type) ||
        planner_detail::is_counterless_pmu(event.pmu)) {
      out.constraint.need = CounterNeed::none;
      out.constraint.origin = "software, tracepoint, tool, hwmon or free-running: no counter";
      return out;
    }
    if (event.settings.retire_latency) {
      out.constraint.need = CounterNeed::none;
      out.constraint.origin = "retirement latency (R): perf stat opens no counter for it";
      return out;
    }
    if (attr.type == kTypeHardware || attr.type == kTypeHwCache || attr.type == kTypeRaw ||
        out.pmu.empty()) {
      if (attr.type != kTypeRaw || out.pmu.empty()) out.pmu = legacy_pmu(attr);
    }
    out.constraint = constraint(event, out.pmu);
    use_pmu(out.pmu);
    return out;
  }

  EventConstraint constraint(const EncodedEvent& event, const std::string& pmu) {
    const Attr& attr = event.attr;
    const bool core = is_core(pmu);
    if (core && vendor_ == CpuVendor::intel) {
      std::optional<std::uint16_t> select;
      if (attr.type == kTypeHardware) {
        switch (attr.config[0] & 0xffffffffu) {
          case 0:  // cycles
            select = 0x003c;
            break;
          case 1:  // instructions
            select = 0x00c0;
            break;
          case 9:  // ref-cycles
            select = 0x0300;
            break;
          default:
            break;
        }
      } else if (attr.type != kTypeHwCache) {
        select = static_cast<std::uint16_t>(attr.config[0] & 0xffff);
      }
      if (select) {
        if (auto fixed = planner_detail::intel_core_constraint(*select)) return *fixed;
      }
    }
    if (core && planner_detail::is_arm_pmuv3(pmu)) {
      const std::uint64_t config = attr.config[0] & 0xffffffffu;
      const std::uint16_t arm_event = attr.type == kTypeHardware
                                          ? (config == 0 ? 0x11 : 0)
                                          : static_cast<std::uint16_t>(config & 0xffff);
      if (auto cycles = planner_detail::arm_pmuv3_constraint(arm_event)) return *cycles;
    }
    if (auto from_vendor = vendor_counter(event, pmu, core)) return *from_vendor;
    return planner_detail::any_generic_counter("no constraint known: any generic counter");
  }

  std::optional<EventConstraint> vendor_counter(const EncodedEvent& event, const std::string& pmu,
                                                bool core) {
    if (!event.event.empty()) {
      if (const Pmu* found = catalog_.find_pmu(pmu)) {
        if (const Event* alias = found->find_event(event.event)) {
          if (alias->vendor) {
            return planner_detail::constraint_from_counter_field(alias->vendor->counter);
          }
        }
      }
      return std::nullopt;
    }
    // A raw core event: the JSON event with the same event select and umask, if any.
    if (!core || model_ == nullptr || event.attr.type == kTypeHardware ||
        event.attr.type == kTypeHwCache) {
      return std::nullopt;
    }
    if (raw_counters_.empty()) index_raw_counters();
    const auto found = raw_counters_.find(event.attr.config[0] & 0xffff);
    if (found == raw_counters_.end()) return std::nullopt;
    return planner_detail::constraint_from_counter_field(found->second);
  }

  void index_raw_counters() {
    raw_counters_.emplace(~std::uint64_t{0}, std::string());  // marks the index as built
    for (const VendorEvent& event : model_->events) {
      if (!event.pmu.empty() && event.pmu != "cpu" && event.pmu != "default_core") continue;
      const auto code = term_value(event.terms, "event");
      if (!code) continue;
      const auto umask = term_value(event.terms, "umask").value_or(0);
      raw_counters_.emplace((*code & 0xff) | ((umask & 0xff) << 8), event.counter);
    }
  }

  // The NMI watchdog: a pinned cycles event on every core PMU the events use.
  void add_watchdogs() {
    if (!options_.nmi_watchdog) return;
    const std::vector<std::string> pmus = used_pmus_;
    for (const std::string& pmu : pmus) {
      if (!is_core(pmu)) continue;
      PlanEvent watchdog;
      watchdog.name = "nmi_watchdog:cycles";
      watchdog.pmu = pmu;
      if (vendor_ == CpuVendor::intel) {
        watchdog.constraint = *planner_detail::intel_core_constraint(0x003c);
      } else if (planner_detail::is_arm_pmuv3(pmu)) {
        watchdog.constraint = *planner_detail::arm_pmuv3_constraint(0x11);
      } else {
        watchdog.constraint = planner_detail::any_generic_counter("cycles: any generic counter");
      }
      watchdog.constraint.origin = "NMI watchdog (pinned cycles); " + watchdog.constraint.origin;
      input_.events.push_back(std::move(watchdog));
      PlanGroup group;
      group.events.push_back(input_.events.size() - 1);
      group.pinned = true;
      input_.groups.push_back(std::move(group));
    }
  }

  // Groups as perf opens them: ungrouped events alone, `{...}` by leader; a group over several
  // instances of one PMU (uncore_cha_0, uncore_cha_1) is one group per instance.
  void add_groups(std::span<const EncodedEvent> encoded) {
    std::map<std::size_t, std::size_t> group_of_leader;
    for (std::size_t i = 0; i < encoded.size(); ++i) {
      const EncodedEvent& event = encoded[i];
      if (!event.group_leader) {
        PlanGroup group;
        group.events.push_back(i);
        group.pinned = event.attr.pinned;
        input_.groups.push_back(std::move(group));
        continue;
      }
      const std::size_t leader = *event.group_leader;
      std::string key_pmu = input_.events[i].pmu;
      const bool counterless = input_.events[i].constraint.need == CounterNeed::none;
      // Instances of one PMU each get their own copy of the group.
      std::size_t slot = leader * 4096;
      if (!counterless) {
        const std::string_view prefix = instance_prefix(key_pmu);
        if (prefix != key_pmu) {
          const auto number = key_pmu.substr(prefix.size() + 1);
          slot += static_cast<std::size_t>(std::strtoul(number.c_str(), nullptr, 10)) + 1;
        }
      }
      auto [it, inserted] = group_of_leader.emplace(slot, input_.groups.size());
      if (inserted) {
        PlanGroup group;
        group.pinned = encoded[leader].attr.pinned;
        group.weak = encoded[leader].group_modifiers.find('W') != std::string::npos;
        group.user_group = true;
        input_.groups.push_back(std::move(group));
      }
      input_.groups[it->second].events.push_back(i);
    }
  }

  // perf 6.12 (tools/perf: parse_events__sort_events_and_fix_groups, x86's
  // arch_evsel__must_be_in_group): on a core PMU with topdown metrics, the ungrouped events whose
  // name has `topdown` or `slots` (not uops_retired.slots) become one group, at the place of the
  // first of them, slots first, then the topdown events, then the others.
  bool must_be_in_group(const PlanEvent& event) const {
    if (event.constraint.need == CounterNeed::none || !is_core(event.pmu) ||
        vendor_ != CpuVendor::intel || counter_set(event.pmu).metrics == 0) {
      return false;
    }
    const std::string name = lower(event.name);
    if (name.find("uops_retired.slots") != std::string::npos) return false;
    return name.find("topdown") != std::string::npos || name.find("slots") != std::string::npos;
  }

  // perf 6.12's order inside a group with topdown events: slots first, then the other topdown
  // events, then the rest, each in list order (x86's arch_evlist__cmp).
  int topdown_rank(std::size_t event) const {
    if (!must_be_in_group(input_.events[event])) return 2;
    return lower(input_.events[event].name).find("slots") != std::string::npos ? 0 : 1;
  }

  void sort_topdown_first(PlanGroup& group) const {
    std::stable_sort(group.events.begin(), group.events.end(), [&](std::size_t a, std::size_t b) {
      return topdown_rank(a) < topdown_rank(b);
    });
  }

  void force_topdown_group() {
    std::vector<std::size_t> forced;  // indices into input_.groups
    for (std::size_t g = 0; g < input_.groups.size(); ++g) {
      PlanGroup& group = input_.groups[g];
      if (group.user_group && !group.pinned) sort_topdown_first(group);
      if (!group.user_group && !group.pinned && group.events.size() == 1 &&
          must_be_in_group(input_.events[group.events.front()])) {
        forced.push_back(g);
      }
    }
    if (forced.size() < 2) return;
    PlanGroup merged;
    merged.user_group = true;
    for (std::size_t g : forced) merged.events.push_back(input_.groups[g].events.front());
    sort_topdown_first(merged);
    input_.groups[forced.front()] = std::move(merged);
    for (auto g = forced.rbegin(); g + 1 != forced.rend(); ++g) {
      input_.groups.erase(input_.groups.begin() + static_cast<std::ptrdiff_t>(*g));
    }
  }

  CounterSet counter_set(const std::string& pmu) const {
    CounterSet set;
    set.pmu = pmu;
    const std::string_view prefix = instance_prefix(pmu);
    for (const CounterOverride& given : options_.counters) {
      if (given.pmu == pmu || given.pmu == prefix) {
        set.generic = given.generic;
        set.fixed = given.fixed;
        set.source = CounterSource::user;
        set.origin = "--counters " + given.pmu;
      }
    }
    if (set.source == CounterSource::unknown && model_ != nullptr) {
      for (const VendorCounterInfo& info : model_->counters) {
        if (unit_pmu(info.unit, catalog_) != prefix && unit_pmu(info.unit, catalog_) != pmu) {
          continue;
        }
        const auto generic = json_count(info.generic);
        const auto fixed = json_count(info.fixed);
        if (!generic || !fixed) continue;
        set.generic = std::min<std::uint32_t>(*generic, 32);
        set.fixed = std::min<std::uint32_t>(*fixed, 16);
        set.source = CounterSource::counter_json;
        set.origin = fmt::format("{}/counter.json Unit {}", model_->directory, info.unit);
        break;
      }
    }
    if (set.source == CounterSource::unknown) {
      if (auto fact = planner_detail::kernel_counter_set(vendor_, pmu, is_core(pmu))) set = *fact;
    }
    if (set.origin.empty()) {
      set.origin = "no counter.json entry or kernel fact: give --counters " + std::string(prefix) +
                   "=GENERIC[+FIXED]";
    }
    if (vendor_ == CpuVendor::intel && is_core(pmu)) {
      set.metrics = planner_detail::intel_topdown_metrics(
          model_ != nullptr ? std::string_view(model_->directory) : std::string_view(), set.fixed);
    }
    return set;
  }

  const Catalog& catalog_;
  const PlanBuildOptions& options_;
  const VendorModel* model_;
  CpuVendor vendor_ = CpuVendor::other;
  PlanInput input_;
  std::vector<std::string> used_pmus_;  // in order of first use
  std::map<std::uint64_t, std::string> raw_counters_;
};

}  // namespace

PlanInput build_plan_input(const Catalog& catalog, std::span<const EncodedEvent> events,
                           const PlanBuildOptions& options) {
  return InputBuilder(catalog, options).build(events);
}

PMUCAT_END_NAMESPACE
