#include "common/prefault.h"

#include <link.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace pmucat::cli {
namespace {

std::uintptr_t align_down(std::uintptr_t address, std::uintptr_t page) {
  return address - address % page;
}

std::uintptr_t align_up(std::uintptr_t address, std::uintptr_t page) {
  const std::uintptr_t rest = address % page;
  return rest == 0 ? address : address + (page - rest);
}

void add(PrefaultPlan& plan, AddressSpan span, Populate access) {
  if (span.end > span.begin && plan.count < plan.spans.size()) {
    plan.spans[plan.count++] = {span, access};
  }
}

// The whole pages from `segment.begin` or `floor`, whichever is later, up to `end` rounded up,
// at most `budget` bytes of them; empty when `end` is not inside the segment. A page the segment
// shares with what lies below it is left out: it may be read-only (RELRO), and its first use
// has already mapped it (_start, libc's own data).
AddressSpan span_to(AddressSpan segment, std::uintptr_t floor, std::uintptr_t end,
                    std::size_t budget, std::uintptr_t page) {
  if (end <= segment.begin || end > segment.end) return {};
  const std::uintptr_t begin = align_up(std::max(segment.begin, floor), page);
  return {begin, std::min(align_up(end, page), begin + align_up(budget, page))};
}

bool disabled() {
  return std::getenv("PMUCAT_NO_PREFAULT") != nullptr;
}

void populate(const PrefaultPlan& plan) {
#if defined(MADV_POPULATE_READ) && defined(MADV_POPULATE_WRITE)
  for (std::size_t i = 0; i < plan.count; ++i) {
    const AddressSpan span = plan.spans[i].range;
    const int advice =
        plan.spans[i].access == Populate::read ? MADV_POPULATE_READ : MADV_POPULATE_WRITE;
    // NOLINTNEXTLINE(performance-no-int-to-ptr): the span is this process's own mapping
    (void)::madvise(reinterpret_cast<void*>(span.begin), span.end - span.begin, advice);
  }
#else
  (void)plan;
#endif
}

// The running executable's code and last writable PT_LOAD, and the end of its PT_GNU_RELRO.
int read_segments(dl_phdr_info* info, std::size_t, void* data) {
  auto& facts = *static_cast<MemoryFacts*>(data);
  for (ElfW(Half) i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr)& header = info->dlpi_phdr[i];
    const std::uintptr_t begin = info->dlpi_addr + header.p_vaddr;
    if (header.p_type == PT_GNU_RELRO) facts.relro_end = begin + header.p_memsz;
    // The last writable segment: .bss ends it (lld gives RELRO a segment of its own before).
    if (header.p_type == PT_LOAD && (header.p_flags & PF_W) != 0) {
      facts.writable = {begin, begin + header.p_memsz};
    }
    if (header.p_type == PT_LOAD && (header.p_flags & PF_X) != 0) {
      facts.executable = {begin, begin + header.p_memsz};
    }
  }
  return 1;  // the first object is the executable
}

}  // namespace

PrefaultPlan plan_prefault(const MemoryFacts& facts, const PrefaultBudget& budget) {
  PrefaultPlan plan;
  const std::uintptr_t page = facts.page_size;
  if (page == 0) return plan;
  add(plan, span_to(facts.executable, 0, facts.hot_text_end, budget.text, page), Populate::read);
  if (facts.stack_pointer > budget.stack) {
    // The caller's own page is mapped already; the stack grows down from it.
    const std::uintptr_t top = align_down(facts.stack_pointer, page);
    add(plan, {align_down(top - budget.stack, page), top}, Populate::write);
  }
  add(plan, span_to(facts.writable, facts.relro_end, facts.hot_data_end, budget.data, page),
      Populate::write);
  if (facts.heap_top.end > facts.heap_top.begin) {
    const std::uintptr_t begin = align_down(facts.heap_top.begin, page);
    const std::uintptr_t end = std::min(align_up(facts.heap_top.begin + budget.heap, page),
                                        align_down(facts.heap_top.end, page));
    add(plan, {begin, end}, Populate::write);
  }
  return plan;
}

void prefault_start(std::uintptr_t hot_text_end, std::uintptr_t hot_data_end) noexcept {
  if (disabled()) return;
  MemoryFacts facts;
  facts.page_size = static_cast<std::uintptr_t>(::sysconf(_SC_PAGESIZE));
  facts.stack_pointer = reinterpret_cast<std::uintptr_t>(__builtin_frame_address(0));
  facts.hot_text_end = hot_text_end;
  facts.hot_data_end = hot_data_end;
  ::dl_iterate_phdr(read_segments, &facts);
  populate(plan_prefault(facts));
}

void prefault_heap() noexcept {
#if defined(__GLIBC__) && (__GLIBC__ > 2 || __GLIBC_MINOR__ >= 33)
  if (disabled()) return;
  MemoryFacts facts;
  facts.page_size = static_cast<std::uintptr_t>(::sysconf(_SC_PAGESIZE));
  // glibc's keepcost is the size of the top chunk, which ends at the program break. Under a
  // sanitizer's allocator it is 0, and the plan is empty.
  const auto program_break = reinterpret_cast<std::uintptr_t>(::sbrk(0));
  const std::size_t top = ::mallinfo2().keepcost;
  if (top != 0 && top < program_break) facts.heap_top = {program_break - top, program_break};
  populate(plan_prefault(facts));
#endif
}

}  // namespace pmucat::cli
