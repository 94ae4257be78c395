// Removal of named temporaries (files, or directories such as an unpacked capture) when SIGINT,
// SIGTERM or SIGHUP ends the process.
//
// Only needed where O_TMPFILE is unavailable: an unnamed temporary vanishes with the process by
// itself. A signal handler can only reach process-wide state, so this is the one global table
// of the io module: a few fixed slots of paths, filled and emptied with lock-free atomics, read
// by a handler that does nothing but unlink(2) them and re-raise the signal (both
// async-signal-safe). The handler is installed only for signals whose disposition is still the
// default, so a program's own handlers (or an ignored SIGHUP) are left alone.
#pragma once

#include <signal.h>

#include "pmucat/version.h"

PMUCAT_BEGIN_NAMESPACE
namespace io {

// Remembers `path` for removal on a fatal signal; returns the slot to release, or -1 when the
// path is too long or every slot is taken (then the temporary is not covered, nothing else).
// Call with the three signals blocked, so there is no moment where the file exists uncovered.
int register_temporary(const char* path);
// The same for a temporary directory: the handler removes it with everything in it, never
// following a link (a few levels of nesting at most: kMaxTreeDepth; deeper entries stay).
int register_temporary_tree(const char* path);
inline constexpr int kMaxTreeDepth = 64;
// Forgets the slot (after the temporary was renamed or removed); -1 is ignored.
void release_temporary(int slot);
// Removes the directory `path` and everything in it as the handler does: without following a
// link, using only async-signal-safe calls. Also for use outside a handler.
void remove_tree(const char* path);

// Blocks SIGINT, SIGTERM and SIGHUP for this thread while it lives, restoring the previous
// mask after: a signal arriving meanwhile is delivered once the guarded step is complete.
class TerminationSignalsBlocked {
 public:
  TerminationSignalsBlocked();
  ~TerminationSignalsBlocked();
  TerminationSignalsBlocked(const TerminationSignalsBlocked&) = delete;
  TerminationSignalsBlocked& operator=(const TerminationSignalsBlocked&) = delete;

 private:
  sigset_t saved_;
};

}  // namespace io
PMUCAT_END_NAMESPACE
