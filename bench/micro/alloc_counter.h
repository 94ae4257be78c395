// Counts heap allocations made by the whole process, so a benchmark can show that a code path
// does not allocate in its steady state.
//
// alloc_counter.cpp replaces the malloc family and every form of the global operator new/delete,
// so linking it into the benchmark binary is all it takes (allocations inside C libraries such
// as libpfm4 are counted too); the counter is a relaxed atomic and costs a few ns.
//
// Use it like this:
//
//   static void BM_Thing(benchmark::State& state) {
//     Fixture fixture;                                   // warm-up allocations are not counted
//     pmucat::bench::AllocationScope allocations;        // starts counting here
//     for (auto _ : state) benchmark::DoNotOptimize(do_thing(fixture));
//     allocations.report(state);                         // sets counter "allocs_per_iter"
//   }
//
// or read pmucat::bench::allocations() before and after a region yourself.
#pragma once

#include <benchmark/benchmark.h>

#include <cstdint>

#include "pmucat/version.h"

PMUCAT_BEGIN_NAMESPACE
namespace bench {

// Heap allocations (malloc, calloc, realloc, aligned forms, any operator new) since the process
// started.
std::uint64_t allocations() noexcept;

// Bytes those allocations requested.
std::uint64_t allocated_bytes() noexcept;

// Counts the allocations between its construction and report().
class AllocationScope {
 public:
  AllocationScope() noexcept : start_count_(allocations()), start_bytes_(allocated_bytes()) {}

  std::uint64_t count() const noexcept { return allocations() - start_count_; }
  std::uint64_t bytes() const noexcept { return allocated_bytes() - start_bytes_; }

  // Adds "allocs_per_iter" (and "alloc_bytes_per_iter") to the benchmark's counters, averaged
  // over the iterations that ran so far.
  void report(benchmark::State& state) const;

 private:
  std::uint64_t start_count_;
  std::uint64_t start_bytes_;
};

}  // namespace bench
PMUCAT_END_NAMESPACE
