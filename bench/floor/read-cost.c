/* The price of one read() of a perf event counter on this machine: a software counter
 * (page-faults of this process) opened once and read N times in a loop. pmustat -I reads every
 * ungrouped counter with one read() an interval, so 100 events every 10 ms cost at least
 * 100 x 100 x this per second (docs/count.md, "Cost").
 * Usage: read-cost [N]   (default 1000000) */
#include <linux/perf_event.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char** argv) {
  const long reads = argc > 1 ? atol(argv[1]) : 1000000;
  struct perf_event_attr attr;
  memset(&attr, 0, sizeof attr);
  attr.size = sizeof attr;
  attr.type = PERF_TYPE_SOFTWARE;
  attr.config = PERF_COUNT_SW_PAGE_FAULTS;
  attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING |
                     PERF_FORMAT_ID | PERF_FORMAT_LOST;
  int fd = (int)syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0UL);
  if (fd < 0) {
    attr.read_format &= ~(uint64_t)PERF_FORMAT_LOST;
    fd = (int)syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0UL);
  }
  if (fd < 0) {
    perror("read-cost: perf_event_open");
    return 77;
  }
  uint64_t buffer[8];
  struct timespec start, end;
  clock_gettime(CLOCK_MONOTONIC, &start);
  for (long i = 0; i < reads; ++i) {
    if (read(fd, buffer, sizeof buffer) <= 0) {
      perror("read-cost: read");
      return 1;
    }
  }
  clock_gettime(CLOCK_MONOTONIC, &end);
  const double ns =
      (double)(end.tv_sec - start.tv_sec) * 1e9 + (double)(end.tv_nsec - start.tv_nsec);
  printf("%.1f ns per read() (%ld reads); 100 counters every 10 ms: %.2f%% of one CPU\n",
         ns / (double)reads, reads, 100.0 * (ns / (double)reads) * 100 * 100 / 1e9);
  return 0;
}
