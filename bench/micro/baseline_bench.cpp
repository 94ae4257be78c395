// Calibration of the allocation counter: an empty loop shows what the harness itself allocates
// while a benchmark runs (spread over its iterations), one new/delete per iteration must show 1.
#include <benchmark/benchmark.h>

#include <memory>

#include "alloc_counter.h"

namespace {

using pmucat::bench::AllocationScope;

void alloc_counter_empty_loop(benchmark::State& state) {
  AllocationScope allocations;
  for (auto _ : state) benchmark::ClobberMemory();
  allocations.report(state);
}
BENCHMARK(alloc_counter_empty_loop);

void alloc_counter_one_new(benchmark::State& state) {
  AllocationScope allocations;
  for (auto _ : state) {
    auto value = std::make_unique<int>(1);
    benchmark::DoNotOptimize(value.get());
  }
  allocations.report(state);
}
BENCHMARK(alloc_counter_one_new);

}  // namespace
