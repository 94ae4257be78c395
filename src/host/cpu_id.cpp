// The CPU's identification instructions: facts of this machine only (Root::is_live).
#include <cstring>

#include "host/host_root.h"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

PMUCAT_BEGIN_NAMESPACE
namespace host {

std::optional<X86Cpuid> x86_cpuid() {
#if defined(__x86_64__) || defined(__i386__)
  unsigned eax = 0;
  unsigned ebx = 0;
  unsigned ecx = 0;
  unsigned edx = 0;
  if (__get_cpuid(0, &eax, &ebx, &ecx, &edx) == 0) return std::nullopt;
  X86Cpuid cpu;
  cpu.max_leaf = eax;
  char vendor[12];
  std::memcpy(vendor, &ebx, 4);
  std::memcpy(vendor + 4, &edx, 4);
  std::memcpy(vendor + 8, &ecx, 4);
  cpu.vendor.assign(vendor, strnlen(vendor, sizeof vendor));
  if (cpu.max_leaf >= 1 && __get_cpuid(1, &eax, &ebx, &ecx, &edx) != 0) {
    cpu.family = (eax >> 8) & 0xf;
    cpu.model = (eax >> 4) & 0xf;
    cpu.stepping = eax & 0xf;
    if (cpu.family == 0xf) cpu.family += (eax >> 20) & 0xff;
    if (cpu.family >= 0x6) cpu.model += ((eax >> 16) & 0xf) << 4;
  }
  if (cpu.max_leaf >= 0x15) {
    __cpuid_count(0x15, 0, eax, ebx, ecx, edx);
    // EBX/EAX is the TSC's ratio to the crystal, ECX the crystal's frequency in Hz.
    if (eax != 0 && ebx != 0 && ecx != 0) cpu.tsc_hz = static_cast<double>(ecx) * ebx / eax;
  }
  return cpu;
#else
  return std::nullopt;
#endif
}

std::optional<std::uint64_t> powerpc_pvr() {
#if defined(__powerpc__) || defined(__powerpc64__)
  unsigned long pvr;
  asm volatile("mfspr %0, 0x11f" : "=r"(pvr));  // SPRN_PVR
  return pvr;
#else
  return std::nullopt;
#endif
}

}  // namespace host
PMUCAT_END_NAMESPACE
