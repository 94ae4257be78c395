#include "common/output_buffer.h"

#include <unistd.h>

#include <cerrno>
#include <cstdio>

#include "pmucat/version.h"

PMUCAT_BEGIN_NAMESPACE
namespace cli {
namespace {

// Writes all of `rest` to `fd`, retrying after a signal; false when the descriptor refused it.
bool write_fully(int fd, std::string_view rest) {
  while (!rest.empty()) {
    const ssize_t written = ::write(fd, rest.data(), rest.size());
    if (written < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    rest.remove_prefix(static_cast<std::size_t>(written));
  }
  return true;
}

}  // namespace

OutputBuffer::OutputBuffer(int fd, std::size_t flush_at) : fd_(fd), flush_at_(flush_at) {
  pending_.reserve(flush_at + flush_at / 4);
}

OutputBuffer::~OutputBuffer() {
  flush();
}

void OutputBuffer::append(std::string_view text) {
  if (text.size() >= flush_at_) {
    // A large piece (a whole PMU's JSON) is written from where it is: copying it here would
    // grow the buffer to its size, fresh memory that costs a page fault per 4 KiB.
    flush();
    write_all(text);
    return;
  }
  pending_.append(text);
  if (pending_.size() > flush_at_) flush();
}

bool OutputBuffer::flush() {
  write_all(pending_);
  pending_.clear();
  return ok_;
}

void OutputBuffer::write_all(std::string_view rest) {
  if (ok_) ok_ = write_fully(fd_, rest);
}

void write_stdout(std::string_view text) {
  // Straight to the descriptor: for one write, stdio would allocate its 4 KiB buffer (a fresh
  // heap page) and fstat and ioctl stdout to size it. What went through stdio before goes first.
  std::fflush(stdout);
  (void)write_fully(STDOUT_FILENO, text);
}

}  // namespace cli
PMUCAT_END_NAMESPACE
