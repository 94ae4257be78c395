// The per-user cache of compiled indexes (vendor_index_cache.h): stamps checked by stat(), entries
// compiled into a temporary sibling and renamed into place.
#include <fcntl.h>
#include <fmt/core.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <set>
#include <system_error>
#include <vector>

#include "pmucat/diagnostic_ids.h"
#include "pmucat/vendor_index_cache.h"
#include "pmucat/version.h"
#include "vendor/text_file.h"
#include "vendor_index/compile.h"

namespace pmucat {
namespace {

namespace fs = std::filesystem;

constexpr std::string_view kStampHeader = "pmucat-vendor-index-cache 1";
constexpr std::string_view kStampSuffix = ".stamp";

Diagnostic cache_error(const fs::path& path, std::string_view what) {
  return make_file_diagnostic(Severity::error, DiagId::vendor_index_unreadable, path.string(),
                              fmt::format("the vendor index cache is not used: {}", what));
}

// FNV-1a, 64 bits: names, not security. A stamp repeats the identity it was made for, so a
// collision of two stamps' names is seen, and an entry's name covers identity and fingerprint.
std::string hash_hex(std::string_view text) {
  std::uint64_t hash = 0xcbf29ce484222325ULL;
  for (char c : text) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 0x100000001b3ULL;
  }
  return fmt::format("{:016x}", hash);
}

// One file or directory an entry was compiled from, as stat() saw it; `missing` when it was not
// there (a model directory the mapfile names, an architecture without one): its appearance is
// a change too.
struct Stamped {
  std::string path;  // relative to the JSON root; "." is the root
  bool missing = false;
  bool directory = false;
  std::uint64_t device = 0;
  std::uint64_t inode = 0;
  std::int64_t size = 0;
  std::int64_t mtime_ns = 0;
  std::int64_t ctime_ns = 0;
  friend bool operator==(const Stamped&, const Stamped&) = default;
};

std::int64_t nanoseconds(const struct timespec& time) {
  return static_cast<std::int64_t>(time.tv_sec) * 1'000'000'000 + time.tv_nsec;
}

// fstatat() below the open root (stat(), not lstat(): the JSON reader follows symlinks).
Stamped stat_at(int root_fd, std::string path) {
  Stamped stamped;
  stamped.path = std::move(path);
  struct stat status {};
  if (::fstatat(root_fd, stamped.path.c_str(), &status, 0) != 0) {
    stamped.missing = true;
    return stamped;
  }
  stamped.directory = S_ISDIR(status.st_mode);
  stamped.device = status.st_dev;
  stamped.inode = status.st_ino;
  stamped.size = status.st_size;
  stamped.mtime_ns = nanoseconds(status.st_mtim);
  stamped.ctime_ns = nanoseconds(status.st_ctim);
  return stamped;
}

// The fingerprint: what load_vendor_model() and load_vendor_sys_tables() read, found as they
// find it. A directory's own stat changes when an entry is added, removed or renamed in it, so
// stat()ing the directories walked and the files read catches every change they could see,
// without listing anything on a hit.
class Fingerprint {
 public:
  Fingerprint(int root_fd, const fs::path& root) : root_fd_(root_fd), root_(root) {}

  // A directory load_vendor_model() lists, and its JSON files (list_json_files: regular
  // `*.json`, in name order).
  void json_directory(const std::string& relative) {
    add(relative);
    if (!items_.back().missing) json_files(relative);
  }

  // What load_vendor_sys_tables(root / arch) reads: every directory of its walk (entries in name
  // order, depth first, at most 8 deep) and each `sys` table with the architecture's own files.
  void sys_tables(const std::string& arch) {
    add(arch);
    if (items_.back().missing || !items_.back().directory) return;
    json_files(arch);
    walk(arch, 0);
  }

  void add(std::string relative) { items_.push_back(stat_at(root_fd_, std::move(relative))); }

  // The items in the order first met, each path once (the model's architecture is also the
  // system tables' one).
  std::vector<Stamped> take() && {
    std::vector<Stamped> unique;
    std::set<std::string_view> seen;
    for (const Stamped& item : items_) {
      if (seen.insert(item.path).second) unique.push_back(item);
    }
    return unique;
  }

 private:
  void json_files(const std::string& relative) {
    std::vector<std::string> files;
    std::error_code error;
    for (fs::directory_iterator it(root_ / relative, error), end; !error && it != end;
         it.increment(error)) {
      std::error_code status_error;
      const std::string name = it->path().filename().string();
      if (name.ends_with(".json") && fs::is_regular_file(it->path(), status_error)) {
        files.push_back(relative + "/" + name);
      }
    }
    std::sort(files.begin(), files.end());
    for (std::string& file : files) add(std::move(file));
  }

  void walk(const std::string& relative, int depth) {
    constexpr int kMaxDepth = 8;  // find_sys_directories()'s bound
    if (depth > kMaxDepth) return;
    std::vector<std::string> subdirectories;
    std::error_code error;
    for (fs::directory_iterator it(root_ / relative, error), end; !error && it != end;
         it.increment(error)) {
      std::error_code status_error;
      if (it->is_directory(status_error)) {
        subdirectories.push_back(relative + "/" + it->path().filename().string());
      }
    }
    std::sort(subdirectories.begin(), subdirectories.end());
    for (const std::string& subdirectory : subdirectories) {
      if (subdirectory.ends_with("/sys")) {
        json_directory(subdirectory);
      } else {
        add(subdirectory);
        walk(subdirectory, depth + 1);
      }
    }
  }

  int root_fd_;
  const fs::path& root_;
  std::vector<Stamped> items_;
};

std::string stamp_line(const Stamped& item) {
  if (item.missing) return fmt::format("- {}\n", item.path);
  return fmt::format("{} {} {} {} {} {} {}\n", item.directory ? 'd' : 'f', item.device, item.inode,
                     item.size, item.mtime_ns, item.ctime_ns, item.path);
}

template <typename T>
bool parse_number(std::string_view& line, T& value) {
  const auto [end, status] = std::from_chars(line.data(), line.data() + line.size(), value);
  if (status != std::errc() || end == line.data() + line.size() || *end != ' ') return false;
  line.remove_prefix(static_cast<std::size_t>(end - line.data()) + 1);
  return true;
}

std::optional<Stamped> parse_stamp_line(std::string_view line) {
  Stamped item;
  if (line.starts_with("- ")) {
    item.missing = true;
    item.path = std::string(line.substr(2));
    return item;
  }
  if (line.size() < 2 || (line[0] != 'd' && line[0] != 'f') || line[1] != ' ') return std::nullopt;
  item.directory = line[0] == 'd';
  line.remove_prefix(2);
  if (!parse_number(line, item.device) || !parse_number(line, item.inode) ||
      !parse_number(line, item.size) || !parse_number(line, item.mtime_ns) ||
      !parse_number(line, item.ctime_ns) || line.empty()) {
    return std::nullopt;
  }
  item.path = std::string(line);
  return item;
}

// A stamp file: its header, identity, entry name, the entry's files with their sizes, then the
// fingerprint. Anything else in it makes it no stamp (a miss).
struct Stamp {
  std::string identity;
  std::string entry;
  std::vector<std::pair<std::string, std::int64_t>> entry_files;  // relative to the entry
  std::vector<Stamped> inputs;
};

std::string format_stamp(const Stamp& stamp) {
  std::string text =
      fmt::format("{}\nidentity {}\nentry {}\n", kStampHeader, stamp.identity, stamp.entry);
  for (const auto& [file, size] : stamp.entry_files) text += fmt::format("e {} {}\n", size, file);
  for (const Stamped& item : stamp.inputs) text += stamp_line(item);
  return text;
}

std::optional<Stamp> parse_stamp(std::string_view text) {
  Stamp stamp;
  std::size_t line_number = 0;
  while (!text.empty()) {
    const std::size_t end = text.find('\n');
    if (end == std::string_view::npos) return std::nullopt;  // cut short
    std::string_view line = text.substr(0, end);
    text.remove_prefix(end + 1);
    ++line_number;
    if (line_number == 1) {
      if (line != kStampHeader) return std::nullopt;
    } else if (line_number == 2) {
      if (!line.starts_with("identity ")) return std::nullopt;
      stamp.identity = std::string(line.substr(9));
    } else if (line_number == 3) {
      if (!line.starts_with("entry ")) return std::nullopt;
      stamp.entry = std::string(line.substr(6));
    } else if (line.starts_with("e ")) {
      line.remove_prefix(2);
      std::int64_t size = 0;
      if (!parse_number(line, size) || line.empty()) return std::nullopt;
      stamp.entry_files.emplace_back(std::string(line), size);
    } else {
      auto item = parse_stamp_line(line);
      if (!item) return std::nullopt;
      stamp.inputs.push_back(std::move(*item));
    }
  }
  // An entry name is a hash: never a path that leaves the cache directory.
  if (stamp.entry.size() != 16 ||
      stamp.entry.find_first_not_of("0123456789abcdef") != std::string::npos) {
    return std::nullopt;
  }
  for (const auto& [file, size] : stamp.entry_files) {
    if (file.starts_with('/') || file.find("..") != std::string::npos) return std::nullopt;
  }
  return stamp;
}

bool fresh(int root_fd, const std::vector<Stamped>& inputs) {
  return std::all_of(inputs.begin(), inputs.end(),
                     [&](const Stamped& item) { return stat_at(root_fd, item.path) == item; });
}

// The entry's files are there with the sizes they were written with, and each opens as an index
// file (its header and sections checked against its bytes): a truncated, extended or garbage
// file is a miss. The marker too: the entry is a whole index root. The files, opened, in the
// stamp's order.
std::optional<std::vector<VendorIndexModel>> open_entry(const fs::path& root, const Stamp& stamp) {
  if (!is_vendor_index(root)) return std::nullopt;
  std::vector<VendorIndexModel> files;
  for (const auto& [file, size] : stamp.entry_files) {
    auto opened = VendorIndexModel::open(root / file);
    if (!opened || opened->byte_size() != static_cast<std::size_t>(size)) return std::nullopt;
    files.push_back(std::move(*opened));
  }
  return files;
}

// The entry's model file among its files, opened (the first one, when a model was asked for).
std::optional<VendorIndexModel> model_of(std::optional<std::vector<VendorIndexModel>> files,
                                         std::string_view directory) {
  if (!files || files->empty() || directory.empty()) return std::nullopt;
  return std::move(files->front());
}

// mkdir -p, new directories private (0700, as the XDG base directory rules ask).
bool make_private_directories(const fs::path& dir) {
  std::error_code error;
  if (fs::is_directory(dir, error)) return true;
  if (dir.has_parent_path() && dir.parent_path() != dir &&
      !make_private_directories(dir.parent_path())) {
    return false;
  }
  return ::mkdir(dir.c_str(), 0700) == 0 || errno == EEXIST;
}

// The file and directory descriptor of the JSON root, closed on scope exit.
class RootFd {
 public:
  explicit RootFd(const fs::path& root)
      : fd_(::open(root.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC)) {}
  RootFd(const RootFd&) = delete;
  RootFd& operator=(const RootFd&) = delete;
  ~RootFd() {
    if (fd_ >= 0) ::close(fd_);
  }
  int get() const { return fd_; }

 private:
  int fd_;
};

// Writes the entry's files into `dir`; the names and sizes written, or nullopt.
std::optional<std::vector<std::pair<std::string, std::int64_t>>> write_entry(
    const fs::path& dir, const fs::path& json_root, std::string_view arch,
    std::string_view directory, PerfVersion rules) {
  std::vector<std::pair<std::string, std::int64_t>> written;
  std::error_code error;
  auto put = [&](const std::string& relative, const std::string& bytes) {
    const fs::path path = dir / relative;
    fs::create_directories(path.parent_path(), error);
    if (error || !vendor_index::write_file(path, bytes)) return false;
    written.emplace_back(relative, static_cast<std::int64_t>(bytes.size()));
    return true;
  };
  if (!arch.empty() && !directory.empty()) {
    const std::string name = std::string(arch) + "/" + vendor_index_file_name(directory);
    if (!put(name,
             vendor_index::compile_model_file(json_root, arch, directory, rules, false).bytes)) {
      return std::nullopt;
    }
  }
  std::vector<std::string_view> tables_archs;
  if (!arch.empty()) tables_archs.push_back(arch);
  if (arch != "test") tables_archs.emplace_back("test");
  for (std::string_view tables_arch : tables_archs) {
    auto file = vendor_index::compile_sys_file(json_root, tables_arch, rules, false);
    if (file &&
        !put(std::string(tables_arch) + "/" + std::string(kVendorIndexSysFile), file->bytes)) {
      return std::nullopt;
    }
  }
  if (!vendor_index::write_file(dir / kVendorIndexMarker, vendor_index::marker_text(rules))) {
    return std::nullopt;
  }
  return written;
}

// Moves an existing entry aside and removes it (best effort: a reader with its files mapped
// keeps them; one about to open them meets a miss and compiles again).
void discard(const fs::path& entry) {
  const auto aside = vendor_index::temporary_sibling(entry.string() + ".old");
  if (!aside) return;
  std::error_code error;
  if (::rename(entry.c_str(), aside->c_str()) != 0) {
    fs::remove(*aside, error);
    return;
  }
  fs::remove_all(*aside, error);
}

bool publish_stamp(const fs::path& path, const std::string& text) {
  std::string name = path.string() + ".XXXXXX";
  const int fd = ::mkstemp(name.data());
  if (fd < 0) return false;
  ::close(fd);
  if (!vendor_index::write_file(name, text) || ::rename(name.c_str(), path.c_str()) != 0) {
    ::unlink(name.c_str());
    return false;
  }
  return true;
}

}  // namespace

std::optional<fs::path> vendor_index_cache_dir(std::string_view xdg_cache_home,
                                               std::string_view home) {
  if (xdg_cache_home.starts_with('/')) return fs::path(xdg_cache_home) / "pmucat/vendor-index";
  if (home.starts_with('/')) return fs::path(home) / ".cache/pmucat/vendor-index";
  return std::nullopt;
}

Expected<VendorIndexCache::Entry> VendorIndexCache::open(const fs::path& json_root,
                                                         std::string_view arch,
                                                         std::string_view directory,
                                                         PerfVersion rules) const {
  std::error_code error;
  // Lexical (getcwd() for a relative path, no realpath(): a dozen system calls less a run); the
  // fingerprint holds the root's device and inode, so another tree at the same path is a miss.
  const fs::path absolute = fs::absolute(json_root, error);
  if (error) return unexpected(cache_error(json_root, error.message()));
  // Everything an entry's bytes depend on besides the files: the tree as named (locations keep
  // that spelling) and where it is, the model, the index format, pmucat's rules.
  const std::string identity =
      fmt::format("format {} pmucat {} rules {} code {} arch {} model {} root {} as {}",
                  kVendorIndexVersion, kVersion, to_string(rules), PMUCAT_VENDOR_RULES_DIGEST, arch,
                  directory, absolute.string(), json_root.string());
  if (identity.find('\n') != std::string::npos) {
    return unexpected(cache_error(json_root, "a path with a newline"));
  }
  const RootFd root_fd(json_root);
  if (root_fd.get() < 0) return unexpected(cache_error(json_root, std::strerror(errno)));
  const fs::path stamp_path = dir_ / (hash_hex(identity) + std::string(kStampSuffix));

  // A hit: the stamp is ours, nothing it lists changed, and its entry opens.
  std::optional<Stamp> previous;
  if (auto text = vendor::read_text_file(stamp_path)) previous = parse_stamp(*text);
  if (previous && previous->identity != identity) previous.reset();
  if (previous && fresh(root_fd.get(), previous->inputs)) {
    const fs::path root = dir_ / previous->entry;
    if (auto files = open_entry(root, *previous)) {
      return Entry{root, false, model_of(std::move(files), directory)};
    }
  }

  // A miss. The fingerprint first, the JSON after: a file that changes while it is read has a
  // stamp that no longer matches, so the next run compiles again.
  Fingerprint fingerprint(root_fd.get(), json_root);
  fingerprint.add(".");
  if (!arch.empty() && !directory.empty()) {
    fingerprint.json_directory(std::string(arch));
    fingerprint.json_directory(std::string(arch) + "/" + std::string(directory));
  }
  if (!arch.empty()) fingerprint.sys_tables(std::string(arch));
  if (arch != "test") fingerprint.sys_tables("test");
  Stamp stamp;
  stamp.identity = identity;
  stamp.inputs = std::move(fingerprint).take();
  const auto now = std::chrono::system_clock::now().time_since_epoch();
  const std::int64_t settled_before =
      std::chrono::duration_cast<std::chrono::nanoseconds>(now - options_.settle).count();
  for (const Stamped& item : stamp.inputs) {
    if (item.path.find('\n') != std::string::npos) {
      return unexpected(cache_error(json_root / item.path, "a path with a newline"));
    }
    if (!item.missing && std::max(item.mtime_ns, item.ctime_ns) >= settled_before) {
      return unexpected(cache_error(json_root / item.path, "modified too recently to be cached"));
    }
  }
  std::string fingerprint_text;
  for (const Stamped& item : stamp.inputs) fingerprint_text += stamp_line(item);
  stamp.entry = hash_hex(identity + "\n" + fingerprint_text);
  const fs::path entry = dir_ / stamp.entry;

  if (!make_private_directories(dir_)) {
    return unexpected(cache_error(dir_, std::strerror(errno)));
  }
  const auto temporary = vendor_index::temporary_sibling(entry);
  if (!temporary) return unexpected(cache_error(dir_, std::strerror(errno)));
  auto written = write_entry(*temporary, json_root, arch, directory, rules);
  // The tree changed under the compile: what was written may mix two states.
  if (!written || !fresh(root_fd.get(), stamp.inputs)) {
    fs::remove_all(*temporary, error);
    return unexpected(cache_error(
        dir_, written ? "the JSON tree changed while it was compiled" : "cannot write the entry"));
  }
  stamp.entry_files = std::move(*written);
  if (::rename(temporary->c_str(), entry.c_str()) != 0) {
    // Another process published this entry first (a rename onto a non-empty directory fails):
    // take its entry, unless it is damaged, which ours replaces.
    if (!open_entry(entry, stamp)) {
      discard(entry);
      if (::rename(temporary->c_str(), entry.c_str()) != 0 && !open_entry(entry, stamp)) {
        fs::remove_all(*temporary, error);
        return unexpected(cache_error(entry, std::strerror(errno)));
      }
    }
    fs::remove_all(*temporary, error);
  }
  auto files = open_entry(entry, stamp);
  if (!files) return unexpected(cache_error(entry, "the entry just written does not open"));
  if (!publish_stamp(stamp_path, format_stamp(stamp))) {
    return unexpected(cache_error(stamp_path, "cannot write the stamp"));
  }
  // The entry the old stamp vouched for serves no one now.
  if (previous && previous->entry != stamp.entry) discard(dir_ / previous->entry);
  return Entry{entry, true, model_of(std::move(files), directory)};
}

}  // namespace pmucat
