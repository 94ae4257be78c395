#include "run_command.h"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

namespace pmucat::testing {

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

std::string tool_path() {
  const std::string bin = PMUCAT_BINARY_DIR;
  std::string path;
  for (const char* tool : kTools) path += bin + "/cli/" + tool + ":";
  return path + "/usr/bin:/bin";
}

CommandResult run_tool_command(const std::string& command, const std::string& tree) {
  char err_path[] = "/tmp/pmucat-golden-XXXXXX";
  const int fd = mkstemp(err_path);
  if (fd < 0) return {};
  close(fd);
  std::string line = "cd " + shell_quote(PMUCAT_SOURCE_DIR) + " && env -u NO_COLOR -u COLUMNS";
  if (tree.empty() || tree == "-") {
    line += " -u PMUCAT_SYSFS";
  } else {
    line += " PMUCAT_SYSFS=" + shell_quote("fixtures/sysfs/" + tree);
  }
  line += " PATH=" + shell_quote(tool_path());
  line += " /bin/sh -c " + shell_quote(command) + " 2>" + shell_quote(err_path) + " </dev/null";

  CommandResult result;
  std::FILE* pipe = popen(line.c_str(), "r");
  if (pipe == nullptr) return result;
  char buffer[4096];
  std::size_t count;
  while ((count = std::fread(buffer, 1, sizeof buffer, pipe)) > 0) result.out.append(buffer, count);
  const int status = pclose(pipe);
  result.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  std::ifstream err_file(err_path);
  std::stringstream err;
  err << err_file.rdbuf();
  result.err = err.str();
  std::remove(err_path);
  return result;
}

CommandResult run_on_terminal(const std::string& command, const std::string& environment) {
  CommandResult result;
  const int master = posix_openpt(O_RDWR | O_NOCTTY);
  if (master < 0 || grantpt(master) != 0 || unlockpt(master) != 0) return result;
  const std::string terminal = ptsname(master);
  const std::string line =
      "cd " + shell_quote(PMUCAT_SOURCE_DIR) +
      " && exec env -u NO_COLOR -u PMUCAT_SYSFS -u COLUMNS PATH=" + shell_quote(tool_path()) + " " +
      environment + " /bin/sh -c " + shell_quote(command);
  const pid_t child = fork();
  if (child < 0) {
    close(master);
    return result;
  }
  if (child == 0) {
    // A session of its own makes the terminal the child's controlling terminal.
    setsid();
    const int slave = open(terminal.c_str(), O_RDWR);
    if (slave < 0) _exit(127);
    dup2(slave, 0);
    dup2(slave, 1);
    dup2(slave, 2);
    if (slave > 2) close(slave);
    close(master);
    execl("/bin/sh", "sh", "-c", line.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  char buffer[4096];
  for (;;) {
    const ssize_t count = read(master, buffer, sizeof buffer);
    if (count > 0) {
      result.out.append(buffer, static_cast<std::size_t>(count));
    } else if (count < 0 && errno == EINTR) {
      continue;
    } else {
      break;  // EIO: every process holding the terminal has gone
    }
  }
  close(master);
  int status = 0;
  while (waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  result.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return result;
}

}  // namespace pmucat::testing
