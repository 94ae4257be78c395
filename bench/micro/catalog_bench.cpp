// The catalog against a sysfs tree on disk: open (one directory listing), loading one PMU in
// full, loading every PMU, and the warm event lookup that encoders do per spec.
#include <benchmark/benchmark.h>
#include <pmucat/catalog.h>

#include <string>

#include "alloc_counter.h"
#include "register.h"

PMUCAT_BEGIN_NAMESPACE
namespace bench {
namespace {

namespace fs = std::filesystem;

Catalog open_or_die(const fs::path& devices_dir, benchmark::State& state) {
  auto catalog = Catalog::open(devices_dir);
  if (!catalog) {
    state.SkipWithError(("cannot open " + devices_dir.string()).c_str());
    return Catalog::from_pmus({});
  }
  return std::move(*catalog);
}

std::size_t load_pmu(const Pmu& pmu) {
  return pmu.attributes().diagnostics.size() + pmu.formats().size() + pmu.events().size();
}

void catalog_open(benchmark::State& state, const fs::path& devices_dir) {
  AllocationScope allocations;
  for (auto _ : state) {
    Catalog catalog = open_or_die(devices_dir, state);
    benchmark::DoNotOptimize(catalog.pmus().size());
  }
  allocations.report(state);
}

// Open plus one PMU's attributes, formats and events (with metadata).
void one_pmu_load(benchmark::State& state, const fs::path& devices_dir, const std::string& name) {
  AllocationScope allocations;
  for (auto _ : state) {
    Catalog catalog = open_or_die(devices_dir, state);
    const Pmu* pmu = catalog.find_pmu(name);
    if (pmu == nullptr) {
      state.SkipWithError(("no PMU " + name).c_str());
      break;
    }
    benchmark::DoNotOptimize(load_pmu(*pmu));
  }
  allocations.report(state);
}

// Open plus every PMU loaded in full: what `pmuls --json` does in-process.
void full_load(benchmark::State& state, const fs::path& devices_dir) {
  std::size_t pmus = 0;
  AllocationScope allocations;
  for (auto _ : state) {
    Catalog catalog = open_or_die(devices_dir, state);
    std::size_t loaded = 0;
    for (const Pmu& pmu : catalog.pmus()) loaded += load_pmu(pmu);
    benchmark::DoNotOptimize(loaded);
    pmus = catalog.pmus().size();
  }
  allocations.report(state);
  state.counters["pmus"] = static_cast<double>(pmus);
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(pmus));
}

// Lookup on a PMU whose events are already loaded.
void find_event_warm(benchmark::State& state, const fs::path& devices_dir,
                     const std::string& name) {
  Catalog catalog = open_or_die(devices_dir, state);
  const Pmu* pmu = catalog.find_pmu("cpu");
  if (pmu == nullptr) {
    state.SkipWithError("no cpu PMU");
    return;
  }
  (void)pmu->events();
  AllocationScope allocations;
  for (auto _ : state) {
    const Event* event = pmu->find_event(name);
    if (event == nullptr) state.SkipWithError(("no event " + name).c_str());
    benchmark::DoNotOptimize(event);
  }
  allocations.report(state);
}

// A single named lookup on a fresh catalog: the probe path a one-event encode takes.
void find_event_cold(benchmark::State& state, const fs::path& devices_dir,
                     const std::string& name) {
  AllocationScope allocations;
  for (auto _ : state) {
    Catalog catalog = open_or_die(devices_dir, state);
    const Pmu* pmu = catalog.find_pmu("cpu");
    const Event* event = pmu == nullptr ? nullptr : pmu->find_event(name);
    if (event == nullptr) state.SkipWithError(("no event " + name).c_str());
    benchmark::DoNotOptimize(event);
  }
  allocations.report(state);
}

}  // namespace

void register_catalog_benchmarks(const fs::path& devices_dir) {
  benchmark::RegisterBenchmark("catalog_open", catalog_open, devices_dir)
      ->Unit(benchmark::kMicrosecond);
  for (const char* pmu : {"cpu", "uncore_imc_0", "power"}) {
    benchmark::RegisterBenchmark((std::string("one_pmu_load/") + pmu).c_str(), one_pmu_load,
                                 devices_dir, std::string(pmu))
        ->Unit(benchmark::kMicrosecond);
  }
  benchmark::RegisterBenchmark("full_load", full_load, devices_dir)->Unit(benchmark::kMillisecond);
  for (const char* event : {"mem-loads", "TOPDOWN-RETIRING"}) {
    benchmark::RegisterBenchmark((std::string("find_event_warm/") + event).c_str(), find_event_warm,
                                 devices_dir, std::string(event));
  }
  benchmark::RegisterBenchmark("find_event_cold/mem-loads", find_event_cold, devices_dir,
                               std::string("mem-loads"))
      ->Unit(benchmark::kMicrosecond);
}

}  // namespace bench
PMUCAT_END_NAMESPACE
