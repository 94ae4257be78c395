#include "catalog/sysfs_file.h"

#include <fcntl.h>
#include <fmt/core.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstddef>
#include <cstring>
#include <utility>
#include <vector>

#include "pmucat/catalog.h"
#include "pmucat/diagnostic_ids.h"

PMUCAT_BEGIN_NAMESPACE
namespace detail {
namespace {

[[gnu::cold]] ReadFailure io_failure(int error_number, std::string_view display_path,
                                     std::string_view what) {
  return ReadFailure{
      error_number,
      make_file_diagnostic(Severity::error, DiagId::file_unreadable, display_path,
                           fmt::format("cannot {}: {}", what, error_text(error_number)))};
}

[[gnu::cold]] ReadFailure not_regular(std::string_view kind, std::string_view display_path) {
  return ReadFailure{0,
                     make_file_diagnostic(Severity::error, DiagId::file_not_regular, display_path,
                                          fmt::format("expected a regular file, found {}", kind))};
}

[[gnu::cold]] ReadFailure too_large(std::string_view display_path) {
  return ReadFailure{
      0, make_file_diagnostic(Severity::error, DiagId::file_too_large, display_path,
                              fmt::format("file is larger than {} bytes; sysfs attributes are "
                                          "smaller than a page, so it was not read",
                                          kMaxSysfsFileSize))};
}

// Reads until EOF or until more than kMaxSysfsFileSize bytes arrived. A read that returns less
// than it was asked for has reached the end of a regular file (sysfs hands over the whole
// attribute at once), so the usual small file costs a single read(). The buffer is smaller than
// a page: event, format and type files are tens of bytes, a longer one costs another read(),
// and a shallower stack is fewer fresh pages for a process that reads a few files and exits.
Expected<std::string, ReadFailure> read_all(int fd, std::string_view display_path) {
  std::string text;
  char buffer[1024];
  for (;;) {
    ssize_t got = ::read(fd, buffer, sizeof buffer);
    if (got < 0) {
      if (errno == EINTR) continue;
      return unexpected(io_failure(errno, display_path, "read file"));
    }
    text.append(buffer, static_cast<std::size_t>(got));
    if (text.size() > kMaxSysfsFileSize) return unexpected(too_large(display_path));
    if (static_cast<std::size_t>(got) < sizeof buffer) break;
  }
  return text;
}

}  // namespace

bool ReadFailure::missing() const {
  return error_number == ENOENT;
}

std::string error_text(int error_number) {
  const char* description = ::strerrordesc_np(error_number);
  if (description == nullptr) return fmt::format("error {}", error_number);
  return description;
}

namespace {

int open_for_reading(int dir_fd, const std::string& name) {
  int raw_fd;
  do {
    raw_fd = ::openat(dir_fd, name.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  } while (raw_fd < 0 && errno == EINTR);
  return raw_fd;
}

[[gnu::cold]] ReadFailure open_failure(int error_number, std::string_view display_path) {
  if (error_number == EISDIR) return not_regular("a directory", display_path);
  return io_failure(error_number, display_path, "open file");
}

Expected<std::string, ReadFailure> read_opened(UniqueFd fd, std::string_view display_path,
                                               unsigned char listed_type) {
  if (listed_type != DT_REG) {
    struct stat status {};
    if (::fstat(fd.get(), &status) != 0) {
      return unexpected(io_failure(errno, display_path, "inspect file"));
    }
    if (!S_ISREG(status.st_mode))
      return unexpected(not_regular(file_kind(status.st_mode), display_path));
    // sysfs reports 4096 for every attribute, so the size is only a hint; the read loop is the
    // real bound.
    if (static_cast<std::uint64_t>(status.st_size) > kMaxSysfsFileSize + 4096) {
      return unexpected(too_large(display_path));
    }
  }
  auto text = read_all(fd.get(), display_path);
  if (!text) return text;
  if (auto nul = text->find('\0'); nul != std::string::npos) {
    return unexpected(ReadFailure{
        0, make_diagnostic(Severity::error, DiagId::file_nul_byte, display_path, *text, nul, 1,
                           "file contains a NUL byte; sysfs attributes are text")});
  }
  return text;
}

}  // namespace

Expected<std::string, ReadFailure> read_sysfs_file(int dir_fd, const std::string& name,
                                                   std::string_view display_path,
                                                   unsigned char listed_type) {
  const int raw_fd = open_for_reading(dir_fd, name);
  if (raw_fd < 0) return unexpected(open_failure(errno, display_path));
  return read_opened(UniqueFd(raw_fd), display_path, listed_type);
}

Expected<std::optional<std::string>, ReadFailure> read_sysfs_file_if_present(
    int dir_fd, const std::string& name, std::string_view display_path) {
  const int raw_fd = open_for_reading(dir_fd, name);
  if (raw_fd < 0) {
    const int error_number = errno;
    if (error_number == ENOENT || error_number == ENOTDIR || error_number == ELOOP ||
        error_number == ENAMETOOLONG) {
      return std::optional<std::string>();
    }
    return unexpected(open_failure(error_number, display_path));
  }
  auto text = read_opened(UniqueFd(raw_fd), display_path, DT_UNKNOWN);
  if (!text) return unexpected(std::move(text.error()));
  return std::optional<std::string>(std::move(*text));
}

ReadFailure not_regular_failure(unsigned char d_type, std::string_view display_path) {
  switch (d_type) {
    case DT_DIR:
      return not_regular("a directory", display_path);
    case DT_FIFO:
      return not_regular("a FIFO", display_path);
    case DT_SOCK:
      return not_regular("a socket", display_path);
    case DT_CHR:
      return not_regular("a character device", display_path);
    case DT_BLK:
      return not_regular("a block device", display_path);
    default:
      return not_regular("not a regular file", display_path);
  }
}

bool may_be_regular(unsigned char d_type) {
  return d_type == DT_REG || d_type == DT_LNK || d_type == DT_UNKNOWN;
}

UniqueFd::UniqueFd(UniqueFd&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}

UniqueFd& UniqueFd::operator=(UniqueFd&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = std::exchange(other.fd_, -1);
  }
  return *this;
}

UniqueFd::~UniqueFd() {
  if (fd_ >= 0) ::close(fd_);
}

bool UniqueFd::close() {
  const int fd = std::exchange(fd_, -1);
  return fd < 0 || ::close(fd) == 0;
}

namespace {

int open_directory_raw(int dir_fd, const std::string& path) {
  int raw_fd;
  do {
    raw_fd = ::openat(dir_fd, path.c_str(), O_RDONLY | O_DIRECTORY | O_NONBLOCK | O_CLOEXEC);
  } while (raw_fd < 0 && errno == EINTR);
  return raw_fd;
}

}  // namespace

Expected<UniqueFd, ReadFailure> open_directory_fd(int dir_fd, const std::string& path,
                                                  std::string_view display_path) {
  int raw_fd = open_directory_raw(dir_fd, path);
  if (raw_fd < 0) return unexpected(io_failure(errno, display_path, "open directory"));
  return UniqueFd(raw_fd);
}

Expected<Directory, ReadFailure> Directory::open(int dir_fd, const std::string& path,
                                                 std::string_view display_path) {
  auto fd = open_directory_fd(dir_fd, path, display_path);
  if (!fd) return unexpected(std::move(fd).error());
  return Directory(std::move(*fd));
}

namespace {

// Reads `fd`'s entries with getdents64 into `buffer`, `size` bytes at a time, and hands each to
// `visit` (without "." and ".."); stops when `visit` returns false or the directory ends.
template <typename Visit>
void for_each_entry(int fd, char* buffer, std::size_t size, Visit&& visit) {
  for (;;) {
    ssize_t got = ::getdents64(fd, buffer, size);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) return;
    for (ssize_t at = 0; at < got;) {
      dirent64 entry;
      // Records are only 8-byte aligned as a whole; copy the fixed part out before reading it.
      std::memcpy(&entry, buffer + at, offsetof(dirent64, d_name));
      std::string_view name(buffer + at + offsetof(dirent64, d_name));
      at += entry.d_reclen;
      if (name == "." || name == "..") continue;
      if (!visit(name, entry.d_type)) return;
    }
  }
}

}  // namespace

std::vector<DirEntry> Directory::list() {
  std::vector<DirEntry> entries;
  // Large enough for a whole sysfs directory in one call (the second call then returns 0).
  alignas(dirent64) char buffer[32 * 1024];
  for_each_entry(fd_.get(), buffer, sizeof buffer,
                 [&entries](std::string_view name, unsigned char type) {
                   entries.push_back(DirEntry{std::string(name), type});
                   return true;
                 });
  return entries;
}

std::vector<DirEntry> Directory::list_if(const std::function<bool(std::string_view)>& keep) {
  std::vector<DirEntry> entries;
  alignas(dirent64) char buffer[32 * 1024];
  for_each_entry(fd_.get(), buffer, sizeof buffer, [&](std::string_view name, unsigned char type) {
    if (keep(name)) entries.push_back(DirEntry{std::string(name), type});
    return true;
  });
  return entries;
}

void Directory::scan(std::size_t batch_bytes, const std::function<bool(const DirEntry&)>& visit) {
  // Whole dirent64 records: aligned for them, and room for at least one maximal name.
  std::vector<dirent64> storage(batch_bytes / sizeof(dirent64) + 1);
  for_each_entry(fd_.get(), reinterpret_cast<char*>(storage.data()),
                 storage.size() * sizeof(dirent64),
                 [&visit](std::string_view name, unsigned char type) {
                   return visit(DirEntry{std::string(name), type});
                 });
}

std::string_view without_trailing_newline(std::string_view text) {
  if (!text.empty() && text.back() == '\n') text.remove_suffix(1);
  return text;
}

std::string_view first_line(std::string_view text) {
  return text.substr(0, text.find('\n'));
}

std::string_view file_kind(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  return "not a regular file";
}

}  // namespace detail
PMUCAT_END_NAMESPACE
