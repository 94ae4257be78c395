/* The full-catalog floor: reads every regular file under every PMU directory once, as a
 * scanner that knows nothing about the layout would (PMU entries are followed, links inside a
 * PMU directory are not). Usage: floor-full DEVICES_DIR */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

struct totals {
  unsigned long files;
  unsigned long bytes;
};

static int is_dot(const char* name) {
  return name[0] == '.' && (name[1] == 0 || (name[1] == '.' && name[2] == 0));
}

static void read_file(int dir, const char* name, struct totals* totals) {
  char buffer[4096];
  int fd = openat(dir, name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
  if (fd < 0) return;
  ssize_t got = read(fd, buffer, sizeof buffer);
  close(fd);
  if (got < 0) return;
  totals->files += 1;
  totals->bytes += (unsigned long)got;
}

/* Takes ownership of `fd`. */
static void scan(int fd, struct totals* totals) {
  DIR* dir = fdopendir(fd);
  if (dir == NULL) {
    close(fd);
    return;
  }
  struct dirent* entry;
  while ((entry = readdir(dir)) != NULL) {
    if (is_dot(entry->d_name)) continue;
    unsigned char kind = entry->d_type;
    if (kind == DT_UNKNOWN) {
      struct stat st;
      if (fstatat(dirfd(dir), entry->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0) continue;
      kind = S_ISDIR(st.st_mode) ? DT_DIR : S_ISREG(st.st_mode) ? DT_REG : DT_LNK;
    }
    if (kind == DT_REG) {
      read_file(dirfd(dir), entry->d_name, totals);
    } else if (kind == DT_DIR) {
      int sub = openat(dirfd(dir), entry->d_name, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
      if (sub >= 0) scan(sub, totals);
    }
  }
  closedir(dir);
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
  struct totals totals = {0, 0};
  unsigned long pmus = 0;
  struct dirent* entry;
  while ((entry = readdir(devices)) != NULL) {
    if (is_dot(entry->d_name)) continue;
    /* PMU entries are symlinks on real sysfs: follow them. */
    int pmu = openat(dirfd(devices), entry->d_name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (pmu < 0) continue;
    pmus += 1;
    scan(pmu, &totals);
  }
  closedir(devices);
  printf("%lu PMUs, %lu files, %lu bytes\n", pmus, totals.files, totals.bytes);
  return 0;
}
