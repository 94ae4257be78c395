#include "run_command.h"

#include <sys/wait.h>
#include <unistd.h>

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

CommandResult run_tool_command(const std::string& command, const std::string& tree) {
  char err_path[] = "/tmp/pmucat-golden-XXXXXX";
  const int fd = mkstemp(err_path);
  if (fd < 0) return {};
  close(fd);
  const std::string bin = PMUCAT_BINARY_DIR;
  std::string line = "cd " + shell_quote(PMUCAT_SOURCE_DIR) + " && env -u NO_COLOR -u COLUMNS";
  if (tree.empty() || tree == "-") {
    line += " -u PMUCAT_SYSFS";
  } else {
    line += " PMUCAT_SYSFS=" + shell_quote("fixtures/sysfs/" + tree);
  }
  line += " PATH=" + shell_quote(bin + "/cli/pmuls:" + bin + "/cli/pmuencode:/usr/bin:/bin");
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

}  // namespace pmucat::testing
