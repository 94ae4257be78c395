// Catalog: finding the devices folder, one listing of it, and PMU lookup.
#include "pmucat/catalog.h"

#include <fmt/core.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>

#include "catalog/sysfs_file.h"

namespace pmucat {
namespace {

// Where the devices folder sits below the roots users pass: `/`, `/sys`, a captured tree
// (pcp's syspmu holds bus/..., perf_event_tests' snb_ep holds sys/bus/...).
constexpr std::string_view kDevicesBelowRoot[] = {
    "bus/event_source/devices",
    "sys/bus/event_source/devices",
    "event_source/devices",
};

bool is_directory(const std::string& path) {
  struct stat status {};
  return ::stat(path.c_str(), &status) == 0 && S_ISDIR(status.st_mode);
}

std::string without_trailing_slashes(std::string path) {
  while (path.size() > 1 && path.back() == '/') path.pop_back();
  return path;
}

std::string_view base_name(std::string_view path) {
  auto slash = path.rfind('/');
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

std::string join(const std::string& dir, std::string_view name) {
  return dir == "/" ? fmt::format("/{}", name) : fmt::format("{}/{}", dir, name);
}

bool may_be_directory(unsigned char d_type) {
  return d_type == DT_DIR || d_type == DT_LNK || d_type == DT_UNKNOWN;
}

// True when some entry holds a `type` file: the folder is a devices folder even though it is
// not named so (a hand-made tree).
bool holds_a_pmu(int dir_fd, const std::vector<detail::DirEntry>& entries) {
  return std::any_of(entries.begin(), entries.end(), [&](const detail::DirEntry& entry) {
    return may_be_directory(entry.type) &&
           ::faccessat(dir_fd, (entry.name + "/type").c_str(), F_OK, 0) == 0;
  });
}

}  // namespace

struct Catalog::State {
  std::filesystem::path devices_dir;
  std::vector<Pmu> pmus;  // naturally sorted by name
  std::vector<Diagnostic> diagnostics;
};

Catalog::Catalog(std::unique_ptr<State> state) : state_(std::move(state)) {}
Catalog::Catalog(Catalog&&) noexcept = default;
Catalog& Catalog::operator=(Catalog&&) noexcept = default;
Catalog::~Catalog() = default;

Expected<Catalog> Catalog::open(const std::filesystem::path& dir) {
  std::string root = without_trailing_slashes(dir.string());
  if (root.empty()) {
    return unexpected(make_file_diagnostic(Severity::error, "catalog-unreadable", "<sysfs>",
                                           "no sysfs directory given"));
  }
  struct stat status {};
  if (::stat(root.c_str(), &status) != 0) {
    return unexpected(make_file_diagnostic(
        Severity::error, "catalog-unreadable", root,
        fmt::format("cannot open sysfs directory: {}", detail::error_text(errno))));
  }
  if (!S_ISDIR(status.st_mode)) {
    return unexpected(
        make_file_diagnostic(Severity::error, "catalog-unreadable", root, "expected a directory"));
  }

  std::string devices = root;
  bool named_devices = base_name(root) == "devices";
  bool below_root = false;
  if (!named_devices) {
    for (std::string_view below : kDevicesBelowRoot) {
      std::string candidate = join(root, below);
      if (is_directory(candidate)) {
        devices = std::move(candidate);
        below_root = true;
        break;
      }
    }
  }

  auto directory = detail::Directory::open(AT_FDCWD, devices, devices);
  if (!directory) return unexpected(std::move(directory.error().diagnostic));
  std::vector<detail::DirEntry> entries = directory->list();
  if (!named_devices && !below_root && !holds_a_pmu(directory->fd(), entries)) {
    Diagnostic not_a_tree = make_file_diagnostic(
        Severity::error, "catalog-not-pmu-tree", root,
        "not a PMU devices directory: it holds no bus/event_source/devices and no <pmu>/type");
    not_a_tree.hint = "pass /sys, /sys/bus/event_source/devices, or a copy of either";
    return unexpected(std::move(not_a_tree));
  }

  auto state = std::make_unique<State>();
  state->devices_dir = devices;
  for (detail::DirEntry& entry : entries) {
    std::string path = join(devices, entry.name);
    // Real entries are symlinks into /sys/devices; they are taken without a stat() here. A
    // dangling one reports itself when the PMU is first used (pmu-dir-unreadable).
    if (!may_be_directory(entry.type)) {
      state->diagnostics.push_back(
          make_file_diagnostic(Severity::warning, "catalog-stray-entry", path,
                               "not a PMU directory (a file in the devices folder); ignored"));
      continue;
    }
    state->pmus.push_back(Pmu::from_directory(std::move(entry.name), std::move(path)));
  }
  std::sort(state->pmus.begin(), state->pmus.end(),
            [](const Pmu& a, const Pmu& b) { return natural_less(a.name(), b.name()); });
  return Catalog(std::move(state));
}

Expected<Catalog> Catalog::open_default() {
  const char* sysfs = std::getenv("PMUCAT_SYSFS");
  if (sysfs != nullptr && *sysfs != '\0') return open(sysfs);
  return open("/sys/bus/event_source/devices");
}

Catalog Catalog::from_pmus(std::vector<Pmu> pmus) {
  auto state = std::make_unique<State>();
  state->pmus = std::move(pmus);
  std::stable_sort(state->pmus.begin(), state->pmus.end(),
                   [](const Pmu& a, const Pmu& b) { return natural_less(a.name(), b.name()); });
  return Catalog(std::move(state));
}

const std::filesystem::path& Catalog::devices_dir() const {
  return state_->devices_dir;
}

std::span<const Pmu> Catalog::pmus() const {
  return state_->pmus;
}

const Pmu* Catalog::find_pmu(std::string_view exact_name) const {
  const std::vector<Pmu>& pmus = state_->pmus;
  auto found = std::lower_bound(
      pmus.begin(), pmus.end(), exact_name,
      [](const Pmu& pmu, std::string_view key) { return natural_less(pmu.name(), key); });
  return found != pmus.end() && found->name() == exact_name ? &*found : nullptr;
}

std::vector<const Pmu*> Catalog::match_pmus(std::string_view pattern) const {
  if (const Pmu* exact = find_pmu(pattern)) return {exact};
  std::vector<const Pmu*> matches;
  for (const Pmu& pmu : state_->pmus) {
    if (pmu_name_matches(pmu.name(), pattern)) matches.push_back(&pmu);
  }
  return matches;
}

const Pmu* Catalog::core_pmu() const {
  if (const Pmu* cpu = find_pmu("cpu")) return cpu;
  if (const Pmu* cpu_core = find_pmu("cpu_core")) return cpu_core;
  for (const Pmu& pmu : state_->pmus) {
    if (pmu.attributes().cpus) return &pmu;
  }
  return nullptr;
}

std::span<const Diagnostic> Catalog::diagnostics() const {
  return state_->diagnostics;
}

}  // namespace pmucat
