// Output that goes to a file descriptor in large writes: tools that print a lot (pmuls --json of
// a whole tree) append piece by piece and the text never has to exist in one string.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "pmucat/version.h"

PMUCAT_BEGIN_NAMESPACE
namespace cli {

class OutputBuffer {
 public:
  // Writes to `fd` (not owned) whenever more than `flush_at` bytes are pending, and on flush()
  // or destruction.
  explicit OutputBuffer(int fd, std::size_t flush_at = 64 * 1024);
  OutputBuffer(const OutputBuffer&) = delete;
  OutputBuffer& operator=(const OutputBuffer&) = delete;
  ~OutputBuffer();

  void append(std::string_view text);
  // Writes what is pending. False when the descriptor refused it (closed pipe, full disk);
  // what could not be written is dropped, so a later flush does not retry it.
  bool flush();
  // False once any write failed.
  bool ok() const { return ok_; }

 private:
  // Writes `rest` to fd_ unless a write failed before (what cannot be written is dropped).
  void write_all(std::string_view rest);

  int fd_;
  std::size_t flush_at_;
  std::string pending_;
  bool ok_ = true;
};

// Writes `text` to standard output as is: stdio's stdout is flushed, then `text` is written to
// the descriptor directly (a write error is ignored, as stdio's was).
void write_stdout(std::string_view text);

}  // namespace cli
PMUCAT_END_NAMESPACE
