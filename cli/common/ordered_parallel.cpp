#include "common/ordered_parallel.h"

#include <sched.h>

#include <algorithm>

#include "pmucat/version.h"

PMUCAT_BEGIN_NAMESPACE
namespace cli {

unsigned automatic_jobs(unsigned cap) {
  // The CPUs this process may run on (a container or taskset may allow fewer than exist).
  cpu_set_t allowed;
  CPU_ZERO(&allowed);
  unsigned cpus = sched_getaffinity(0, sizeof allowed, &allowed) == 0
                      ? static_cast<unsigned>(CPU_COUNT(&allowed))
                      : std::thread::hardware_concurrency();
  return std::clamp(cpus, 1u, std::max(cap, 1u));
}

}  // namespace cli
PMUCAT_END_NAMESPACE
