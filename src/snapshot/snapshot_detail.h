// Shared by pmusnap's capture (snapshot.cpp) and its output forms and tar runs
// (snapshot_output.cpp): small POSIX helpers that report errors as text.
#pragma once

#include <sys/stat.h>

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "catalog/sysfs_file.h"
#include "pmucat/snapshot.h"

PMUCAT_BEGIN_NAMESPACE
namespace snap {

// Copies the tree at `sysfs` into `root`/bus/event_source/devices and writes the manifest, whose
// `cpuid` is options.cpuid (null when absent); with options.tracefs, the tracepoint ids too.
Expected<Summary> copy_tree(const std::filesystem::path& sysfs, const std::filesystem::path& root,
                            const CaptureOptions& options);

}  // namespace snap
PMUCAT_END_NAMESPACE

PMUCAT_BEGIN_NAMESPACE
namespace snap::detail {

// One descriptor owner and one errno text for the whole library (the catalog's).
using pmucat::detail::error_text;
using pmucat::detail::UniqueFd;

// Creates `path` (which must not exist) holding `content`, mode 0644. Returns what went wrong.
std::optional<std::string> write_new_file(const std::filesystem::path& path,
                                          std::string_view content);

// One entry of a directory listing, as it is (a link is not followed).
struct DirEntry {
  std::string name;
  struct stat info;
};
// The entries of the directory open at `fd` ("." and ".." left out); nullopt when it cannot be
// listed.
std::optional<std::vector<DirEntry>> list_directory(int fd);

// Checks an unpacked capture below the directory open at `root_fd`: the first entry no reader may
// be given ("PATH: why": a symlink that resolves outside the capture, a FIFO, a device, ...), or
// nullopt. Links are resolved with openat2(RESOLVE_BENEATH) where the kernel has it, else by a
// walk component by component; `kernel` false always walks (the fuzz target compares the two).
std::optional<std::string> unsafe_capture_entry(int root_fd, bool kernel = true);

// What a finished child process did: "exited with status 2", "was killed by signal 9 (Killed)".
std::string describe_wait_status(int status);

// Runs `args` (args[0] looked up in PATH) with stdin from /dev/null and stdout on `stdout_fd`
// (-1: /dev/null). Fails with what went wrong: the status decoded and the tool's own stderr.
// `subject` is the path the diagnostic names. The value is the exit status, always 0.
Expected<int> run_tool(const std::vector<std::string>& args, int stdout_fd,
                       const std::filesystem::path& subject);

}  // namespace snap::detail
PMUCAT_END_NAMESPACE
