// Safe reads of small sysfs files and directory listings (internal to the catalog).
#pragma once

#include <dirent.h>
#include <fcntl.h>      // AT_FDCWD for the dir_fd parameters
#include <sys/types.h>  // mode_t

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "pmucat/diagnostic.h"
#include "pmucat/expected.h"

PMUCAT_BEGIN_NAMESPACE
namespace detail {

// Why a file or directory could not be read: the errno (0 when the content was the problem)
// and a ready-to-report diagnostic naming the path.
struct ReadFailure {
  int error_number = 0;
  Diagnostic diagnostic;
  // True when nothing exists at the path (ENOENT): optional files treat this as "absent".
  bool missing() const;
};

// Owns a file descriptor; closes it on destruction.
class UniqueFd {
 public:
  UniqueFd() = default;
  explicit UniqueFd(int fd) : fd_(fd) {}
  UniqueFd(UniqueFd&& other) noexcept;
  UniqueFd& operator=(UniqueFd&& other) noexcept;
  UniqueFd(const UniqueFd&) = delete;
  UniqueFd& operator=(const UniqueFd&) = delete;
  ~UniqueFd();
  int get() const { return fd_; }
  // Closes now; false (errno set) when close() reports an error, such as a failed write.
  bool close();

 private:
  int fd_ = -1;
};

// Opens `path` (relative to `dir_fd`, or absolute) as a directory fd for openat(), following
// symlinks. ENOENT means nothing (or a dangling link) is there; ELOOP a symlink loop.
Expected<UniqueFd, ReadFailure> open_directory_fd(int dir_fd, const std::string& path,
                                                  std::string_view display_path);

// Reads `name` relative to `dir_fd` (AT_FDCWD for a path) without ever blocking or growing
// unboundedly: O_NONBLOCK (a FIFO cannot hang us), regular files only, at most
// kMaxSysfsFileSize bytes, no NUL bytes. Never throws for I/O problems. `listed_type` is the
// d_type a directory listing gave the entry: DT_REG spares the fstat() that otherwise checks
// the file is regular (symlinks and DT_UNKNOWN are still checked).
Expected<std::string, ReadFailure> read_sysfs_file(int dir_fd, const std::string& name,
                                                   std::string_view display_path,
                                                   unsigned char listed_type = DT_UNKNOWN);

// read_sysfs_file for a file that may well not be there: an open failing with ENOENT (nothing
// there, or a dangling link), ENOTDIR or ELOOP (the path on the way) or ENAMETOOLONG gives
// std::nullopt and builds no diagnostic, so that a probe which misses costs one failed open.
// Anything else, including every failure after a successful open, is read_sysfs_file's.
Expected<std::optional<std::string>, ReadFailure> read_sysfs_file_if_present(
    int dir_fd, const std::string& name, std::string_view display_path);

// The failure read_sysfs_file would report for an entry that readdir already says is not a
// regular file or symlink (a directory, FIFO, socket or device), without touching it.
ReadFailure not_regular_failure(unsigned char d_type, std::string_view display_path);

// True for readdir types that can only be read by opening them (regular, symlink, unknown).
bool may_be_regular(unsigned char d_type);

struct DirEntry {
  std::string name;
  unsigned char type = DT_UNKNOWN;  // d_type as readdir gave it
};

// An open directory: one listing, and its fd for openat() of the entries. Read with getdents64
// directly: opendir() would add an fstat() and an fcntl() to every directory of the tree.
class Directory {
 public:
  // Opens `path` (relative to `dir_fd`, or absolute) as a directory, following symlinks.
  static Expected<Directory, ReadFailure> open(int dir_fd, const std::string& path,
                                               std::string_view display_path);

  int fd() const { return fd_.get(); }
  // Every entry except "." and "..", in the order the file system lists them. Reads the
  // directory once; a read error ends the listing early (what was read is kept).
  std::vector<DirEntry> list();
  // list(), keeping only the entries whose name `keep` accepts (the others are never copied).
  std::vector<DirEntry> list_if(const std::function<bool(std::string_view)>& keep);
  // Entries in file-system order, read `batch_bytes` of records at a time, until `visit`
  // returns false: what is read stays proportional to what is visited, not to the directory.
  void scan(std::size_t batch_bytes, const std::function<bool(const DirEntry&)>& visit);

 private:
  explicit Directory(UniqueFd fd) : fd_(std::move(fd)) {}
  UniqueFd fd_;
};

// What a non-regular file is, for messages: "a FIFO", "a directory", "a character device", ...
std::string_view file_kind(mode_t mode);

// "No such file or directory" etc., thread-safe (strerror is not).
std::string error_text(int error_number);

// `text` without one trailing '\n'.
std::string_view without_trailing_newline(std::string_view text);

// `text` up to (not including) the first '\n'.
std::string_view first_line(std::string_view text);

}  // namespace detail
PMUCAT_END_NAMESPACE
