#include "support/command.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <utility>

#include "pmucat/version.h"

extern char** environ;  // NOLINT: the POSIX way to read the whole environment

PMUCAT_BEGIN_NAMESPACE
namespace testing {
namespace {

using Clock = std::chrono::steady_clock;

// A descriptor closed when it goes out of scope.
class Fd {
 public:
  explicit Fd(int fd = -1) : fd_(fd) {}
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  Fd(Fd&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}
  Fd& operator=(Fd&&) = delete;
  ~Fd() { reset(); }
  int get() const { return fd_; }
  void reset() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
  }

 private:
  int fd_;
};

std::string variable_name(const std::string& entry) {
  return entry.substr(0, entry.find('='));
}

std::vector<std::string> environment_for(const Command& command) {
  auto overridden = [&](const std::string& name) {
    return std::find(command.unset_env.begin(), command.unset_env.end(), name) !=
               command.unset_env.end() ||
           std::any_of(command.set_env.begin(), command.set_env.end(),
                       [&](const std::string& entry) { return variable_name(entry) == name; });
  };
  std::vector<std::string> environment;
  for (char** entry = environ; *entry != nullptr; ++entry) {
    if (!overridden(variable_name(*entry))) environment.emplace_back(*entry);
  }
  environment.insert(environment.end(), command.set_env.begin(), command.set_env.end());
  return environment;
}

// execvp would search the test's PATH, not the one the program is given.
std::string program_path(const std::string& program, const std::vector<std::string>& environment) {
  if (program.find('/') != std::string::npos) return program;
  std::string search = "/usr/bin:/bin";
  for (const std::string& entry : environment) {
    if (entry.starts_with("PATH=")) search = entry.substr(5);
  }
  std::size_t start = 0;
  while (start <= search.size()) {
    std::size_t end = search.find(':', start);
    if (end == std::string::npos) end = search.size();
    const std::string dir = end == start ? "." : search.substr(start, end - start);
    const std::string candidate = dir + "/" + program;
    if (::access(candidate.c_str(), X_OK) == 0) return candidate;
    start = end + 1;
  }
  return program;  // execve fails and the child exits 127, as a shell would
}

std::vector<char*> null_terminated(std::vector<std::string>& strings) {
  std::vector<char*> pointers;
  for (std::string& text : strings) pointers.push_back(text.data());
  pointers.push_back(nullptr);
  return pointers;
}

// Appends what each descriptor yields to its string until all are at end of file (or, for a
// terminal, EIO: every process holding it has gone). False when `deadline` passed first.
bool drain(std::vector<std::pair<int, std::string*>> sources, Clock::time_point deadline) {
  char buffer[4096];
  while (!sources.empty()) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
    if (left.count() <= 0) return false;
    std::vector<pollfd> polled;
    for (const auto& source : sources) polled.push_back({source.first, POLLIN, 0});
    const int ready = ::poll(polled.data(), polled.size(),
                             static_cast<int>(std::min<long long>(left.count(), INT_MAX)));
    if (ready < 0 && errno == EINTR) continue;
    if (ready < 0) return true;
    for (std::size_t i = polled.size(); i-- > 0;) {
      if (polled[i].revents == 0) continue;
      const ssize_t got = ::read(polled[i].fd, buffer, sizeof buffer);
      if (got > 0) {
        sources[i].second->append(buffer, static_cast<std::size_t>(got));
      } else if (got == 0 || (errno != EINTR && errno != EAGAIN)) {
        sources.erase(sources.begin() + static_cast<std::ptrdiff_t>(i));
      }
    }
  }
  return true;
}

int wait_status(pid_t child) {
  int status = 0;
  while (::waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// Kills the child's process group: a shell's children go with it.
void kill_group(pid_t child) {
  ::kill(-child, SIGKILL);
  ::kill(child, SIGKILL);
}

// An anonymous in-memory file holding `text`, positioned at its start.
Fd stdin_file(const std::string& text) {
  Fd fd(::memfd_create("pmucat-test-stdin", MFD_CLOEXEC));
  if (fd.get() < 0) return fd;
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t wrote = ::write(fd.get(), text.data() + done, text.size() - done);
    if (wrote < 0 && errno == EINTR) continue;
    if (wrote <= 0) return Fd();
    done += static_cast<std::size_t>(wrote);
  }
  ::lseek(fd.get(), 0, SEEK_SET);
  return fd;
}

// What the child execs, all built before fork(): after it, only async-signal-safe calls.
struct ExecPlan {
  explicit ExecPlan(const Command& command)
      : environment(environment_for(command)),
        program(program_path(command.argv.front(), environment)),
        arguments(command.argv),
        argv(null_terminated(arguments)),
        envp(null_terminated(environment)),
        cwd(command.cwd.string()) {}
  ExecPlan(const ExecPlan&) = delete;  // argv and envp point into the strings above
  ExecPlan& operator=(const ExecPlan&) = delete;

  std::vector<std::string> environment;
  std::string program;
  std::vector<std::string> arguments;
  std::vector<char*> argv;
  std::vector<char*> envp;
  std::string cwd;
};

}  // namespace

CommandResult run(const Command& command) {
  CommandResult result;
  if (command.argv.empty()) return result;
  const ExecPlan plan(command);

  const Fd input = stdin_file(command.stdin_text.value_or(""));
  int out_pipe[2];
  int err_pipe[2];
  if (input.get() < 0 || ::pipe2(out_pipe, O_CLOEXEC) != 0) return result;
  Fd out_read(out_pipe[0]);
  Fd out_write(out_pipe[1]);
  if (::pipe2(err_pipe, O_CLOEXEC) != 0) return result;
  Fd err_read(err_pipe[0]);
  Fd err_write(err_pipe[1]);

  const pid_t child = ::fork();
  if (child < 0) return result;
  if (child == 0) {
    ::setpgid(0, 0);
    if (!plan.cwd.empty() && ::chdir(plan.cwd.c_str()) != 0) ::_exit(127);
    ::dup2(input.get(), 0);
    ::dup2(out_write.get(), 1);
    if (!command.inherit_stderr) ::dup2(err_write.get(), 2);
    ::execve(plan.program.c_str(), plan.argv.data(), plan.envp.data());
    ::_exit(127);
  }
  ::setpgid(child, child);  // whichever of parent and child gets there first
  out_write.reset();
  err_write.reset();
  std::vector<std::pair<int, std::string*>> sources = {{out_read.get(), &result.out}};
  if (!command.inherit_stderr) sources.emplace_back(err_read.get(), &result.err);
  if (!drain(std::move(sources), Clock::now() + command.timeout)) {
    kill_group(child);
    result.timed_out = true;
  }
  const int status = wait_status(child);
  if (!result.timed_out) result.status = status;
  return result;
}

CommandResult run_command(const std::string& script, std::chrono::seconds timeout) {
  Command command;
  command.argv = {"/bin/sh", "-c", script};
  command.cwd = source_dir();
  command.timeout = timeout;
  return run(command);
}

CommandResult run_on_terminal(const Command& command) {
  CommandResult result;
  if (command.argv.empty()) return result;
  const ExecPlan plan(command);

  Fd master(::posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC));
  char terminal[128];
  if (master.get() < 0 || ::grantpt(master.get()) != 0 || ::unlockpt(master.get()) != 0 ||
      ::ptsname_r(master.get(), terminal, sizeof terminal) != 0) {
    return result;
  }
  const pid_t child = ::fork();
  if (child < 0) return result;
  if (child == 0) {
    // A session of its own makes the terminal the child's controlling terminal.
    ::setsid();
    if (!plan.cwd.empty() && ::chdir(plan.cwd.c_str()) != 0) ::_exit(127);
    const int slave = ::open(terminal, O_RDWR);
    if (slave < 0) ::_exit(127);
    ::dup2(slave, 0);
    ::dup2(slave, 1);
    ::dup2(slave, 2);
    if (slave > 2) ::close(slave);
    ::execve(plan.program.c_str(), plan.argv.data(), plan.envp.data());
    ::_exit(127);
  }
  if (!drain({{master.get(), &result.out}}, Clock::now() + command.timeout)) {
    kill_group(child);
    result.timed_out = true;
  }
  master.reset();
  const int status = wait_status(child);
  if (!result.timed_out) result.status = status;
  return result;
}

std::string shell_quote(const std::string& text) {
  std::string quoted = "'";
  for (char c : text) {
    if (c == '\'') {
      quoted += "'\\''";
    } else {
      quoted += c;
    }
  }
  return quoted + "'";
}

std::string source_dir() {
  return PMUCAT_SOURCE_DIR;
}

std::string binary_dir() {
  return PMUCAT_BINARY_DIR;
}

}  // namespace testing
PMUCAT_END_NAMESPACE
