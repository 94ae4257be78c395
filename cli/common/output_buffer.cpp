#include "common/output_buffer.h"

#include <unistd.h>

#include <cerrno>

namespace pmucat::cli {

OutputBuffer::OutputBuffer(int fd, std::size_t flush_at) : fd_(fd), flush_at_(flush_at) {
  pending_.reserve(flush_at + flush_at / 4);
}

OutputBuffer::~OutputBuffer() {
  flush();
}

void OutputBuffer::append(std::string_view text) {
  pending_.append(text);
  if (pending_.size() > flush_at_) flush();
}

bool OutputBuffer::flush() {
  std::string_view rest = pending_;
  while (!rest.empty() && ok_) {
    ssize_t written = ::write(fd_, rest.data(), rest.size());
    if (written < 0) {
      if (errno == EINTR) continue;
      ok_ = false;
      break;
    }
    rest.remove_prefix(static_cast<std::size_t>(written));
  }
  pending_.clear();
  return ok_;
}

}  // namespace pmucat::cli
