/* The one-event floor: opens and reads only the files one event needs, nothing else.
 * Usage: floor-one-event DEVICES_DIR PMU FILE...   (FILE relative to DEVICES_DIR/PMU)
 * No tool that encodes the event from sysfs can do less work than this. */
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

int main(int argc, char** argv) {
  if (argc < 4) {
    fprintf(stderr, "usage: %s DEVICES_DIR PMU FILE...\n", argv[0]);
    return 2;
  }
  int devices = open(argv[1], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (devices < 0) {
    perror(argv[1]);
    return 2;
  }
  int pmu = openat(devices, argv[2], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (pmu < 0) {
    perror(argv[2]);
    return 2;
  }
  unsigned long bytes = 0;
  for (int i = 3; i < argc; ++i) {
    char buffer[4096];
    int fd = openat(pmu, argv[i], O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
      perror(argv[i]);
      return 1;
    }
    ssize_t got = read(fd, buffer, sizeof buffer);
    close(fd);
    if (got < 0) {
      perror(argv[i]);
      return 1;
    }
    bytes += (unsigned long)got;
  }
  printf("%d files, %lu bytes\n", argc - 3, bytes);
  return 0;
}
