// Reading a .tar.gz capture back: unpacked by the system's gzip and tar within a budget, with
// this process in the middle of the stream (it counts the bytes tar is given and the entries tar
// reports), then checked so that no reader can be led out of the capture through a link.
#include <fcntl.h>
#include <fmt/core.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdint>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include "io/temporary_cleanup.h"
#include "pmucat/diagnostic_ids.h"
#include "pmucat/snapshot.h"
#include "snapshot_detail.h"

#if __has_include(<linux/openat2.h>)
#include <linux/openat2.h>
#else
// Kernel headers older than 5.6: the ABI of openat2(2), which the kernel may still have.
struct open_how {
  std::uint64_t flags;
  std::uint64_t mode;
  std::uint64_t resolve;
};
#define RESOLVE_NO_MAGICLINKS 0x02
#define RESOLVE_BENEATH 0x08
#endif
#ifndef SYS_openat2
#define SYS_openat2 437
#endif

extern char** environ;

PMUCAT_BEGIN_NAMESPACE
namespace snap {
namespace {

namespace fs = std::filesystem;
using detail::UniqueFd;

Diagnostic capture_error(const fs::path& path, std::string message) {
  return make_file_diagnostic(Severity::error, DiagId::snapshot_failed, path.string(),
                              std::move(message));
}

constexpr int kMaxLinkHops = 40;  // what the kernel allows before ELOOP

// A child process of the unpack; killed and reaped unless it was waited for.
struct Child {
  pid_t pid = -1;
  int status = 0;
  bool reaped = false;
  void kill_and_reap() {
    if (pid <= 0 || reaped) return;
    ::kill(pid, SIGKILL);
    wait();
  }
  void wait() {
    if (pid <= 0 || reaped) return;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    reaped = true;
  }
  ~Child() { kill_and_reap(); }
};

// Starts `args` with the given descriptors as its stdin, stdout and stderr, and the termination
// signals unblocked (they are blocked here while unpacking, and a Ctrl-C must still stop it).
Expected<pid_t, std::string> spawn(const std::vector<std::string>& args, int in, int out, int err) {
  std::vector<char*> argv;
  for (const auto& arg : args) argv.push_back(const_cast<char*>(arg.c_str()));
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, in, 0);
  posix_spawn_file_actions_adddup2(&actions, out, 1);
  posix_spawn_file_actions_adddup2(&actions, err, 2);
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  sigset_t child_mask;
  ::pthread_sigmask(SIG_SETMASK, nullptr, &child_mask);
  for (int signal_number : {SIGINT, SIGTERM, SIGHUP, SIGPIPE}) {
    sigdelset(&child_mask, signal_number);
  }
  posix_spawnattr_setsigmask(&attributes, &child_mask);
  sigset_t defaults;
  sigemptyset(&defaults);
  sigaddset(&defaults, SIGPIPE);
  posix_spawnattr_setsigdefault(&attributes, &defaults);
  posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
  pid_t pid = 0;
  const int spawned = posix_spawnp(&pid, argv[0], &actions, &attributes, argv.data(), environ);
  posix_spawnattr_destroy(&attributes);
  posix_spawn_file_actions_destroy(&actions);
  if (spawned != 0) {
    return unexpected(fmt::format("cannot run {}: {}", args[0], detail::error_text(spawned)));
  }
  return pid;
}

void set_nonblocking(int fd) {
  ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK);
}

// The tools' stderr as one line: blanks folded, at most a few hundred bytes.
std::string one_line(std::string_view text) {
  std::string out;
  for (char c : text) {
    const bool blank = c == '\n' || c == '\r' || c == '\t';
    if (blank && (out.empty() || out.back() == ' ')) continue;
    out += blank ? ' ' : c;
  }
  while (!out.empty() && out.back() == ' ') out.pop_back();
  if (out.size() > 600) out = out.substr(0, 600) + " ...";
  return out;
}

// `gzip -dc < tar_gz | (counted here) | tar -xv -C dir`: fails as soon as the stream passes
// limits.max_bytes or tar reports more than limits.max_entries members, or when a termination
// signal is pending (they are blocked while this runs; the caller removes `dir` and lets the
// signal through).
std::optional<std::string> run_unpack(const fs::path& tar_gz, const fs::path& dir,
                                      const UnpackLimits& limits) {
  UniqueFd archive(::open(tar_gz.c_str(), O_RDONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC));
  if (archive.get() < 0) return fmt::format("cannot open: {}", detail::error_text(errno));
  struct stat info {};
  if (::fstat(archive.get(), &info) != 0 || !S_ISREG(info.st_mode)) {
    return std::string("not a regular file");
  }
  int pipe_fds[2];
  auto make_pipe = [&](UniqueFd& read_end, UniqueFd& write_end) {
    if (::pipe2(pipe_fds, O_CLOEXEC) != 0) return false;
    read_end = UniqueFd(pipe_fds[0]);
    write_end = UniqueFd(pipe_fds[1]);
    return true;
  };
  UniqueFd from_gzip, gzip_out, tar_list, tar_list_out, errors, errors_out;
  // tar's stdin is a socket, so that writing to a tar that died fails with EPIPE (MSG_NOSIGNAL)
  // instead of killing this process with SIGPIPE.
  int socket_fds[2];
  if (!make_pipe(from_gzip, gzip_out) || !make_pipe(tar_list, tar_list_out) ||
      !make_pipe(errors, errors_out) ||
      ::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, socket_fds) != 0) {
    return fmt::format("cannot create a pipe: {}", detail::error_text(errno));
  }
  UniqueFd to_tar(socket_fds[0]);
  UniqueFd tar_in(socket_fds[1]);
  ::shutdown(to_tar.get(), SHUT_RD);
  ::shutdown(tar_in.get(), SHUT_WR);

  sigset_t termination;
  sigemptyset(&termination);
  for (int signal_number : {SIGINT, SIGTERM, SIGHUP}) sigaddset(&termination, signal_number);
  // Readable while one of them is pending; never read, so the signal stays pending.
  UniqueFd signals(::signalfd(-1, &termination, SFD_CLOEXEC | SFD_NONBLOCK));

  Child gzip, tar;
  auto gzip_pid = spawn({"gzip", "-dc"}, archive.get(), gzip_out.get(), errors_out.get());
  if (!gzip_pid) return gzip_pid.error();
  gzip.pid = *gzip_pid;
  // --no-same-owner, --no-same-permissions: a capture from elsewhere does not pick the owners
  // or modes of what it creates here.
  auto tar_pid =
      spawn({"tar", "-xvf", "-", "-C", dir.string(), "--no-same-owner", "--no-same-permissions"},
            tar_in.get(), tar_list_out.get(), errors_out.get());
  if (!tar_pid) return tar_pid.error();
  tar.pid = *tar_pid;
  archive.close();
  gzip_out.close();
  tar_list_out.close();
  errors_out.close();
  tar_in.close();
  for (int fd : {from_gzip.get(), tar_list.get(), errors.get(), to_tar.get()}) set_nonblocking(fd);

  std::uint64_t bytes = 0;
  std::size_t entries = 0;
  std::string pending;  // from gzip, not yet taken by tar
  std::size_t pending_at = 0;
  std::string said;  // the tools' stderr
  bool gzip_done = false, list_done = false, errors_done = false;
  char buffer[65536];
  while (!list_done || !errors_done) {
    if (gzip_done && pending_at == pending.size() && to_tar.get() >= 0) to_tar.close();
    pollfd fds[5] = {
        {signals.get(), POLLIN, 0},
        {!gzip_done && pending_at == pending.size() ? from_gzip.get() : -1, POLLIN, 0},
        {pending_at < pending.size() ? to_tar.get() : -1, POLLOUT, 0},
        {!list_done ? tar_list.get() : -1, POLLIN, 0},
        {!errors_done ? errors.get() : -1, POLLIN, 0},
    };
    if (::poll(fds, 5, -1) < 0) {
      if (errno == EINTR) continue;
      return fmt::format("poll failed: {}", detail::error_text(errno));
    }
    if (fds[0].revents != 0) return std::string("interrupted by a signal");
    if (fds[1].revents != 0) {
      const ssize_t got = ::read(from_gzip.get(), buffer, sizeof buffer);
      if (got > 0) {
        bytes += static_cast<std::uint64_t>(got);
        if (bytes > limits.max_bytes) {
          return fmt::format(
              "unpacks to more than {} bytes (the budget for a capture; a real "
              "machine's is a few MB): not unpacked",
              limits.max_bytes);
        }
        pending.assign(buffer, static_cast<std::size_t>(got));
        pending_at = 0;
      } else if (got == 0 || (errno != EAGAIN && errno != EINTR)) {
        gzip_done = true;
      }
    }
    if (fds[2].revents != 0) {
      const ssize_t put = ::send(to_tar.get(), pending.data() + pending_at,
                                 pending.size() - pending_at, MSG_NOSIGNAL);
      if (put > 0) {
        pending_at += static_cast<std::size_t>(put);
      } else if (put < 0 && errno != EAGAIN && errno != EINTR) {
        pending_at = pending.size();  // tar stopped reading: its status says why
        gzip_done = true;
      }
    }
    if (fds[3].revents != 0) {
      const ssize_t got = ::read(tar_list.get(), buffer, sizeof buffer);
      if (got > 0) {
        for (ssize_t i = 0; i < got; ++i) entries += buffer[i] == '\n' ? 1 : 0;
        if (entries > limits.max_entries) {
          return fmt::format(
              "holds more than {} entries (the budget for a capture): not "
              "unpacked",
              limits.max_entries);
        }
      } else if (got == 0 || (errno != EAGAIN && errno != EINTR)) {
        list_done = true;
      }
    }
    if (fds[4].revents != 0) {
      const ssize_t got = ::read(errors.get(), buffer, sizeof buffer);
      if (got > 0) {
        if (said.size() < 8192) said.append(buffer, static_cast<std::size_t>(got));
      } else if (got == 0 || (errno != EAGAIN && errno != EINTR)) {
        errors_done = true;
      }
    }
  }
  to_tar.close();
  from_gzip.close();  // a gzip still writing (tar gave up) gets EPIPE
  tar.wait();
  gzip.wait();
  auto failed = [](const Child& child) {
    return !WIFEXITED(child.status) || WEXITSTATUS(child.status) != 0;
  };
  // A gzip that exited with an error explains tar's failure; a gzip killed by SIGPIPE is
  // explained by tar's.
  const bool gzip_first = failed(gzip) && WIFEXITED(gzip.status);
  const Child* culprit = gzip_first ? &gzip : failed(tar) ? &tar : failed(gzip) ? &gzip : nullptr;
  if (culprit == nullptr) return std::nullopt;
  const std::string text = one_line(said);
  return fmt::format("{} {}{}", culprit == &gzip ? "gzip -dc" : "tar -x",
                     detail::describe_wait_status(culprit->status),
                     text.empty() ? std::string(" and printed nothing") : ": " + text);
}

// Resolves `relative` below the directory open at `root_fd` as the kernel would, and says
// whether it stays below it: openat2 with RESOLVE_BENEATH where the kernel has it, a walk
// component by component here otherwise. A missing component or a loop is "inside": nothing
// outside is reached.
bool walk_stays_inside(int root_fd, const std::string& relative) {
  std::vector<std::string> at;       // the real directories from the root
  std::vector<std::string> pending;  // components still to walk, last first
  auto push_components = [&](std::string_view path) {
    std::vector<std::string> parts;
    std::size_t start = 0;
    while (start <= path.size()) {
      std::size_t slash = path.find('/', start);
      if (slash == std::string_view::npos) slash = path.size();
      if (slash > start) parts.emplace_back(path.substr(start, slash - start));
      start = slash + 1;
    }
    pending.insert(pending.end(), parts.rbegin(), parts.rend());
  };
  push_components(relative);
  int hops = 0;
  while (!pending.empty()) {
    const std::string part = std::move(pending.back());
    pending.pop_back();
    if (part == ".") continue;
    if (part == "..") {
      if (at.empty()) return false;
      at.pop_back();
      continue;
    }
    std::string path;
    for (const auto& dir : at) path += dir + "/";
    path += part;
    struct stat info {};
    if (::fstatat(root_fd, path.c_str(), &info, AT_SYMLINK_NOFOLLOW) != 0) return true;
    if (!S_ISLNK(info.st_mode)) {
      // Nothing is reached through a file: ENOTDIR for every reader.
      if (!S_ISDIR(info.st_mode) && !pending.empty()) return true;
      at.push_back(part);
      continue;
    }
    if (++hops > kMaxLinkHops) return true;  // a loop: ELOOP for every reader
    std::string target(static_cast<std::size_t>(PATH_MAX), '\0');
    const ssize_t length = ::readlinkat(root_fd, path.c_str(), target.data(), target.size());
    if (length < 0) return true;
    target.resize(static_cast<std::size_t>(length));
    if (target.starts_with('/')) return false;
    push_components(target);
  }
  return true;
}

bool stays_inside(int root_fd, const std::string& relative, bool kernel) {
  if (!kernel) return walk_stays_inside(root_fd, relative);
  open_how how{};
  how.flags = O_PATH | O_CLOEXEC;
  how.resolve = RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS;
  const long fd = ::syscall(SYS_openat2, root_fd, relative.c_str(), &how, sizeof how);
  if (fd >= 0) {
    ::close(static_cast<int>(fd));
    return true;
  }
  if (errno == EXDEV) return false;
  if (errno == ENOSYS || errno == EPERM || errno == EAGAIN) {
    return walk_stays_inside(root_fd, relative);
  }
  return true;  // ENOENT, ELOOP, ...: nothing outside reached
}

// The first entry of the unpacked capture that a reader must not be given: a link whose target
// lies outside the capture, or anything but a directory, a regular file or a link.
std::optional<std::string> first_unsafe_entry(int root_fd, int dir_fd, const std::string& prefix,
                                              int depth, bool kernel) {
  if (depth > io::kMaxTreeDepth) return prefix + ": nested deeper than 64 directories";
  const auto entries = detail::list_directory(dir_fd);
  if (!entries) return (prefix.empty() ? std::string(".") : prefix) + ": cannot be listed";
  for (const detail::DirEntry& entry : *entries) {
    const std::string relative = prefix + entry.name;
    const mode_t mode = entry.info.st_mode;
    if (S_ISDIR(mode)) {
      UniqueFd sub(
          ::openat(dir_fd, entry.name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
      if (sub.get() < 0) return relative + ": cannot be opened";
      if (auto found = first_unsafe_entry(root_fd, sub.get(), relative + "/", depth + 1, kernel)) {
        return found;
      }
    } else if (S_ISLNK(mode)) {
      if (stays_inside(root_fd, relative, kernel)) continue;
      std::string target(static_cast<std::size_t>(PATH_MAX), '\0');
      const ssize_t length = ::readlinkat(dir_fd, entry.name.c_str(), target.data(), target.size());
      target.resize(length > 0 ? static_cast<std::size_t>(length) : 0);
      return fmt::format("{}: a symlink that leads out of the capture (to '{}')", relative, target);
    } else if (!S_ISREG(mode)) {
      return fmt::format("{}: {}, which no capture holds", relative,
                         pmucat::detail::file_kind(mode));
    }
  }
  return std::nullopt;
}

Expected<fs::path> make_unpack_dir(const fs::path& tar_gz) {
  std::error_code ec;
  fs::path base = fs::temp_directory_path(ec);
  if (ec) base = "/tmp";
  std::string pattern = (base / "pmusnap-XXXXXX").string();
  if (::mkdtemp(pattern.data()) == nullptr) {
    return unexpected(
        capture_error(tar_gz, fmt::format("cannot create a temporary directory in '{}': {}",
                                          base.string(), detail::error_text(errno))));
  }
  return fs::path(pattern);
}

}  // namespace

namespace detail {

std::optional<std::string> unsafe_capture_entry(int root_fd, bool kernel) {
  return first_unsafe_entry(root_fd, root_fd, "", 0, kernel);
}

}  // namespace detail

Expected<Unpacked> Unpacked::open(const std::filesystem::path& tar_gz, const UnpackLimits& limits) {
  std::error_code ec;
  if (!fs::is_regular_file(tar_gz, ec)) {
    return unexpected(capture_error(tar_gz, "no such capture file"));
  }
  // Blocked until the directory is either registered for removal at a signal or removed: no
  // moment where a signal can leave it behind. Pending ones are delivered at the end of scope.
  const io::TerminationSignalsBlocked signals_wait;
  auto dir = make_unpack_dir(tar_gz);
  if (!dir) return unexpected(std::move(dir).error());
  Unpacked unpacked(*dir, io::register_temporary_tree(dir->c_str()));
  if (auto failure = run_unpack(tar_gz, *dir, limits)) {
    unpacked.remove();
    return unexpected(capture_error(tar_gz, std::move(*failure)));
  }
  UniqueFd root(::open(dir->c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
  std::optional<std::string> unsafe =
      root.get() < 0 ? std::optional<std::string>("cannot open what was unpacked")
                     : detail::unsafe_capture_entry(root.get());
  if (unsafe) {
    unpacked.remove();
    return unexpected(capture_error(
        tar_gz, fmt::format("{}; a capture is read only within itself: refused", *unsafe)));
  }
  return unpacked;
}

void Unpacked::remove() {
  if (root_.empty()) return;
  io::remove_tree(root_.c_str());
  io::release_temporary(cleanup_slot_);
  root_.clear();
  cleanup_slot_ = -1;
}

Unpacked::Unpacked(Unpacked&& other) noexcept
    : root_(std::move(other.root_)), cleanup_slot_(std::exchange(other.cleanup_slot_, -1)) {
  other.root_.clear();
}

Unpacked& Unpacked::operator=(Unpacked&& other) noexcept {
  if (this != &other) {
    remove();
    root_ = std::move(other.root_);
    cleanup_slot_ = std::exchange(other.cleanup_slot_, -1);
    other.root_.clear();
  }
  return *this;
}

Unpacked::~Unpacked() {
  remove();
}

}  // namespace snap
PMUCAT_END_NAMESPACE
