/* Counts the time-stamp counter over a loop: encode `msr/tsc/` with pmucat's C API into this
 * machine's struct perf_event_attr, open it with perf_event_open, run a loop, print the count.
 *
 *   cc count_tsc.c $(pkg-config --cflags --libs pmucat-c) -o count_tsc   (or link -lpmucat)
 *   ./count_tsc [SYSFS]
 *
 * Every attr pmucat encodes has exclude_guest=1, as perf's parser sets it. PMUs that support no
 * exclusion (msr on kernels that check the bits) refuse that with EINVAL; perf then retries
 * without exclude_guest and exclude_host (its "missing features" fallback), and so does this
 * program. It exits 77 (the test suite's "skipped") with a message when the machine has no msr
 * PMU with a tsc event, or does not let it open perf events. */
#include <errno.h>
#include <linux/perf_event.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "pmucat/pmucat_c.h"

enum { kSkip = 77 };

static int perf_event_open(struct perf_event_attr* attr) {
  /* This process, any CPU, no group, no flags. */
  return (int)syscall(SYS_perf_event_open, attr, 0, -1, -1, 0UL);
}

int main(int argc, char** argv) {
  const char* sysfs = argc > 1 ? argv[1] : NULL;
  pmucat_catalog* catalog = NULL;
  if (pmucat_open(sysfs, NULL, NULL, &catalog) != 0) {
    printf("count_tsc: skipped: no PMU tree to read:\n%s", pmucat_last_error(catalog));
    pmucat_close(catalog);
    return kSkip;
  }
  if (pmucat_pmu_find(catalog, "msr") < 0) {
    printf("count_tsc: skipped: this machine has no msr PMU\n");
    pmucat_close(catalog);
    return kSkip;
  }
  struct perf_event_attr attr;
  if (pmucat_encode(catalog, "msr/tsc/", &attr, sizeof attr) != 0) {
    /* An msr PMU without a tsc event (or an unreadable one): nothing to count here. */
    printf("count_tsc: skipped: msr/tsc/ does not encode here:\n%s", pmucat_last_error(catalog));
    pmucat_close(catalog);
    return kSkip;
  }
  pmucat_close(catalog);

  attr.disabled = 1;
  int fd = perf_event_open(&attr);
  if (fd < 0 && errno == EINVAL && (attr.exclude_guest || attr.exclude_host)) {
    /* What perf does when the kernel refuses the exclusion bits. */
    attr.exclude_guest = 0;
    attr.exclude_host = 0;
    fd = perf_event_open(&attr);
  }
  if (fd < 0) {
    const int error = errno;
    printf("count_tsc: skipped: perf_event_open(msr/tsc/) failed: %s\n", strerror(error));
    return error == EACCES || error == EPERM || error == ENOENT || error == ENOSYS ||
                   error == ENODEV || error == EOPNOTSUPP
               ? kSkip
               : 1;
  }
  ioctl(fd, PERF_EVENT_IOC_RESET, 0);
  ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
  volatile uint64_t sum = 0;
  for (uint64_t i = 0; i < 10000000; ++i) sum += i;
  (void)sum;
  ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
  uint64_t count = 0;
  if (read(fd, &count, sizeof count) != (ssize_t)sizeof count) {
    perror("count_tsc: read");
    close(fd);
    return 1;
  }
  close(fd);
  printf("msr/tsc/ (type %u, config %#llx, exclude_guest %u): %llu ticks over the loop\n",
         attr.type, (unsigned long long)attr.config, (unsigned)attr.exclude_guest,
         (unsigned long long)count);
  return count > 0 ? 0 : 1;
}
