// Where ../shared (the perf.data corpus, quipper) is: beside the source tree, or wherever
// $PMUCAT_SHARED_DIR says (a checkout kept elsewhere, such as a git worktree).
#pragma once

#include <cstdlib>
#include <filesystem>

#include "pmucat/version.h"

PMUCAT_BEGIN_NAMESPACE
namespace testing {

inline std::filesystem::path shared_dir() {
  if (const char* dir = std::getenv("PMUCAT_SHARED_DIR"); dir != nullptr && *dir != '\0') {
    return dir;
  }
  return PMUCAT_SOURCE_DIR "/../shared";
}

}  // namespace testing
PMUCAT_END_NAMESPACE
