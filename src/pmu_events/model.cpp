// A model directory's JSON files to one table, ordered as perf orders its compiled table.
#include <fmt/format.h>
#include <sys/stat.h>

#include <algorithm>
#include <optional>
#include <system_error>
#include <tuple>
#include <unordered_map>
#include <utility>

#include "pmu_events/descriptions.h"
#include "pmu_events/text_file.h"
#include "pmucat/diagnostic_ids.h"
#include "pmucat/vendor_events.h"

PMUCAT_BEGIN_NAMESPACE
namespace {

namespace fs = std::filesystem;
using pmu_events::jevents_since;

// The regular `*.json` files directly in `dir`, in name order (jevents.py walks sorted names).
Expected<std::vector<fs::path>> list_json_files(const fs::path& dir) {
  std::vector<fs::path> files;
  std::error_code error;
  fs::directory_iterator it(dir, error);
  if (error) {
    return unexpected(make_file_diagnostic(Severity::error, DiagId::vendor_json_unreadable,
                                           dir.string(),
                                           "cannot list the directory: " + error.message()));
  }
  for (fs::directory_iterator end; it != end; it.increment(error)) {
    if (error) break;
    std::error_code status_error;
    const std::string name = it->path().filename().string();
    if (name.ends_with(".json") && fs::is_regular_file(it->path(), status_error)) {
      files.push_back(it->path());
    }
  }
  if (error) {
    return unexpected(make_file_diagnostic(Severity::error, DiagId::vendor_json_unreadable,
                                           dir.string(),
                                           "cannot list the directory: " + error.message()));
  }
  std::sort(files.begin(), files.end(),
            [](const fs::path& a, const fs::path& b) { return a.filename() < b.filename(); });
  return files;
}

// jevents.py's topic: `metrics` for *metrics.json, else the name without `.json`, '-' as ' '.
std::string topic_of(const std::string& file_name) {
  if (file_name.ends_with("metrics.json")) return "metrics";
  std::string topic = file_name.substr(0, file_name.size() - std::string_view(".json").size());
  std::replace(topic.begin(), topic.end(), '-', ' ');
  return topic;
}

// `added` merged into `descriptions` (sorted by name, as perf's table): a name already there
// takes the added description.
void merge_metric_group_descriptions(std::vector<VendorMetricGroupDescription>& descriptions,
                                     std::vector<VendorMetricGroupDescription> added) {
  for (VendorMetricGroupDescription& description : added) {
    const auto at = std::lower_bound(descriptions.begin(), descriptions.end(), description.name,
                                     [](const VendorMetricGroupDescription& d,
                                        const std::string& name) { return d.name < name; });
    if (at != descriptions.end() && at->name == description.name) {
      *at = std::move(description);
    } else {
      descriptions.insert(at, std::move(description));
    }
  }
}

// perf 7.3's jevents keeps the first metric of a name and PMU it reads for a table (file order)
// and drops the later ones; each dropped one is said.
void drop_later_duplicate_metrics(std::vector<VendorMetric>& metrics,
                                  std::vector<Diagnostic>& diagnostics) {
  std::unordered_map<std::string, std::size_t> first_of;
  std::vector<VendorMetric> kept;
  kept.reserve(metrics.size());
  for (VendorMetric& metric : metrics) {
    const auto [it, inserted] = first_of.try_emplace(metric.name + '\n' + metric.pmu, kept.size());
    if (inserted) {
      kept.push_back(std::move(metric));
      continue;
    }
    const VendorMetric& earlier = kept[it->second];
    Diagnostic warning;
    warning.severity = Severity::warning;
    set_id(warning, DiagId::vendor_metric_duplicate);
    warning.range = metric.location;
    warning.message = fmt::format(
        "metric '{}'{} is defined twice (first at {}:{}); perf 7.3 uses the first", metric.name,
        metric.pmu.empty() ? std::string() : fmt::format(" of PMU {}", metric.pmu),
        earlier.location.file, earlier.location.line);
    diagnostics.push_back(std::move(warning));
  }
  metrics = std::move(kept);
}

// Every event of every file in `files`, appended to `model.events` (and its metrics, counters
// and, under 6.12's rules, the metric group descriptions of metricgroups.json).
void load_files(const std::vector<fs::path>& files, bool with_topic, const VendorModel& standard,
                VendorModel& model) {
  for (const fs::path& file : files) {
    const auto text = pmu_events::read_bounded_text_file(file, pmu_events::kMaxJsonFileSize);
    if (!text) {
      model.diagnostics.push_back(
          make_file_diagnostic(Severity::error, DiagId::vendor_json_unreadable, file.string(),
                               "cannot read the file: " + text.error()));
      continue;
    }
    const std::string name = file.filename().string();
    // perf 6.12's jevents reads metricgroups.json (linux 6.3 on) as descriptions, not events;
    // 6.1's knew no such file. 7.3's reads every *metricgroups.json so (the build writes
    // extra-metricgroups.json beside the kernel's), a later file's description of a group
    // replacing an earlier one's.
    const JeventsRules jevents = jevents_rules(model.rules);
    if ((jevents == JeventsRules::of_6_12 && name == "metricgroups.json") ||
        (jevents >= JeventsRules::of_7_2 && name.ends_with("metricgroups.json"))) {
      merge_metric_group_descriptions(
          model.metric_group_descriptions,
          parse_metric_group_descriptions(*text, file.string(), model.diagnostics));
      continue;
    }
    const std::string topic = with_topic ? topic_of(name) : std::string();
    std::vector<VendorEvent> file_events =
        parse_vendor_json(*text, file.string(), topic, standard.events, standard.metrics,
                          model.rules, model.diagnostics, model.metrics, model.counters);
    std::move(file_events.begin(), file_events.end(), std::back_inserter(model.events));
  }
}

// One table directory's model: its files under the architecture's standard events.
Expected<VendorModel> load_table(const fs::path& arch_dir, std::string_view directory,
                                 PerfRelease rules) {
  VendorModel model;
  model.arch = arch_dir.filename().string();
  model.directory = std::string(directory);
  model.rules = rules;

  // The architecture standard events: the arch directory's own *.json files. perf keeps none of
  // them in the model's table; 6.12's ArchStdEvent may name their metrics too.
  VendorModel standard;
  standard.rules = rules;
  if (auto std_files = list_json_files(arch_dir)) {
    load_files(*std_files, false, VendorModel(), standard);
  } else {
    standard.diagnostics.push_back(std::move(std_files).error());
  }
  model.diagnostics = std::move(standard.diagnostics);

  auto files = list_json_files(arch_dir / directory);
  if (!files) return unexpected(std::move(files).error());
  load_files(*files, true, standard, model);
  if (jevents_since(rules, JeventsRules::of_7_2)) {
    drop_later_duplicate_metrics(model.metrics, model.diagnostics);
  }
  sort_vendor_metrics(model.metrics, rules);
  sort_vendor_events(model.events, rules);
  // Duplicates: same name and PMU anywhere in the table; the first in table order is perf's.
  std::unordered_map<std::string, std::size_t> first_of;
  for (std::size_t i = 0; i < model.events.size(); ++i) {
    const VendorEvent& event = model.events[i];
    const auto [it, inserted] = first_of.try_emplace(event.name + '\n' + event.pmu, i);
    if (inserted) continue;
    const VendorEvent& earlier = model.events[it->second];
    Diagnostic warning;
    warning.severity = Severity::warning;
    set_id(warning, DiagId::vendor_event_duplicate);
    warning.range = event.location;
    warning.message = "event '" + event.name + "'" +
                      (event.pmu.empty() ? std::string() : " of PMU " + event.pmu) +
                      " is defined twice; the first, at " + earlier.location.file + ":" +
                      std::to_string(earlier.location.line) + ", is used";
    model.diagnostics.push_back(std::move(warning));
  }
  // Duplicate metrics: perf 6.1 matches every metric of a name, so both are used.
  std::unordered_map<std::string, std::size_t> first_metric;
  for (std::size_t i = 0; i < model.metrics.size(); ++i) {
    const VendorMetric& metric = model.metrics[i];
    std::string key = metric.name;
    key += '\n';
    key += metric.pmu;
    const auto [it, inserted] = first_metric.try_emplace(std::move(key), i);
    if (inserted) continue;
    const VendorMetric& earlier = model.metrics[it->second];
    Diagnostic warning;
    warning.severity = Severity::warning;
    set_id(warning, DiagId::vendor_metric_duplicate);
    warning.range = metric.location;
    warning.message =
        fmt::format("metric '{}'{} is defined twice (first at {}:{}); perf uses both", metric.name,
                    metric.pmu.empty() ? std::string() : fmt::format(" of PMU {}", metric.pmu),
                    earlier.location.file, earlier.location.line);
    model.diagnostics.push_back(std::move(warning));
  }
  return model;
}

// perf 7.3's common table (arch/common/common beside the architectures): every model's metrics
// are followed by its metrics (the `Default` groups, CPUs_utilized, ...), as perf searches the
// model's metric table, then the common one. Its events (legacy hardware and cache names,
// software and tool events) stay the grammar's: they are no model's vendor events.
void append_common_metrics(const fs::path& arch_dir, VendorModel& model) {
  if (arch_dir.filename() == "common") return;
  const fs::path common = arch_dir.parent_path() / "common";
  std::error_code error;
  if (!fs::is_directory(common / "common", error)) return;
  auto table = load_table(common, "common", model.rules);
  if (!table) {
    model.diagnostics.push_back(std::move(table).error());
    return;
  }
  for (VendorMetric& metric : table->metrics) model.metrics.push_back(std::move(metric));
  model.diagnostics.insert(model.diagnostics.end(), table->diagnostics.begin(),
                           table->diagnostics.end());
}

}  // namespace

Expected<VendorModel> load_vendor_model(const fs::path& arch_dir, std::string_view directory,
                                        PerfRelease rules) {
  auto model = load_table(arch_dir, directory, rules);
  if (!model) return model;
  if (arch_dir.filename() == "common") {
    // The common table read as a model (a CPU no mapfile row matches): its metrics alone, as
    // perf 7.2+ searches it when it has no model table; its events stay the grammar's.
    model->events.clear();
  } else if (jevents_since(rules, JeventsRules::of_7_2)) {
    append_common_metrics(arch_dir, *model);
  }
  return model;
}

namespace {

// A directory's identity, following symlinks (the walk follows them); nullopt when stat fails.
std::optional<std::pair<dev_t, ino_t>> directory_id(const fs::path& dir) {
  struct stat status {};
  if (::stat(dir.c_str(), &status) != 0) return std::nullopt;
  return std::pair<dev_t, ino_t>(status.st_dev, status.st_ino);
}

// The `sys` directories under `dir` (relative to `root`), in jevents' walk order: the entries
// of each directory in name order, depth first; a `sys` directory is a table, not walked into.
// `ancestors`: the directories walked into on the way here, `dir` last.
void find_sys_directories(const fs::path& root, const fs::path& dir, std::vector<std::string>& out,
                          std::vector<Diagnostic>& diagnostics, int depth,
                          std::vector<std::pair<dev_t, ino_t>>& ancestors) {
  // The kernel's tree is three levels deep (arm64/freescale/imx8mm/sys); a deeper one is not
  // walked further.
  constexpr int kMaxDepth = 8;
  if (depth > kMaxDepth) return;
  std::error_code error;
  std::vector<fs::path> subdirectories;
  for (fs::directory_iterator it(dir, error), end; !error && it != end; it.increment(error)) {
    std::error_code status_error;
    if (it->is_directory(status_error)) subdirectories.push_back(it->path());
  }
  if (error) {
    diagnostics.push_back(make_file_diagnostic(Severity::error, DiagId::vendor_json_unreadable,
                                               dir.string(),
                                               "cannot list the directory: " + error.message()));
    return;
  }
  std::sort(subdirectories.begin(), subdirectories.end(),
            [](const fs::path& a, const fs::path& b) { return a.filename() < b.filename(); });
  for (const fs::path& subdirectory : subdirectories) {
    if (subdirectory.filename() == "sys") {
      out.push_back(subdirectory.lexically_relative(root).generic_string());
      continue;
    }
    // A symlink back to a directory on the way here (`ln -s . loop`) would be walked again at
    // every level below: each such link multiplies the walk. Refused, and said.
    const auto id = directory_id(subdirectory);
    if (id && std::find(ancestors.begin(), ancestors.end(), *id) != ancestors.end()) {
      diagnostics.push_back(make_file_diagnostic(
          Severity::error, DiagId::vendor_json_unreadable, subdirectory.string(),
          "a directory loop (a link to a directory that contains it): not walked"));
      continue;
    }
    if (id) ancestors.push_back(*id);
    find_sys_directories(root, subdirectory, out, diagnostics, depth + 1, ancestors);
    if (id) ancestors.pop_back();
  }
}

}  // namespace

VendorModel load_vendor_sys_tables(const fs::path& arch_dir, PerfRelease rules) {
  VendorModel tables;
  tables.arch = arch_dir.filename().string();
  tables.directory = "sys";
  tables.rules = rules;
  std::error_code error;
  if (!fs::is_directory(arch_dir, error)) return tables;
  std::vector<std::string> directories;
  std::vector<std::pair<dev_t, ino_t>> ancestors;
  if (auto id = directory_id(arch_dir)) ancestors.push_back(*id);
  find_sys_directories(arch_dir, arch_dir, directories, tables.diagnostics, 0, ancestors);
  for (const std::string& directory : directories) {
    auto table = load_table(arch_dir, directory, rules);
    if (!table) {
      tables.diagnostics.push_back(std::move(table).error());
      continue;
    }
    for (VendorEvent& event : table->events) {
      event.system_table = true;
      tables.events.push_back(std::move(event));
    }
    for (VendorMetric& metric : table->metrics) {
      metric.system_table = true;
      tables.metrics.push_back(std::move(metric));
    }
    tables.diagnostics.insert(tables.diagnostics.end(), table->diagnostics.begin(),
                              table->diagnostics.end());
    tables.counters.insert(tables.counters.end(), table->counters.begin(), table->counters.end());
    // perf's describe_metricgroup() is one table, a later file's description of a name replacing
    // an earlier one's.
    for (VendorMetricGroupDescription& description : table->metric_group_descriptions) {
      const auto at = std::lower_bound(tables.metric_group_descriptions.begin(),
                                       tables.metric_group_descriptions.end(), description.name,
                                       [](const VendorMetricGroupDescription& d,
                                          const std::string& name) { return d.name < name; });
      if (at != tables.metric_group_descriptions.end() && at->name == description.name) {
        *at = std::move(description);
      } else {
        tables.metric_group_descriptions.insert(at, std::move(description));
      }
    }
  }
  return tables;
}

PMUCAT_END_NAMESPACE
