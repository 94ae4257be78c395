// A throwaway sysfs-like tree in a scratch directory, removed when the test ends.
#pragma once

#include <filesystem>
#include <string_view>

#include "pmucat/version.h"
#include "support/files.h"
#include "support/scratch_dir.h"

PMUCAT_BEGIN_NAMESPACE
namespace testing {

class TempTree {
 public:
  explicit TempTree(std::string_view label = "tree") : dir_(label) {}

  const std::filesystem::path& root() const { return dir_.path(); }
  std::filesystem::path path(std::string_view relative) const { return dir_.path() / relative; }

  // Writes `content` to root/relative, creating parent directories.
  void write(std::string_view relative, std::string_view content) const {
    write_text(path(relative), content);
  }
  void mkdir(std::string_view relative) const {
    std::filesystem::create_directories(path(relative));
  }
  void symlink(std::string_view target, std::string_view relative) const {
    std::filesystem::create_directories(path(relative).parent_path());
    std::filesystem::create_symlink(target, path(relative));
  }
  void fifo(std::string_view relative) const { make_fifo(path(relative)); }
  void socket(std::string_view relative) const { make_socket(path(relative)); }
  // Copies `source` (a file or a whole directory) to root/relative.
  void copy(const std::filesystem::path& source, std::string_view relative) const {
    std::filesystem::create_directories(path(relative).parent_path());
    std::filesystem::copy(source, path(relative), std::filesystem::copy_options::recursive);
  }
  void remove(std::string_view relative) const { std::filesystem::remove_all(path(relative)); }

 private:
  ScratchDir dir_;
};

}  // namespace testing
PMUCAT_END_NAMESPACE
