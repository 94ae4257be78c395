/* What the kernel and the hypervisor charge a short process, per unit, on this machine: the
 * first write to a fresh anonymous page (heap, stack, a copied-on-write data page), a read fault
 * on a file mapping that is in the page cache (the kernel maps up to 16 pages around it), an
 * open()+close() of a small file. A one-event encode is a few hundred thousand instructions and
 * a few dozen of each of these, so their prices decide how it compares with the static C floor
 * (docs/performance.md, "One event against a static C floor").
 * Usage: page-cost FILE   (FILE: any file of at least 2 MiB, e.g. a built tool) */
#include <fcntl.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static double now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

int main(int argc, char** argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s FILE\n", argv[0]);
    return 2;
  }
  int fd = open(argv[1], O_RDONLY | O_CLOEXEC);
  struct stat status;
  if (fd < 0 || fstat(fd, &status) != 0 || status.st_size < (2 << 20)) {
    fprintf(stderr, "%s: need a readable file of at least 2 MiB\n", argv[1]);
    return 2;
  }
  enum { kPages = 512, kWindow = 16 };
  const size_t bytes = (size_t)kPages * 4096;
  char* anon = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  volatile const char* file = mmap(NULL, bytes, PROT_READ, MAP_PRIVATE, fd, 0);
  if (anon == MAP_FAILED || file == MAP_FAILED) {
    perror("mmap");
    return 1;
  }
  char sum = 0;
  for (int page = 0; page < kPages; page += kWindow) sum += file[(size_t)page * 4096];  // warm
  munmap((void*)file, bytes);
  file = mmap(NULL, bytes, PROT_READ, MAP_PRIVATE, fd, 0);

  double start = now_ns();
  for (int page = 0; page < kPages; ++page) anon[(size_t)page * 4096] = 1;
  const double anon_ns = (now_ns() - start) / kPages;
  start = now_ns();
  for (int page = 0; page < kPages; page += kWindow) sum += file[(size_t)page * 4096];
  const double file_ns = (now_ns() - start) / (kPages / kWindow);
  start = now_ns();
  for (int i = 0; i < 1000; ++i) close(open(argv[1], O_RDONLY | O_CLOEXEC));
  const double open_ns = (now_ns() - start) / 1000;
  printf("fresh anonymous page %.1f us, file read fault %.1f us, open+close %.1f us\n",
         anon_ns / 1000, file_ns / 1000, open_ns / 1000);

  (void)sum;  // the reads happen anyway: `file` is volatile
  return 0;
}
