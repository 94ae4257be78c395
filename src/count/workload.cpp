#include "count/workload.h"

#include <fcntl.h>
#include <fmt/core.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>

#include "pmucat/diagnostic_ids.h"

PMUCAT_BEGIN_NAMESPACE
namespace count_detail {
namespace {

[[gnu::cold]] Diagnostic command_error(std::string_view name, std::string message) {
  return make_file_diagnostic(Severity::error, DiagId::count_command_failed, name,
                              std::move(message));
}

void close_fd(int& fd) {
  if (fd >= 0) ::close(fd);
  fd = -1;
}

}  // namespace

Workload::Workload(Workload&& other) noexcept
    : pid_(std::exchange(other.pid_, 0)),
      go_fd_(std::exchange(other.go_fd_, -1)),
      error_fd_(std::exchange(other.error_fd_, -1)),
      released_(other.released_),
      name_(std::move(other.name_)) {}

Workload& Workload::operator=(Workload&& other) noexcept {
  if (this != &other) {
    abandon();
    pid_ = std::exchange(other.pid_, 0);
    go_fd_ = std::exchange(other.go_fd_, -1);
    error_fd_ = std::exchange(other.error_fd_, -1);
    released_ = other.released_;
    name_ = std::move(other.name_);
  }
  return *this;
}

Workload::~Workload() {
  abandon();
}

void Workload::abandon() {
  if (pid_ > 0 && !released_) {
    ::kill(pid_, SIGKILL);
    int status = 0;
    while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
    }
  }
  close_fd(go_fd_);
  close_fd(error_fd_);
  pid_ = 0;
}

Expected<Workload> Workload::prepare(const std::vector<std::string>& argv) {
  if (argv.empty() || argv.front().empty()) {
    return unexpected(command_error("<command>", "no command to run"));
  }
  int go[2];
  int error[2];
  if (::pipe2(go, O_CLOEXEC) != 0) {
    return unexpected(command_error(argv.front(), fmt::format("pipe: {}", std::strerror(errno))));
  }
  if (::pipe2(error, O_CLOEXEC) != 0) {
    const int saved = errno;
    ::close(go[0]);
    ::close(go[1]);
    return unexpected(command_error(argv.front(), fmt::format("pipe: {}", std::strerror(saved))));
  }
  // Everything the child needs is built before fork: after it, only async-signal-safe calls.
  std::vector<char*> args;
  args.reserve(argv.size() + 1);
  for (const std::string& arg : argv) args.push_back(const_cast<char*>(arg.c_str()));
  args.push_back(nullptr);
  const pid_t pid = ::fork();
  if (pid < 0) {
    const int saved = errno;
    for (int fd : {go[0], go[1], error[0], error[1]}) ::close(fd);
    return unexpected(command_error(argv.front(), fmt::format("fork: {}", std::strerror(saved))));
  }
  if (pid == 0) {
    ::close(go[1]);
    ::close(error[0]);
    char byte = 0;
    ssize_t got;
    while ((got = ::read(go[0], &byte, 1)) < 0 && errno == EINTR) {
    }
    if (got != 1) ::_exit(127);  // the parent gave up before letting it go
    ::execvp(args[0], args.data());
    const int failed = errno;
    ssize_t ignored = ::write(error[1], &failed, sizeof failed);
    (void)ignored;
    ::_exit(failed == ENOENT ? 127 : 126);
  }
  ::close(go[0]);
  ::close(error[1]);
  Workload workload;
  workload.pid_ = pid;
  workload.go_fd_ = go[1];
  workload.error_fd_ = error[0];
  workload.name_ = argv.front();
  return workload;
}

void Workload::go() {
  if (pid_ <= 0 || released_) return;
  const char byte = 1;
  ssize_t put;
  while ((put = ::write(go_fd_, &byte, 1)) < 0 && errno == EINTR) {
  }
  released_ = true;
  close_fd(go_fd_);
}

std::optional<Diagnostic> Workload::exec_error() {
  if (error_fd_ < 0) return std::nullopt;
  int failed = 0;
  ssize_t got;
  while ((got = ::read(error_fd_, &failed, sizeof failed)) < 0 && errno == EINTR) {
  }
  close_fd(error_fd_);
  if (got != static_cast<ssize_t>(sizeof failed)) return std::nullopt;
  return command_error(name_, failed == ENOENT
                                  ? fmt::format("command not found: {}", name_)
                                  : fmt::format("cannot run {}: {}", name_, std::strerror(failed)));
}

}  // namespace count_detail
PMUCAT_END_NAMESPACE
