#include "tree_codec.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string_view>
#include <system_error>

#include "pmucat/version.h"

PMUCAT_BEGIN_NAMESPACE
namespace fuzz {
namespace {

namespace fs = std::filesystem;

constexpr std::array<char, 5> kKindLetters = {'f', 'd', 'l', 'p', 'n'};

EntryKind kind_from_byte(std::uint8_t byte) {
  for (std::size_t i = 0; i < kKindLetters.size(); ++i) {
    if (static_cast<char>(byte) == kKindLetters[i]) return static_cast<EntryKind>(i);
  }
  return static_cast<EntryKind>(byte % kKindLetters.size());
}

char letter_of(EntryKind kind) {
  return kKindLetters[static_cast<std::size_t>(kind)];
}

std::vector<std::string_view> split_path(std::string_view path) {
  std::vector<std::string_view> parts;
  while (!path.empty()) {
    std::size_t slash = path.find('/');
    std::string_view part = path.substr(0, slash);
    if (!part.empty() && part != ".") parts.push_back(part);
    if (slash == std::string_view::npos) break;
    path.remove_prefix(slash + 1);
  }
  return parts;
}

bool is_acceptable_path(std::string_view path) {
  if (path.empty() || path.front() == '/') return false;
  std::vector<std::string_view> parts = split_path(path);
  if (parts.empty() || parts.size() > kMaxPathDepth) return false;
  return std::none_of(parts.begin(), parts.end(), [](std::string_view p) { return p == ".."; });
}

// Reads bytes up to the next NUL (or the end) and steps past the NUL.
std::string take_until_nul(std::span<const std::uint8_t> bytes, std::size_t& pos) {
  std::size_t start = pos;
  while (pos < bytes.size() && bytes[pos] != 0) ++pos;
  std::string text(reinterpret_cast<const char*>(bytes.data() + start), pos - start);
  if (pos < bytes.size()) ++pos;
  return text;
}

// True when `target`, read relative to the directory `link_dir`, cannot resolve outside `root`:
// it is relative, climbs with leading `..` no higher than `link_dir`'s real depth below `root`,
// and has no `..` after that. Every link accepted this way stays inside, so a chain of them
// (which the kernel follows) stays inside too.
bool link_stays_inside(const fs::path& root, const fs::path& link_dir, std::string_view target) {
  if (target.empty() || target.front() == '/') return false;
  std::error_code error;
  fs::path real_dir = fs::canonical(link_dir, error);
  if (error) return false;
  fs::path below_root = real_dir.lexically_relative(root);
  if (below_root.empty()) return false;
  std::size_t depth = 0;
  for (const fs::path& part : below_root) {
    if (part == "..") return false;
    if (part != ".") ++depth;
  }
  std::size_t climbs = 0;
  bool descended = false;
  std::size_t pos = 0;
  while (pos <= target.size()) {
    std::size_t slash = std::min(target.find('/', pos), target.size());
    std::string_view part = target.substr(pos, slash - pos);
    if (part == "..") {
      if (descended) return false;
      ++climbs;
    } else if (!part.empty() && part != ".") {
      descended = true;
    }
    pos = slash + 1;
  }
  return climbs <= depth;
}

bool write_file(const fs::path& path, std::string_view content) {
  // O_NONBLOCK: opening an existing FIFO for writing must not wait for a reader.
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC,
                  0644);
  if (fd < 0) return false;
  bool ok = true;
  while (!content.empty()) {
    ssize_t wrote = ::write(fd, content.data(), content.size());
    if (wrote <= 0) {
      ok = false;
      break;
    }
    content.remove_prefix(static_cast<std::size_t>(wrote));
  }
  ::close(fd);
  return ok;
}

bool is_under_any(const std::string& path, std::span<const std::string> subpaths) {
  if (subpaths.empty()) return true;
  return std::any_of(subpaths.begin(), subpaths.end(), [&](const std::string& sub) {
    return path == sub || (path.size() > sub.size() && path.compare(0, sub.size(), sub) == 0 &&
                           path[sub.size()] == '/');
  });
}

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

}  // namespace

std::vector<TreeEntry> decode_tree(std::span<const std::uint8_t> bytes) {
  std::vector<TreeEntry> entries;
  std::size_t pos = 0;
  while (pos < bytes.size() && entries.size() < kMaxTreeEntries) {
    TreeEntry entry;
    entry.kind = kind_from_byte(bytes[pos++]);
    entry.path = take_until_nul(bytes, pos);
    entry.content = take_until_nul(bytes, pos);
    if (entry.kind == EntryKind::file_with_nuls) {
      std::replace(entry.content.begin(), entry.content.end(), '\x01', '\0');
    }
    if (is_acceptable_path(entry.path)) entries.push_back(std::move(entry));
  }
  return entries;
}

std::string encode_tree(std::span<const TreeEntry> entries) {
  std::string out;
  for (const TreeEntry& entry : entries) {
    EntryKind kind = entry.kind;
    std::string content = entry.content;
    if (kind == EntryKind::file && content.find('\0') != std::string::npos) {
      kind = EntryKind::file_with_nuls;
    }
    if (kind == EntryKind::file_with_nuls)
      std::replace(content.begin(), content.end(), '\0', '\x01');
    out += letter_of(kind);
    out += entry.path;
    out += '\0';
    out += content;
    out += '\0';
  }
  return out;
}

std::vector<TreeEntry> read_tree(const fs::path& root, std::span<const std::string> subpaths) {
  std::vector<TreeEntry> entries;
  for (const fs::directory_entry& item : fs::recursive_directory_iterator(root)) {
    std::string relative = item.path().lexically_relative(root).generic_string();
    if (!is_under_any(relative, subpaths)) continue;
    fs::file_status status = item.symlink_status();
    TreeEntry entry{EntryKind::file, relative, ""};
    if (fs::is_symlink(status)) {
      entry.kind = EntryKind::symlink;
      entry.content = fs::read_symlink(item.path()).string();
    } else if (fs::is_directory(status)) {
      entry.kind = EntryKind::directory;
    } else if (fs::is_fifo(status)) {
      entry.kind = EntryKind::fifo;
    } else if (fs::is_regular_file(status)) {
      entry.content = read_file(item.path());
    } else {
      continue;
    }
    entries.push_back(std::move(entry));
  }
  std::sort(entries.begin(), entries.end(),
            [](const TreeEntry& a, const TreeEntry& b) { return a.path < b.path; });
  return entries;
}

std::size_t write_tree(const fs::path& root, std::span<const TreeEntry> entries) {
  std::error_code error;
  fs::path real_root = fs::canonical(root, error);
  if (error) return 0;
  std::size_t created = 0;
  for (const TreeEntry& entry : entries) {
    fs::path path = real_root / entry.path;
    if (entry.kind == EntryKind::directory) {
      fs::create_directories(path, error);
      created += error ? 0 : 1;
      continue;
    }
    fs::create_directories(path.parent_path(), error);
    if (error) continue;
    bool ok = false;
    switch (entry.kind) {
      case EntryKind::file:
      case EntryKind::file_with_nuls:
        ok = write_file(path, entry.content);
        break;
      case EntryKind::symlink:
        ok = link_stays_inside(real_root, path.parent_path(), entry.content) &&
             ::symlink(entry.content.c_str(), path.c_str()) == 0;
        break;
      case EntryKind::fifo:
        ok = ::mkfifo(path.c_str(), 0644) == 0;
        break;
      case EntryKind::directory:
        break;
    }
    created += ok ? 1 : 0;
  }
  return created;
}

ScratchDir::ScratchDir() {
  std::string pattern = (fs::temp_directory_path() / "pmucat-fuzz-XXXXXX").string();
  if (::mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
  path_ = pattern;
}

ScratchDir::~ScratchDir() {
  std::error_code ignored;
  fs::remove_all(path_, ignored);
}

}  // namespace fuzz
PMUCAT_END_NAMESPACE
