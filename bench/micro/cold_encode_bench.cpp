// Encoding as a one-shot tool does it (a fresh catalog each time: open, load what the spec
// needs, encode), and decoding config words back on a warm PMU. The steady-state encode with
// a warm catalog is in encode_bench.cpp.
#include <benchmark/benchmark.h>
#include <pmucat/decode.h>
#include <pmucat/encode.h>

#include <array>
#include <string>

#include "alloc_counter.h"
#include "register.h"

PMUCAT_BEGIN_NAMESPACE
namespace bench {
namespace {

namespace fs = std::filesystem;

void cold_encode(benchmark::State& state, const fs::path& devices_dir, const std::string& spec) {
  AllocationScope allocations;
  for (auto _ : state) {
    auto catalog = Catalog::open(devices_dir);
    if (!catalog) {
      state.SkipWithError("cannot open the tree");
      break;
    }
    auto events = encode(*catalog, spec);
    if (!events) {
      state.SkipWithError(("cannot encode " + spec).c_str());
      break;
    }
    benchmark::DoNotOptimize(events->front().attr.config);
  }
  allocations.report(state);
}

void decode_warm(benchmark::State& state, const fs::path& devices_dir, const std::string& pmu_name,
                 ConfigWords config) {
  auto catalog = Catalog::open(devices_dir);
  const Pmu* pmu = catalog ? catalog->find_pmu(pmu_name) : nullptr;
  if (pmu == nullptr) {
    state.SkipWithError(("no PMU " + pmu_name).c_str());
    return;
  }
  (void)pmu->formats();
  (void)pmu->events();
  AllocationScope allocations;
  for (auto _ : state) {
    Decoded decoded = decode(*pmu, config);
    benchmark::DoNotOptimize(decoded);
  }
  allocations.report(state);
}

}  // namespace

void register_encode_benchmarks(const fs::path& devices_dir) {
  const std::array<const char*, 4> specs = {"cpu/event=0x3c,umask=0x1,inv,cmask=3/u",
                                            "cpu/mem-loads,ldlat=30/pp",
                                            "uncore_imc_0/cas_count_read/", "power/energy-pkg/"};
  for (const char* spec : specs) {
    benchmark::RegisterBenchmark((std::string("cold_encode/") + spec).c_str(), cold_encode,
                                 devices_dir, std::string(spec))
        ->Unit(benchmark::kMicrosecond);
  }
  // event=0x3c,umask=0x1,inv,cmask=3 and mem-loads (event=0xcd,umask=0x1 + ldlat=3 in config1).
  benchmark::RegisterBenchmark("decode_warm/cpu_terms", decode_warm, devices_dir,
                               std::string("cpu"), ConfigWords{0x380013c, 0, 0, 0});
  benchmark::RegisterBenchmark("decode_warm/cpu_mem_loads", decode_warm, devices_dir,
                               std::string("cpu"), ConfigWords{0x1cd, 3, 0, 0});
}

}  // namespace bench
PMUCAT_END_NAMESPACE
