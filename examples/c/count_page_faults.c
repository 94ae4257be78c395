/* Counts a command's page faults and execs with pmucat's counting session: the events opened as
 * perf stat opens them, read, scaled, and each value with its trust grades.
 *
 *   cc count_page_faults.c $(pkg-config --cflags --libs pmucat-c) -o count_page_faults
 *   ./count_page_faults [COMMAND ARGS...]        (default: /bin/true)
 *
 * It exits 77 (the test suite's "skipped") when this kernel does not let it open perf events,
 * and with the command's own status otherwise. */
#include <stdint.h>
#include <stdio.h>

#include "pmucat/pmucat_c.h"

enum { kSkip = 77 };

int main(int argc, char** argv) {
  const char* default_command[] = {"/bin/true", NULL};
  const char* const* command = argc > 1 ? (const char* const*)(argv + 1) : default_command;
  pmucat_catalog* catalog = NULL;
  if (pmucat_open(NULL, NULL, NULL, &catalog) != 0) {
    printf("count_page_faults: skipped: no PMU tree to read:\n%s", pmucat_last_error(catalog));
    pmucat_close(catalog);
    return kSkip;
  }
  pmucat_count* count = NULL;
  if (pmucat_count_open(catalog, "page-faults,sched:sched_process_exec", command, 0, NULL,
                        &count) != 0) {
    printf("count_page_faults: skipped: cannot count here:\n%s", pmucat_last_error(catalog));
    pmucat_close(catalog);
    return kSkip;
  }
  pmucat_count_start(count);
  int status = 0;
  if (pmucat_count_wait(count, &status) != 0) {
    printf("count_page_faults: %s\n", pmucat_count_last_error(count));
  }
  const long values = pmucat_count_read(count);
  for (long i = 0; i < values; ++i) {
    double value = 0;
    const int has = pmucat_count_value(count, (size_t)i, &value);
    printf("%18s  %s", has == 0 ? "" : "<not counted>", pmucat_count_event(count, (size_t)i));
    if (has == 0) printf("  %.0f", value);
    for (size_t g = 0; pmucat_count_grade(count, (size_t)i, g) != NULL; ++g) {
      printf("  [%s] %s", pmucat_count_grade(count, (size_t)i, g),
             pmucat_count_grade_reason(count, (size_t)i, g));
    }
    printf("\n");
  }
  pmucat_count_close(count);
  pmucat_close(catalog);
  return values < 0 ? 1 : status;
}
