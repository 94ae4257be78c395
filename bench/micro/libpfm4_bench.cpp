// libpfm4's in-process encoder on the same kind of event, for the "in-process encode >= 10x
// libpfm4" target (docs/performance.md). libpfm4 is initialised once, for a forced PMU model so the
// result does not depend on the host CPU: $LIBPFM_FORCE_PMU when set, else "spr" (Sapphire Rapids,
// present in libpfm4 4.13). The event strings encode to the same config as pmucat's
// `cpu/event=0x3c,umask=0x1,inv,cmask=3/` (0x380013c) and a plain `cpu/event=0x3c/`.
#include <benchmark/benchmark.h>
#include <perfmon/pfmlib_perf_event.h>

#include <cstdlib>
#include <cstring>
#include <string>

#include "alloc_counter.h"

namespace {

using pmucat::bench::AllocationScope;

// pfm_initialize() result for the whole process; libpfm4 keeps its tables in its own globals.
int initialise_libpfm4() {
  static const int result = [] {
    setenv("LIBPFM_FORCE_PMU", "spr", /*overwrite=*/0);
    return pfm_initialize();
  }();
  return result;
}

void libpfm4_encode(benchmark::State& state, const char* event, bool with_fstr) {
  if (const int status = initialise_libpfm4(); status != PFM_SUCCESS) {
    state.SkipWithError((std::string("pfm_initialize: ") + pfm_strerror(status)).c_str());
    return;
  }
  state.SetLabel(std::string("LIBPFM_FORCE_PMU=") + std::getenv("LIBPFM_FORCE_PMU") + " " + event);
  perf_event_attr attr{};
  std::uint64_t config = 0;
  AllocationScope allocations;
  for (auto _ : state) {
    std::memset(&attr, 0, sizeof attr);
    char* fstr = nullptr;
    pfm_perf_encode_arg_t arg{};
    arg.attr = &attr;
    arg.size = sizeof arg;
    arg.fstr = with_fstr ? &fstr : nullptr;
    const int status =
        pfm_get_os_event_encoding(event, PFM_PLM0 | PFM_PLM3, PFM_OS_PERF_EVENT, &arg);
    if (status != PFM_SUCCESS) {
      state.SkipWithError(
          (std::string("pfm_get_os_event_encoding: ") + pfm_strerror(status)).c_str());
      break;
    }
    std::free(fstr);
    config = attr.config;
    benchmark::DoNotOptimize(config);
  }
  allocations.report(state);
  state.counters["config"] = static_cast<double>(config);
}
BENCHMARK_CAPTURE(libpfm4_encode, inv_cmask, "spr::CPU_CLK_UNHALTED:REF_TSC_P:i=1:c=3", false);
BENCHMARK_CAPTURE(libpfm4_encode, inv_cmask_fstr, "spr::CPU_CLK_UNHALTED:REF_TSC_P:i=1:c=3", true);
BENCHMARK_CAPTURE(libpfm4_encode, plain, "spr::CPU_CLK_UNHALTED:THREAD_P", false);
BENCHMARK_CAPTURE(libpfm4_encode, no_pmu_prefix, "CPU_CLK_UNHALTED:REF_TSC_P:i=1:c=3", false);

}  // namespace
