// pmusnap's two output forms (a directory, a .tar.gz written by the system tar), how an output
// is put in place without ever replacing what pmusnap did not write, and reading a .tar.gz back.
#include <dirent.h>
#include <fcntl.h>
#include <fmt/core.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>  // renameat2, RENAME_NOREPLACE
#include <stdlib.h>
#include <string.h>  // sigdescr_np, strerrordesc_np
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <nlohmann/json.hpp>
#include <set>
#include <system_error>

#include "io/temporary_cleanup.h"
#include "pmucat/diagnostic_ids.h"
#include "pmucat/snapshot.h"
#include "snapshot_detail.h"

extern char** environ;

PMUCAT_BEGIN_NAMESPACE
namespace snap {
namespace detail {

std::optional<std::string> write_new_file(const std::filesystem::path& path,
                                          std::string_view content) {
  UniqueFd fd(::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0644));
  if (fd.get() < 0) return fmt::format("cannot create file: {}", error_text(errno));
  while (!content.empty()) {
    ssize_t put = ::write(fd.get(), content.data(), content.size());
    if (put < 0 && errno == EINTR) continue;
    if (put < 0) return fmt::format("cannot write file: {}", error_text(errno));
    content.remove_prefix(static_cast<std::size_t>(put));
  }
  if (!fd.close()) return fmt::format("cannot write file: {}", error_text(errno));
  return std::nullopt;
}

std::string describe_wait_status(int status) {
  if (WIFEXITED(status)) return fmt::format("exited with status {}", WEXITSTATUS(status));
  if (WIFSIGNALED(status)) {
    const char* name = ::sigdescr_np(WTERMSIG(status));
    return fmt::format("was killed by signal {} ({})", WTERMSIG(status),
                       name != nullptr ? name : "unknown signal");
  }
  return fmt::format("ended with wait status {:#x}", status);
}

// The entries of the directory open at `fd`, as they are (links not followed); nullopt when it
// cannot be listed.
std::optional<std::vector<DirEntry>> list_directory(int fd) {
  const int copy = ::openat(fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (copy < 0) return std::nullopt;
  DIR* dir = ::fdopendir(copy);
  if (dir == nullptr) {
    ::close(copy);
    return std::nullopt;
  }
  std::vector<DirEntry> out;
  bool ok = true;
  while (const dirent* entry = ::readdir(dir)) {
    const std::string_view name = entry->d_name;
    if (name == "." || name == "..") continue;
    DirEntry item{std::string(name), {}};
    if (::fstatat(fd, entry->d_name, &item.info, AT_SYMLINK_NOFOLLOW) != 0) {
      ok = false;
      break;
    }
    out.push_back(std::move(item));
  }
  ::closedir(dir);
  if (!ok) return std::nullopt;
  return out;
}

namespace {

// The tool's stderr as one line of a diagnostic: blanks folded, at most a few hundred bytes.
std::string one_line(std::string_view text) {
  std::string out;
  for (char c : text) {
    bool blank = c == '\n' || c == '\r' || c == '\t';
    if (blank && (out.empty() || out.back() == ' ')) continue;
    out += blank ? ' ' : c;
  }
  while (!out.empty() && out.back() == ' ') out.pop_back();
  if (out.size() > 600) out = out.substr(0, 600) + " ...";
  return out;
}

}  // namespace

Expected<int> run_tool(const std::vector<std::string>& args, int stdout_fd,
                       const std::filesystem::path& subject) {
  auto failure = [&](std::string message) {
    return unexpected(make_file_diagnostic(Severity::error, DiagId::snapshot_failed,
                                           subject.string(), std::move(message)));
  };
  int err_pipe[2];
  if (::pipe2(err_pipe, O_CLOEXEC) != 0) {
    return failure(fmt::format("cannot run {}: {}", args[0], error_text(errno)));
  }
  UniqueFd err_read(err_pipe[0]);
  UniqueFd err_write(err_pipe[1]);
  std::vector<char*> argv;
  for (const auto& arg : args) argv.push_back(const_cast<char*>(arg.c_str()));
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  if (stdout_fd >= 0) {
    posix_spawn_file_actions_adddup2(&actions, stdout_fd, 1);
  } else {
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
  }
  posix_spawn_file_actions_adddup2(&actions, err_write.get(), 2);
  // The child gets the signal mask without the termination signals capture() blocks, so a
  // Ctrl-C still stops tar; the capture then fails and cleans up before the signal ends us.
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  sigset_t child_mask;
  ::pthread_sigmask(SIG_SETMASK, nullptr, &child_mask);
  for (int signal_number : {SIGINT, SIGTERM, SIGHUP}) sigdelset(&child_mask, signal_number);
  posix_spawnattr_setsigmask(&attributes, &child_mask);
  posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGMASK);
  pid_t pid = 0;
  int spawned = posix_spawnp(&pid, argv[0], &actions, &attributes, argv.data(), environ);
  posix_spawnattr_destroy(&attributes);
  posix_spawn_file_actions_destroy(&actions);
  err_write.close();
  if (spawned != 0) {
    return failure(fmt::format("cannot run {}: {}", args[0], error_text(spawned)));
  }
  // Read all of stderr before waiting, so a chatty tool cannot block on a full pipe.
  std::string errors;
  char buffer[4096];
  for (;;) {
    ssize_t got = ::read(err_read.get(), buffer, sizeof buffer);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) break;
    if (errors.size() < 8192) errors.append(buffer, static_cast<std::size_t>(got));
  }
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) return failure(fmt::format("waiting for {} failed", args[0]));
  }
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return 0;
  std::string said = one_line(errors);
  return failure(
      fmt::format("{} {} {}{}", args[0], args[1], describe_wait_status(status),
                  said.empty() ? std::string(" and printed nothing") : fmt::format(": {}", said)));
}

}  // namespace detail

namespace {

namespace fs = std::filesystem;

Diagnostic error_at(const fs::path& path, std::string message) {
  return make_file_diagnostic(Severity::error, DiagId::snapshot_failed, path.string(),
                              std::move(message));
}

// Archive suffixes pmusnap does not write: refused rather than silently written as a directory.
bool names_other_archive(const fs::path& path) {
  std::string extension = path.extension().string();
  std::transform(extension.begin(), extension.end(), extension.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  constexpr std::string_view kArchives[] = {".tar",  ".zip", ".gz",  ".bz2",  ".tbz", ".tbz2",
                                            ".xz",   ".txz", ".zst", ".tzst", ".7z",  ".lz",
                                            ".lzma", ".lz4", ".rar", ".cpio"};
  return std::find(std::begin(kArchives), std::end(kArchives), extension) != std::end(kArchives);
}

fs::path parent_of(const fs::path& path) {
  fs::path parent = path.parent_path();
  return parent.empty() ? fs::path(".") : parent;
}

// A fresh temporary in `dir` named after `target` (".capture.tar.gz.pmusnap-XXXXXX"), or
// "pmusnap-XXXXXX" without a target.
std::string temp_pattern(const fs::path& dir, const fs::path& target) {
  if (target.empty()) return (dir / "pmusnap-XXXXXX").string();
  // Appended piece by piece: `"." + std::string&&` trips GCC 12's bogus -Wrestrict at -O3
  // (GCC bug 105329).
  std::string name = ".";
  name += target.filename().string();
  name += ".pmusnap-XXXXXX";
  return (dir / name).string();
}

Expected<fs::path> make_temp_dir(const fs::path& dir, const fs::path& target) {
  std::string pattern = temp_pattern(dir, target);
  if (::mkdtemp(pattern.data()) == nullptr) {
    return unexpected(error_at(
        dir, fmt::format("cannot create a temporary directory: {}", detail::error_text(errno))));
  }
  return fs::path(pattern);
}

Expected<fs::path> make_staging_dir() {
  std::error_code ec;
  fs::path base = fs::temp_directory_path(ec);
  if (ec) base = "/tmp";
  return make_temp_dir(base, fs::path());
}

// Renames `from` to `to` only if nothing is at `to` (checked by the kernel, not before).
int rename_no_replace(const fs::path& from, const fs::path& to) {
  if (::renameat2(AT_FDCWD, from.c_str(), AT_FDCWD, to.c_str(), RENAME_NOREPLACE) == 0) return 0;
  if (errno != EINVAL && errno != ENOSYS) return errno;
  // File systems without RENAME_NOREPLACE: link() refuses an existing target just as well
  // (files only; directories then go through a plain rename, which refuses non-empty ones).
  if (::link(from.c_str(), to.c_str()) == 0) return ::unlink(from.c_str()) == 0 ? 0 : errno;
  if (errno != EPERM) return errno;
  return ::rename(from.c_str(), to.c_str()) == 0 ? 0 : errno;
}

bool is_empty_directory(const fs::path& path) {
  std::error_code ec;
  return fs::is_empty(path, ec) && !ec;
}

// A manifest is a few hundred kilobytes; a bigger one is not something pmusnap wrote.
constexpr std::size_t kMaxManifestBytes = std::size_t{16} << 20;

// The entries the capture in the directory open at `dir_fd` says pmusnap wrote (its manifest's
// `written`), or why there is no such proof. The manifest is opened without following a link.
Expected<std::set<std::string>, std::string> read_written(int dir_fd) {
  const std::string name(kManifestName);
  detail::UniqueFd fd(
      ::openat(dir_fd, name.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC));
  if (fd.get() < 0) {
    return unexpected(fmt::format("no readable {} ({})", name, detail::error_text(errno)));
  }
  struct stat info {};
  if (::fstat(fd.get(), &info) != 0 || !S_ISREG(info.st_mode) ||
      static_cast<std::uint64_t>(info.st_size) > kMaxManifestBytes) {
    return unexpected(fmt::format("{} is not a regular file of at most 16 MiB", name));
  }
  std::string text;
  char buffer[16384];
  for (;;) {
    const ssize_t got = ::read(fd.get(), buffer, sizeof buffer);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) return unexpected(fmt::format("cannot read {}", name));
    if (got == 0) break;
    text.append(buffer, static_cast<std::size_t>(got));
    if (text.size() > kMaxManifestBytes)
      return unexpected(fmt::format("{} grew past 16 MiB", name));
  }
  const auto manifest = nlohmann::json::parse(text, nullptr, false);
  if (manifest.is_discarded() || !manifest.is_object() || !manifest.contains("tool") ||
      manifest["tool"] != "pmusnap") {
    return unexpected(fmt::format("{} is not a pmusnap manifest", name));
  }
  const auto list = manifest.find("written");
  if (list == manifest.end() || !list->is_array()) {
    return unexpected(
        fmt::format("{} does not list the files pmusnap wrote (a capture from "
                    "before manifest version 5)",
                    name));
  }
  std::set<std::string> written;
  for (const auto& entry : *list) {
    if (!entry.is_string()) return unexpected(fmt::format("{} has a bad `written` entry", name));
    written.insert(entry.get<std::string>());
  }
  return written;
}

constexpr int kMaxCaptureDepth = 64;

// The first entry below the directory open at `fd` (named relative to the capture root) that
// `written` does not list as what it is: a file, a directory, never anything else. nullopt
// when every entry is listed.
std::optional<std::string> unlisted_entry(int fd, const std::string& prefix,
                                          const std::set<std::string>& written, int depth) {
  if (depth > kMaxCaptureDepth) return prefix;
  const auto entries = detail::list_directory(fd);
  if (!entries) return prefix.empty() ? std::string(".") : prefix;
  for (const detail::DirEntry& entry : *entries) {
    const std::string relative = prefix + entry.name;
    if (prefix.empty() && entry.name == kManifestName && S_ISREG(entry.info.st_mode)) continue;
    if (S_ISDIR(entry.info.st_mode)) {
      if (!written.contains(relative + "/")) return relative + "/";
      detail::UniqueFd sub(
          ::openat(fd, entry.name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
      if (sub.get() < 0) return relative + "/";
      if (auto found = unlisted_entry(sub.get(), relative + "/", written, depth + 1)) return found;
    } else if (!S_ISREG(entry.info.st_mode) || !written.contains(relative)) {
      return relative;
    }
  }
  return std::nullopt;
}

// Removes what `written` lists below the directory open at `fd`, never following a link;
// anything else stays where it is (and so does the directory holding it).
void remove_listed(int fd, const std::string& prefix, const std::set<std::string>& written,
                   int depth) {
  const auto entries = detail::list_directory(fd);
  if (!entries || depth > kMaxCaptureDepth) return;
  for (const detail::DirEntry& entry : *entries) {
    const std::string relative = prefix + entry.name;
    if (S_ISDIR(entry.info.st_mode) && written.contains(relative + "/")) {
      detail::UniqueFd sub(
          ::openat(fd, entry.name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
      if (sub.get() >= 0) remove_listed(sub.get(), relative + "/", written, depth + 1);
      ::unlinkat(fd, entry.name.c_str(), AT_REMOVEDIR);
    } else if (S_ISREG(entry.info.st_mode) &&
               (written.contains(relative) || (prefix.empty() && entry.name == kManifestName))) {
      ::unlinkat(fd, entry.name.c_str(), 0);
    }
  }
}

// Why the directory `out` may not be replaced by --force, or nullopt when it is a previous
// capture holding nothing pmusnap did not write. `written` receives what it did write.
std::optional<Diagnostic> prove_previous_capture(const fs::path& out,
                                                 std::set<std::string>& written) {
  struct stat info {};
  if (::lstat(out.c_str(), &info) == 0 && S_ISLNK(info.st_mode)) {
    return error_at(out,
                    "is a symlink; --force never replaces through a link (name the capture "
                    "directory itself): nothing removed");
  }
  detail::UniqueFd fd(::open(out.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
  if (fd.get() < 0) {
    return error_at(out, fmt::format("cannot open the directory: {}", detail::error_text(errno)));
  }
  auto listed = read_written(fd.get());
  if (!listed) {
    return error_at(out, fmt::format("not a pmusnap capture --force can replace: {}; --force "
                                     "only replaces a previous capture: nothing removed",
                                     listed.error()));
  }
  if (auto stray = unlisted_entry(fd.get(), "", *listed, 0)) {
    return error_at(out, fmt::format("holds '{}', which its manifest does not list as written "
                                     "by pmusnap; --force removes only a previous capture's "
                                     "own files: nothing removed",
                                     *stray));
  }
  written = std::move(*listed);
  return std::nullopt;
}

Expected<Summary> capture_directory(const fs::path& sysfs, const fs::path& out,
                                    const CaptureOptions& options) {
  std::error_code ec;
  auto status = fs::status(out, ec);  // a symlink to a directory names that directory
  if (fs::exists(status) && !fs::is_directory(status)) {
    return unexpected(error_at(out,
                               "exists and is not a directory; give a new directory or a "
                               "FILE.tar.gz"));
  }
  if (fs::is_directory(status) && is_empty_directory(out)) {
    // Written in place: the directory (and its mode, owner, any link to it) is the user's.
    auto summary = copy_tree(sysfs, out, options);
    if (!summary) {
      for (fs::directory_iterator it(out, ec), end; !ec && it != end; it.increment(ec)) {
        std::error_code ignored;
        fs::remove_all(it->path(), ignored);
      }
    }
    return summary;
  }
  fs::path target = out;
  bool replacing = fs::is_directory(status);
  std::set<std::string> written;  // what the previous capture's manifest says pmusnap wrote
  if (replacing) {
    if (!options.force) {
      return unexpected(error_at(out,
                                 "output directory exists and is not empty (--force "
                                 "replaces a previous pmusnap capture)"));
    }
    if (auto refused = prove_previous_capture(out, written)) return unexpected(*refused);
    // The name the renames use: OUT without a trailing slash or dot.
    target = fs::absolute(out, ec).lexically_normal();
    if (!target.has_filename()) target = target.parent_path();
  } else {
    fs::create_directories(parent_of(out), ec);
    if (ec) return unexpected(error_at(parent_of(out), ec.message()));
  }
  // Built beside the target and renamed into place, so a failed capture leaves nothing.
  auto staging = make_temp_dir(parent_of(target), target);
  if (!staging) return unexpected(std::move(staging).error());
  auto summary = copy_tree(sysfs, *staging, options);
  fs::permissions(*staging, fs::perms(0755), ec);
  if (!summary) {
    fs::remove_all(*staging, ec);
    return summary;
  }
  if (!replacing) {
    if (int error = rename_no_replace(*staging, target); error != 0) {
      fs::remove_all(*staging, ec);
      return unexpected(error_at(
          out, fmt::format("cannot create output directory: {}", detail::error_text(error))));
    }
    return summary;
  }
  // --force on a previous capture: move it aside (onto an empty directory of ours), move the
  // new one in, then delete the old one.
  auto aside = make_temp_dir(parent_of(target), target);
  if (!aside || ::rename(target.c_str(), aside->c_str()) != 0 ||
      ::rename(staging->c_str(), target.c_str()) != 0) {
    int error = errno;
    if (aside && !fs::exists(target, ec)) ::rename(aside->c_str(), target.c_str());
    fs::remove_all(*staging, ec);
    if (aside) ::rmdir(aside->c_str());  // only ever our empty directory
    return unexpected(error_at(
        out, fmt::format("cannot replace the previous capture: {}", detail::error_text(error))));
  }
  // Only what the old manifest lists goes; anything that appeared since stays, in `aside`.
  if (detail::UniqueFd old(::open(aside->c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
      old.get() >= 0) {
    remove_listed(old.get(), "", written, 0);
  }
  ::rmdir(aside->c_str());
  return summary;
}

// `-`: the .tar.gz streamed to standard output, as tar writes it (the caller keeps anything
// else off standard output).
Expected<Summary> capture_to_stdout(const fs::path& sysfs, const CaptureOptions& options) {
  auto staging = make_staging_dir();
  if (!staging) return unexpected(std::move(staging).error());
  auto summary = copy_tree(sysfs, *staging, options);
  if (summary) {
    auto packed =
        detail::run_tool({"tar", "-czf", "-", "-C", staging->string(), "."}, STDOUT_FILENO, "-");
    if (!packed) summary = unexpected(std::move(packed).error());
  }
  std::error_code ec;
  fs::remove_all(*staging, ec);
  return summary;
}

Expected<Summary> capture_tarball(const fs::path& sysfs, const fs::path& out,
                                  const CaptureOptions& options) {
  struct stat existing {};
  mode_t mode = 0644;
  bool replace = false;
  if (::lstat(out.c_str(), &existing) == 0) {
    if (!options.force) {
      return unexpected(error_at(out, "output file exists (--force replaces a regular file)"));
    }
    if (!S_ISREG(existing.st_mode)) {
      return unexpected(error_at(out,
                                 "exists and is not a regular file (a symlink, FIFO, "
                                 "device or directory); pmusnap never replaces one"));
    }
    mode = existing.st_mode & 07777;
    replace = true;
  } else if (errno != ENOENT) {
    return unexpected(
        error_at(out, fmt::format("cannot inspect output: {}", detail::error_text(errno))));
  }
  auto staging = make_staging_dir();
  if (!staging) return unexpected(std::move(staging).error());
  auto summary = copy_tree(sysfs, *staging, options);
  if (!summary) {
    std::error_code ec;
    fs::remove_all(*staging, ec);
    return summary;
  }
  // The archive goes to a temporary beside OUT through tar's stdout (no path for tar to
  // reopen), and is renamed over OUT only once complete.
  std::string temp = temp_pattern(parent_of(out), out);
  detail::UniqueFd fd(::mkostemp(temp.data(), O_CLOEXEC));
  bool temp_created = fd.get() >= 0;
  Expected<int> packed = 0;
  if (!temp_created) {
    packed = unexpected(error_at(out, fmt::format("cannot create a temporary file beside it: {}",
                                                  detail::error_text(errno))));
  } else {
    packed = detail::run_tool({"tar", "-czf", "-", "-C", staging->string(), "."}, fd.get(), out);
    if (packed && (::fchmod(fd.get(), mode) != 0 || !fd.close())) {
      packed = unexpected(error_at(
          out, fmt::format("cannot write the temporary file: {}", detail::error_text(errno))));
    }
  }
  std::error_code ec;
  fs::remove_all(*staging, ec);
  if (packed) {
    int error = 0;
    if (!replace) {
      error = rename_no_replace(temp, out);
    } else if (::lstat(out.c_str(), &existing) == 0 && !S_ISREG(existing.st_mode)) {
      error = EEXIST;  // replaced by something else since the check: leave it alone
    } else if (::rename(temp.c_str(), out.c_str()) != 0) {
      error = errno;
    }
    if (error != 0) {
      packed = unexpected(
          error_at(out, fmt::format("cannot put the capture in place: {}",
                                    error == EEXIST ? std::string("the output appeared meanwhile")
                                                    : detail::error_text(error))));
    }
  }
  if (!packed) {
    if (temp_created) ::unlink(temp.c_str());
    return unexpected(std::move(packed).error());
  }
  return summary;
}

}  // namespace

bool is_tarball(const std::filesystem::path& path) {
  std::string name = path.filename().string();
  return name.ends_with(".tar.gz") || name.ends_with(".tgz");
}

Expected<Summary> capture(const std::filesystem::path& sysfs, const std::filesystem::path& out,
                          const CaptureOptions& options) {
  // A capture builds staging directories and a temporary archive that only a completed capture
  // renames into place. SIGINT, SIGTERM and SIGHUP wait until the capture has finished or
  // cleaned up, so they can never leave those behind; a capture of a sysfs tree takes
  // milliseconds, and tar itself stays interruptible (run_tool).
  const io::TerminationSignalsBlocked signals_wait_for_the_capture;
  if (out.empty()) return unexpected(error_at(out, "the output path is empty"));
  if (out == "-") return capture_to_stdout(sysfs, options);
  if (is_tarball(out)) return capture_tarball(sysfs, out, options);
  if (names_other_archive(out)) {
    return unexpected(error_at(out, fmt::format("pmusnap writes a directory or a .tar.gz/.tgz "
                                                "file, not a {} file",
                                                out.extension().string())));
  }
  return capture_directory(sysfs, out, options);
}

}  // namespace snap
PMUCAT_END_NAMESPACE
