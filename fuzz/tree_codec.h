// A tiny container format for sysfs-like trees, so one fuzz input is one whole tree.
//
// An input is a sequence of records, each `KIND PATH \0 CONTENT \0` (the last record may end
// early: a missing part is empty). KIND is one byte:
//   'f' regular file (CONTENT is its bytes)      'd' directory
//   'l' symbolic link (CONTENT is the target)    'p' FIFO
//   'n' file whose 0x01 bytes become NUL bytes (so file contents can hold NULs)
// any other byte selects one of these five by its value modulo 5, so every input decodes.
// Paths are relative, `/`-separated, without `..`; records that break these rules are dropped,
// as are symlinks whose target could leave the tree (see write_tree).
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

#include "pmucat/version.h"

PMUCAT_BEGIN_NAMESPACE
namespace fuzz {

enum class EntryKind : std::uint8_t { file, directory, symlink, fifo, file_with_nuls };

struct TreeEntry {
  EntryKind kind = EntryKind::file;
  std::string path;     // relative to the tree root
  std::string content;  // file bytes (NULs already restored) or symlink target
  friend bool operator==(const TreeEntry&, const TreeEntry&) = default;
};

// Bounds that keep one input's tree small and quick to write.
inline constexpr std::size_t kMaxTreeEntries = 512;
inline constexpr std::size_t kMaxPathDepth = 12;

// Decodes an input into entries; never fails (malformed records are dropped).
std::vector<TreeEntry> decode_tree(std::span<const std::uint8_t> bytes);

// Encodes entries so that decode_tree gives them back (a file holding NUL bytes is written as an
// 'n' record; contents holding 0x01 and NUL bytes at once do not round-trip exactly).
std::string encode_tree(std::span<const TreeEntry> entries);

// Reads the tree under `root` (without following symlinks), in a stable order, keeping only the
// paths under one of `subpaths` (all when empty) and the directories leading to them.
std::vector<TreeEntry> read_tree(const std::filesystem::path& root,
                                 std::span<const std::string> subpaths = {});

// Creates `entries` under `root` in order. Entries that cannot be created (a file where a
// directory is, a symlink whose target could resolve outside `root`, ...) are skipped: the fuzz
// input decides the tree, and a tree that differs from it by a skipped entry is still a tree.
// Returns how many entries were created.
std::size_t write_tree(const std::filesystem::path& root, std::span<const TreeEntry> entries);

// A fresh directory from mkdtemp under $TMPDIR (or /tmp), removed with everything in it when the
// guard is destroyed, so a fuzz run never leaves trees behind.
class ScratchDir {
 public:
  ScratchDir();
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;
  ~ScratchDir();
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

}  // namespace fuzz
PMUCAT_END_NAMESPACE
