#include <sys/stat.h>
#include <unistd.h>

#include <climits>
#include <filesystem>

#include "pmucat/vendor_index_install.h"

namespace pmucat {
namespace {

// Plain stat() and strings rather than std::filesystem: the tools run this on every start that
// looks up an event by name, where splitting paths into components cost twenty allocations
// (fresh heap pages for a short run).
bool is_directory(const std::string& dir) {
  struct stat status {};
  return ::stat(dir.c_str(), &status) == 0 && S_ISDIR(status.st_mode);
}

// The suffix of a table set's index directory: `-` and the kernel release of its tables
// ("linux 6.1" -> "-6.1").
std::string set_suffix(PerfRelease tables) {
  std::string_view kernel = info(tables).tables;
  constexpr std::string_view kPrefix = "linux ";
  if (kernel.starts_with(kPrefix)) kernel.remove_prefix(kPrefix.size());
  std::string suffix(1, '-');
  suffix.append(kernel);
  return suffix;
}

}  // namespace

// The PMUCAT_EVENTS_* definitions come from cmake/PmucatEvents.cmake (src/pmu_events_index/
// CMakeLists.txt): the release of the build's default set, its index (empty when the build has
// none), and where the build writes every set's index (the default set's name, the others'
// with their suffix).
std::optional<std::string> installed_vendor_index(std::optional<PerfRelease> tables,
                                                  const InstalledIndexPaths& paths) {
  const std::optional<PerfRelease> default_set = parse_perf_release(PMUCAT_EVENTS_VERSION);
  // The default set is the newest the build has: it serves its own release and every later one
  // (a build without linux 6.12's tables reads 6.1's for both).
  const bool want_default = !tables || !default_set || *tables >= *default_set;
  const std::string suffix = want_default ? std::string() : set_suffix(*tables);
  if (!paths.anchor_dir.empty() && !paths.newest.empty()) {
    std::string installed(paths.anchor_dir);
    installed += '/';
    installed += paths.newest;
    installed += suffix;
    if (is_directory(installed)) {
      return std::filesystem::path(installed).lexically_normal().string();
    }
  }
  std::string built(want_default ? PMUCAT_EVENTS_DIR_BUILD : PMUCAT_EVENTS_INDEX_BUILD);
  if (!want_default) built.append(suffix);
  if (!built.empty() && is_directory(built)) return built;
  return std::nullopt;
}

std::string executable_dir() {
  char buffer[PATH_MAX];
  const ssize_t length = ::readlink("/proc/self/exe", buffer, sizeof buffer);
  if (length <= 0 || static_cast<std::size_t>(length) >= sizeof buffer) return {};
  const std::string_view path(buffer, static_cast<std::size_t>(length));
  const std::size_t slash = path.rfind('/');
  if (slash == std::string_view::npos) return {};
  return std::string(path.substr(0, slash == 0 ? 1 : slash));
}

}  // namespace pmucat
