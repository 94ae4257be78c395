// pmusnap: copies the files of a PMU tree that tools read, following symlinks, into a plain
// directory tree or a .tar.gz (written by the system tar).
#include <fmt/core.h>
#include <spawn.h>
#include <stdlib.h>
#include <sys/wait.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <system_error>

#include "pmucat/check.h"

extern char** environ;

namespace pmucat::snap {
namespace {

namespace fs = std::filesystem;

// Directories of a PMU whose files are all kept; everything else below the PMU (power/,
// subsystem, device links) is driver-core plumbing no tool reads.
constexpr std::string_view kKeptDirs[] = {"format", "events", "caps", "interface"};
constexpr std::string_view kSkippedFiles[] = {"uevent"};
constexpr std::size_t kMaxCopied = 1 << 20;  // hv_24x7's binary catalog is the largest file

Diagnostic error_at(const fs::path& path, std::string message) {
  return make_file_diagnostic(Severity::error, "snapshot-failed", path.string(),
                              std::move(message));
}

Expected<int> run_tool(const std::vector<std::string>& args) {
  std::vector<char*> argv;
  for (const auto& arg : args) argv.push_back(const_cast<char*>(arg.c_str()));
  argv.push_back(nullptr);
  pid_t pid = 0;
  int rc = posix_spawnp(&pid, argv[0], nullptr, nullptr, argv.data(), environ);
  if (rc != 0) {
    return unexpected(
        error_at(args[0], fmt::format("cannot run {}: {}", args[0], std::strerror(rc))));
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) return unexpected(error_at(args[0], "waitpid failed"));
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    return unexpected(error_at(args[0], fmt::format("{} failed (status {})", args[0], status)));
  }
  return 0;
}

Expected<fs::path> make_temp_dir() {
  std::error_code ec;
  fs::path base = fs::temp_directory_path(ec);
  if (ec) base = "/tmp";
  std::string pattern = (base / "pmusnap.XXXXXX").string();
  if (mkdtemp(pattern.data()) == nullptr) {
    return unexpected(error_at(
        base, fmt::format("cannot create a temporary directory: {}", std::strerror(errno))));
  }
  return fs::path(pattern);
}

struct Copier {
  fs::path devices_out;
  Summary summary;
  nlohmann::json unreadable = nlohmann::json::array();
  nlohmann::json truncated = nlohmann::json::array();

  void copy_file(const fs::path& from, const fs::path& to, const std::string& relative) {
    std::ifstream in(from, std::ios::binary);
    std::string content;
    bool ok = false;
    int error = 0;
    if (in) {
      content.resize(kMaxCopied + 1);
      in.read(content.data(), static_cast<std::streamsize>(content.size()));
      ok = !in.bad();
      error = errno;
      content.resize(static_cast<std::size_t>(in.gcount()));
    } else {
      error = errno;
    }
    std::ofstream out(to, std::ios::binary | std::ios::trunc);
    if (!ok) {
      out.close();
      std::error_code ec;
      fs::permissions(to, fs::perms::none, ec);
      summary.unreadable.push_back(relative);
      unreadable.push_back({{"path", relative}, {"error", std::strerror(error)}});
      return;
    }
    if (content.size() > kMaxCopied) {
      content.resize(kMaxCopied);
      truncated.push_back(relative);
    }
    out.write(content.data(), static_cast<std::streamsize>(content.size()));
    ++summary.files;
  }

  void copy_dir_files(const fs::path& from, const fs::path& to, const std::string& relative) {
    std::error_code ec;
    fs::create_directories(to, ec);
    for (fs::directory_iterator it(from, ec), end; !ec && it != end; it.increment(ec)) {
      std::string name = it->path().filename().string();
      std::error_code status_ec;
      auto status = fs::status(it->path(), status_ec);  // follows symlinks
      if (fs::is_directory(status)) continue;
      copy_file(it->path(), to / name, relative + "/" + name);
    }
  }

  void copy_pmu(const Pmu& pmu) {
    fs::path out_dir = devices_out / pmu.name();
    std::error_code ec;
    fs::directory_iterator it(pmu.path(), ec);
    if (ec) {
      // A dangling PMU link: nothing to copy, but the tree did claim the PMU.
      summary.unreadable.push_back(pmu.name());
      unreadable.push_back({{"path", pmu.name()}, {"error", ec.message()}});
      return;
    }
    fs::create_directories(out_dir, ec);
    ++summary.pmus;
    for (fs::directory_iterator end; !ec && it != end; it.increment(ec)) {
      std::string name = it->path().filename().string();
      std::string relative = pmu.name() + "/" + name;
      std::error_code status_ec;
      auto status = fs::status(it->path(), status_ec);
      if (fs::is_directory(status)) {
        if (std::find(std::begin(kKeptDirs), std::end(kKeptDirs), name) != std::end(kKeptDirs)) {
          copy_dir_files(it->path(), out_dir / name, relative);
        }
        continue;
      }
      if (std::find(std::begin(kSkippedFiles), std::end(kSkippedFiles), name) !=
          std::end(kSkippedFiles)) {
        continue;
      }
      // A dangling link is still a file the tree claims to have: copy_file records it.
      copy_file(it->path(), out_dir / name, relative);
    }
  }
};

Expected<Summary> copy_tree(const fs::path& sysfs, const fs::path& root) {
  auto catalog = Catalog::open(sysfs);
  if (!catalog) return unexpected(std::move(catalog).error());
  Copier copier;
  copier.devices_out = root / "bus" / "event_source" / "devices";
  std::error_code ec;
  fs::create_directories(copier.devices_out, ec);
  if (ec) return unexpected(error_at(copier.devices_out, ec.message()));
  for (const Pmu& pmu : catalog->pmus()) copier.copy_pmu(pmu);
  nlohmann::json manifest = {{"tool", "pmusnap"},
                             {"source", fs::absolute(catalog->devices_dir(), ec).string()},
                             {"pmus", copier.summary.pmus},
                             {"files", copier.summary.files},
                             {"unreadable", copier.unreadable},
                             {"truncated", copier.truncated}};
  std::ofstream(root / "pmusnap-manifest.json") << manifest.dump(2) << "\n";
  return copier.summary;
}

}  // namespace

bool is_tarball(const std::filesystem::path& path) {
  std::string name = path.filename().string();
  return name.ends_with(".tar.gz") || name.ends_with(".tgz");
}

Expected<Summary> capture(const std::filesystem::path& sysfs, const std::filesystem::path& out) {
  std::error_code ec;
  if (!is_tarball(out)) {
    if (fs::exists(out, ec) && !fs::is_empty(out, ec)) {
      return unexpected(error_at(out, "output directory exists and is not empty"));
    }
    return copy_tree(sysfs, out);
  }
  auto staging = make_temp_dir();
  if (!staging) return unexpected(std::move(staging).error());
  auto summary = copy_tree(sysfs, *staging);
  Expected<int> packed = 0;
  if (summary) {
    packed =
        run_tool({"tar", "-czf", fs::absolute(out, ec).string(), "-C", staging->string(), "."});
  }
  fs::remove_all(*staging, ec);
  if (!summary) return summary;
  if (!packed) return unexpected(std::move(packed).error());
  return summary;
}

Expected<Unpacked> Unpacked::open(const std::filesystem::path& tar_gz) {
  std::error_code ec;
  if (!fs::is_regular_file(tar_gz, ec)) return unexpected(error_at(tar_gz, "no such capture file"));
  auto dir = make_temp_dir();
  if (!dir) return unexpected(std::move(dir).error());
  auto unpacked = run_tool({"tar", "-xzf", tar_gz.string(), "-C", dir->string()});
  if (!unpacked) {
    fs::remove_all(*dir, ec);
    return unexpected(std::move(unpacked).error());
  }
  return Unpacked(*dir);
}

Unpacked::Unpacked(Unpacked&& other) noexcept : root_(std::move(other.root_)) {
  other.root_.clear();
}

Unpacked& Unpacked::operator=(Unpacked&& other) noexcept {
  if (this != &other) {
    std::error_code ec;
    if (!root_.empty()) fs::remove_all(root_, ec);
    root_ = std::move(other.root_);
    other.root_.clear();
  }
  return *this;
}

Unpacked::~Unpacked() {
  std::error_code ec;
  if (!root_.empty()) fs::remove_all(root_, ec);
}

}  // namespace pmucat::snap
