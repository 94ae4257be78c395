#include "pmucat/snapshot.h"

PMUCAT_BEGIN_NAMESPACE
namespace snap {

Expected<OpenedTree> open_tree(const std::filesystem::path& path) {
  if (path.empty()) {
    auto catalog = Catalog::open_default();
    if (!catalog) return unexpected(std::move(catalog).error());
    return OpenedTree{std::nullopt, std::move(*catalog)};
  }
  if (!is_tarball(path)) {
    auto catalog = Catalog::open(path);
    if (!catalog) return unexpected(std::move(catalog).error());
    return OpenedTree{std::nullopt, std::move(*catalog)};
  }
  auto unpacked = Unpacked::open(path);
  if (!unpacked) return unexpected(std::move(unpacked).error());
  auto catalog = Catalog::open(unpacked->root());
  if (!catalog) return unexpected(std::move(catalog).error());
  return OpenedTree{std::move(*unpacked), std::move(*catalog)};
}

}  // namespace snap
PMUCAT_END_NAMESPACE
