#include "io/temporary_cleanup.h"

#include <signal.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <cstring>
#include <mutex>

namespace pmucat::io {
namespace {

constexpr int kTerminationSignals[] = {SIGINT, SIGTERM, SIGHUP};

// A path waiting for removal. `claimed` reserves the slot for a writer; `armed` tells the
// handler that `path` is complete and to be removed.
struct Slot {
  std::atomic<bool> claimed{false};
  std::atomic<bool> armed{false};
  char path[4096] = {};
};
static_assert(std::atomic<bool>::is_always_lock_free, "the handler needs lock-free atomics");

std::array<Slot, 16> g_slots;  // see the header: the one process-wide table, for the handler
std::once_flag g_installed;

extern "C" void remove_temporaries_and_reraise(int signal_number) {
  for (Slot& slot : g_slots) {
    if (slot.armed.load()) ::unlink(slot.path);
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

int register_temporary(const char* path) {
  const std::size_t length = std::strlen(path);
  if (length >= sizeof(Slot::path)) return -1;
  std::call_once(g_installed, install_handler);
  for (std::size_t i = 0; i < g_slots.size(); ++i) {
    bool expected = false;
    if (!g_slots[i].claimed.compare_exchange_strong(expected, true)) continue;
    std::memcpy(g_slots[i].path, path, length + 1);
    g_slots[i].armed.store(true);
    return static_cast<int>(i);
  }
  return -1;
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

}  // namespace pmucat::io
