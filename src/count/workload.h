// A command started for counting and held before exec: its counters are opened on its pid,
// then it is let go and they enable when it execs (enable_on_exec), as perf stat runs a workload.
#pragma once

#include <sys/types.h>

#include <optional>
#include <string>
#include <vector>

#include "pmucat/diagnostic.h"
#include "pmucat/expected.h"
#include "pmucat/version.h"

PMUCAT_BEGIN_NAMESPACE
namespace count_detail {

class Workload {
 public:
  Workload() = default;
  Workload(Workload&& other) noexcept;
  Workload& operator=(Workload&& other) noexcept;
  Workload(const Workload&) = delete;
  Workload& operator=(const Workload&) = delete;
  // Kills and reaps a child that was never let go.
  ~Workload();

  // Forks a child that waits for go() and then execs `argv` (argv[0] looked up in PATH).
  static Expected<Workload> prepare(const std::vector<std::string>& argv);
  pid_t pid() const { return pid_; }
  // Lets the child exec, and returns at once: waiting here for the exec would wake this process
  // just as the command starts, which then counts a context switch of its own.
  void go();
  // Why the command could not exec (count-command-failed; it then exited with 127, not found, or
  // 126), or nullopt when it did. Blocks until it has exec'd or exited: ask after waiting for it.
  std::optional<Diagnostic> exec_error();

 private:
  void abandon();
  pid_t pid_ = 0;
  int go_fd_ = -1;     // written once to let the child go
  int error_fd_ = -1;  // the child's exec errno, or EOF on a successful exec
  bool released_ = false;
  std::string name_;
};

}  // namespace count_detail
PMUCAT_END_NAMESPACE
