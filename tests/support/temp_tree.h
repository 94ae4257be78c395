// A throwaway sysfs-like tree in a mkdtemp() directory, removed when the test ends.
#pragma once

#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <string_view>

namespace pmucat::testing {

class TempTree {
 public:
  TempTree() {
    std::string pattern =
        (std::filesystem::temp_directory_path() / "pmucat-catalog-XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
    root_ = pattern;
  }
  TempTree(const TempTree&) = delete;
  TempTree& operator=(const TempTree&) = delete;
  ~TempTree() {
    std::error_code ignored;
    std::filesystem::remove_all(root_, ignored);
  }

  const std::filesystem::path& root() const { return root_; }
  std::filesystem::path path(std::string_view relative) const { return root_ / relative; }

  // Writes `content` to root/relative, creating parent directories.
  void write(std::string_view relative, std::string_view content) const {
    std::filesystem::path file = path(relative);
    std::filesystem::create_directories(file.parent_path());
    std::ofstream out(file, std::ios::binary | std::ios::trunc);
    out.write(content.data(), static_cast<std::streamsize>(content.size()));
    if (!out) throw std::runtime_error("cannot write " + file.string());
  }
  void mkdir(std::string_view relative) const {
    std::filesystem::create_directories(path(relative));
  }
  void symlink(std::string_view target, std::string_view relative) const {
    std::filesystem::create_directories(path(relative).parent_path());
    std::filesystem::create_symlink(target, path(relative));
  }
  void fifo(std::string_view relative) const {
    std::filesystem::create_directories(path(relative).parent_path());
    if (::mkfifo(path(relative).c_str(), 0644) != 0) throw std::runtime_error("mkfifo failed");
  }
  void remove(std::string_view relative) const { std::filesystem::remove_all(path(relative)); }

 private:
  std::filesystem::path root_;
};

}  // namespace pmucat::testing
