// Metric evaluation (docs/performance.md, "Metric evaluation"): every metric of the Sapphire
// Rapids model of the build's perf 6.1 tables evaluated on one set of counts (every event any
// metric names, counted): with the expressions parsed once (MetricEvaluator) and one-off
// (evaluate_metrics: parse and evaluate). Skipped when the build has no vendor JSON tree.
#include <benchmark/benchmark.h>
#include <pmucat/catalog.h>
#include <pmucat/metric_eval.h>

#include <set>
#include <string>

#include "alloc_counter.h"

PMUCAT_BEGIN_NAMESPACE
namespace bench {
namespace {

namespace fs = std::filesystem;

const fs::path kDevices = PMUCAT_SOURCE_DIR "/fixtures/sysfs/intel-spr/devices";
constexpr const char* kCpuid = "GenuineIntel-6-8F-8";

struct Model {
  std::optional<Catalog> catalog;
  Counts counts;
  EvalOptions options;
  std::size_t events = 0;
};

// The model's metrics and counts for every id of their expressions that is not a metric.
Model load_model() {
  Model model;
  const fs::path json_dir = PMUCAT_EVENTS_JSON_DIR;
  if (json_dir.empty()) {
    return model;
  }
  auto catalog = Catalog::open(kDevices, VendorOptions{json_dir, kCpuid});
  if (!catalog) {
    return model;
  }
  model.catalog.emplace(std::move(*catalog));
  std::set<std::string> metric_names;
  for (const VendorMetric& metric : model.catalog->vendor_metrics()) {
    std::string lower = metric.name;
    for (char& c : lower) {
      c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
    metric_names.insert(lower);
  }
  std::set<std::string> ids;
  for (const VendorMetric& metric : model.catalog->vendor_metrics()) {
    const auto expr = metric_expr::parse(metric.expr);
    if (!expr) {
      continue;
    }
    for (const metric_expr::Node& node : expr->nodes) {
      if (node.kind != metric_expr::NodeKind::id &&
          node.kind != metric_expr::NodeKind::source_count) {
        continue;
      }
      std::string lower = node.name;
      for (char& c : lower) {
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      }
      if (!metric_names.contains(lower)) {
        ids.insert(node.name);
      }
    }
  }
  std::uint64_t value = 1'000'003;
  for (const std::string& id : ids) {
    Count count;
    count.event = id;
    count.value = static_cast<double>(value);
    count.enabled = 2'000'000;
    count.running = 1'000'000 + value % 1'000'000;
    value = value * 7 + 13;
    model.counts.add(std::move(count));
  }
  model.events = ids.size();
  model.options.literals[metric_expr::Literal::smt_on] = 1;
  model.options.literals[metric_expr::Literal::num_cpus] = 224;
  model.options.literals[metric_expr::Literal::num_cores] = 112;
  model.options.literals[metric_expr::Literal::num_packages] = 2;
  model.options.literals[metric_expr::Literal::num_dies] = 2;
  model.options.literals[metric_expr::Literal::core_wide] = 1;
  model.options.literals[metric_expr::Literal::system_tsc_freq] = 2e9;
  return model;
}

void report(benchmark::State& state, const Model& model, const std::vector<MetricValue>& values) {
  std::size_t computed = 0;
  for (const MetricValue& value : values) {
    computed += value.computed ? 1 : 0;
  }
  state.counters["metrics"] = static_cast<double>(values.size());
  state.counters["computed"] = static_cast<double>(computed);
  state.counters["events"] = static_cast<double>(model.events);
}

void metrics_evaluate_prepared(benchmark::State& state) {
  const Model model = load_model();
  if (!model.catalog || model.catalog->vendor_metrics().empty()) {
    state.SkipWithError("no vendor JSON tree with metrics in this build (PMUCAT_PMU_EVENTS_DIR)");
    return;
  }
  const MetricEvaluator evaluator(model.catalog->vendor_metrics());
  std::vector<MetricValue> values;
  AllocationScope allocations;
  for (auto _ : state) {
    values = evaluator.evaluate(model.counts, model.options);
    benchmark::DoNotOptimize(values.data());
  }
  allocations.report(state);
  report(state, model, values);
}
BENCHMARK(metrics_evaluate_prepared)->Unit(benchmark::kMicrosecond);

void metrics_evaluate_one_off(benchmark::State& state) {
  const Model model = load_model();
  if (!model.catalog || model.catalog->vendor_metrics().empty()) {
    state.SkipWithError("no vendor JSON tree with metrics in this build (PMUCAT_PMU_EVENTS_DIR)");
    return;
  }
  std::vector<MetricValue> values;
  for (auto _ : state) {
    values = evaluate_metrics(model.catalog->vendor_metrics(), model.counts, model.options);
    benchmark::DoNotOptimize(values.data());
  }
  report(state, model, values);
}
BENCHMARK(metrics_evaluate_one_off)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace bench
PMUCAT_END_NAMESPACE
