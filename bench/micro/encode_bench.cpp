// Steady-state encoding on a warm catalog (the target: at least 10x libpfm4's
// pfm_get_os_event_encoding, and no heap allocation): Encoder::encode_one, the allocation-free
// fast path, beside encode(), which builds EncodedEvents (strings, the canonical perf string).
// The cold, whole-tool-like encode is in cold_encode_bench.cpp.
#include <benchmark/benchmark.h>
#include <pmucat/encode.h>

#include <array>
#include <string>

#include "alloc_counter.h"
#include "register.h"

PMUCAT_BEGIN_NAMESPACE
namespace bench {
namespace {

namespace fs = std::filesystem;

// Typical specs: raw terms with a modifier, an alias plus a user term, an
// uncore alias, a cycles-style alias, and two perf built-in events resolved without a PMU.
constexpr std::array<const char*, 6> kTypicalSpecs = {
    "cpu/event=0x3c,umask=0x1,inv,cmask=3/u",
    "cpu/mem-loads,ldlat=30/",
    "uncore_imc_0/cas_count_read/",
    "cpu/cpu-cycles/",
    "power/energy-pkg/",
    "cpu-clock:u",
};

// A group of 8: PMU terms and aliases, with member and group modifiers. The second
// swaps three members for bare built-in names, which encode() looks up on every PMU first.
constexpr const char* kGroupOf8 =
    "{cpu/event=0x3c/,cpu/event=0xc0,umask=0x1/,cpu/mem-loads,ldlat=30/,cpu/cpu-cycles/,"
    "cpu/event=0x2e,umask=0x41/k,cpu/event=0xc4/,cpu/event=0xc5/p,cpu/event=0xd0,umask=0x81/}:uS";
constexpr const char* kGroupOf8Names =
    "{cpu/event=0x3c/,cpu/event=0xc0,umask=0x1/,cpu/mem-loads,ldlat=30/,cpu/cpu-cycles/,"
    "cpu/event=0x2e,umask=0x41/k,cycles,instructions,cpu-clock}:uS";

void encoder_warm(benchmark::State& state, const fs::path& devices_dir, const std::string& spec,
                  Profile semantics) {
  auto catalog = Catalog::open(devices_dir);
  if (!catalog) {
    state.SkipWithError("cannot open the tree");
    return;
  }
  EncodeOptions options;
  options.semantics = semantics;
  Encoder encoder(*catalog, options);
  Attr attr;
  if (auto first = encoder.encode_one(spec, attr); !first) {  // warms the catalog and buffers
    state.SkipWithError(("cannot encode " + spec + ": " + first.error().message).c_str());
    return;
  }
  AllocationScope allocations;
  for (auto _ : state) {
    auto source = encoder.encode_one(spec, attr);
    benchmark::DoNotOptimize(source);
    benchmark::DoNotOptimize(attr.config);
  }
  allocations.report(state);
  state.SetItemsProcessed(state.iterations());
}

void encode_warm(benchmark::State& state, const fs::path& devices_dir, const std::string& spec) {
  auto catalog = Catalog::open(devices_dir);
  if (!catalog || !encode(*catalog, spec)) {
    state.SkipWithError(("cannot encode " + spec).c_str());
    return;
  }
  AllocationScope allocations;
  for (auto _ : state) {
    auto events = encode(*catalog, spec);
    benchmark::DoNotOptimize(events);
  }
  allocations.report(state);
  state.SetItemsProcessed(state.iterations());
}

// Several specs in turn on one Encoder, as a tool encoding a user's event list would.
void encoder_warm_mixed(benchmark::State& state, const fs::path& devices_dir) {
  auto catalog = Catalog::open(devices_dir);
  if (!catalog) {
    state.SkipWithError("cannot open the tree");
    return;
  }
  Encoder encoder(*catalog);
  Attr attr;
  for (const char* spec : kTypicalSpecs) {
    if (!encoder.encode_one(spec, attr)) {
      state.SkipWithError((std::string("cannot encode ") + spec).c_str());
      return;
    }
  }
  AllocationScope allocations;
  for (auto _ : state) {
    for (const char* spec : kTypicalSpecs) {
      auto source = encoder.encode_one(spec, attr);
      benchmark::DoNotOptimize(source);
    }
  }
  allocations.report(state);
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(kTypicalSpecs.size()));
}

}  // namespace

void register_warm_encode_benchmarks(const fs::path& devices_dir) {
  for (const char* spec : kTypicalSpecs) {
    benchmark::RegisterBenchmark((std::string("encoder_warm/") + spec).c_str(), encoder_warm,
                                 devices_dir, std::string(spec), Profile::pmucat());
  }
  benchmark::RegisterBenchmark(
      "encoder_warm_perf61/cpu/event=0x3c,umask=0x1,inv,cmask=3/u", encoder_warm, devices_dir,
      std::string("cpu/event=0x3c,umask=0x1,inv,cmask=3/u"), Profile::perf(PerfRelease::v6_1));
  benchmark::RegisterBenchmark("encoder_warm_mixed", encoder_warm_mixed, devices_dir);
  // A group of 8 events (sysfs terms, aliases, built-in names) with group modifiers,
  // through encode() (a group stands for several attrs, so encode_one() refuses it).
  benchmark::RegisterBenchmark("encode_warm_group8", encode_warm, devices_dir,
                               std::string(kGroupOf8));
  benchmark::RegisterBenchmark("encode_warm_group8_builtin_names", encode_warm, devices_dir,
                               std::string(kGroupOf8Names));
  for (const char* spec : kTypicalSpecs) {
    benchmark::RegisterBenchmark((std::string("encode_warm/") + spec).c_str(), encode_warm,
                                 devices_dir, std::string(spec));
  }
}

}  // namespace bench
PMUCAT_END_NAMESPACE
