#include "io/temporary_cleanup.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <mutex>

#include "pmucat/version.h"

PMUCAT_BEGIN_NAMESPACE
namespace io {
namespace {

constexpr int kTerminationSignals[] = {SIGINT, SIGTERM, SIGHUP};

// A path waiting for removal. `claimed` reserves the slot for a writer; `armed` tells the
// handler that `path` is complete and to be removed.
struct Slot {
  std::atomic<bool> claimed{false};
  std::atomic<bool> armed{false};
  bool tree = false;  // a directory to remove with its contents
  char path[4096] = {};
};
static_assert(std::atomic<bool>::is_always_lock_free, "the handler needs lock-free atomics");

std::array<Slot, 16> g_slots;  // see the header: the one process-wide table, for the handler
std::once_flag g_installed;

// Removes `name` (relative to `parent_fd`) and, for a directory, what it holds, with raw system
// calls only (getdents64, unlinkat, openat: all async-signal-safe). O_NOFOLLOW and unlinkat never
// go through a link: a link inside is removed, not what it names.
void remove_entry(int parent_fd, const char* name, int depth) {
  if (::unlinkat(parent_fd, name, 0) == 0 || errno == ENOENT) return;
  if (depth > kMaxTreeDepth) return;
  const int fd = ::openat(parent_fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return;
  // Entries are removed while the directory is read, so it is read again from the start until
  // a pass finds nothing left to try.
  alignas(8) char buffer[2048];
  for (bool removed_any = true; removed_any;) {
    removed_any = false;
    ::lseek(fd, 0, SEEK_SET);
    for (;;) {
      const long got = ::syscall(SYS_getdents64, fd, buffer, sizeof buffer);
      if (got <= 0) break;
      for (long offset = 0; offset < got;) {
        struct Entry {
          std::uint64_t inode;
          std::int64_t next;
          unsigned short length;
          unsigned char type;
          char name[1];
        };
        const auto* entry = reinterpret_cast<const Entry*>(buffer + offset);
        offset += entry->length;
        const char* child = entry->name;
        if (child[0] == '.' && (child[1] == 0 || (child[1] == '.' && child[2] == 0))) continue;
        remove_entry(fd, child, depth + 1);
        removed_any = true;
      }
    }
    if (::unlinkat(parent_fd, name, AT_REMOVEDIR) == 0) break;
  }
  ::close(fd);
  ::unlinkat(parent_fd, name, AT_REMOVEDIR);
}

extern "C" void remove_temporaries_and_reraise(int signal_number) {
  for (Slot& slot : g_slots) {
    if (!slot.armed.load()) continue;
    if (slot.tree) {
      remove_tree(slot.path);
    } else {
      ::unlink(slot.path);
    }
  }
  ::signal(signal_number, SIG_DFL);
  ::raise(signal_number);  // delivered when the handler returns: the usual death by signal
}

void install_handler() {
  for (int signal_number : kTerminationSignals) {
    struct sigaction previous {};
    if (::sigaction(signal_number, nullptr, &previous) != 0) continue;
    if (previous.sa_handler != SIG_DFL || (previous.sa_flags & SA_SIGINFO) != 0) continue;
    struct sigaction action {};
    action.sa_handler = remove_temporaries_and_reraise;
    sigemptyset(&action.sa_mask);
    for (int other : kTerminationSignals) sigaddset(&action.sa_mask, other);
    ::sigaction(signal_number, &action, nullptr);
  }
}

}  // namespace

namespace {

int register_slot(const char* path, bool tree) {
  const std::size_t length = std::strlen(path);
  if (length >= sizeof(Slot::path)) return -1;
  std::call_once(g_installed, install_handler);
  for (std::size_t i = 0; i < g_slots.size(); ++i) {
    bool expected = false;
    if (!g_slots[i].claimed.compare_exchange_strong(expected, true)) continue;
    std::memcpy(g_slots[i].path, path, length + 1);
    g_slots[i].tree = tree;
    g_slots[i].armed.store(true);
    return static_cast<int>(i);
  }
  return -1;
}

}  // namespace

int register_temporary(const char* path) {
  return register_slot(path, false);
}

int register_temporary_tree(const char* path) {
  return register_slot(path, true);
}

void remove_tree(const char* path) {
  remove_entry(AT_FDCWD, path, 0);
}

void release_temporary(int slot) {
  if (slot < 0 || static_cast<std::size_t>(slot) >= g_slots.size()) return;
  g_slots[static_cast<std::size_t>(slot)].armed.store(false);
  g_slots[static_cast<std::size_t>(slot)].claimed.store(false);
}

TerminationSignalsBlocked::TerminationSignalsBlocked() {
  sigset_t block;
  sigemptyset(&block);
  for (int signal_number : kTerminationSignals) sigaddset(&block, signal_number);
  ::pthread_sigmask(SIG_BLOCK, &block, &saved_);
}

TerminationSignalsBlocked::~TerminationSignalsBlocked() {
  ::pthread_sigmask(SIG_SETMASK, &saved_, nullptr);
}

}  // namespace io
PMUCAT_END_NAMESPACE
