// Mapping the pages a short tool run uses before it first touches them. A one-event encode
// touches about twenty pages after libc's start-up that the kernel must map one fault at a time:
// C++ static data, CLI11's objects, the heap, the stack as the encoder descends, and the windows
// of its code. Where faults are dear (virtual machines with shadow or paravirtual paging: 14-31
// us each on the one measured, bench/floor/page-cost.c), one madvise(MADV_POPULATE_READ/WRITE)
// per region maps them for a fraction of that (docs/performance.md, "Third pass").
// A pure plan plus two thin impure wrappers.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

namespace pmucat::cli {

// The addresses [begin, end); empty when end <= begin.
struct AddressSpan {
  std::uintptr_t begin = 0;
  std::uintptr_t end = 0;
  friend bool operator==(const AddressSpan&, const AddressSpan&) = default;
};

// What the process knows of its own memory at the moment it asks. A zero or empty member is
// unknown, and the region it describes is left alone.
struct MemoryFacts {
  std::uintptr_t page_size = 0;      // the kernel's page size; 0: plan nothing
  std::uintptr_t stack_pointer = 0;  // an address in the caller's stack frame
  AddressSpan executable;            // the executable PT_LOAD segment (.text)
  std::uintptr_t hot_text_end = 0;   // end of the code cli/link-order.txt puts first
  AddressSpan writable;              // the last writable PT_LOAD segment (.data, .bss)
  std::uintptr_t relro_end = 0;      // end of PT_GNU_RELRO: read-only below it once libc starts
  std::uintptr_t hot_data_end = 0;   // end of the last data object of cli/link-order.txt
  AddressSpan heap_top;              // malloc's top chunk: [its first byte, the program break)
};

// How far into each region a run is expected to reach; pages past these fault as usual.
struct PrefaultBudget {
  std::size_t stack = 20 * 1024;   // below the caller's frame (a one-event encode: 16 KiB)
  std::size_t heap = 24 * 1024;    // from the top chunk on (a one-event encode: 5 pages)
  std::size_t data = 64 * 1024;    // from the end of RELRO (the link order's data: 10 pages)
  std::size_t text = 1024 * 1024;  // from the start of .text (the one-event line's: ~600 KiB)
};

enum class Populate : std::uint8_t { read, write };

struct PrefaultSpan {
  AddressSpan range;  // page-aligned, not empty
  Populate access = Populate::write;
  friend bool operator==(const PrefaultSpan&, const PrefaultSpan&) = default;
};

// At most one span per region, each inside what the facts show to be mapped, and writable where
// it is written: the code up to the link order's end of the hot part (read), the stack below
// the caller, the writable data past RELRO up to the link order's last data object, the heap's
// top chunk (write). A region whose link-order end lies outside its segment gets no span: that
// binary was not laid out by the list.
struct PrefaultPlan {
  std::array<PrefaultSpan, 4> spans{};
  std::size_t count = 0;
};
PrefaultPlan plan_prefault(const MemoryFacts& facts, const PrefaultBudget& budget = {});

// The impure wrappers: gather the facts, populate the planned spans, ignore every failure
// (a kernel before 5.14 has no MADV_POPULATE_*; the pages then fault as before). Both do
// nothing when the environment sets PMUCAT_NO_PREFAULT, which benchmarks use to compare.
// prefault_start: from the static tools' .preinit_array (common/prefault_entry.cpp), before the
// C++ static constructors: the hot code, the stack and the hot data, given the ends the link
// order's markers show.
void prefault_start(std::uintptr_t hot_text_end, std::uintptr_t hot_data_end) noexcept;
// prefault_heap: after the static constructors (run_main): the heap's next pages.
void prefault_heap() noexcept;

}  // namespace pmucat::cli
