#include "support/scratch_dir.h"

#include <stdlib.h>

#include <stdexcept>
#include <system_error>

#include "pmucat/version.h"

PMUCAT_BEGIN_NAMESPACE
namespace testing {

ScratchDir::ScratchDir(std::string_view label) {
  std::string pattern =
      (std::filesystem::temp_directory_path() / ("pmucat-" + std::string(label) + "-XXXXXX"))
          .string();
  if (::mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp " + pattern);
  path_ = pattern;
}

ScratchDir::~ScratchDir() {
  if (path_.empty()) return;
  std::error_code ignored;
  std::filesystem::remove_all(path_, ignored);
}

}  // namespace testing
PMUCAT_END_NAMESPACE
