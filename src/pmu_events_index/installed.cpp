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

}  // namespace

// The PMUCAT_EVENTS_* definitions come from cmake/PmucatEvents.cmake (src/pmu_events_index/
// CMakeLists.txt): the build's indexes of the newest set (linux PMUCAT_EVENTS_VERSION) and of
// perf 6.1's, empty when the build has none.
std::optional<std::string> installed_vendor_index(std::optional<PerfRelease> tables,
                                                  const InstalledIndexPaths& paths) {
  // The build has the default set (PMUCAT_EVENTS_VERSION's) and perf 6.1's
  // (cmake/PmucatEvents.cmake), each named by its release. A release with neither name has no
  // tables here: never another release's instead.
  const std::string_view wanted =
      tables ? to_string(*tables) : std::string_view(PMUCAT_EVENTS_VERSION);
  const bool want_6_1 = wanted != PMUCAT_EVENTS_VERSION;
  if (want_6_1 && wanted != "6.1") return std::nullopt;
  const std::string_view from_anchor = want_6_1 ? paths.v6_1 : paths.newest;
  const std::string built = want_6_1 ? PMUCAT_EVENTS_DIR_BUILD_6_1 : PMUCAT_EVENTS_DIR_BUILD;
  if (!paths.anchor_dir.empty() && !from_anchor.empty()) {
    std::string installed(paths.anchor_dir);
    installed += '/';
    installed += from_anchor;
    if (is_directory(installed)) {
      return std::filesystem::path(installed).lexically_normal().string();
    }
  }
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
