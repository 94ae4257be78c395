// metricgroup.c of perf 6.1 and 6.12, as facts: which metrics a name selects, references,
// sorting, sharing events between metrics, and the event strings. Our code. Where perf 6.12's
// rules differ, rules_612.h has them and MetricExpandOptions::semantics chooses.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <list>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "parser/char_class.h"
#include "pmucat/diagnostic_ids.h"
#include "pmucat/metric_expr.h"
#include "pmucat/metrics.h"
#include "pmucat/suggest.h"
#include "rules_612.h"

PMUCAT_BEGIN_NAMESPACE

namespace {

using char_class::ascii_iequal;
using char_class::ascii_ifind;

using metric_expr::MetricIdSet;

// expr__find_ids(expr, NULL, ctx) with runtime 0: the ids `expr` (of `pe`: its expression, or
// under perf 6.12 its threshold) needs, united into `ids`. A broken expression is a located
// diagnostic in `pe.file`.
std::optional<Diagnostic> find_metric_ids(const MetricDefinition& pe, std::string_view expr,
                                          const metric_expr::Literals& literals, MetricIdSet& ids,
                                          MetricDialect rules,
                                          const metric_expr::Functions& functions) {
  auto parsed = metric_expr::parse(expr, pe.file, rules);
  if (!parsed) return std::move(parsed).error();
  auto found = metric_expr::find_ids(*parsed, literals, ids, {}, 0, rules, functions);
  if (!found) return std::move(found).error();
  return std::nullopt;
}

// perf's match_metric(n, list): `n` a metric's name or group string (empty = NULL).
bool match_metric(std::string_view n, std::string_view list) {
  if (list == "all") return true;
  if (n.empty()) return ascii_iequal(list, "No_group");
  const std::size_t m = ascii_ifind(n, list);
  if (m == std::string_view::npos) return false;
  // Only the first occurrence counts, as with strcasestr.
  const bool start_ok = m == 0 || n[m - 1] == ';' || n[m - 1] == ' ';
  const std::size_t end = m + list.size();
  const bool end_ok = end == n.size() || n[end] == ';';
  return start_ok && end_ok;
}

constexpr std::array<std::string_view, 3> kToolEvents = {"duration_time", "user_time",
                                                         "system_time"};

int tool_event_index(std::string_view id) {
  for (std::size_t i = 0; i < kToolEvents.size(); ++i) {
    if (id == kToolEvents[i]) return static_cast<int>(i);
  }
  return -1;
}

struct Metric {
  const MetricDefinition* pe = nullptr;
  std::optional<std::string> modifier;
  MetricIdSet ids;
  std::vector<std::string> refs;
  bool has_constraint = false;
  std::optional<std::size_t> own_list;  // the event list parsed for this metric
  // Per id: the chain of metrics that named it first (ExpandedMetric::id_sources).
  std::unordered_map<std::string, std::string> sources;
};

// Notes the chain `source` for the ids of `metric` that have none yet.
void note_sources(Metric& metric, const std::string& source) {
  for (std::string& key : metric.ids.keys()) metric.sources.try_emplace(std::move(key), source);
}

// The deepest chain of metrics each referencing the next that is expanded.
constexpr std::size_t kMaxMetricDepth = 1000;

class Expander {
 public:
  Expander(std::span<const MetricDefinition> table, const MetricExpandOptions& options)
      : table_(table),
        options_(options),
        rules_(options.semantics.metric_rules()),
        dialect_(options.semantics.metric_dialect()),
        functions_{options.event_parses, options.cpuid_matches},
        literals_(evaluation_literals(options.literals)),
        plain_names_(std::none_of(table.begin(), table.end(), [](const MetricDefinition& pe) {
          return pe.name.empty() || pe.name.find_first_of("; ") != std::string::npos;
        })) {}

  std::optional<Diagnostic> error;

  // perf 6.12's metricgroup.c (MetricRules::of_6_12) rather than 6.1's.
  bool metricgroup_6_12() const { return rules_ == MetricRules::of_6_12; }

  // Whether the word `name` of `-M` selects `pe` (match_metric on its groups, then its name).
  bool selects(const MetricDefinition& pe, std::string_view name) const {
    if (metricgroup_6_12())
      return metrics_612::match(pe.group, name) || metrics_612::match(pe.name, name);
    return match_metric(pe.group, name) || match_metric(pe.name, name);
  }

  // metricgroup__find_metric: the first metric of the table whose name matches `key` (perf
  // 6.12: among the metrics of `pmu`, the referencing metric's; perf 7.3: of that name exactly,
  // so `instructions` in an expression stays an event where a metric is named `Instructions`).
  const MetricDefinition* find_metric(std::string_view key, std::string_view pmu) const {
    if (metricgroup_6_12()) {
      const bool exact = options_.semantics.has(Behaviour::metric_references_exact_case);
      for (const auto& pe : table_) {
        if (metrics_612::pmu_of(pe) != pmu) continue;
        if (exact ? pe.name == key : metrics_612::match(pe.name, key)) return &pe;
      }
      return nullptr;
    }
    // Without ';' or ' ' in any name, perf's substring match can only be the whole name.
    if (plain_names_ && key != "all") {
      for (const auto& pe : table_) {
        if (ascii_iequal(pe.name, key)) return &pe;
      }
      return nullptr;
    }
    for (const auto& pe : table_) {
      if (match_metric(pe.name, key)) return &pe;
    }
    return nullptr;
  }

  // One metric of the reference tree being expanded, with the metrics its expression named
  // that are still to be added (perf's resolve_metric: gathered after the metric's ids joined
  // the root's, then removed from them).
  struct Level {
    std::string_view name;  // as the chain shows it ("__threshold__" for a 6.12 threshold root)
    std::vector<const MetricDefinition*> pending;
    std::size_t next = 0;
  };

  // The metrics among the root's ids (`pmu`: the referencing metric's PMU), removed from them.
  std::vector<const MetricDefinition*> take_references(Metric& root, std::string_view pmu) const {
    std::vector<std::pair<const MetricDefinition*, std::string>> found;
    for (std::string& key : root.ids.keys()) {
      if (const auto* pe = find_metric(key, pmu)) found.emplace_back(pe, std::move(key));
    }
    std::vector<const MetricDefinition*> out;
    out.reserve(found.size());
    for (auto& [pe, key] : found) {
      root.ids.erase(key);
      out.push_back(pe);
    }
    return out;
  }

  // "A -> B -> C": the chain of `levels` then `last`; a long chain keeps its first and last
  // few names with the count of those left out.
  static std::string chain_text(const std::vector<Level>& levels, std::string_view last) {
    constexpr std::size_t kEnds = 3;
    std::string path;
    for (std::size_t i = 0; i < levels.size(); ++i) {
      if (levels.size() > 2 * kEnds + 1 && i == kEnds) {
        path += fmt::format("... ({} more) -> ", levels.size() - 2 * kEnds);
        i = levels.size() - kEnds - 1;
        continue;
      }
      path.append(levels[i].name);
      path.append(" -> ");
    }
    path.append(last);
    return path;
  }

  // perf's add_metric for a metric `-M` selected and, depth first in perf's order, the metrics
  // it references. The tree is walked with `levels` on the heap: a chain of metrics each naming
  // the next costs no stack, and is refused past kMaxMetricDepth levels (older perf stopped at
  // 1000 nested metrics, "too many nested metrics"). `requested` is the word of `-M`.
  bool add_metric(std::list<Metric>& list, const MetricDefinition& pe,
                  const std::optional<std::string>& modifier, std::string_view requested) {
    Metric root;
    std::string_view expr = pe.expr;
    std::string_view node_name = pe.name;
    root.pe = &pe;
    root.modifier = modifier;
    if (metricgroup_6_12()) {
      root.has_constraint = !metrics_612::groups_events(pe, requested, options_);
      expr = metrics_612::root_expression(pe, options_.no_threshold);
      // The threshold names the metric itself: the tree's node is not the metric's name.
      if (!pe.threshold.empty()) node_name = "__threshold__";
    } else {
      root.has_constraint =
          options_.no_group || (pe.constraint == "NO_NMI_WATCHDOG" && options_.nmi_watchdog);
    }
    if (auto d = find_metric_ids(pe, expr, literals_, root.ids, dialect_, functions_)) {
      d->message = fmt::format("metric {}: {}", pe.name, d->message);
      error = std::move(*d);
      return false;
    }
    note_sources(root, std::string(pe.name));
    std::vector<Level> levels;
    levels.push_back(Level{node_name, take_references(root, metrics_612::pmu_of(pe)), 0});
    while (!levels.empty()) {
      if (levels.back().next == levels.back().pending.size()) {
        levels.pop_back();
        continue;
      }
      const MetricDefinition& ref = *levels.back().pending[levels.back().next++];
      for (const Level& level : levels) {
        if (ref.name == level.name) {
          error = make_file_diagnostic(
              Severity::error, DiagId::metric_recursion, ref.file,
              fmt::format("recursion detected for {}: {}", ref.name, chain_text(levels, ref.name)));
          return false;
        }
      }
      if (std::find(root.refs.begin(), root.refs.end(), ref.name) != root.refs.end()) continue;
      if (levels.size() >= kMaxMetricDepth) {
        auto d = make_file_diagnostic(
            Severity::error, DiagId::metric_too_deep, ref.file,
            fmt::format("metric {}: its chain of references exceeds {} levels: {}", pe.name,
                        kMaxMetricDepth, chain_text(levels, ref.name)));
        d.hint =
            "vendor tables nest metrics a few levels deep; older perf refused more than 1000 "
            "(\"too many nested metrics\")";
        error = std::move(d);
        return false;
      }
      root.refs.emplace_back(ref.name);
      if (auto d = find_metric_ids(ref, ref.expr, literals_, root.ids, dialect_, functions_)) {
        d->message = fmt::format("metric {} (in {}): {}", ref.name, chain_text(levels, ref.name),
                                 d->message);
        error = std::move(*d);
        return false;
      }
      std::string shown = chain_text(levels, ref.name);
      if (levels.front().name != pe.name) shown = fmt::format("{}: {}", pe.name, shown);
      note_sources(root, shown);
      levels.push_back(Level{ref.name, take_references(root, metrics_612::pmu_of(ref)), 0});
    }
    list.push_front(std::move(root));
    return true;
  }

  std::optional<std::list<Metric>> select(std::string_view names) {
    std::list<Metric> metrics;
    std::size_t start = 0;
    for (;;) {
      const std::size_t comma = names.find(',', start);
      std::string_view word =
          names.substr(start, comma == std::string_view::npos ? names.npos : comma - start);
      std::optional<std::string> modifier;
      if (const auto colon = word.find(':'); colon != std::string_view::npos) {
        modifier = std::string(word.substr(colon + 1));
        word = word.substr(0, colon);
      }
      std::list<Metric> local;
      bool has_match = false;
      for (const auto& pe : table_) {
        if (!pe.expr.empty() && selects(pe, word)) {
          has_match = true;
          if (!add_metric(local, pe, modifier, word)) return std::nullopt;
        }
      }
      if (!has_match) {
        error = unknown(names, start, word);
        return std::nullopt;
      }
      metrics.splice(metrics.begin(), local);
      if (comma == std::string_view::npos) break;
      start = comma + 1;
    }
    return metrics;
  }

  Diagnostic unknown(std::string_view names, std::size_t offset, std::string_view word) const {
    auto d = make_diagnostic(Severity::error, DiagId::metric_not_found, "<metrics>", names, offset,
                             word.size(), fmt::format("cannot find metric or group '{}'", word));
    std::vector<std::string> candidates;
    for (const auto& pe : table_) {
      if (pe.expr.empty()) continue;
      candidates.emplace_back(pe.name);
      std::string_view g = pe.group;
      while (!g.empty()) {
        const auto semi = g.find(';');
        const auto one = g.substr(0, semi);
        if (!one.empty() &&
            std::find(candidates.begin(), candidates.end(), one) == candidates.end()) {
          candidates.emplace_back(one);
        }
        if (semi == std::string_view::npos) break;
        g = g.substr(semi + 1);
      }
    }
    if (auto near = nearest_name(word, candidates))
      d.hint = fmt::format("did you mean '{}'?", *near);
    return d;
  }

 private:
  std::span<const MetricDefinition> table_;
  const MetricExpandOptions& options_;
  MetricRules rules_;                 // whose metricgroup.c to follow
  MetricDialect dialect_;             // whose expression language
  metric_expr::Functions functions_;  // has_event(), strcmp_cpuid_str() (perf 6.12)
  metric_expr::Literals literals_;
  bool plain_names_;  // no metric name holds ';' or ' ' (find_metric's fast path)
};

// metricgroup__build_event_string
std::string build_event_string(const MetricIdSet& ids, const std::optional<std::string>& modifier,
                               bool has_constraint) {
  std::string out;
  bool no_group = true;
  std::array<bool, kToolEvents.size()> tools{};
  for (const std::string& id : ids.keys()) {
    if (const int t = tool_event_index(id); t >= 0) {
      tools[static_cast<std::size_t>(t)] = true;
      continue;
    }
    if (no_group) {
      if (!has_constraint) out.push_back('{');
      no_group = false;
    } else {
      out.push_back(',');
    }
    std::string_view rest;
    bool has_rest = false;
    if (const auto at = id.find('@'); at != std::string::npos) {
      const auto last = id.rfind('@');
      out.append(id, 0, at);
      out.push_back('/');
      if (last > at) out.append(id, at + 1, last - at - 1);
      out.append(",metric-id=");
      rest = std::string_view(id).substr(last + 1);
      has_rest = true;
    } else {
      if (const auto colon = id.find(':'); colon != std::string::npos) {
        out.append(id, 0, colon);
        rest = std::string_view(id).substr(colon + 1);
        has_rest = true;
      } else {
        out.append(id);
      }
      out.append("/metric-id=");
    }
    out.append(encode_metric_id(id));
    out.push_back('/');
    if (has_rest) out.append(rest);
    if (modifier) out.append(*modifier);
  }
  if (!no_group && !has_constraint) out.append("}:W");
  for (std::size_t i = 0; i < tools.size(); ++i) {
    if (!tools[i]) continue;
    if (!no_group) out.push_back(',');
    no_group = false;
    out.append(kToolEvents[i]);
  }
  return out;
}

std::size_t count_without_tools(const MetricIdSet& ids) {
  std::size_t n = ids.size();
  for (auto t : kToolEvents) {
    if (ids.contains(t)) --n;
  }
  return n;
}

bool subset_of(const MetricIdSet& haystack, const MetricIdSet& needles) {
  for (const std::string& k : needles.keys()) {
    if (!haystack.contains(k)) return false;
  }
  return true;
}

// An error encoding event list `index` (`list`) names the metric whose expression holds the
// event it points at, with the chain of references that led there: a list of -M all is
// thousands of columns long.
Diagnostic name_failing_metric(const MetricExpansion& expansion, std::size_t index,
                               std::string_view list, Diagnostic error) {
  // The event at the error ends with its metric-id term (build_event_string).
  std::string id;
  const std::size_t at = std::min<std::size_t>(error.range.offset, list.size());
  if (const auto term = list.find("metric-id=", at); term != std::string_view::npos) {
    const std::size_t begin = term + std::string_view("metric-id=").size();
    id = decode_metric_id(list.substr(begin, list.find('/', begin) - begin));
  }
  std::vector<std::string> culprits;
  for (const ExpandedMetric& metric : expansion.metrics) {
    if (metric.event_list != index) continue;
    for (std::size_t i = 0; i < metric.ids.size(); ++i) {
      if (metric.ids[i] != id) continue;
      std::string source = i < metric.id_sources.size() ? metric.id_sources[i] : std::string();
      if (source.empty()) source = metric.name;
      if (std::find(culprits.begin(), culprits.end(), source) == culprits.end()) {
        culprits.push_back(std::move(source));
      }
    }
  }
  if (culprits.empty()) {
    for (const ExpandedMetric& metric : expansion.metrics) {
      if (metric.event_list == index) culprits.push_back(metric.name);
    }
  }
  if (culprits.empty()) return error;
  std::string who = culprits.front();
  if (culprits.size() > 1) who += fmt::format(" (and {} more)", culprits.size() - 1);
  error.message = id.empty() ? fmt::format("metric {}: {}", who, error.message)
                             : fmt::format("metric {}, event {}: {}", who, id, error.message);
  return error;
}

}  // namespace

bool MetricLiterals::set(std::string_view name, double value) {
  if (!name.empty() && name.front() == '#') name.remove_prefix(1);
  if (ascii_iequal(name, "smt_on")) {
    smt_on = value;
  } else if (name == "num_cpus") {
    num_cpus = value;
  } else if (name == "num_cores") {
    num_cores = value;
  } else if (name == "num_dies") {
    num_dies = value;
  } else if (name == "num_packages") {
    num_packages = value;
  } else if (name == "core_wide") {
    core_wide = value;
  } else if (ascii_iequal(name, "system_tsc_freq")) {
    system_tsc_freq = value;
  } else if (name == "num_cpus_online") {
    num_cpus_online = value;
  } else if (name == "has_pmem") {
    has_pmem = value;
  } else if (name == "slots") {
    slots = value;
  } else if (name == "target_cpu") {
    target_cpu = value;
  } else {
    return false;
  }
  return true;
}

bool metric_matches(const MetricDefinition& metric, std::string_view name) {
  return match_metric(metric.group, name) || match_metric(metric.name, name);
}

bool metric_matches(const MetricDefinition& metric, std::string_view name, Profile semantics) {
  if (semantics.metric_rules() == MetricRules::of_6_1) return metric_matches(metric, name);
  return metrics_612::match(metric.group, name) || metrics_612::match(metric.name, name);
}

std::string encode_metric_id(std::string_view id) {
  static constexpr std::string_view kCode = ",-=@";
  std::string out;
  out.reserve(id.size());
  for (char c : id) {
    if (const auto p = kCode.find(c); p != std::string_view::npos) {
      out.push_back('!');
      out.push_back(static_cast<char>('0' + p));
    } else {
      out.push_back(c);
    }
  }
  return out;
}

std::string decode_metric_id(std::string_view id) {
  static constexpr std::string_view kCode = ",-=@";
  std::string out;
  for (std::size_t i = 0; i < id.size(); ++i) {
    if (id[i] == '!' && i + 1 < id.size()) {
      const auto k = static_cast<std::size_t>(id[i + 1] - '0');
      if (k < kCode.size()) {
        out.push_back(kCode[k]);
        ++i;
        continue;
      }
    }
    out.push_back(id[i]);
  }
  return out;
}

Expected<MetricExpansion> expand_metric_table(std::span<const MetricDefinition> table,
                                              std::string_view names,
                                              const MetricExpandOptions& options) {
  Expander expander(table, options);
  const bool metricgroup_6_12 = expander.metricgroup_6_12();
  auto selected = expander.select(names);
  if (!selected) return unexpected(std::move(*expander.error));
  std::list<Metric>& list = *selected;
  // list_sort: stable, most ids (tool events not counted) first.
  list.sort([](const Metric& a, const Metric& b) {
    return count_without_tools(a.ids) > count_without_tools(b.ids);
  });

  MetricExpansion out;
  std::array<bool, kToolEvents.size()> tools{};
  // parse_ids: tool events added to every list (unless no_merge), duration_time to an empty one.
  auto parse_ids = [&](MetricIdSet& ids, const std::optional<std::string>& modifier,
                       bool has_constraint) {
    if (!options.no_merge || ids.size() == 0) {
      bool added = false;
      for (std::size_t i = 0; i < tools.size(); ++i) {
        if (tools[i]) {
          ids.insert(kToolEvents[i]);
          added = true;
        }
      }
      if (!added && ids.size() == 0) ids.insert("duration_time");
    }
    out.event_lists.push_back(build_event_string(ids, modifier, has_constraint));
    return out.event_lists.size() - 1;
  };

  std::optional<std::size_t> combined;
  MetricIdSet combined_ids;  // the ids of the combined list, tool events included
  if (!options.no_merge) {
    for (const auto& m : list) {
      for (std::size_t i = 0; i < tools.size(); ++i) {
        if (m.ids.contains(kToolEvents[i])) tools[i] = true;
      }
    }
    for (const auto& m : list) {
      if (m.has_constraint && !m.modifier) {
        for (const std::string& k : m.ids.keys()) combined_ids.insert(k);
      }
    }
    if (combined_ids.size() != 0) combined = parse_ids(combined_ids, std::nullopt, true);
  }
  if (metricgroup_6_12 && names == "Default") {
    list.sort([](const Metric& a, const Metric& b) {
      return metrics_612::default_order_before(*a.pe, *b.pe);
    });
  }

  for (auto it = list.begin(); it != list.end(); ++it) {
    Metric& m = *it;
    std::optional<std::size_t> used;
    if (combined && m.has_constraint) {
      // Every ungrouped metric reads the combined list, one with a modifier too, although the
      // list holds the ids of the metrics without one: perf 6.1 then cannot find its events
      // ("Cannot resolve IDs for NAME: EXPR") and -M fails (measured: -M
      // L1D_Cache_Fill_BW:u,L2_Cache_Fill_BW --metric-no-group on sapphirerapids).
      if (m.modifier && !subset_of(combined_ids, m.ids)) {
        auto d = make_file_diagnostic(
            Severity::error, DiagId::metric_unresolved, m.pe->file,
            fmt::format("cannot resolve the events of {}:{} ({}): without groups, perf 6.1 reads "
                        "a metric with a modifier from the list of the metrics without one",
                        m.pe->name, *m.modifier, m.pe->expr));
        d.hint = "give every metric the same modifier, or none, or drop --metric-no-group";
        return unexpected(std::move(d));
      }
      used = combined;
    } else if (!options.no_merge) {
      for (auto n = list.begin(); n != it; ++n) {
        if (!n->own_list) continue;
        if (n->modifier != m.modifier) continue;
        if (metricgroup_6_12 && metrics_612::pmu_of(*n->pe) != metrics_612::pmu_of(*m.pe)) continue;
        if (subset_of(n->ids, m.ids)) {
          used = n->own_list;
          break;
        }
      }
    }
    if (!used) {
      m.own_list = parse_ids(m.ids, m.modifier, m.has_constraint);
      used = m.own_list;
    }
    ExpandedMetric e;
    e.name = std::string(m.pe->name);
    e.modifier = m.modifier;
    e.expr = std::string(m.pe->expr);
    e.unit = std::string(m.pe->unit);
    e.ids = m.ids.keys();
    for (const std::string& id : e.ids) {
      const auto source = m.sources.find(id);
      e.id_sources.push_back(source == m.sources.end() ? std::string() : source->second);
    }
    e.references = m.refs;
    e.grouped = !m.has_constraint;
    e.event_list = *used;
    out.metrics.push_back(std::move(e));
  }
  return out;
}

Expected<EncodedMetrics> encode_metrics(const Catalog& catalog, MetricExpansion expansion,
                                        const EncodeOptions& options) {
  EncodedMetrics out;
  for (const auto& list : expansion.event_lists) {
    out.list_begin.push_back(out.events.size());
    auto encoded = encode(catalog, list, options);
    if (!encoded) {
      return unexpected(name_failing_metric(expansion, out.list_begin.size() - 1, list,
                                            std::move(encoded).error()));
    }
    const std::size_t base = out.events.size();
    for (auto& ev : *encoded) {
      // perf regroups a metric's list as it regroups -e's, but warns only for the user's lists.
      std::erase_if(ev.warnings,
                    [](const Diagnostic& d) { return d.code == DiagId::events_regrouped; });
      if (ev.group_leader) *ev.group_leader += base;
      out.events.push_back(std::move(ev));
    }
  }
  out.list_begin.push_back(out.events.size());
  for (const auto& m : expansion.metrics) {
    std::vector<std::vector<std::size_t>> per_id;
    const std::size_t begin = out.list_begin[m.event_list];
    const std::size_t end = out.list_begin[m.event_list + 1];
    for (const auto& id : m.ids) {
      std::vector<std::size_t> hits;
      for (std::size_t i = begin; i < end; ++i) {
        const auto& ev = out.events[i];
        const std::string mid =
            ev.settings.metric_id ? decode_metric_id(*ev.settings.metric_id) : ev.spec;
        if (mid == id) hits.push_back(i);
      }
      per_id.push_back(std::move(hits));
    }
    out.id_events.push_back(std::move(per_id));
  }
  out.expansion = std::move(expansion);
  return out;
}

PMUCAT_END_NAMESPACE
