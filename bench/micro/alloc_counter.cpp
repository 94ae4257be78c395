// Counts every heap allocation of the process: the malloc family is replaced by counting
// wrappers around glibc's own allocator (so allocations made inside C libraries such as
// libpfm4 are seen too), and every form of operator new/delete goes through them.
#include "alloc_counter.h"

#include <malloc.h>

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <new>

#include "pmucat/version.h"

// glibc's allocator under its internal names: what the replacements forward to.
extern "C" {
void* __libc_malloc(std::size_t size);
void* __libc_calloc(std::size_t count, std::size_t size);
void* __libc_realloc(void* memory, std::size_t size);
void* __libc_memalign(std::size_t alignment, std::size_t size);
void __libc_free(void* memory);
}

PMUCAT_BEGIN_NAMESPACE
namespace bench {
namespace {

// The one piece of process-wide mutable state in the benchmarks: malloc has no other place to
// record into.
std::atomic<std::uint64_t> allocation_count{0};
std::atomic<std::uint64_t> allocation_bytes{0};

void count(std::size_t size) noexcept {
  allocation_count.fetch_add(1, std::memory_order_relaxed);
  allocation_bytes.fetch_add(size, std::memory_order_relaxed);
}

void* allocate_aligned(std::size_t size, std::size_t alignment) noexcept {
  count(size);
  if (alignment <= alignof(std::max_align_t)) return __libc_malloc(size);
  return __libc_memalign(alignment, size);
}

void* allocate_or_throw(std::size_t size, std::size_t alignment) {
  void* memory = allocate_aligned(size == 0 ? 1 : size, alignment);
  if (memory == nullptr) throw std::bad_alloc();
  return memory;
}

}  // namespace

std::uint64_t allocations() noexcept {
  return allocation_count.load(std::memory_order_relaxed);
}

std::uint64_t allocated_bytes() noexcept {
  return allocation_bytes.load(std::memory_order_relaxed);
}

void AllocationScope::report(benchmark::State& state) const {
  const auto iterations = static_cast<double>(state.iterations());
  if (iterations == 0) return;
  state.counters["allocs_per_iter"] = static_cast<double>(count()) / iterations;
  state.counters["alloc_bytes_per_iter"] = static_cast<double>(bytes()) / iterations;
}

}  // namespace bench
PMUCAT_END_NAMESPACE

using pmucat::bench::allocate_aligned;
using pmucat::bench::allocate_or_throw;

// ---- the malloc family ----------------------------------------------------------------------

extern "C" {

void* malloc(std::size_t size) noexcept {
  return allocate_aligned(size, 1);
}

void* calloc(std::size_t count, std::size_t size) noexcept {
  pmucat::bench::count(count * size);
  return __libc_calloc(count, size);
}

void* realloc(void* memory, std::size_t size) noexcept {
  pmucat::bench::count(size);
  return __libc_realloc(memory, size);
}

void free(void* memory) noexcept {
  __libc_free(memory);
}

void* memalign(std::size_t alignment, std::size_t size) noexcept {
  pmucat::bench::count(size);
  return __libc_memalign(alignment, size);
}

void* aligned_alloc(std::size_t alignment, std::size_t size) noexcept {
  pmucat::bench::count(size);
  return __libc_memalign(alignment, size);
}

int posix_memalign(void** out, std::size_t alignment, std::size_t size) noexcept {
  if (alignment < sizeof(void*) || (alignment & (alignment - 1)) != 0) return EINVAL;
  pmucat::bench::count(size);
  void* memory = __libc_memalign(alignment, size);
  if (memory == nullptr) return ENOMEM;
  *out = memory;
  return 0;
}

}  // extern "C"

// ---- operator new/delete --------------------------------------------------------------------

constexpr std::size_t default_alignment = alignof(std::max_align_t);

void* operator new(std::size_t size) {
  return allocate_or_throw(size, default_alignment);
}
void* operator new[](std::size_t size) {
  return allocate_or_throw(size, default_alignment);
}
void* operator new(std::size_t size, std::align_val_t alignment) {
  return allocate_or_throw(size, static_cast<std::size_t>(alignment));
}
void* operator new[](std::size_t size, std::align_val_t alignment) {
  return allocate_or_throw(size, static_cast<std::size_t>(alignment));
}
void* operator new(std::size_t size, const std::nothrow_t&) noexcept {
  return allocate_aligned(size == 0 ? 1 : size, default_alignment);
}
void* operator new[](std::size_t size, const std::nothrow_t&) noexcept {
  return allocate_aligned(size == 0 ? 1 : size, default_alignment);
}
void* operator new(std::size_t size, std::align_val_t alignment, const std::nothrow_t&) noexcept {
  return allocate_aligned(size == 0 ? 1 : size, static_cast<std::size_t>(alignment));
}
void* operator new[](std::size_t size, std::align_val_t alignment, const std::nothrow_t&) noexcept {
  return allocate_aligned(size == 0 ? 1 : size, static_cast<std::size_t>(alignment));
}

void operator delete(void* memory) noexcept {
  __libc_free(memory);
}
void operator delete[](void* memory) noexcept {
  __libc_free(memory);
}
void operator delete(void* memory, std::size_t) noexcept {
  __libc_free(memory);
}
void operator delete[](void* memory, std::size_t) noexcept {
  __libc_free(memory);
}
void operator delete(void* memory, std::align_val_t) noexcept {
  __libc_free(memory);
}
void operator delete[](void* memory, std::align_val_t) noexcept {
  __libc_free(memory);
}
void operator delete(void* memory, std::size_t, std::align_val_t) noexcept {
  __libc_free(memory);
}
void operator delete[](void* memory, std::size_t, std::align_val_t) noexcept {
  __libc_free(memory);
}
void operator delete(void* memory, const std::nothrow_t&) noexcept {
  __libc_free(memory);
}
void operator delete[](void* memory, const std::nothrow_t&) noexcept {
  __libc_free(memory);
}
void operator delete(void* memory, std::align_val_t, const std::nothrow_t&) noexcept {
  __libc_free(memory);
}
void operator delete[](void* memory, std::align_val_t, const std::nothrow_t&) noexcept {
  __libc_free(memory);
}
