// The fast path's promise, checked by counting: once an Encoder has run a spec, encoding it again
// on the same (warm) catalog makes no heap allocation.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <new>

#include "pmucat/encode.h"
#include "pmucat/terms.h"

namespace {
// Every operator new of this test binary goes through here.
std::atomic<unsigned long> allocation_count{0};
}  // namespace

[[gnu::noinline]] void* operator new(std::size_t size) {
  allocation_count.fetch_add(1, std::memory_order_relaxed);
  if (void* block = std::malloc(size == 0 ? 1 : size)) return block;
  throw std::bad_alloc();
}
// Not inlined (nor is operator new): GCC would otherwise see malloc/free pairs at call sites of
// new/delete and warn about mismatched allocation functions.
[[gnu::noinline]] void operator delete(void* block) noexcept {
  std::free(block);
}
[[gnu::noinline]] void operator delete(void* block, std::size_t) noexcept {
  std::free(block);
}
// The nothrow form too (std::stable_sort's temporary buffer uses it): otherwise its memory comes
// from the runtime's allocator and goes back through the free() above.
[[gnu::noinline]] void* operator new(std::size_t size, const std::nothrow_t&) noexcept {
  allocation_count.fetch_add(1, std::memory_order_relaxed);
  return std::malloc(size == 0 ? 1 : size);
}
[[gnu::noinline]] void operator delete(void* block, const std::nothrow_t&) noexcept {
  std::free(block);
}

PMUCAT_BEGIN_NAMESPACE
namespace {

unsigned long allocations() {
  return allocation_count.load(std::memory_order_relaxed);
}

// A call of the allocation function itself: a new-expression whose result is unused may be left
// out by the compiler (clang 19 does), a call to ::operator new may not.
TEST(EncoderAllocations, CounterSeesAllocations) {
  const unsigned long before = allocations();
  void* block = ::operator new(sizeof(int));
  EXPECT_EQ(allocations(), before + 1);
  ::operator delete(block);
}

class EncoderAllocationFree : public ::testing::TestWithParam<const char*> {};

TEST_P(EncoderAllocationFree, WarmEncodeDoesNotAllocate) {
  auto catalog = Catalog::open("fixtures/sysfs/intel-spr");
  ASSERT_TRUE(catalog.has_value());
  for (const Profile semantics : {Profile::pmucat(), Profile::perf(PerfRelease::v6_1)}) {
    EncodeOptions options;
    options.semantics = semantics;
    Encoder encoder(*catalog, options);
    Attr attr;
    ASSERT_TRUE(encoder.encode_one(GetParam(), attr).has_value());  // warms catalog and buffers
    const unsigned long before = allocations();
    for (int i = 0; i < 100; ++i) {
      auto result = encoder.encode_one(GetParam(), attr);
      ASSERT_TRUE(result.has_value());
    }
    EXPECT_EQ(allocations() - before, 0u) << GetParam();
  }
}

INSTANTIATE_TEST_SUITE_P(Typical, EncoderAllocationFree,
                         ::testing::Values("cpu/event=0x3c,umask=0x1,inv,cmask=3/u",
                                           "cpu/mem-loads,ldlat=30/", "cpu/mem-loads,ldlat=30/pp",
                                           "uncore_imc_0/cas_count_read/", "cpu/cpu-cycles/",
                                           "power/energy-pkg/", "cpu/event=0x3c,period=1000/k",
                                           "r1a3:u", "event=0x3c,umask=1", "cpu-clock"));

TEST(TermViewsAllocations, ReusedOutputDoesNotAllocate) {
  std::vector<TermView> views;
  std::vector<Diagnostic> lints;
  views.reserve(8);
  const unsigned long before = allocations();
  for (int i = 0; i < 100; ++i) {
    views.clear();
    auto parsed = parse_term_views("event=0x3c,umask=0x1,inv,cmask=3,name='a,b'", "<spec>",
                                   TermSyntax::command_line, 0, views, lints);
    ASSERT_TRUE(parsed.has_value());
    ASSERT_EQ(*parsed, 5u);
  }
  EXPECT_EQ(allocations() - before, 0u);
  EXPECT_EQ(views[4].name, "name");
  EXPECT_EQ(views[4].text, "a,b");
}

}  // namespace
PMUCAT_END_NAMESPACE
