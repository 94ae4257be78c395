// Metric expressions: parsing a TopDown-style expression, evaluating a parsed one on
// a set of counts, and computing its ids in perf's hashmap order. Each reports its heap
// allocations per iteration.
#include <benchmark/benchmark.h>
#include <pmucat/metric_expr.h>

#include <optional>
#include <string>
#include <string_view>

#include "alloc_counter.h"

namespace {

using pmucat::bench::AllocationScope;
namespace mx = pmucat::metric_expr;

// Our own expression in the shape of a TopDown level-1 metric: a conditional on #smt_on,
// d_ratio, min/max and @-escaped event names.
constexpr std::string_view kTopdownLike =
    "100 * (1 - (cpu@UOPS_ISSUED.ANY@ - cpu@UOPS_RETIRED.RETIRE_SLOTS@ + 4 * "
    "(cpu@INT_MISC.RECOVERY_CYCLES_ANY@ / 2 if #smt_on else cpu@INT_MISC.RECOVERY_CYCLES@)) / "
    "(4 * (cpu@CPU_CLK_UNHALTED.THREAD_ANY@ / 2 if #smt_on else cpu@CPU_CLK_UNHALTED.THREAD@)))"
    " + min(d_ratio(cpu@IDQ_UOPS_NOT_DELIVERED.CORE@, 4 * cpu@CPU_CLK_UNHALTED.THREAD@), 1)";

mx::Context bench_context() {
  mx::Context context;
  context.lookup = [](std::string_view name) -> std::optional<mx::IdValue> {
    return mx::IdValue{static_cast<double>(name.size()) * 1000.0 + 7.0, 1};
  };
  context.literals[mx::Literal::smt_on] = 1;
  return context;
}

void metric_expr_parse(benchmark::State& state) {
  AllocationScope allocations;
  for (auto _ : state) {
    auto expr = mx::parse(kTopdownLike);
    if (!expr) state.SkipWithError("parse failed");
    benchmark::DoNotOptimize(expr);
  }
  allocations.report(state);
}
BENCHMARK(metric_expr_parse);

void metric_expr_evaluate(benchmark::State& state) {
  auto expr = mx::parse(kTopdownLike);
  if (!expr) {
    state.SkipWithError("parse failed");
    return;
  }
  const mx::Context context = bench_context();
  AllocationScope allocations;
  for (auto _ : state) {
    mx::Result result = mx::evaluate(*expr, context);
    if (!result.ok()) state.SkipWithError("evaluate failed");
    benchmark::DoNotOptimize(result);
  }
  allocations.report(state);
}
BENCHMARK(metric_expr_evaluate);

void metric_expr_parse_and_evaluate(benchmark::State& state) {
  const mx::Context context = bench_context();
  AllocationScope allocations;
  for (auto _ : state) {
    auto expr = mx::parse(kTopdownLike);
    if (!expr) state.SkipWithError("parse failed");
    mx::Result result = mx::evaluate(*expr, context);
    benchmark::DoNotOptimize(result);
  }
  allocations.report(state);
}
BENCHMARK(metric_expr_parse_and_evaluate);

void metric_expr_ids(benchmark::State& state) {
  auto expr = mx::parse(kTopdownLike);
  if (!expr) {
    state.SkipWithError("parse failed");
    return;
  }
  const mx::Context context = bench_context();
  AllocationScope allocations;
  for (auto _ : state) {
    auto ids = mx::compute_ids(*expr, context.literals);
    if (!ids) state.SkipWithError("compute_ids failed");
    benchmark::DoNotOptimize(ids);
  }
  allocations.report(state);
}
BENCHMARK(metric_expr_ids);

}  // namespace
