// The CPU identifier perf 6.1 computes for the machine it runs on (arch/*/util/header.c).
#include "vendor/host_cpuid.h"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <system_error>

#include "pmucat/vendor_events.h"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>

#include <cstring>
#endif

#include <fmt/format.h>

namespace pmucat {
namespace {

namespace fs = std::filesystem;

#if defined(__x86_64__) || defined(__i386__)
std::optional<std::string> x86_cpuid() {
  unsigned int max_level = 0;
  unsigned int ebx = 0;
  unsigned int ecx = 0;
  unsigned int edx = 0;
  if (__get_cpuid(0, &max_level, &ebx, &ecx, &edx) == 0) return std::nullopt;
  char vendor[13] = {};
  std::memcpy(vendor, &ebx, 4);
  std::memcpy(vendor + 4, &edx, 4);
  std::memcpy(vendor + 8, &ecx, 4);
  // perf prints -1 with %u/%X when leaf 1 is missing.
  unsigned int family = ~0u;
  unsigned int model = ~0u;
  unsigned int stepping = ~0u;
  unsigned int eax = 0;
  if (max_level >= 1 && __get_cpuid(1, &eax, &ebx, &ecx, &edx) != 0) {
    family = (eax >> 8) & 0xf;
    model = (eax >> 4) & 0xf;
    stepping = eax & 0xf;
    if (family == 0xf) family += (eax >> 20) & 0xff;
    if (family >= 0x6) model += ((eax >> 16) & 0xf) << 4;
  }
  return fmt::format("{}-{}-{:X}-{:X}", vendor, family, model, stepping);
}
#endif

// The MIDR of the first CPU that has one, variant and revision cleared, as perf's arm64
// get_cpuid_str prints it. Read from any sysfs root, so it is testable everywhere.
}  // namespace

namespace vendor {
std::optional<std::string> arm64_midr_cpuid(const fs::path& sysfs_root) {
  const fs::path cpu_dir = sysfs_root / "devices/system/cpu";
  std::vector<unsigned long> cpus;
  std::error_code error;
  for (fs::directory_iterator it(cpu_dir, error), end; !error && it != end; it.increment(error)) {
    const std::string name = it->path().filename().string();
    if (name.size() > 3 && name.starts_with("cpu") &&
        std::all_of(name.begin() + 3, name.end(), [](char c) { return c >= '0' && c <= '9'; }) &&
        name.size() < 12) {
      cpus.push_back(std::strtoul(name.c_str() + 3, nullptr, 10));
    }
  }
  std::sort(cpus.begin(), cpus.end());
  for (unsigned long cpu : cpus) {
    std::ifstream in(cpu_dir / fmt::format("cpu{}", cpu) / "regs/identification/midr_el1");
    std::string text;
    if (!in || !std::getline(in, text)) continue;
    constexpr unsigned long kVariantMask = 0xful << 20;
    constexpr unsigned long kRevisionMask = 0xf;
    const unsigned long midr =
        std::strtoul(text.c_str(), nullptr, 16) & ~(kVariantMask | kRevisionMask);
    if (midr == 0) return std::nullopt;
    return fmt::format("0x{:016x}", midr);
  }
  return std::nullopt;
}
}  // namespace vendor

std::optional<std::string> host_cpuid(const fs::path& sysfs_root) {
#if defined(__x86_64__) || defined(__i386__)
  (void)sysfs_root;
  return x86_cpuid();
#elif defined(__aarch64__)
  return vendor::arm64_midr_cpuid(sysfs_root);
#else
  (void)sysfs_root;
  return std::nullopt;
#endif
}

}  // namespace pmucat
