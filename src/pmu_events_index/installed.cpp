#include <sys/stat.h>
#include <unistd.h>

#include <climits>
#include <filesystem>

#include "pmucat/vendor_index_install.h"

PMUCAT_BEGIN_NAMESPACE
namespace {

// Plain stat() and strings rather than std::filesystem: the tools run this on every start that
// looks up an event by name, where splitting paths into components cost twenty allocations
// (fresh heap pages for a short run).
bool is_directory(const std::string& dir) {
  struct stat status {};
  return ::stat(dir.c_str(), &status) == 0 && S_ISDIR(status.st_mode);
}

// The suffix of a table set's index directory beside the default one's: `-` and the kernel
// release of its tables ("linux 6.12" -> "-6.12").
std::string set_suffix(PerfRelease tables) {
  std::string_view kernel = info(tables).tables;
  constexpr std::string_view kPrefix = "linux ";
  if (kernel.starts_with(kPrefix)) kernel.remove_prefix(kPrefix.size());
  std::string suffix(kernel.size() + 1, '-');
  kernel.copy(suffix.data() + 1, kernel.size());
  return suffix;
}

}  // namespace

// The PMUCAT_EVENTS_* definitions come from cmake/PmucatEvents.cmake (src/pmu_events_index/
// CMakeLists.txt): the release of the build's default set and its index (empty when the build
// has none); every other set's index lies beside it, its name suffixed (set_suffix), installed
// the same way.
std::optional<std::string> installed_vendor_index(std::optional<PerfRelease> tables,
                                                  const InstalledIndexPaths& paths) {
  // A release is served by its own set only: one the build lacks finds none, never another
  // release's tables (the tools then say its tables are missing).
  const std::string_view wanted =
      tables ? to_string(*tables) : std::string_view(PMUCAT_EVENTS_VERSION);
  const bool want_default = wanted == PMUCAT_EVENTS_VERSION;
  const std::string suffix = want_default ? std::string() : set_suffix(*tables);
  const std::string_view default_built = PMUCAT_EVENTS_DIR_BUILD;
  std::string built;
  if (!default_built.empty()) {
    built = default_built;
    built += suffix;
  }
  if (!paths.anchor_dir.empty() && !paths.newest.empty()) {
    std::string installed(paths.anchor_dir);
    installed += '/';
    installed += paths.newest;
    installed += suffix;
    if (is_directory(installed)) {
      return std::filesystem::path(installed).lexically_normal().string();
    }
  }
  if (!built.empty() && is_directory(built)) return built;
  return std::nullopt;
}

std::optional<PerfRelease> default_tables_release() {
  return parse_perf_release(PMUCAT_EVENTS_VERSION);
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

PMUCAT_END_NAMESPACE
