// A fresh directory for one test, removed with everything in it when the object goes.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <utility>

#include "pmucat/version.h"

PMUCAT_BEGIN_NAMESPACE
namespace testing {

class ScratchDir {
 public:
  // Creates <temp dir>/pmucat-<label>-XXXXXX (mkdtemp); throws std::runtime_error when it cannot.
  explicit ScratchDir(std::string_view label = "scratch");
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;
  // A moved-from ScratchDir owns nothing (path() is empty) and removes nothing.
  ScratchDir(ScratchDir&& other) noexcept : path_(std::exchange(other.path_, {})) {}
  ScratchDir& operator=(ScratchDir&&) = delete;
  ~ScratchDir();

  const std::filesystem::path& path() const { return path_; }
  std::filesystem::path operator/(const std::filesystem::path& relative) const {
    return path_ / relative;
  }

 private:
  std::filesystem::path path_;
};

}  // namespace testing
PMUCAT_END_NAMESPACE
