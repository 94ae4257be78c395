// Metric expansion against perf 6.1: for x86 models of the events dir's mapfile, `perf stat -vv
// -M NAME true` with PERF_CPUID naming the model and a tree made for the model's events
// bind-mounted over /sys/bus/event_source/devices; every "Parsing metric events '...'" line perf
// prints against pmuencode's expansion (expand_metric_table over the catalog's metrics, with the
// host's literals, as perf reads them). CI: a seeded sample of metrics per model; the full run
// (every metric of every model): PMUCAT_METRIC_DIFF_ALL=1 (docs/testing.md). Skipped without
// root, perf or an events dir.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <future>
#include <mutex>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "diff_env.h"
#include "perf_oracle.h"
#include "pmucat/catalog.h"
#include "pmucat/encode.h"
#include "pmucat/metrics.h"
#include "pmucat/vendor_events.h"
#include "support/scratch_dir.h"
#include "vendor_tree.h"

namespace pmucat::differential {
namespace {
namespace fs = std::filesystem;

bool all_metrics() {
  return full_run("PMUCAT_METRIC_DIFF_ALL");
}

unsigned metrics_per_model() {
  return static_cast<unsigned>(env_number("PMUCAT_METRIC_DIFF_COUNT", 3));
}

std::string shell_quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\'') {
      out += "'\\''";
    } else {
      out.push_back(c);
    }
  }
  out += "'";
  return out;
}

struct PerfMetricRun {
  std::vector<std::string> lists;  // "Parsing metric events" strings, in order
  bool failed = false;             // perf printed an error (cannot find / parse error)
  std::string output;
};

PerfMetricRun run_perf_metric(const fs::path& devices, const std::string& cpuid,
                              const std::string& perf, const std::string& names) {
  std::string command = fmt::format(
      "cd /tmp && PERF_CPUID={} timeout 60 unshare -m bash -c 'mount --bind \"$0\" "
      "/sys/bus/event_source/devices || exit 99; exec \"$@\"' {} {} stat -vv -M {} true 2>&1",
      shell_quote(cpuid), shell_quote(devices.string()), shell_quote(perf), shell_quote(names));
  PerfMetricRun run;
  FILE* pipe = ::popen(command.c_str(), "r");
  if (pipe == nullptr) {
    run.failed = true;
    return run;
  }
  std::array<char, 65536> buffer{};
  while (std::fgets(buffer.data(), static_cast<int>(buffer.size()), pipe) != nullptr) {
    run.output += buffer.data();
  }
  ::pclose(pipe);
  std::istringstream lines(run.output);
  std::string line;
  constexpr std::string_view kPrefix = "Parsing metric events '";
  while (std::getline(lines, line)) {
    if (line.rfind(kPrefix, 0) == 0 && line.size() > kPrefix.size() && line.back() == '\'') {
      run.lists.push_back(line.substr(kPrefix.size(), line.size() - kPrefix.size() - 1));
    }
    if (line.find("Cannot find metric or group") != std::string::npos ||
        line.find("event syntax error") != std::string::npos ||
        line.find("recursion detected") != std::string::npos) {
      run.failed = true;
    }
  }
  return run;
}

std::string join(const std::vector<std::string>& lists) {
  std::string out;
  for (const auto& l : lists) {
    if (!out.empty()) out += " | ";
    out += l;
  }
  return out;
}

// The model's metrics read from its JSON files in perf 6.1's table order (jevents.py's sort key:
// description present, topic, event name, PMU, metric name), to check the catalog's order.
struct JsonMetric {
  std::string name, expr, group, constraint, unit, file, topic, event_name, pmu;
  bool has_desc = false;
};
std::vector<JsonMetric> load_json_metrics(const fs::path& dir) {
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.is_regular_file() && entry.path().extension() == ".json")
      files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  std::vector<JsonMetric> out;
  for (const auto& file : files) {
    std::ifstream in(file);
    const auto doc = nlohmann::json::parse(in, nullptr, false);
    if (!doc.is_array()) continue;
    std::string fname = file.filename().string();
    std::string topic;
    if (fname.size() >= 12 && fname.compare(fname.size() - 12, 12, "metrics.json") == 0) {
      topic = "metrics";
    } else {
      topic = fname.substr(0, fname.size() - 5);
      std::replace(topic.begin(), topic.end(), '-', ' ');
    }
    for (const auto& o : doc) {
      if (!o.is_object() || !o.contains("MetricName")) continue;
      auto get = [&](const char* k) {
        return o.contains(k) && o[k].is_string() ? o[k].get<std::string>() : std::string();
      };
      JsonMetric m;
      m.name = get("MetricName");
      m.expr = get("MetricExpr");
      m.group = get("MetricGroup");
      m.constraint = get("MetricConstraint");
      m.unit = get("ScaleUnit");
      m.file = file.string();
      m.topic = topic;
      m.event_name = get("EventName");
      for (char& c : m.event_name)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      const std::string unit = get("Unit");
      if (!unit.empty())
        m.pmu = unit == "cpu_core" || unit == "cpu_atom" ? unit : fmt::format("uncore_{}", unit);
      m.has_desc = o.contains("BriefDescription") || !unit.empty();
      out.push_back(std::move(m));
    }
  }
  std::stable_sort(out.begin(), out.end(), [](const JsonMetric& a, const JsonMetric& b) {
    return std::tie(a.has_desc, a.topic, a.event_name, a.pmu, a.name) <
           std::tie(b.has_desc, b.topic, b.event_name, b.pmu, b.name);
  });
  return out;
}

class MetricModel : public ::testing::TestWithParam<std::string> {};

TEST_P(MetricModel, ExpansionMatchesPerf) {
  const std::string directory = GetParam();
  const auto mapfile = read_x86_mapfile();
  if (!mapfile)
    GTEST_SKIP() << "no vendor events dir (x86/mapfile.csv) at '" << events_dir() << "'";
  OracleOptions options = OracleOptions::from_environment();
  if (auto why = oracle_unavailable(options)) GTEST_SKIP() << "perf oracle unavailable: " << *why;
  const auto row = std::find_if(mapfile->rows.begin(), mapfile->rows.end(),
                                [&](const MapfileRow& r) { return r.directory == directory; });
  ASSERT_NE(row, mapfile->rows.end());
  const auto cpuid = x86_cpuid_for_row(*mapfile, *row);
  ASSERT_TRUE(cpuid.has_value());
  auto model = load_vendor_model(events_dir() / "x86", directory, oracle_perf_version());
  ASSERT_TRUE(model.has_value()) << model.error().message;
  const VendorTree tree = make_vendor_tree(model->events, vendor_of_cpuid(*cpuid));
  const testing::ScratchDir scratch("metrics");
  const fs::path devices = scratch / "devices";
  write_vendor_tree(tree, devices);
  auto catalog = Catalog::open(
      devices, VendorOptions{catalog_events_dir(), *cpuid, {}, oracle_perf_version()});
  ASSERT_TRUE(catalog.has_value()) << catalog.error().message;
  const auto table = metric_definitions(*catalog);
  // The catalog's metrics in perf's table order: the same names and expressions, in the same
  // order, as jevents.py's sort of the model's JSON gives.
  {
    const auto json_metrics = load_json_metrics(events_dir() / "x86" / directory);
    std::vector<std::string> from_json;
    std::vector<std::string> from_catalog;
    for (const auto& m : json_metrics) from_json.push_back(fmt::format("{} = {}", m.name, m.expr));
    for (const auto& m : table) from_catalog.push_back(fmt::format("{} = {}", m.name, m.expr));
    EXPECT_EQ(from_catalog, from_json) << directory;
  }
  if (table.empty()) GTEST_SKIP() << directory << ": no metrics";

  std::vector<std::string> names;
  for (const auto& m : table) {
    if (!m.expr.empty() &&
        std::find(names.begin(), names.end(), std::string(m.name)) == names.end()) {
      names.emplace_back(m.name);
    }
  }
  if (!all_metrics()) {
    std::uint64_t h = seed();
    for (char c : directory) h = h * 1099511628211ULL ^ static_cast<unsigned char>(c);
    std::mt19937_64 rng(h);
    std::shuffle(names.begin(), names.end(), rng);
    if (names.size() > metrics_per_model()) names.resize(metrics_per_model());
    // One metric group too: the whole TopdownL1 where the model has it.
    for (const auto& m : table) {
      if (metric_matches(m, "TopdownL1")) {
        names.emplace_back("TopdownL1");
        break;
      }
    }
  }

  MetricExpandOptions expand_options;
  expand_options.literals = host_metric_literals();
  expand_options.nmi_watchdog = host_nmi_watchdog();

  std::vector<std::future<PerfMetricRun>> runs;
  std::vector<PerfMetricRun> results(names.size());
  const unsigned workers = std::max(1U, options.workers);
  for (std::size_t begin = 0; begin < names.size(); begin += workers) {
    std::vector<std::future<PerfMetricRun>> batch;
    for (std::size_t i = begin; i < std::min(names.size(), begin + workers); ++i) {
      batch.push_back(
          std::async(std::launch::async, run_perf_metric, devices, *cpuid, options.perf, names[i]));
    }
    for (std::size_t i = 0; i < batch.size(); ++i) results[begin + i] = batch[i].get();
  }

  EncodeOptions encode_options;
  encode_options.semantics = oracle_semantics();
  encode_options.tool = Tool::stat;
  std::size_t equal = 0;
  std::size_t perf_stopped = 0;  // of `equal`: perf printed a prefix of pmucat's lists
  std::size_t both_reject = 0;
  std::size_t attrs_checked = 0;
  std::vector<std::string> failures;
  for (std::size_t i = 0; i < names.size(); ++i) {
    const auto ours = expand_metric_table(table, names[i], expand_options);
    const PerfMetricRun& perf = results[i];
    if (!ours) {
      if (perf.lists.empty() && perf.failed) {
        ++both_reject;
      } else {
        failures.push_back(fmt::format("{}: pmucat rejects ({}), perf: {}", names[i],
                                       ours.error().message, join(perf.lists)));
      }
      continue;
    }
    const auto& lists = ours->event_lists;
    // perf stops at the first list whose events it cannot parse (quietly: perf stat 6.1 then
    // runs its default events): a shorter list is agreement when pmucat's encoder rejects the
    // last list perf printed too.
    const bool prefix = !perf.lists.empty() && perf.lists.size() < lists.size() &&
                        std::equal(perf.lists.begin(), perf.lists.end(), lists.begin()) &&
                        !encode(*catalog, perf.lists.back(), encode_options).has_value();
    if (perf.lists == lists || prefix) {
      ++equal;
      if (perf.lists != lists) ++perf_stopped;
      // The attrs: every distinct attr perf printed (it prints each before opening it, and
      // stops at a failing group) is one pmucat encodes for these lists.
      const PerfResult printed = parse_perf_output(perf.output);
      if (printed.attrs.empty()) continue;
      auto encoded = encode_metrics(*catalog, *ours, encode_options);
      // A list pmucat cannot encode is one perf fails to parse (it then runs its default
      // events, whose attrs are not the metric's): nothing to compare.
      if (!encoded) continue;
      std::vector<AttrWords> mine;
      for (const auto& ev : encoded->events) {
        mine.push_back(
            AttrWords{ev.attr.type, {ev.attr.config[0], ev.attr.config[1], ev.attr.config[2], 0}});
      }
      for (const auto& words : printed.attrs) {
        if (std::find(mine.begin(), mine.end(), words) == mine.end()) {
          failures.push_back(fmt::format("{}: perf opens {} which pmucat does not encode", names[i],
                                         to_string(words)));
        } else {
          ++attrs_checked;
        }
      }
    } else {
      failures.push_back(fmt::format(
          "{}:\n    perf:   {}\n    pmucat: {}", names[i],
          perf.failed && perf.lists.empty() ? "rejected" : join(perf.lists), join(lists)));
    }
  }
  std::printf(
      "[ metrics  ] %s (%s): %zu names, %zu equal (%zu where perf stopped early), %zu rejected by "
      "both, %zu differ; %zu attrs equal\n",
      directory.c_str(), cpuid->c_str(), names.size(), equal, perf_stopped, both_reject,
      failures.size(), attrs_checked);
  std::string report;
  for (const auto& f : failures) report += fmt::format("  {}\n", f);
  EXPECT_TRUE(failures.empty()) << directory << " (" << *cpuid << "): " << failures.size()
                                << " differences (seed " << seed() << "):\n"
                                << report;
}

INSTANTIATE_TEST_SUITE_P(MetricDiff, MetricModel, ::testing::ValuesIn(model_directories()),
                         [](const ::testing::TestParamInfo<std::string>& param_info) {
                           std::string name = param_info.param;
                           for (char& c : name)
                             c = std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
                           return name;
                         });

}  // namespace
}  // namespace pmucat::differential
