// Vendor JSON events (docs/performance.md, "Vendor JSON events"): one JSON event name looked up
// on a fresh catalog of the Sapphire Rapids fixture, through the compiled index the build
// generated and through the JSON tree it came from; the model file alone; the whole model
// decoded for a listing. Skipped when the build has no vendor catalog.
#include <benchmark/benchmark.h>
#include <pmucat/catalog.h>
#include <pmucat/vendor_index.h>

#include <string>

#include "alloc_counter.h"

PMUCAT_BEGIN_NAMESPACE
namespace bench {
namespace {

namespace fs = std::filesystem;

const fs::path kDevices = PMUCAT_SOURCE_DIR "/fixtures/sysfs/intel-spr/devices";
constexpr const char* kCpuid = "GenuineIntel-6-8F-8";

// The lookup a one-event encode of a JSON name makes: open, the cpu PMU, find_event.
void vendor_find_event_cold(benchmark::State& state, const fs::path& events_dir) {
  if (events_dir.empty()) {
    state.SkipWithError("no vendor catalog in this build (PMUCAT_PMU_EVENTS_DIR)");
    return;
  }
  AllocationScope allocations;
  for (auto _ : state) {
    auto catalog = Catalog::open(kDevices, VendorOptions{events_dir, kCpuid});
    const Pmu* pmu = catalog ? catalog->find_pmu("cpu") : nullptr;
    const Event* event = pmu == nullptr ? nullptr : pmu->find_event("inst_retired.any");
    if (event == nullptr || !event->vendor) {
      state.SkipWithError("inst_retired.any not found as a JSON event");
      break;
    }
    benchmark::DoNotOptimize(event);
  }
  allocations.report(state);
}

// A bare name, as `pmuencode inst_retired.any` resolves it: every PMU of the tree asked (perf's
// rule), the JSON event found on `cpu` only; the sysfs side of each PMU costs one open of
// events/ (and one listing where it exists).
void vendor_bare_name_cold(benchmark::State& state) {
  const fs::path events_dir = PMUCAT_EVENTS_INDEX_DIR;
  if (events_dir.empty()) {
    state.SkipWithError("no vendor catalog in this build (PMUCAT_PMU_EVENTS_DIR)");
    return;
  }
  AllocationScope allocations;
  for (auto _ : state) {
    auto catalog = Catalog::open(kDevices, VendorOptions{events_dir, kCpuid});
    std::size_t found = 0;
    if (catalog) {
      for (const Pmu& pmu : catalog->pmus()) found += pmu.find_event("inst_retired.any") ? 1 : 0;
    }
    if (found != 1) {
      state.SkipWithError("inst_retired.any is not on exactly one PMU");
      break;
    }
    benchmark::DoNotOptimize(found);
  }
  allocations.report(state);
}

// The model file alone: map it, read its header, look one name up.
void vendor_index_named(benchmark::State& state) {
  const fs::path root = PMUCAT_EVENTS_INDEX_DIR;
  if (root.empty()) {
    state.SkipWithError("no vendor catalog in this build (PMUCAT_PMU_EVENTS_DIR)");
    return;
  }
  for (auto _ : state) {
    auto model = open_vendor_index_model(root, "x86", "sapphirerapids");
    if (!model) {
      state.SkipWithError("no sapphirerapids model in the index");
      break;
    }
    auto events = model->named("inst_retired.any");
    if (!events || events->empty()) {
      state.SkipWithError("inst_retired.any not in the index");
      break;
    }
    benchmark::DoNotOptimize(events->front().terms.data());
  }
}

// Every record decoded: what a listing (pmuls, Pmu::events()) needs of the model.
void vendor_index_whole_model(benchmark::State& state) {
  const fs::path root = PMUCAT_EVENTS_INDEX_DIR;
  if (root.empty()) {
    state.SkipWithError("no vendor catalog in this build (PMUCAT_PMU_EVENTS_DIR)");
    return;
  }
  std::size_t events = 0;
  for (auto _ : state) {
    auto model = open_vendor_index_model(root, "x86", "sapphirerapids");
    if (!model) {
      state.SkipWithError("no sapphirerapids model in the index");
      break;
    }
    auto decoded = model->model();
    if (!decoded) {
      state.SkipWithError("the sapphirerapids model does not decode");
      break;
    }
    events = decoded->events.size();
    benchmark::DoNotOptimize(events);
  }
  state.counters["events"] = static_cast<double>(events);
}

// Every PMU's merged events with the JSON descriptions read: the in-process work of listing the
// whole catalog (what `pmuls --json` with vendor events needs, before formatting).
void vendor_full_listing(benchmark::State& state, const fs::path& events_dir) {
  if (events_dir.empty()) {
    state.SkipWithError("no vendor catalog in this build (PMUCAT_PMU_EVENTS_DIR)");
    return;
  }
  std::size_t events = 0;
  for (auto _ : state) {
    auto catalog = Catalog::open(kDevices, VendorOptions{events_dir, kCpuid});
    if (!catalog) {
      state.SkipWithError("cannot open the fixture");
      break;
    }
    events = 0;
    std::size_t description_bytes = 0;
    for (const Pmu& pmu : catalog->pmus()) {
      for (const Event& event : pmu.events()) {
        ++events;
        if (event.vendor) description_bytes += perf_public_description(*event.vendor).size();
      }
    }
    benchmark::DoNotOptimize(description_bytes);
  }
  state.counters["events"] = static_cast<double>(events);
}

BENCHMARK_CAPTURE(vendor_full_listing, index, fs::path(PMUCAT_EVENTS_INDEX_DIR))
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(vendor_full_listing, json_tree, fs::path(PMUCAT_EVENTS_JSON_DIR))
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(vendor_find_event_cold, index, fs::path(PMUCAT_EVENTS_INDEX_DIR))
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(vendor_find_event_cold, json_tree, fs::path(PMUCAT_EVENTS_JSON_DIR))
    ->Unit(benchmark::kMicrosecond);
BENCHMARK(vendor_bare_name_cold)->Unit(benchmark::kMicrosecond);
BENCHMARK(vendor_index_named)->Unit(benchmark::kMicrosecond);
BENCHMARK(vendor_index_whole_model)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace bench
PMUCAT_END_NAMESPACE
