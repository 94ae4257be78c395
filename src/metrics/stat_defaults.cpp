// stat_default_events(): what plain `perf stat` opens. The releases' choices are data: the
// built-in events of perf 6.1 and 6.12 in kBuiltinDefaults, perf 6.1's topdown groups in
// kTopdownGroups, perf 7.2's metric groups in kDefaultMetricGroups; the profile picks which apply.
#include "pmucat/stat_defaults.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <numeric>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "pmucat/diagnostic_ids.h"
#include "pmucat/vendor_events.h"

PMUCAT_BEGIN_NAMESPACE
namespace {

// When one of perf 6.1's and 6.12's default events is added (builtin-stat.c's attr arrays).
enum class DefaultWhen : std::uint8_t {
  always,
  counting_task,  // task-clock: counting a command
  counting_cpus,  // cpu-clock in its place: -a or -C
  cpu_pmu_has_it  // the PMU named `cpu` has an event of this name (stalled-cycles-*)
};

struct BuiltinDefault {
  std::string_view spec;
  unsigned detail;  // the -d count from which perf adds it
  DefaultWhen when;
};

// perf adds these as attrs, not by name; each name encodes to that attr (type and config, per
// core PMU with its extended type on a hybrid tree, as perf's arch code adds them there).
constexpr std::array kBuiltinDefaults{
    BuiltinDefault{"task-clock", 0, DefaultWhen::counting_task},
    BuiltinDefault{"cpu-clock", 0, DefaultWhen::counting_cpus},
    BuiltinDefault{"context-switches", 0, DefaultWhen::always},
    BuiltinDefault{"cpu-migrations", 0, DefaultWhen::always},
    BuiltinDefault{"page-faults", 0, DefaultWhen::always},
    BuiltinDefault{"cycles", 0, DefaultWhen::always},
    BuiltinDefault{"stalled-cycles-frontend", 0, DefaultWhen::cpu_pmu_has_it},
    BuiltinDefault{"stalled-cycles-backend", 0, DefaultWhen::cpu_pmu_has_it},
    BuiltinDefault{"instructions", 0, DefaultWhen::always},
    BuiltinDefault{"branches", 0, DefaultWhen::always},
    BuiltinDefault{"branch-misses", 0, DefaultWhen::always},
    BuiltinDefault{"L1-dcache-loads", 1, DefaultWhen::always},
    BuiltinDefault{"L1-dcache-load-misses", 1, DefaultWhen::always},
    BuiltinDefault{"LLC-loads", 1, DefaultWhen::always},
    BuiltinDefault{"LLC-load-misses", 1, DefaultWhen::always},
    BuiltinDefault{"L1-icache-loads", 2, DefaultWhen::always},
    BuiltinDefault{"L1-icache-load-misses", 2, DefaultWhen::always},
    BuiltinDefault{"dTLB-loads", 2, DefaultWhen::always},
    BuiltinDefault{"dTLB-load-misses", 2, DefaultWhen::always},
    BuiltinDefault{"iTLB-loads", 2, DefaultWhen::always},
    BuiltinDefault{"iTLB-load-misses", 2, DefaultWhen::always},
    BuiltinDefault{"L1-dcache-prefetches", 3, DefaultWhen::always},
    BuiltinDefault{"L1-dcache-prefetch-misses", 3, DefaultWhen::always},
};

// perf 6.1 (x86) adds one of these after the level-0 events where the PMU of type 4 has a `slots`
// event: level 2 where the topdown PMU has topdown-heavy-ops; the `cpu_core` form on a hybrid tree.
struct TopdownGroup {
  bool level2;
  bool hybrid;
  std::string_view spec;
};
constexpr std::array kTopdownGroups{
    TopdownGroup{false, false,
                 "{slots,topdown-retiring,topdown-bad-spec,topdown-fe-bound,topdown-be-bound}"},
    TopdownGroup{false, true,
                 "{slots,cpu_core/topdown-retiring/,cpu_core/topdown-bad-spec/,"
                 "cpu_core/topdown-fe-bound/,cpu_core/topdown-be-bound/}"},
    TopdownGroup{true, false,
                 "{slots,topdown-retiring,topdown-bad-spec,topdown-fe-bound,topdown-be-bound,"
                 "topdown-heavy-ops,topdown-br-mispredict,topdown-fetch-lat,topdown-mem-bound}"},
    TopdownGroup{true, true,
                 "{slots,cpu_core/topdown-retiring/,cpu_core/topdown-bad-spec/,"
                 "cpu_core/topdown-fe-bound/,cpu_core/topdown-be-bound/,"
                 "cpu_core/topdown-heavy-ops/,cpu_core/topdown-br-mispredict/,"
                 "cpu_core/topdown-fetch-lat/,cpu_core/topdown-mem-bound/}"},
};

// perf 7.2's groups, the i-th expanded when -d was given at least i times.
constexpr std::array<std::string_view, 4> kDefaultMetricGroups{"Default", "Default2", "Default3",
                                                               "Default4"};

bool has_event(const Pmu* pmu, std::string_view name) {
  return pmu != nullptr && pmu->find_event(name) != nullptr;
}

bool wanted(const BuiltinDefault& row, const Catalog& catalog, const StatDefaultsOptions& options,
            unsigned from_detail, unsigned to_detail) {
  if (row.detail < from_detail || row.detail > to_detail) return false;
  switch (row.when) {
    case DefaultWhen::always:
      return true;
    case DefaultWhen::counting_task:
      return !options.cpu_target;
    case DefaultWhen::counting_cpus:
      return options.cpu_target;
    case DefaultWhen::cpu_pmu_has_it:
      return has_event(catalog.find_pmu("cpu"), row.spec);
  }
  return false;
}

// The list perf builds from kBuiltinDefaults for -d levels [from, to], as one spec list.
std::string builtin_list(const Catalog& catalog, const StatDefaultsOptions& options,
                         unsigned from_detail, unsigned to_detail) {
  std::string list;
  for (const BuiltinDefault& row : kBuiltinDefaults) {
    if (!wanted(row, catalog, options, from_detail, to_detail)) continue;
    if (!list.empty()) list += ',';
    list += row.spec;
  }
  return list;
}

// perf 6.1's topdown group for this tree, or empty. Its PMU of type 4 is the first it finds
// (perf_pmu__find_by_type); the tree is hybrid to perf 6.1 where a `cpu_*` PMU lists CPUs in
// its `cpus` file (the rule the encoder's hybrid core PMUs follow).
std::string_view topdown_group(const Catalog& catalog) {
  const Pmu* raw_pmu = nullptr;
  bool hybrid = false;
  for (const Pmu& pmu : catalog.pmus()) {
    if (raw_pmu == nullptr && pmu.type() == 4u) raw_pmu = &pmu;
    const std::optional<CpuList>& cpus = pmu.attributes().cpus;
    hybrid = hybrid || (pmu.name().starts_with("cpu_") && cpus && !cpus->cpus.empty());
  }
  if (!has_event(raw_pmu, "slots")) return {};
  const Pmu* topdown_pmu = hybrid ? catalog.find_pmu("cpu_core") : catalog.find_pmu("cpu");
  const bool level2 = has_event(topdown_pmu, "topdown-heavy-ops");
  for (const TopdownGroup& group : kTopdownGroups) {
    if (group.level2 == level2 && group.hybrid == hybrid) return group.spec;
  }
  return {};
}

// Appends `events` (their group leaders indices among themselves) to `out`.
void append(StatDefaults& out, std::vector<EncodedEvent> events) {
  const std::size_t base = out.events.size();
  for (EncodedEvent& event : events) {
    if (event.group_leader) *event.group_leader += base;
    out.events.push_back(std::move(event));
  }
}

void append(StatDefaults& out, std::string_view group, EncodedMetrics metrics) {
  const std::size_t base = out.events.size();
  append(out, std::move(metrics.events));
  out.metric_groups.emplace_back(group);
  for (std::size_t m = 0; m < metrics.expansion.metrics.size(); ++m) {
    auto per_id = std::move(metrics.id_events[m]);
    for (auto& indices : per_id) {
      for (std::size_t& index : indices) index += base;
    }
    out.metrics.push_back(std::move(metrics.expansion.metrics[m]));
    out.metric_events.push_back(std::move(per_id));
  }
}

// perf's options for the default groups, the caller's literals, watchdog and has_event() kept
// (expand_metrics() asks the catalog's encoder when there is none).
MetricExpandOptions default_group_options(const StatDefaultsOptions& options,
                                          const EncodeOptions& encode_options) {
  MetricExpandOptions expand = options.metrics;
  expand.semantics = encode_options.semantics;
  expand.no_group = false;
  expand.no_merge = false;
  expand.no_threshold = true;
  if (options.cpu_target) {
    expand.literals.target_cpu = 1;
  } else if (!expand.literals.target_cpu) {
    expand.literals.target_cpu = 0;
  }
  return expand;
}

bool table_has_group(std::span<const MetricDefinition> table, std::string_view group,
                     Profile semantics) {
  return std::any_of(table.begin(), table.end(), [&](const MetricDefinition& metric) {
    return metric_matches(metric, group, semantics);
  });
}

// Expands and encodes one default metric group into `out`; the error, if any (perf stops when a
// group fails).
std::optional<Diagnostic> add_metric_group(StatDefaults& out, const Catalog& catalog,
                                           std::string_view group,
                                           const MetricExpandOptions& expand,
                                           const EncodeOptions& encode_options) {
  auto encoded = expand_metrics(catalog, group, expand, encode_options);
  if (!encoded) return std::move(encoded.error());
  append(out, group, std::move(*encoded));
  return std::nullopt;
}

// The name perf sorts an event by: its name= term, else the event's text in its list.
std::string_view sort_name(const EncodedEvent& event) {
  if (event.settings.name) return *event.settings.name;
  return event.spec;
}

// The PMU type perf sorts an event by, read as perf's int subtraction reads it: the tool PMU
// (0xfffffffe) is -2, before every kernel PMU. A legacy hardware or cache event is its core
// PMU's event in perf 7.2, so it sorts with that PMU.
std::int32_t sort_type(const Catalog& catalog, const EncodedEvent& event) {
  if (const Pmu* pmu = event.pmu.empty() ? nullptr : catalog.find_pmu(event.pmu)) {
    if (auto type = pmu->type()) return static_cast<std::int32_t>(*type);
  }
  return static_cast<std::int32_t>(event.attr.type);
}

// perf 7.2's sort of the default events (builtin-stat.c's default_evlist_evsel_cmp, a stable
// list sort): by group leader, the events of metrics that show their events first, then the
// leader's PMU type, then its name; a group's members keep their order after their leader.
void sort_like_perf72(const Catalog& catalog, const std::vector<std::string_view>& shown_by,
                      StatDefaults& out) {
  std::vector<bool> shown(out.events.size(), false);
  for (std::size_t m = 0; m < out.metrics.size(); ++m) {
    if (std::find(shown_by.begin(), shown_by.end(), out.metrics[m].name) == shown_by.end()) {
      continue;
    }
    for (const auto& indices : out.metric_events[m]) {
      for (std::size_t index : indices) shown[index] = true;
    }
  }
  struct Key {
    bool hidden;
    std::int32_t type;
    std::string_view name;
    auto operator<=>(const Key&) const = default;
  };
  std::vector<Key> keys;
  keys.reserve(out.events.size());
  for (std::size_t i = 0; i < out.events.size(); ++i) {
    const std::size_t leader = out.events[i].group_leader.value_or(i);
    const EncodedEvent& lead = out.events[leader];
    keys.push_back(Key{!shown[leader], sort_type(catalog, lead), sort_name(lead)});
  }
  std::vector<std::size_t> order(out.events.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return keys[a] < keys[b]; });
  std::vector<std::size_t> new_index(order.size());
  for (std::size_t i = 0; i < order.size(); ++i) new_index[order[i]] = i;
  std::vector<EncodedEvent> sorted;
  sorted.reserve(order.size());
  for (std::size_t old : order) {
    EncodedEvent event = std::move(out.events[old]);
    if (event.group_leader) event.group_leader = new_index[*event.group_leader];
    sorted.push_back(std::move(event));
  }
  out.events = std::move(sorted);
  for (auto& per_id : out.metric_events) {
    for (auto& indices : per_id) {
      for (std::size_t& index : indices) index = new_index[index];
    }
  }
}

Expected<StatDefaults> metric_driven(const Catalog& catalog, const StatDefaultsOptions& options,
                                     const EncodeOptions& encode_options) {
  // The metrics alone: asking for the model would decode all its events.
  if (catalog.vendor_metrics().empty()) {
    // perf 7.3 always has at least its common table's Default metrics (those of a CPU without
    // a model): an empty list would be a wrong answer.
    const std::string_view group = kDefaultMetricGroups[0];
    Diagnostic d = make_diagnostic(
        Severity::error, DiagId::metric_not_found, "<metrics>", group, 0, group.size(),
        fmt::format("{} chooses plain perf stat's events from the metric group {}, and the "
                    "catalog has no vendor metrics (no tables, or tables without perf 7.2's "
                    "common table)",
                    encode_options.semantics.name(), group));
    d.hint = "give the vendor tables of that perf (--events-dir), or -e events";
    return unexpected(std::move(d));
  }
  const auto table = metric_definitions(catalog);
  const MetricExpandOptions expand = default_group_options(options, encode_options);
  StatDefaults out;
  for (std::size_t level = 0; level < kDefaultMetricGroups.size(); ++level) {
    const std::string_view group = kDefaultMetricGroups[level];
    if (!table_has_group(table, group, encode_options.semantics)) continue;
    if (level > options.detail) break;
    if (auto error = add_metric_group(out, catalog, group, expand, encode_options)) {
      return unexpected(std::move(*error));
    }
  }
  // jevents reads DefaultShowEvents as a digit: "1" shows the metric's events.
  std::vector<std::string_view> shown_by;
  for (const VendorMetric& metric : catalog.vendor_metrics()) {
    if (!metric.default_show_events.empty() && metric.default_show_events[0] != '0') {
      shown_by.push_back(metric.name);
    }
  }
  sort_like_perf72(catalog, shown_by, out);
  return out;
}

// Encodes a list of perf's default events into `out`; the error, if any.
std::optional<Diagnostic> add_builtin(StatDefaults& out, const Catalog& catalog,
                                      std::string_view list, const EncodeOptions& encode_options) {
  if (list.empty()) return std::nullopt;
  auto encoded = encode(catalog, list, encode_options);
  if (!encoded) return std::move(encoded.error());
  append(out, std::move(*encoded));
  return std::nullopt;
}

Expected<StatDefaults> builtin_driven(const Catalog& catalog, const StatDefaultsOptions& options,
                                      const EncodeOptions& encode_options) {
  // perf builds its fixed list's attrs itself: the built-in events (never a PMU's event of that
  // name, which pmucat's own semantics prefer for a name the user writes) and on a hybrid
  // machine each hardware and cache event once per core PMU with that PMU's extended type,
  // whatever the kernel would say to a probe.
  EncodeOptions fixed = encode_options;
  fixed.semantics = Profile::perf(encode_options.semantics.release());
  fixed.extended_type = ExtendedType::supported;
  StatDefaults out;
  auto error = add_builtin(out, catalog, builtin_list(catalog, options, 0, 0), fixed);
  if (!error && encode_options.semantics.has(Behaviour::default_stat_metricgroup)) {
    const auto table = metric_definitions(catalog);
    if (table_has_group(table, kDefaultMetricGroups[0], encode_options.semantics)) {
      error = add_metric_group(out, catalog, kDefaultMetricGroups[0],
                               default_group_options(options, encode_options), encode_options);
    }
  } else if (!error) {
    error = add_builtin(out, catalog, topdown_group(catalog), encode_options);
  }
  if (!error && options.detail > 0) {
    error = add_builtin(out, catalog, builtin_list(catalog, options, 1, options.detail), fixed);
  }
  if (error) return unexpected(std::move(*error));
  return out;
}

}  // namespace

Expected<StatDefaults> stat_default_events(const Catalog& catalog,
                                           const StatDefaultsOptions& options,
                                           const EncodeOptions& encode_options) {
  EncodeOptions stat = encode_options;
  stat.tool = Tool::stat;
  if (stat.semantics.has(Behaviour::metric_driven_default_stat)) {
    return metric_driven(catalog, options, stat);
  }
  return builtin_driven(catalog, options, stat);
}

PMUCAT_END_NAMESPACE
