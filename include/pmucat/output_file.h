// Writing an output path without destroying what is there: a regular file (or a path that does
// not exist yet) is replaced atomically, anything else (a FIFO, a character or block device, a
// socket, standard output) is written into and never replaced.
//
// Every tool's output (`pmuencode -o`, `pmudata convert OUT`, `pmucheck -o`, ...) goes through
// here, so the rules are the same everywhere:
//   - ""                 an error (id output-path-empty): there is nothing to write to;
//   - "-"                standard output, as a stream;
//   - /dev/stdout, /dev/fd/N, /proc/self/fd/N: that descriptor of this process, as a stream;
//   - a directory        an error (id output-is-directory);
//   - FIFO, device       opened for writing (no O_TRUNC, no O_CREAT) and streamed into;
//   - socket             connected to (AF_UNIX stream) and streamed into;
//   - regular or absent  a temporary in the same directory, renamed over the path on commit().
//     The directory is opened once and the temporary created, linked and renamed relative to
//     it (openat/linkat/renameat), so no name is resolved again after the checks. The rename
//     happens only if the name still holds the file found at open (or still nothing): a file
//     swapped in meanwhile is left alone (output-io). The new file keeps the old one's
//     permission bits (and owner, where we may set it); a new file gets 0666 & ~umask.
//   - symlink            followed (through a chain of links) to its final target, which is
//     what the rules above apply to; every link stays a link. Each link must pass the kernel's
//     protected_symlinks rule whatever the sysctl says (a link in a sticky world-writable
//     directory is followed only when it is ours or the directory owner's), and the kernel's
//     own resolution of the path must reach the same file; otherwise output-io, nothing written.
// The temporary is unnamed (O_TMPFILE) until commit() links it under a unique name and renames
// it into place with SIGINT/SIGTERM/SIGHUP blocked, so no signal, not even SIGKILL, can leave it
// behind. Where the file system has no O_TMPFILE, a named temporary is used and a small signal
// handler removes it on SIGINT/SIGTERM/SIGHUP (SIGKILL can leave that one behind).
#pragma once

#include <cstddef>
#include <filesystem>
#include <memory>
#include <optional>
#include <span>
#include <string_view>

#include "pmucat/diagnostic.h"
#include "pmucat/expected.h"
#include "pmucat/version.h"

PMUCAT_BEGIN_NAMESPACE

struct OutputOptions {
  // false: never use O_TMPFILE (tests exercise the named-temporary path with it).
  bool unnamed_temporary = true;
};

class OutputFile {
 public:
  // Opens `path` as the rules above say. Errors name the path: output-path-empty,
  // output-is-directory, output-io.
  static Expected<OutputFile> open(const std::filesystem::path& path,
                                   const OutputOptions& options = {});
  OutputFile(OutputFile&&) noexcept;
  OutputFile& operator=(OutputFile&&) noexcept;
  // Without commit(): the temporary is removed and the target left as it was (a stream target
  // keeps what was already written into it).
  ~OutputFile();

  // True when writes go straight into the target (FIFO, device, socket, standard output); such
  // a target cannot be seeked back into, so a perf.data is written in pipe mode.
  bool streaming() const;
  // The file descriptor to write to (the temporary, or the target itself).
  int fd() const;
  const std::filesystem::path& path() const;

  // Writes all of `bytes` (retrying short writes and EINTR).
  std::optional<Diagnostic> write(std::span<const std::byte> bytes);
  std::optional<Diagnostic> write(std::string_view text);
  // Writes `bytes` at `offset` of a temporary (never of a stream): a header written last.
  std::optional<Diagnostic> write_at(std::span<const std::byte> bytes, std::uint64_t offset);

  // Makes the output final: flushes the temporary to disk and renames it over the target, or
  // closes the stream. After a failed commit the target is unchanged.
  std::optional<Diagnostic> commit();

 private:
  struct State;
  explicit OutputFile(std::unique_ptr<State> state);
  std::unique_ptr<State> state_;
};

// Opens `path`, writes `content` and commits: the whole output of a tool in one call.
std::optional<Diagnostic> write_output_file(const std::filesystem::path& path,
                                            std::string_view content,
                                            const OutputOptions& options = {});

PMUCAT_END_NAMESPACE
