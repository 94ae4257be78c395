/* Runs commands in turn, ROUNDS times after WARMUP unrecorded rounds, and prints one line per run:
 * `INDEX WALL_MS CPU_MS STATUS`, CPU being the child's own user + system time (wait4). Static, so
 * it runs inside a chroot whose libc is not the host's: bench/perf-in-root-side-by-side measures
 * Debian's packaged perf and pmuencode there, in one namespace, each by its own process's time,
 * with nothing to subtract. A command that exits non-zero is still timed (perf stat exits 1 when
 * an event does not open on this host); its status is printed for the summary to report.
 * Usage: rounds ROUNDS WARMUP COMMAND [ARG...] [';' COMMAND [ARG...]]...   (output to stdout;
 * the commands' own output goes to /dev/null) */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum { kMaxCommands = 16 };

static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

int main(int argc, char** argv) {
  if (argc < 4) {
    fprintf(stderr, "usage: %s ROUNDS WARMUP COMMAND [ARG...] [';' COMMAND [ARG...]]...\n",
            argv[0]);
    return 2;
  }
  const int rounds = atoi(argv[1]);
  const int warmup = atoi(argv[2]);
  char** commands[kMaxCommands];
  int count = 0;
  commands[count++] = &argv[3];
  for (int i = 3; i < argc; ++i) {
    if (strcmp(argv[i], ";") != 0) continue;
    argv[i] = NULL;
    if (i + 1 >= argc || count == kMaxCommands) {
      fprintf(stderr, "rounds: an empty command, or more than %d\n", kMaxCommands);
      return 2;
    }
    commands[count++] = &argv[i + 1];
  }
  const int devnull = open("/dev/null", O_WRONLY | O_CLOEXEC);
  if (devnull < 0) {
    perror("rounds: /dev/null");
    return 2;
  }
  for (int round = 0; round < warmup + rounds; ++round) {
    for (int i = 0; i < count; ++i) {
      const double start = now_ms();
      const pid_t pid = fork();
      if (pid < 0) {
        perror("rounds: fork");
        return 2;
      }
      if (pid == 0) {
        dup2(devnull, 1);
        dup2(devnull, 2);
        execvp(commands[i][0], commands[i]);
        _exit(127);
      }
      int status = 0;
      struct rusage usage;
      if (wait4(pid, &status, 0, &usage) != pid) {
        perror("rounds: wait4");
        return 2;
      }
      const double wall = now_ms() - start;
      const double cpu = (double)usage.ru_utime.tv_sec * 1e3 + usage.ru_utime.tv_usec / 1e3 +
                         (double)usage.ru_stime.tv_sec * 1e3 + usage.ru_stime.tv_usec / 1e3;
      const int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
      if (round >= warmup) printf("%d %.4f %.4f %d\n", i, wall, cpu, code);
    }
  }
  return 0;
}
