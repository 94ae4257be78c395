// pmucat_bench: the Google Benchmark flags, plus
//   --tree=DIR          the sysfs tree to read (also $PMUCAT_BENCH_TREE); default: one made by
//                       bench/gen-tree.py in a temporary directory
//   --tree-factor=N     the size factor for that generated tree (default 1)
#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include <cstdlib>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include "alloc_counter.h"
#include "bench_tree.h"
#include "register.h"

namespace {

struct Options {
  std::string tree;
  std::string factor = "1";
  std::vector<char*> benchmark_args;  // everything else, for benchmark::Initialize
};

Options split_arguments(int argc, char** argv) {
  Options options;
  if (const char* from_env = std::getenv("PMUCAT_BENCH_TREE")) options.tree = from_env;
  for (int i = 0; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg.starts_with("--tree=")) {
      options.tree = arg.substr(7);
    } else if (arg.starts_with("--tree-factor=")) {
      options.factor = arg.substr(14);
    } else {
      options.benchmark_args.push_back(argv[i]);
    }
  }
  return options;
}

// The allocation counts are only worth reporting if the counter sees both ways in.
bool allocation_counter_works() {
  const pmucat::bench::AllocationScope scope;
  auto* from_new = new int(1);
  benchmark::DoNotOptimize(from_new);
  delete from_new;
  void* from_malloc = std::malloc(16);
  benchmark::DoNotOptimize(from_malloc);
  std::free(from_malloc);
  return scope.count() == 2;
}

}  // namespace

int main(int argc, char** argv) {
  if (!allocation_counter_works()) {
    fmt::print(stderr, "pmucat_bench: the allocation counter does not count new and malloc\n");
    return 1;
  }
  Options options = split_arguments(argc, argv);
  int benchmark_argc = static_cast<int>(options.benchmark_args.size());
  benchmark::Initialize(&benchmark_argc, options.benchmark_args.data());
  if (benchmark::ReportUnrecognizedArguments(benchmark_argc, options.benchmark_args.data())) {
    return 2;
  }

  const pmucat::bench::BenchTree tree =
      pmucat::bench::resolve_bench_tree(options.tree, options.factor);
  fmt::print(stderr, "pmucat_bench: {}\n", tree.origin);
  benchmark::AddCustomContext("pmucat_tree", tree.origin);

  pmucat::bench::register_catalog_benchmarks(tree.devices_dir);
  pmucat::bench::register_encode_benchmarks(tree.devices_dir);
  pmucat::bench::register_warm_encode_benchmarks(tree.devices_dir);
  pmucat::bench::register_perfdata_benchmarks();

  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  if (!tree.generated.empty()) {
    std::error_code ignored;
    std::filesystem::remove_all(tree.generated, ignored);
  }
  return 0;
}
