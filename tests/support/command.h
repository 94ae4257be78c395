// Runs a shell command for tests, capturing stdout, stderr and the exit status.
#pragma once

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace pmucat::test {

struct CommandResult {
  int status = -1;
  std::string out, err;
};

inline std::string slurp(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

inline std::vector<std::byte> file_bytes(const std::filesystem::path& path) {
  const std::string s = slurp(path);
  std::vector<std::byte> out(s.size());
  if (!s.empty()) std::memcpy(out.data(), s.data(), s.size());
  return out;
}

inline CommandResult run_command(const std::string& command) {
  static int counter = 0;
  const auto dir = std::filesystem::temp_directory_path();
  const auto err_path =
      dir / ("pmucat-test-stderr-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
  CommandResult result;
  std::FILE* pipe = ::popen((command + " 2>'" + err_path.string() + "'").c_str(), "r");
  if (pipe == nullptr) return result;
  char buffer[4096];
  std::size_t n = 0;
  while ((n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0) result.out.append(buffer, n);
  const int status = ::pclose(pipe);
  result.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  result.err = slurp(err_path);
  std::filesystem::remove(err_path);
  return result;
}

inline bool have_perf() {
  return run_command("perf version").status == 0;
}

// A fresh directory under the temp dir, removed by the destructor.
class TempDir {
 public:
  TempDir() {
    std::string pattern = (std::filesystem::temp_directory_path() / "pmucat-pd-XXXXXX").string();
    path_ = ::mkdtemp(pattern.data());
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  std::filesystem::path operator/(const std::string& name) const { return path_ / name; }
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

}  // namespace pmucat::test
