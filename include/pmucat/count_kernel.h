// The seam between a counting session (count.h) and the kernel: perf_event_open, read, the
// enable/disable ioctls and close. linux_perf_events() makes the real system calls; tests give
// a fake that returns chosen counts, times and errors (EACCES, ENOENT, EOPNOTSUPP, EINVAL,
// short reads), so every path of the session is exercised without a PMU.
#pragma once

#include <sys/types.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>

#include "pmucat/attr.h"
#include "pmucat/version.h"

PMUCAT_BEGIN_NAMESPACE

class PerfEventKernel {
 public:
  virtual ~PerfEventKernel() = default;
  // perf_event_open(attr, pid, cpu, group_fd, PERF_FLAG_FD_CLOEXEC): a file descriptor, or
  // -errno. `attr` is passed at its own size (attr.size bytes of the kernel's layout).
  virtual int open(const Attr& attr, pid_t pid, int cpu, int group_fd) = 0;
  // read(fd) into `buffer`: the bytes read, or -errno.
  virtual long read(int fd, std::span<std::byte> buffer) = 0;
  // PERF_EVENT_IOC_ENABLE / _DISABLE on fd (with PERF_IOC_FLAG_GROUP for a group leader): 0 or
  // -errno.
  virtual int enable(int fd, bool group) = 0;
  virtual int disable(int fd, bool group) = 0;
  virtual void close(int fd) = 0;
};

// This machine's kernel, through the system calls.
std::unique_ptr<PerfEventKernel> linux_perf_events();

PMUCAT_END_NAMESPACE
