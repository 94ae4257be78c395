/* The least an interval count can cost on this machine: what `pmustat -x, -I MS -e E1,...,EN --
 * sleep S` must do, in plain C with nothing else. It opens N software counters (the five
 * pmustat's cost run names, in turn) on a forked child that sleeps S seconds, inherited as perf
 * stat's are, each alone (or, with -g, as one group); then every MS milliseconds until the child
 * exits: one absolute sleep, one wait4(WNOHANG), one read() per counter (or one for the group),
 * a line per counter formatted with snprintf, and one write of the lines to standard error. It
 * prints each counter's running total, sparing itself the subtraction an interval's count needs.
 * N = 0 opens nothing: the cost of waking every MS milliseconds alone.
 * With -f the lines are formatted by hand (digits written directly, the interval's time stamp
 * once), as a tool tuned for it would; with -r it only reads: no lines, no write, what no tool
 * that prints can go below.
 * Its CPU time (task-clock, or wait4's) beside pmustat's is the share of pmustat's interval cost
 * that is pmustat's own (docs/count.md, "Cost"; bench/run-count runs it).
 * Usage: interval-floor [-g] [-f|-r] N MS S   (e.g. 100 10 5; lines to standard error) */
#include <linux/perf_event.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum { kMaxCounters = 1024 };

static const uint64_t kConfigs[] = {PERF_COUNT_SW_CONTEXT_SWITCHES, PERF_COUNT_SW_PAGE_FAULTS,
                                    PERF_COUNT_SW_CPU_MIGRATIONS, PERF_COUNT_SW_PAGE_FAULTS_MIN,
                                    PERF_COUNT_SW_PAGE_FAULTS_MAJ};
static const char* const kNames[] = {"context-switches", "page-faults", "cpu-migrations",
                                     "minor-faults", "major-faults"};

/* `value` in decimal at `out`; returns the end. */
static char* put_u64(char* out, uint64_t value) {
  char digits[20];
  int n = 0;
  do {
    digits[n++] = (char)('0' + value % 10);
    value /= 10;
  } while (value != 0);
  while (n > 0) *out++ = digits[--n];
  return out;
}

static char* put_text(char* out, const char* text, size_t size) {
  memcpy(out, text, size);
  return out + size;
}

int main(int argc, char** argv) {
  int grouped = 0;
  int print = 1;
  int by_hand = 0;
  int arg = 1;
  for (; arg < argc && argv[arg][0] == '-'; ++arg) {
    if (strcmp(argv[arg], "-g") == 0) {
      grouped = 1;
    } else if (strcmp(argv[arg], "-r") == 0) {
      print = 0;
    } else if (strcmp(argv[arg], "-f") == 0) {
      by_hand = 1;
    } else {
      break;
    }
  }
  if (argc - arg != 3) {
    fprintf(stderr, "usage: %s [-g] [-f|-r] N MS S\n", argv[0]);
    return 2;
  }
  const int counters = atoi(argv[arg]);
  const long interval_ns = atol(argv[arg + 1]) * 1000000L;
  if (counters < 0 || counters > kMaxCounters || interval_ns <= 0) {
    fprintf(stderr, "interval-floor: N must be 0 to %d, MS positive\n", kMaxCounters);
    return 2;
  }
  /* The child waits for a byte on a pipe before it execs, so the counters see its whole run. */
  int go[2];
  if (pipe(go) != 0) return 1;
  const pid_t child = fork();
  if (child == 0) {
    char byte;
    close(go[1]);
    if (read(go[0], &byte, 1) != 1) _exit(1);
    execlp("sleep", "sleep", argv[arg + 2], (char*)NULL);
    _exit(127);
  }
  close(go[0]);
  static int fds[kMaxCounters];
  for (int i = 0; i < counters; ++i) {
    struct perf_event_attr attr;
    memset(&attr, 0, sizeof attr);
    attr.size = sizeof attr;
    attr.type = PERF_TYPE_SOFTWARE;
    attr.config = kConfigs[i % 5];
    attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
    if (grouped) attr.read_format |= PERF_FORMAT_GROUP;
    attr.inherit = 1;
    attr.disabled = !grouped || i == 0;
    attr.enable_on_exec = attr.disabled;
    const int leader = grouped && i > 0 ? fds[0] : -1;
    fds[i] = (int)syscall(SYS_perf_event_open, &attr, child, -1, leader, 0UL);
    if (fds[i] < 0) {
      perror("interval-floor: perf_event_open");
      kill(child, SIGKILL);
      return 77;
    }
  }
  if (write(go[1], "x", 1) != 1) return 1;
  static uint64_t values[3 + kMaxCounters];
  static char text[kMaxCounters * 96];
  size_t name_sizes[5];
  for (int k = 0; k < 5; ++k) name_sizes[k] = strlen(kNames[k]);
  struct timespec start, deadline, now;
  clock_gettime(CLOCK_MONOTONIC, &start);
  deadline = start;
  for (;;) {
    deadline.tv_nsec += interval_ns;
    while (deadline.tv_nsec >= 1000000000L) {
      deadline.tv_nsec -= 1000000000L;
      ++deadline.tv_sec;
    }
    clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &deadline, NULL);
    int status;
    const int done = waitpid(child, &status, WNOHANG) == child;
    clock_gettime(CLOCK_MONOTONIC, &now);
    const double seconds =
        (double)(now.tv_sec - start.tv_sec) + (double)(now.tv_nsec - start.tv_nsec) / 1e9;
    char stamp[32];
    const int stamp_size = snprintf(stamp, sizeof stamp, "%.9f,", seconds);
    size_t used = 0;
    for (int i = 0; i < counters; ++i) {
      uint64_t count, enabled, running;
      if (grouped) {
        if (i == 0 && read(fds[0], values, (3 + (size_t)counters) * 8) <= 0) return 1;
        count = values[3 + i];
        enabled = values[1];
        running = values[2];
      } else {
        if (read(fds[i], values, 3 * 8) <= 0) return 1;
        count = values[0];
        enabled = values[1];
        running = values[2];
      }
      if (!print) continue;
      if (by_hand) {
        /* hundredths of a percent, rounded */
        const uint64_t hundredths = enabled ? (running * 10000 + enabled / 2) / enabled : 0;
        char* out = text + used;
        out = put_text(out, stamp, (size_t)stamp_size);
        out = put_u64(out, count);
        out = put_text(out, ",,", 2);
        out = put_text(out, kNames[i % 5], name_sizes[i % 5]);
        *out++ = ',';
        out = put_u64(out, running);
        *out++ = ',';
        out = put_u64(out, hundredths / 100);
        *out++ = '.';
        *out++ = (char)('0' + hundredths / 10 % 10);
        *out++ = (char)('0' + hundredths % 10);
        out = put_text(out, ",,\n", 3);
        used = (size_t)(out - text);
        continue;
      }
      const double percent = enabled ? 100.0 * (double)running / (double)enabled : 0.0;
      used += (size_t)snprintf(text + used, sizeof text - used, "%.9f,%llu,,%s,%llu,%.2f,,\n",
                               seconds, (unsigned long long)count, kNames[i % 5],
                               (unsigned long long)running, percent);
    }
    if (print && write(2, text, used) < 0) return 1;
    if (done) return 0;
  }
}
