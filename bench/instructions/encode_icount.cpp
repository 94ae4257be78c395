// Encodes one spec N times in a loop, for an instruction counter (callgrind or perf stat) to
// count: bench/instructions/run runs it with N and 2N iterations and divides the difference by N,
// so start-up, catalog warm-up and exit cancel out and what is left is the cost of one encode.
//   pmucat_encode_icount pmucat TREE SPEC ITERATIONS [pmucat|perf]
//   pmucat_encode_icount libpfm4 EVENT ITERATIONS          (only when built with libpfm4)
// Prints the encoded config so a wrong or failed encode is seen, and exits non-zero on failure.
#include <fmt/format.h>
#include <pmucat/encode.h>

#include <charconv>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string_view>

#ifdef PMUCAT_ICOUNT_LIBPFM4
#include <perfmon/pfmlib_perf_event.h>
#endif

namespace {

int usage() {
  std::fputs(
      "usage: pmucat_encode_icount pmucat TREE SPEC ITERATIONS [pmucat|perf]\n"
      "       pmucat_encode_icount libpfm4 EVENT ITERATIONS\n",
      stderr);
  return 2;
}

bool parse_count(std::string_view text, std::uint64_t& count) {
  const char* end = text.data() + text.size();
  const auto [at, error] = std::from_chars(text.data(), end, count);
  return error == std::errc() && at == end;
}

// Keeps the compiler from dropping the loop's results.
void keep(const void* data) {
  asm volatile("" : : "r"(data) : "memory");
}

int run_pmucat(const char* tree, std::string_view spec, std::uint64_t iterations,
               std::string_view semantics) {
  auto catalog = pmucat::Catalog::open(tree);
  if (!catalog) {
    fmt::print(stderr, "cannot open {}: {}\n", tree, catalog.error().message);
    return 1;
  }
  pmucat::EncodeOptions options;
  if (semantics == "perf") {
    options.semantics = pmucat::Profile::perf(pmucat::PerfRelease::v6_1);
  } else if (semantics != "pmucat") {
    return usage();
  }
  pmucat::Encoder encoder(*catalog, options);
  pmucat::Attr attr;
  // The first encode loads what the spec needs from the tree: it is in both runs, so it cancels.
  auto first = encoder.encode_one(spec, attr);
  if (!first) {
    fmt::print(stderr, "cannot encode {}: {}\n", spec, first.error().message);
    return 1;
  }
  for (std::uint64_t i = 0; i < iterations; ++i) {
    auto source = encoder.encode_one(spec, attr);
    keep(&source);
    keep(&attr);
  }
  fmt::print("pmucat {} type={} config={:#x} iterations={}\n", spec, attr.type, attr.config[0],
             iterations);
  return 0;
}

#ifdef PMUCAT_ICOUNT_LIBPFM4
int run_libpfm4(const char* event, std::uint64_t iterations) {
  // A forced PMU model, as bench/micro/libpfm4_bench.cpp does, so the host CPU does not matter.
  setenv("LIBPFM_FORCE_PMU", "spr", /*overwrite=*/0);
  if (const int status = pfm_initialize(); status != PFM_SUCCESS) {
    fmt::print(stderr, "pfm_initialize: {}\n", pfm_strerror(status));
    return 1;
  }
  perf_event_attr attr{};
  for (std::uint64_t i = 0; i <= iterations; ++i) {  // one more: the warm-up, as for pmucat
    std::memset(&attr, 0, sizeof attr);
    pfm_perf_encode_arg_t arg{};
    arg.attr = &attr;
    arg.size = sizeof arg;
    const int status =
        pfm_get_os_event_encoding(event, PFM_PLM0 | PFM_PLM3, PFM_OS_PERF_EVENT, &arg);
    if (status != PFM_SUCCESS) {
      fmt::print(stderr, "pfm_get_os_event_encoding {}: {}\n", event, pfm_strerror(status));
      return 1;
    }
    keep(&attr);
  }
  fmt::print("libpfm4 {} type={} config={:#x} iterations={}\n", event, attr.type,
             static_cast<std::uint64_t>(attr.config), iterations);
  return 0;
}
#endif

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) return usage();
  const std::string_view mode = argv[1];
  std::uint64_t iterations = 0;
  if (mode == "pmucat" && (argc == 5 || argc == 6) && parse_count(argv[4], iterations)) {
    return run_pmucat(argv[2], argv[3], iterations, argc == 6 ? argv[5] : "pmucat");
  }
  if (mode == "libpfm4" && argc == 4 && parse_count(argv[3], iterations)) {
#ifdef PMUCAT_ICOUNT_LIBPFM4
    return run_libpfm4(argv[2], iterations);
#else
    std::fputs("pmucat_encode_icount: built without libpfm4\n", stderr);
    return 77;
#endif
  }
  return usage();
}
