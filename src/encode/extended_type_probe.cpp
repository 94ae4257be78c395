// perf 6.12's question to the running kernel: does it take a core PMU's type in a hardware
// event's config? The only part of encoding that makes a system call, and only when asked.
#include <linux/perf_event.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "encode/event_owners.h"
#include "pmucat/attr.h"
#include "pmucat/encode.h"

PMUCAT_BEGIN_NAMESPACE
namespace {

bool opens(const Attr& attr) {
  std::vector<std::byte> bytes = to_bytes(attr);
  const long fd = syscall(SYS_perf_event_open, bytes.data(), 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
  if (fd < 0) return false;
  ::close(static_cast<int>(fd));
  return true;
}

// perf's is_event_supported(): as asked, then excluding the kernel (perf_event_paranoid 2),
// then also the guest (PMUs that require it).
bool kernel_opens_cycles_of(std::uint32_t pmu_type) {
  Attr attr;
  attr.type = static_cast<std::uint32_t>(PerfType::hardware);
  attr.config[0] = std::uint64_t{pmu_type} << 32;  // PERF_COUNT_HW_CPU_CYCLES is 0
  attr.disabled = true;
  if (opens(attr)) return true;
  attr.exclude_kernel = true;
  if (opens(attr)) return true;
  attr.exclude_guest = true;
  return opens(attr);
}

}  // namespace

ExtendedType probe_extended_type(const Catalog& catalog) {
  std::vector<std::uint32_t> core_types;
  for (const Pmu& pmu : catalog.pmus()) {
    if (!encode_detail::is_perf_core_pmu(pmu)) continue;
    const auto type = pmu.type();
    if (!type) return ExtendedType::unsupported;
    core_types.push_back(*type);
  }
  if (core_types.size() <= 1) return ExtendedType::unsupported;
  for (const std::uint32_t type : core_types) {
    if (!kernel_opens_cycles_of(type)) return ExtendedType::unsupported;
  }
  return ExtendedType::supported;
}

PMUCAT_END_NAMESPACE
