// The static, link-ordered tools' start-up hook (cmake/PmucatLinkOrder.cmake adds this file to
// them alone): prefault the hot code, the stack and the hot data (common/prefault.h).
// It runs from .preinit_array, after libc's own start-up and before any C++ static constructor,
// whose writes (the locale's facets, CLI11's validators) are among the pages it maps.
#include <cstdint>

#include "common/prefault.h"

// Markers that scripts/link-order.py places in cli/link-order.txt, so lld puts them where the
// hot code and the hot data end: the function after the code of the one-event line (the list's
// first), the zero-initialised (.bss) object after every data object the everyday lines touch.
extern "C" {
[[gnu::used, gnu::noinline]] void pmucat_link_order_text_end() {
  asm volatile("");
}
// NOLINTNEXTLINE(cppcoreguidelines-avoid-non-const-global-variables): a linker marker
[[gnu::used]] char pmucat_link_order_data_end = 0;
}

namespace {

void prefault_at_start(int, char**, char**) {
  pmucat::cli::prefault_start(reinterpret_cast<std::uintptr_t>(&pmucat_link_order_text_end),
                              reinterpret_cast<std::uintptr_t>(&pmucat_link_order_data_end + 1));
}

// NOLINTNEXTLINE(cppcoreguidelines-avoid-non-const-global-variables): libc reads the array
[[gnu::used, gnu::section(".preinit_array")]] void (*prefault_entry)(int, char**,
                                                                     char**) = prefault_at_start;

}  // namespace
