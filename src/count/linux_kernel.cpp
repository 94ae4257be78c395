// The real system calls behind PerfEventKernel.
#include <linux/perf_event.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>

#include "pmucat/count_kernel.h"

PMUCAT_BEGIN_NAMESPACE
namespace {

class LinuxPerfEvents final : public PerfEventKernel {
 public:
  int open(const Attr& attr, pid_t pid, int cpu, int group_fd) override {
    // to_bytes() writes the kernel's little-endian layout, which is this host's on every
    // architecture pmucat counts on (x86-64, arm64, riscv64, ppc64le).
    const std::vector<std::byte> bytes = to_bytes(attr);
    const long fd = ::syscall(SYS_perf_event_open, bytes.data(), pid, cpu, group_fd,
                              static_cast<unsigned long>(PERF_FLAG_FD_CLOEXEC));
    return fd < 0 ? -errno : static_cast<int>(fd);
  }

  long read(int fd, std::span<std::byte> buffer) override {
    for (;;) {
      const ssize_t got = ::read(fd, buffer.data(), buffer.size());
      if (got >= 0) return static_cast<long>(got);
      if (errno != EINTR) return -errno;
    }
  }

  int enable(int fd, bool group) override {
    return ::ioctl(fd, PERF_EVENT_IOC_ENABLE, group ? PERF_IOC_FLAG_GROUP : 0) == 0 ? 0 : -errno;
  }

  int disable(int fd, bool group) override {
    return ::ioctl(fd, PERF_EVENT_IOC_DISABLE, group ? PERF_IOC_FLAG_GROUP : 0) == 0 ? 0 : -errno;
  }

  void close(int fd) override { ::close(fd); }
};

}  // namespace

std::unique_ptr<PerfEventKernel> linux_perf_events() {
  return std::make_unique<LinuxPerfEvents>();
}

PMUCAT_END_NAMESPACE
