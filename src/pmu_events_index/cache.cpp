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

#include "pmu_events_index/compile.h"
#include "pmu_events_index/digest.h"
#include "pmucat/diagnostic_ids.h"
#include "pmucat/vendor_index_cache.h"
#include "pmucat/version.h"

PMUCAT_BEGIN_NAMESPACE
namespace {

namespace fs = std::filesystem;

constexpr std::string_view kStampHeader = "pmucat-vendor-index-cache 2";
constexpr std::string_view kStampSuffix = ".stamp";
constexpr std::string_view kStampDigest = "digest ";
// A stamp lists a few dozen files (Granite Rapids: 62 lines, 5 KB): a larger one is not ours.
constexpr std::size_t kMaxStampSize = std::size_t{1} << 20;

Diagnostic cache_error(const fs::path& path, std::string_view what) {
  return make_file_diagnostic(Severity::error, DiagId::vendor_index_unreadable, path.string(),
                              fmt::format("the vendor index cache is not used: {}", what));
}

// Why a cache directory is not this user's alone (lstat: a symlink is refused as itself), or
// nullopt when it is: a directory owned by the effective user that no one else may write. What
// another user could have written is never read, replaced or removed.
std::optional<std::string> not_private_directory(const fs::path& dir) {
  struct stat status {};
  if (::lstat(dir.c_str(), &status) != 0) return std::string(std::strerror(errno));
  if (!S_ISDIR(status.st_mode)) return std::string("not a directory");
  if (status.st_uid != ::geteuid()) {
    return fmt::format("owned by uid {}, not by this user (uid {})", status.st_uid, ::geteuid());
  }
  if ((status.st_mode & (S_IWGRP | S_IWOTH)) != 0) {
    return std::string("writable by other users (group or world)");
  }
  return std::nullopt;
}

// A stamp: a regular file of this user's that no one else may write, at most kMaxStampSize
// bytes, read without following a symlink or blocking on a FIFO. `missing`: there is none (the
// first run), which is no news; anything else unusable is said.
struct StampRead {
  std::optional<std::string> text;
  bool missing = false;
  std::string refused;
};

StampRead read_stamp_file(const fs::path& path) {
  StampRead read;
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY | O_NOFOLLOW);
  if (fd < 0) {
    read.missing = errno == ENOENT;
    read.refused = errno == ELOOP ? "a symlink" : std::strerror(errno);
    return read;
  }
  struct stat status {};
  if (::fstat(fd, &status) != 0) {
    read.refused = std::strerror(errno);
  } else if (!S_ISREG(status.st_mode)) {
    read.refused = "not a regular file";
  } else if (status.st_uid != ::geteuid()) {
    read.refused = fmt::format("owned by uid {}, not by this user", status.st_uid);
  } else if ((status.st_mode & (S_IWGRP | S_IWOTH)) != 0) {
    read.refused = "writable by other users (group or world)";
  } else if (static_cast<std::uint64_t>(status.st_size) > kMaxStampSize) {
    read.refused = fmt::format("{} bytes, more than a stamp's {}", status.st_size, kMaxStampSize);
  } else {
    // What fstat says is there, and one byte more to see a file that grew meanwhile.
    std::string text(static_cast<std::size_t>(status.st_size) + 1, '\0');
    std::size_t got = 0;
    while (got < text.size()) {
      const ssize_t n = ::read(fd, text.data() + got, text.size() - got);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;
      got += static_cast<std::size_t>(n);
    }
    if (got == static_cast<std::size_t>(status.st_size)) {
      text.resize(got);
      read.text = std::move(text);
    } else {
      read.refused = "its size changed while it was read";
    }
  }
  ::close(fd);
  return read;
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
    ancestors_.assign(1, {items_.back().device, items_.back().inode});
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

  // As find_sys_directories() walks: a link back to a directory on the way is not walked
  // (the loader refuses it with a diagnostic, which the entry keeps).
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
        continue;
      }
      const Stamped item = stat_at(root_fd_, subdirectory);
      const std::pair<std::uint64_t, std::uint64_t> id{item.device, item.inode};
      if (!item.missing &&
          std::find(ancestors_.begin(), ancestors_.end(), id) != ancestors_.end()) {
        continue;
      }
      items_.push_back(item);
      ancestors_.push_back(id);
      walk(subdirectory, depth + 1);
      ancestors_.pop_back();
    }
  }

  int root_fd_;
  const fs::path& root_;
  std::vector<Stamped> items_;
  std::vector<std::pair<std::uint64_t, std::uint64_t>> ancestors_;  // walk(): device, inode
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
  // Last, the digest of every line before it: a stamp changed after it was written is no stamp.
  text += fmt::format("{}{:016x}\n", kStampDigest, pmu_events_index::digest64(text));
  return text;
}

std::optional<Stamp> parse_stamp(std::string_view text) {
  // The digest line ends the text and covers everything before it.
  if (!text.ends_with('\n')) return std::nullopt;
  const std::size_t last = text.rfind('\n', text.size() - 2);
  if (last == std::string_view::npos) return std::nullopt;
  const std::string_view digest_line = text.substr(last + 1, text.size() - last - 2);
  if (!digest_line.starts_with(kStampDigest) ||
      digest_line.substr(kStampDigest.size()) !=
          fmt::format("{:016x}", pmu_events_index::digest64(text.substr(0, last + 1)))) {
    return std::nullopt;
  }
  text = text.substr(0, last + 1);
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
// Each is opened as this user's private file, its digest checked (VendorIndexModel::open): a
// file changed in any byte is a miss. The entry directory and the directories within it must be
// this user's alone too, and the marker a regular file of theirs. Why not, as a diagnostic.
Expected<std::vector<VendorIndexModel>> open_entry(const fs::path& root, const Stamp& stamp) {
  auto refuse = [&](const fs::path& path, std::string_view why) {
    return unexpected(cache_error(path, why));
  };
  if (auto why = not_private_directory(root)) return refuse(root, *why);
  struct stat marker {};
  const fs::path marker_path = root / kVendorIndexMarker;
  if (::lstat(marker_path.c_str(), &marker) != 0 || !S_ISREG(marker.st_mode) ||
      marker.st_uid != ::geteuid()) {
    return refuse(marker_path, "no marker of this user's");
  }
  std::set<std::string> checked;
  std::vector<VendorIndexModel> files;
  for (const auto& [file, size] : stamp.entry_files) {
    const fs::path parent = fs::path(file).parent_path();
    if (!parent.empty() && checked.insert(parent.string()).second) {
      if (auto why = not_private_directory(root / parent)) return refuse(root / parent, *why);
    }
    auto opened = VendorIndexModel::open(root / file, VendorIndexModel::Trust::private_to_user);
    if (!opened) {
      // One id for every way the cache is passed over (the catalog's notes); the message keeps
      // what the reader found.
      Diagnostic why = std::move(opened).error();
      set_id(why, DiagId::vendor_index_unreadable);
      why.message = "the vendor index cache is not used: " + why.message;
      return unexpected(std::move(why));
    }
    if (opened->byte_size() != static_cast<std::size_t>(size)) {
      return refuse(root / file, "not the size its stamp says");
    }
    files.push_back(std::move(*opened));
  }
  return files;
}

// The entry's model file among its files, opened (the first one, when a model was asked for).
std::optional<VendorIndexModel> model_of(Expected<std::vector<VendorIndexModel>> files,
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
    std::string_view directory, PerfRelease rules) {
  std::vector<std::pair<std::string, std::int64_t>> written;
  std::error_code error;
  // Private whatever the umask: an entry another user could have written is not used.
  auto put = [&](const std::string& relative, const std::string& bytes) {
    const fs::path path = dir / relative;
    if (::mkdir(path.parent_path().c_str(), 0700) != 0 && errno != EEXIST) return false;
    if (!pmu_events_index::write_file(path, bytes, 0600)) return false;
    written.emplace_back(relative, static_cast<std::int64_t>(bytes.size()));
    return true;
  };
  if (!arch.empty() && !directory.empty()) {
    const std::string name = std::string(arch) + "/" + vendor_index_file_name(directory);
    if (!put(
            name,
            pmu_events_index::compile_model_file(json_root, arch, directory, rules, false).bytes)) {
      return std::nullopt;
    }
  }
  std::vector<std::string_view> tables_archs;
  if (!arch.empty()) tables_archs.push_back(arch);
  if (arch != "test") tables_archs.emplace_back("test");
  for (std::string_view tables_arch : tables_archs) {
    auto file = pmu_events_index::compile_sys_file(json_root, tables_arch, rules, false);
    if (file &&
        !put(std::string(tables_arch) + "/" + std::string(kVendorIndexSysFile), file->bytes)) {
      return std::nullopt;
    }
  }
  if (!pmu_events_index::write_file(dir / kVendorIndexMarker, pmu_events_index::marker_text(rules),
                                    0600)) {
    return std::nullopt;
  }
  return written;
}

// Moves an existing entry aside and removes it (best effort: a reader with its files mapped
// keeps them; one about to open them meets a miss and compiles again). Only an entry that is
// this user's alone: anything else in the cache directory is left as it is.
void discard(const fs::path& entry) {
  if (not_private_directory(entry)) return;
  const auto aside = pmu_events_index::temporary_sibling(entry.string() + ".old");
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
  if (!pmu_events_index::write_file(name, text, 0600) ||
      ::rename(name.c_str(), path.c_str()) != 0) {
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
                                                         PerfRelease rules) const {
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

  // The cache directory must be this user's alone: nothing is read or written in another's.
  // Missing, it is made below (on a miss).
  std::error_code exists_error;
  if (fs::exists(fs::symlink_status(dir_, exists_error))) {
    if (auto why = not_private_directory(dir_)) return unexpected(cache_error(dir_, *why));
  }

  // Why an earlier entry was not used: notes for the caller (the catalog's vendor diagnostics),
  // since a miss is otherwise invisible. A missing stamp (the first run) is no news.
  std::vector<Diagnostic> notes;
  auto note = [&](Diagnostic diagnostic) {
    diagnostic.severity = Severity::note;
    notes.push_back(std::move(diagnostic));
  };
  // A hit: the stamp is ours, nothing it lists changed, and its entry opens.
  std::optional<Stamp> previous;
  StampRead stamp_read = read_stamp_file(stamp_path);
  if (stamp_read.text) {
    previous = parse_stamp(*stamp_read.text);
    if (!previous) {
      note(cache_error(stamp_path,
                       "a damaged stamp (it does not parse or its digest does not "
                       "match); compiled again"));
    }
  } else if (!stamp_read.missing) {
    // Not a file of this user's (or unreadable): never replaced, so nothing is cached.
    return unexpected(cache_error(stamp_path, stamp_read.refused));
  }
  if (previous && previous->identity != identity) previous.reset();
  if (previous && fresh(root_fd.get(), previous->inputs)) {
    const fs::path root = dir_ / previous->entry;
    auto files = open_entry(root, *previous);
    if (files) return Entry{root, false, model_of(std::move(files), directory), std::move(notes)};
    note(std::move(files).error());
  }

  // A miss. The fingerprint first, the JSON after: a file that changes while it is read has a
  // stamp that does not match the file's, so the next run compiles again.
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
  if (auto why = not_private_directory(dir_)) return unexpected(cache_error(dir_, *why));
  const auto temporary = pmu_events_index::temporary_sibling(entry);
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
      if (::rename(temporary->c_str(), entry.c_str()) != 0) {
        // Still there: another user's entry (never removed), or a reader's race lost again.
        auto existing = open_entry(entry, stamp);
        if (!existing) {
          fs::remove_all(*temporary, error);
          return unexpected(std::move(existing).error());
        }
      }
    }
    fs::remove_all(*temporary, error);
  }
  auto files = open_entry(entry, stamp);
  if (!files) return unexpected(std::move(files).error());
  if (!publish_stamp(stamp_path, format_stamp(stamp))) {
    return unexpected(cache_error(stamp_path, "cannot write the stamp"));
  }
  // The entry the old stamp vouched for serves no one now.
  if (previous && previous->entry != stamp.entry) discard(dir_ / previous->entry);
  return Entry{entry, true, model_of(std::move(files), directory), std::move(notes)};
}

PMUCAT_END_NAMESPACE
