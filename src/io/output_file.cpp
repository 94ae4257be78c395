// OutputFile: how a target is classified, replaced or streamed into (include/pmucat/output_file.h).
#include "pmucat/output_file.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <stdio.h>  // renameat2, RENAME_NOREPLACE
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstring>
#include <fstream>
#include <random>
#include <string>

#include "io/temporary_cleanup.h"
#include "pmucat/diagnostic_ids.h"

PMUCAT_BEGIN_NAMESPACE
namespace {

namespace fs = std::filesystem;

constexpr int kMaxSymlinkHops = 40;  // what the kernel allows (ELOOP after that)

Diagnostic output_error(DiagId id, const fs::path& path, std::string message) {
  return make_file_diagnostic(Severity::error, id, path.string(), std::move(message));
}

Diagnostic io_failure(const fs::path& path, std::string_view what, int error_number) {
  return output_error(DiagId::output_io, path,
                      fmt::format("{}: {}", what, std::strerror(error_number)));
}

// The descriptor a path names when it is one of this process's own: /dev/stdout, /dev/stderr,
// /dev/fd/N, /proc/self/fd/N, /proc/<our pid>/fd/N. Reopening those through the file system
// would truncate or replace what the shell redirected into; the descriptor itself is the stream.
std::optional<int> own_descriptor(const fs::path& path) {
  const std::string p = path.lexically_normal().string();
  if (p == "/dev/stdout") return STDOUT_FILENO;
  if (p == "/dev/stderr") return STDERR_FILENO;
  std::string_view rest;
  const std::string own_proc = fmt::format("/proc/{}/fd/", ::getpid());
  for (std::string_view prefix :
       {std::string_view("/dev/fd/"), std::string_view("/proc/self/fd/"),
        std::string_view("/proc/thread-self/fd/"), std::string_view(own_proc)}) {
    if (p.starts_with(prefix)) rest = std::string_view(p).substr(prefix.size());
  }
  if (rest.empty()) return std::nullopt;
  int fd = -1;
  const auto [end, ec] = std::from_chars(rest.data(), rest.data() + rest.size(), fd);
  if (ec != std::errc() || end != rest.data() + rest.size() || fd < 0) return std::nullopt;
  return fd;
}

// The permission bits a plain create would give: 0666 minus the umask. The umask is read from
// /proc (setting it to read it back would race with other threads creating files).
mode_t default_create_mode() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (!line.starts_with("Umask:")) continue;
    unsigned mask = 0;
    std::string_view digits = std::string_view(line).substr(6);
    while (!digits.empty() && (digits.front() == ' ' || digits.front() == '\t')) {
      digits.remove_prefix(1);
    }
    if (std::from_chars(digits.data(), digits.data() + digits.size(), mask, 8).ec == std::errc()) {
      return static_cast<mode_t>(0666 & ~mask);
    }
  }
  const mode_t mask = ::umask(022);  // no /proc: the classic way
  ::umask(mask);
  return static_cast<mode_t>(0666 & ~mask);
}

// `.NAME.pmucat-XXXXXX` beside the target: hidden, recognisably ours, within NAME_MAX.
std::string temporary_name_prefix(std::string name) {
  if (name.size() > 200) name.resize(200);
  return "." + name + ".pmucat-";
}

std::string random_suffix() {
  static constexpr char kChars[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  std::random_device device;
  std::string out(6, 'x');
  for (char& c : out) c = kChars[device() % (sizeof(kChars) - 1)];
  return out;
}

// The kernel's protected_symlinks rule, applied whatever the sysctl says: a link in a sticky,
// world-writable directory (/tmp) is followed only when it belongs to us or to the directory's
// owner. Anyone can plant a link there; following one would replace whatever it names with our
// privileges.
std::optional<Diagnostic> unsafe_link(const fs::path& path, const fs::path& link,
                                      const struct stat& info) {
  fs::path parent = link.parent_path();
  if (parent.empty()) parent = ".";
  struct stat directory {};
  if (::stat(parent.c_str(), &directory) != 0) return io_failure(path, "cannot inspect", errno);
  const bool shared = (directory.st_mode & (S_ISVTX | S_IWOTH)) == (S_ISVTX | S_IWOTH);
  if (!shared || info.st_uid == ::geteuid() || info.st_uid == directory.st_uid) return std::nullopt;
  return output_error(
      DiagId::output_io, path,
      fmt::format("refusing to follow the symlink '{}': it belongs to uid {}, not to you or to "
                  "the owner of the shared sticky directory it is in (the rule of the kernel's "
                  "protected_symlinks); name the target itself, or remove the link",
                  link.string(), info.st_uid));
}

// True when the kernel, resolving `path` itself, reaches the file `found` (or nothing, when
// `found` is empty): the walk above then cannot have been led elsewhere than the kernel would
// go, and the kernel's own link rules had their say.
bool kernel_agrees(const fs::path& path, const std::optional<struct stat>& found) {
  struct stat reached {};
  const int fd = ::open(path.c_str(), O_PATH | O_CLOEXEC);
  if (fd < 0) return !found && errno == ENOENT;
  const bool same = ::fstat(fd, &reached) == 0 && found && reached.st_ino == found->st_ino &&
                    reached.st_dev == found->st_dev;
  ::close(fd);
  return same;
}

}  // namespace

struct OutputFile::State {
  fs::path path;       // as the caller named it (diagnostics)
  fs::path directory;  // the target's directory as a path (messages, the signal table)
  std::string name;    // the target's name inside dir_fd
  int dir_fd = -1;     // the target's directory: every create, link and rename is relative to it
  std::optional<struct stat> replaced;  // the file found at open (absent: a new file)
  int fd = -1;
  bool streaming = false;
  bool unnamed = false;         // O_TMPFILE: nothing to remove, ever
  std::string named_temporary;  // fallback: its name inside dir_fd, removed unless committed
  int cleanup_slot = -1;
  bool committed = false;

  ~State() {
    if (fd >= 0) ::close(fd);
    if (!named_temporary.empty() && !committed) {
      io::TerminationSignalsBlocked blocked;
      ::unlinkat(dir_fd, named_temporary.c_str(), 0);
      io::release_temporary(cleanup_slot);
    }
    if (dir_fd >= 0) ::close(dir_fd);
  }

  std::optional<Diagnostic> open_stream(const fs::path& at, const struct stat& info) {
    streaming = true;
    if (S_ISSOCK(info.st_mode)) {
      sockaddr_un address{};
      address.sun_family = AF_UNIX;
      const std::string socket_name = at.string();
      if (socket_name.size() >= sizeof(address.sun_path)) {
        return output_error(DiagId::output_io, path, "socket path too long to connect to");
      }
      std::memcpy(address.sun_path, socket_name.c_str(), socket_name.size() + 1);
      fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
      if (fd < 0) return io_failure(path, "cannot create a socket", errno);
      if (::connect(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address) != 0) {
        return io_failure(path, "cannot connect to the socket", errno);
      }
      return std::nullopt;
    }
    // No O_CREAT, no O_TRUNC: a FIFO or device is written into as it is. O_NOFOLLOW: `at` was
    // found not to be a link; should it have become one since, nothing is opened through it.
    fd = ::open(at.c_str(), O_WRONLY | O_NOCTTY | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0) return io_failure(path, "cannot open for writing", errno);
    if (struct stat now{};
        ::fstat(fd, &now) != 0 || now.st_ino != info.st_ino || now.st_dev != info.st_dev) {
      return output_error(DiagId::output_io, path, "changed while it was being opened");
    }
    return std::nullopt;
  }

  // Opens the directory `target` is in; every later step works relative to that descriptor, so
  // no name is resolved again between the checks and the rename.
  std::optional<Diagnostic> open_directory(const fs::path& target) {
    directory = target.parent_path();
    if (directory.empty()) directory = ".";
    name = target.filename().string();
    dir_fd = ::open(directory.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dir_fd < 0) {
      return io_failure(path, fmt::format("cannot open the directory '{}'", directory.string()),
                        errno);
    }
    struct stat found {};
    if (::fstatat(dir_fd, name.c_str(), &found, AT_SYMLINK_NOFOLLOW) == 0) {
      if (!replaced || found.st_ino != replaced->st_ino || found.st_dev != replaced->st_dev) {
        return output_error(DiagId::output_io, path, "changed while it was being opened");
      }
    } else if (errno != ENOENT || replaced) {
      return io_failure(path, "cannot inspect", errno);
    }
    return std::nullopt;
  }

  std::optional<Diagnostic> open_temporary(const OutputOptions& options) {
    const mode_t mode = replaced ? (replaced->st_mode & 07777) : default_create_mode();
    if (options.unnamed_temporary) {
      fd = ::openat(dir_fd, ".", O_TMPFILE | O_WRONLY | O_CLOEXEC, 0600);
      if (fd >= 0) {
        unnamed = true;
      } else if (errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL) {
        return io_failure(
            path, fmt::format("cannot create a temporary file in '{}'", directory.string()), errno);
      }
    }
    for (int attempt = 0; fd < 0 && attempt < 100; ++attempt) {
      const std::string candidate = temporary_name_prefix(name) + random_suffix();
      io::TerminationSignalsBlocked blocked;
      fd = ::openat(dir_fd, candidate.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
                    0600);
      if (fd < 0 && errno == EEXIST) continue;
      if (fd < 0) {
        return io_failure(
            path, fmt::format("cannot create a temporary file in '{}'", directory.string()), errno);
      }
      named_temporary = candidate;
      cleanup_slot = io::register_temporary((directory / candidate).c_str());
    }
    if (fd < 0)
      return output_error(DiagId::output_io, path, "cannot find an unused temporary name");
    // Owner first: changing it may clear set-id bits, which the mode then restores. Only root
    // may give a file away, so failing to is not an error.
    if (replaced && (replaced->st_uid != ::geteuid() || replaced->st_gid != ::getegid())) {
      [[maybe_unused]] const int ignored = ::fchown(fd, replaced->st_uid, replaced->st_gid);
    }
    if (::fchmod(fd, mode) != 0) return io_failure(path, "cannot set the file mode", errno);
    return std::nullopt;
  }

  // Renames `from` (in dir_fd) over the target, provided the target is still what open() found:
  // the same file, or still nothing (a file that appeared meanwhile is not replaced).
  int rename_over_target(const std::string& from) const {
    struct stat now {};
    const bool exists = ::fstatat(dir_fd, name.c_str(), &now, AT_SYMLINK_NOFOLLOW) == 0;
    if (exists != replaced.has_value() ||
        (exists && (now.st_ino != replaced->st_ino || now.st_dev != replaced->st_dev))) {
      return EEXIST;
    }
    if (!replaced) {
      if (::renameat2(dir_fd, from.c_str(), dir_fd, name.c_str(), RENAME_NOREPLACE) == 0) return 0;
      if (errno != EINVAL && errno != ENOSYS) return errno;
    }
    return ::renameat(dir_fd, from.c_str(), dir_fd, name.c_str()) == 0 ? 0 : errno;
  }

  std::optional<Diagnostic> rename_failure(int error_number) const {
    if (error_number == EEXIST) {
      return output_error(DiagId::output_io, path,
                          "was replaced or created by someone else while being written; left "
                          "as it is");
    }
    return io_failure(path, "cannot rename into place", error_number);
  }

  // Gives the unnamed temporary a unique name beside the target, then renames that over it.
  std::optional<Diagnostic> link_and_rename() {
    const std::string self = fmt::format("/proc/self/fd/{}", fd);
    for (int attempt = 0; attempt < 100; ++attempt) {
      const std::string temporary = temporary_name_prefix(name) + random_suffix();
      int linked = ::linkat(AT_FDCWD, self.c_str(), dir_fd, temporary.c_str(), AT_SYMLINK_FOLLOW);
      if (linked != 0 && errno == ENOENT) {  // no /proc: needs CAP_DAC_READ_SEARCH instead
        linked = ::linkat(fd, "", dir_fd, temporary.c_str(), AT_EMPTY_PATH);
      }
      if (linked != 0 && errno == EEXIST) continue;
      if (linked != 0) return io_failure(path, "cannot link the temporary file", errno);
      if (const int error_number = rename_over_target(temporary); error_number != 0) {
        ::unlinkat(dir_fd, temporary.c_str(), 0);
        return rename_failure(error_number);
      }
      return std::nullopt;
    }
    return output_error(DiagId::output_io, path, "cannot find an unused temporary name");
  }
};

OutputFile::OutputFile(std::unique_ptr<State> state) : state_(std::move(state)) {}
OutputFile::OutputFile(OutputFile&&) noexcept = default;
OutputFile& OutputFile::operator=(OutputFile&&) noexcept = default;
OutputFile::~OutputFile() = default;

Expected<OutputFile> OutputFile::open(const fs::path& path, const OutputOptions& options) {
  auto state = std::make_unique<State>();
  state->path = path;
  if (path.empty()) {
    return unexpected(output_error(DiagId::output_path_empty, path,
                                   "the output path is empty (use - for standard output)"));
  }
  auto stream_descriptor = [&](int own) -> Expected<OutputFile> {
    state->streaming = true;
    state->fd = ::fcntl(own, F_DUPFD_CLOEXEC, 3);
    if (state->fd < 0) return unexpected(io_failure(path, "cannot use the descriptor", errno));
    return OutputFile(std::move(state));
  };
  if (path == "-") return stream_descriptor(STDOUT_FILENO);

  fs::path at = path;
  bool through_link = false;
  for (int hop = 0; hop <= kMaxSymlinkHops; ++hop) {
    if (const auto own = own_descriptor(at)) return stream_descriptor(*own);
    struct stat info {};
    if (::lstat(at.c_str(), &info) != 0) {
      if (errno != ENOENT) return unexpected(io_failure(path, "cannot inspect", errno));
      if (through_link && !kernel_agrees(path, std::nullopt)) {
        return unexpected(
            output_error(DiagId::output_io, path, "changed while it was being opened"));
      }
      // A new file (also the missing target of a dangling symlink).
      if (auto e = state->open_directory(at)) return unexpected(std::move(*e));
      if (auto e = state->open_temporary(options)) return unexpected(std::move(*e));
      return OutputFile(std::move(state));
    }
    if (S_ISLNK(info.st_mode)) {
      if (auto refused = unsafe_link(path, at, info)) return unexpected(std::move(*refused));
      std::error_code ec;
      const fs::path link = fs::read_symlink(at, ec);
      if (ec) return unexpected(io_failure(path, "cannot read the symlink", ec.value()));
      at = link.is_absolute() ? link : at.parent_path() / link;
      through_link = true;
      continue;
    }
    if (S_ISDIR(info.st_mode)) {
      return unexpected(output_error(DiagId::output_is_directory, path,
                                     "is a directory; name a file to write (or - for "
                                     "standard output)"));
    }
    // What the links led to is what the kernel reaches through them (with its own link rules).
    if (through_link && !kernel_agrees(path, info)) {
      return unexpected(output_error(DiagId::output_io, path, "changed while it was being opened"));
    }
    if (S_ISREG(info.st_mode)) {
      state->replaced = info;
      if (auto e = state->open_directory(at)) return unexpected(std::move(*e));
      if (auto e = state->open_temporary(options)) return unexpected(std::move(*e));
      return OutputFile(std::move(state));
    }
    if (auto e = state->open_stream(at, info)) return unexpected(std::move(*e));
    return OutputFile(std::move(state));
  }
  return unexpected(io_failure(path, "cannot resolve", ELOOP));
}

bool OutputFile::streaming() const {
  return state_->streaming;
}
int OutputFile::fd() const {
  return state_->fd;
}
const fs::path& OutputFile::path() const {
  return state_->path;
}

std::optional<Diagnostic> OutputFile::write(std::span<const std::byte> bytes) {
  if (state_->committed) return output_error(DiagId::output_io, state_->path, "write after commit");
  while (!bytes.empty()) {
    const ssize_t n = ::write(state_->fd, bytes.data(), bytes.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return io_failure(state_->path, "write failed", n < 0 ? errno : EIO);
    bytes = bytes.subspan(static_cast<std::size_t>(n));
  }
  return std::nullopt;
}

std::optional<Diagnostic> OutputFile::write(std::string_view text) {
  return write(std::as_bytes(std::span(text.data(), text.size())));
}

std::optional<Diagnostic> OutputFile::write_at(std::span<const std::byte> bytes,
                                               std::uint64_t offset) {
  if (state_->streaming) {
    return output_error(DiagId::output_io, state_->path, "cannot seek back into a stream");
  }
  while (!bytes.empty()) {
    const ssize_t n = ::pwrite(state_->fd, bytes.data(), bytes.size(), static_cast<off_t>(offset));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return io_failure(state_->path, "write failed", n < 0 ? errno : EIO);
    bytes = bytes.subspan(static_cast<std::size_t>(n));
    offset += static_cast<std::uint64_t>(n);
  }
  return std::nullopt;
}

std::optional<Diagnostic> OutputFile::commit() {
  State& s = *state_;
  if (s.committed) return output_error(DiagId::output_io, s.path, "committed twice");
  if (s.streaming) {
    const int fd = std::exchange(s.fd, -1);
    s.committed = true;
    if (::close(fd) != 0 && errno != EINTR) return io_failure(s.path, "cannot write", errno);
    return std::nullopt;
  }
  if (::fsync(s.fd) != 0) return io_failure(s.path, "cannot write", errno);
  // Blocked across link and rename: a signal then waits until the output is complete, and no
  // name of the temporary can outlive the process.
  io::TerminationSignalsBlocked blocked;
  if (s.unnamed) {
    if (auto e = s.link_and_rename()) return e;
  } else if (const int error_number = s.rename_over_target(s.named_temporary); error_number != 0) {
    return s.rename_failure(error_number);
  } else {
    io::release_temporary(s.cleanup_slot);
  }
  s.committed = true;
  const int fd = std::exchange(s.fd, -1);
  ::close(fd);  // the data is on disk (fsync above); close cannot lose it now
  return std::nullopt;
}

std::optional<Diagnostic> write_output_file(const fs::path& path, std::string_view content,
                                            const OutputOptions& options) {
  auto output = OutputFile::open(path, options);
  if (!output) return std::move(output).error();
  if (auto e = output->write(content)) return e;
  return output->commit();
}

PMUCAT_END_NAMESPACE
