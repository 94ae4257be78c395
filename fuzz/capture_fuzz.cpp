// The capture reader's check (src/snapshot/unpack.cpp) on a tree built from the input
// (tree_codec.h), written as the input says: unlike write_tree, symlinks may point anywhere,
// absolute, up through `..`, through each other, in loops. What `tar -x` leaves is such a tree;
// the check decides whether any reader may be given it. Invariants: the kernel's resolution
// (openat2 RESOLVE_BENEATH) and the component walk used where the kernel lacks it give the same
// verdict; in a tree both accept, every link that resolves at all resolves inside the tree.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "fuzz_target.h"
#include "io/temporary_cleanup.h"
#include "snapshot/snapshot_detail.h"
#include "tree_codec.h"

namespace {

namespace fs = std::filesystem;
using pmucat::fuzz::EntryKind;
using pmucat::fuzz::TreeEntry;

// Creates `entry` below the directory open at `root_fd` without ever following a link on the
// way (a link the input made earlier must not lead a write out of the scratch directory).
void create(int root_fd, const TreeEntry& entry) {
  std::vector<std::string> parts;
  for (const auto& part : fs::path(entry.path)) {
    const std::string name = part.string();
    if (name.empty() || name == "." || name == ".." || name == "/") return;
    parts.push_back(name);
  }
  if (parts.empty()) return;
  int dir_fd = ::dup(root_fd);
  for (std::size_t i = 0; i + 1 < parts.size() && dir_fd >= 0; ++i) {
    ::mkdirat(dir_fd, parts[i].c_str(), 0755);
    const int next = ::openat(dir_fd, parts[i].c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
    ::close(dir_fd);
    dir_fd = next;
  }
  if (dir_fd < 0) return;
  const char* name = parts.back().c_str();
  switch (entry.kind) {
    case EntryKind::directory:
      ::mkdirat(dir_fd, name, 0755);
      break;
    case EntryKind::symlink:
      ::symlinkat(entry.content.c_str(), dir_fd, name);
      break;
    case EntryKind::fifo:
      ::mkfifoat(dir_fd, name, 0644);
      break;
    case EntryKind::file:
    case EntryKind::file_with_nuls: {
      const int fd = ::openat(dir_fd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0644);
      if (fd >= 0) {
        [[maybe_unused]] const ssize_t put =
            ::write(fd, entry.content.data(), entry.content.size());
        ::close(fd);
      }
      break;
    }
  }
  ::close(dir_fd);
}

bool is_within(const fs::path& path, const fs::path& root) {
  auto [root_end, path_end] = std::mismatch(root.begin(), root.end(), path.begin(), path.end());
  return root_end == root.end();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto entries = pmucat::fuzz::decode_tree({data, size});
  std::error_code ec;
  const fs::path base = fs::temp_directory_path(ec);
  std::string pattern = ((ec ? fs::path("/tmp") : base) / "capture-fuzz.XXXXXX").string();
  PMUCAT_FUZZ_CHECK(::mkdtemp(pattern.data()) != nullptr);
  const fs::path root = fs::canonical(pattern);
  const int root_fd = ::open(root.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  PMUCAT_FUZZ_CHECK(root_fd >= 0);
  for (const TreeEntry& entry : entries) create(root_fd, entry);

  const auto kernel = pmucat::snap::detail::unsafe_capture_entry(root_fd, true);
  const auto walked = pmucat::snap::detail::unsafe_capture_entry(root_fd, false);
  PMUCAT_FUZZ_CHECK(kernel == walked);
  if (!kernel) {
    for (auto it = fs::recursive_directory_iterator(root, ec); !ec && it != fs::end(it);
         it.increment(ec)) {
      if (!it->is_symlink()) continue;
      std::error_code resolved;
      const fs::path real = fs::canonical(it->path(), resolved);
      PMUCAT_FUZZ_CHECK(resolved || is_within(real, root));
    }
  }
  ::close(root_fd);
  pmucat::io::remove_tree(root.c_str());
  return 0;
}
