/* The listing floor: lists every directory of every PMU (the PMU itself, format/, events/,
 * caps/, ...) and reads no file. Usage: floor-list DEVICES_DIR */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

static int is_dot(const char* name) {
  return name[0] == '.' && (name[1] == 0 || (name[1] == '.' && name[2] == 0));
}

/* Takes ownership of `fd`; returns the number of entries listed below it. */
static unsigned long list(int fd) {
  DIR* dir = fdopendir(fd);
  if (dir == NULL) {
    close(fd);
    return 0;
  }
  unsigned long entries = 0;
  struct dirent* entry;
  while ((entry = readdir(dir)) != NULL) {
    if (is_dot(entry->d_name)) continue;
    entries += 1;
    /* sysfs and tmpfs fill d_type, so directories are found without a stat. */
    if (entry->d_type == DT_DIR) {
      int sub = openat(dirfd(dir), entry->d_name, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
      if (sub >= 0) entries += list(sub);
    }
  }
  closedir(dir);
  return entries;
}

int main(int argc, char** argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s DEVICES_DIR\n", argv[0]);
    return 2;
  }
  DIR* devices = opendir(argv[1]);
  if (devices == NULL) {
    perror(argv[1]);
    return 2;
  }
  unsigned long pmus = 0;
  unsigned long entries = 0;
  struct dirent* entry;
  while ((entry = readdir(devices)) != NULL) {
    if (is_dot(entry->d_name)) continue;
    int pmu = openat(dirfd(devices), entry->d_name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (pmu < 0) continue;
    pmus += 1;
    entries += list(pmu);
  }
  closedir(devices);
  printf("%lu PMUs, %lu entries\n", pmus, entries);
  return 0;
}
