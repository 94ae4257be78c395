#include "common/tree.h"

namespace pmucat::cli {

Expected<snap::OpenedTree> open_tree(const std::filesystem::path& path) {
  return snap::open_tree(path.empty() ? std::filesystem::path("/sys") : path);
}

Expected<snap::OpenedTree> open_tree(const CommonOptions& options) {
  return open_tree(std::filesystem::path(options.sysfs));
}

}  // namespace pmucat::cli
