// Catalog: finding the devices folder, one listing of it, and PMU lookup.
#include "pmucat/catalog.h"

#include <fmt/core.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <map>
#include <mutex>

#include "catalog/sysfs_file.h"
#include "catalog/vendor_catalog.h"
#include "pmucat/diagnostic_ids.h"
#include "pmucat/hwmon.h"

PMUCAT_BEGIN_NAMESPACE
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
  std::string path;
  path.reserve(dir.size() + 1 + name.size());
  if (dir != "/") path += dir;
  path += '/';
  path += name;
  return path;
}

bool may_be_directory(unsigned char d_type) {
  return d_type == DT_DIR || d_type == DT_LNK || d_type == DT_UNKNOWN;
}

// PMUs every kernel registers (and most captures keep): one of them holding a `type` file
// tells a devices folder at the cost of a few faccessat() calls, however many PMUs it has.
constexpr const char* kCommonPmuTypeFiles[] = {"software/type", "cpu/type", "tracepoint/type",
                                               "cpu_core/type", "breakpoint/type"};

// Enough entries for the first PMU of any real devices folder; reading stops there.
constexpr std::size_t kClassifyBatchBytes = 2048;

// True when some entry holds a `type` file: the folder is a devices folder even though it is
// not named so (a hand-made tree). Decided without listing the folder when it holds a common
// PMU, else from the first entries that do hold one: encoding one event on a 1,000-PMU tree
// must not cost a listing (the rest is listed only if someone asks for every PMU).
Expected<bool> holds_a_pmu(int dir_fd, const std::string& devices) {
  for (const char* type_file : kCommonPmuTypeFiles) {
    if (::faccessat(dir_fd, type_file, F_OK, 0) == 0) return true;
  }
  auto directory = detail::Directory::open(dir_fd, ".", devices);
  if (!directory) return unexpected(std::move(directory.error().diagnostic));
  bool found = false;
  directory->scan(kClassifyBatchBytes, [&](const detail::DirEntry& entry) {
    found = may_be_directory(entry.type) &&
            ::faccessat(dir_fd, (entry.name + "/type").c_str(), F_OK, 0) == 0;
    return !found;
  });
  return found;
}

// The PMUs of the devices folder, as its one listing gave them.
struct Listing {
  std::vector<Pmu> pmus;  // naturally sorted by name
  std::vector<Diagnostic> diagnostics;
};

Listing make_listing(const std::string& devices, std::vector<detail::DirEntry> entries) {
  Listing listing;
  listing.pmus.reserve(entries.size());
  for (detail::DirEntry& entry : entries) {
    std::string path = join(devices, entry.name);
    // Real entries are symlinks into /sys/devices; they are taken without a stat() here. A
    // dangling one reports itself when the PMU is first used (pmu-dir-unreadable).
    if (!may_be_directory(entry.type)) {
      listing.diagnostics.push_back(
          make_file_diagnostic(Severity::warning, DiagId::catalog_stray_entry, path,
                               "not a PMU directory (a file in the devices folder); ignored"));
      continue;
    }
    listing.pmus.push_back(Pmu::from_directory(std::move(entry.name), std::move(path)));
  }
  std::sort(listing.pmus.begin(), listing.pmus.end(),
            [](const Pmu& a, const Pmu& b) { return natural_less(a.name(), b.name()); });
  return listing;
}

// A name that can only be an entry of the devices folder itself.
bool probeable_pmu_name(std::string_view name) {
  return !name.empty() && name != "." && name != ".." &&
         name.find_first_of(std::string_view("/\0", 2)) == std::string_view::npos;
}

}  // namespace

// The devices folder is listed on first need, not at open: a big server lists 1,000+ entries,
// which costs more than everything else encoding one event does. Until then find_pmu() looks
// up the one entry it is asked for.
struct Catalog::State {
  std::filesystem::path devices_dir;
  std::string devices;  // devices_dir as a string; empty for from_pmus catalogs
  detail::UniqueFd devices_fd;

  VendorOptions vendor_options;  // when `vendor` is null
  // Null when the options name no events directory; with_vendor's deferred form always sets it.
  std::shared_ptr<const detail::VendorCatalogs> vendor;

  mutable std::once_flag listed_once;
  mutable Listing listing;
  mutable std::atomic<bool> listed{false};

  mutable std::once_flag hwmon_once;
  mutable HwmonPmus hwmon;

  // PMUs find_pmu() found before the listing existed; node-based so that pointers stay valid.
  mutable std::mutex probe_mutex;
  mutable std::map<std::string, std::unique_ptr<Pmu>, std::less<>> probed;

  const Listing& list() const {
    std::call_once(listed_once, [&] {
      auto directory = detail::Directory::open(devices_fd.get(), ".", devices);
      if (directory) {
        listing = make_listing(devices, directory->list());
        if (vendor) {
          for (Pmu& pmu : listing.pmus) attach(pmu, vendor);
        }
      } else {
        listing.diagnostics.push_back(std::move(directory.error().diagnostic));
      }
      listed.store(true, std::memory_order_release);
    });
    return listing;
  }
  void set_listing(Listing given) {
    std::call_once(listed_once, [&] {
      listing = std::move(given);
      listed.store(true, std::memory_order_release);
    });
  }
  const Pmu* probe(std::string_view name) const;
  // Gives `vendor` to the PMUs found before it was set.
  void attach_vendor_to_found() {
    if (!vendor) return;
    std::lock_guard lock(probe_mutex);
    for (auto& [name, pmu] : probed) Catalog::attach(*pmu, vendor);
    if (listed.load(std::memory_order_acquire)) {
      for (Pmu& pmu : listing.pmus) Catalog::attach(pmu, vendor);
    }
  }
};

const Pmu* Catalog::State::probe(std::string_view name) const {
  std::lock_guard lock(probe_mutex);
  if (auto found = probed.find(name); found != probed.end()) return found->second.get();
  // The listing's rule without the listing: directories and symlinks are PMUs, files are not.
  struct stat status {};
  if (::fstatat(devices_fd.get(), std::string(name).c_str(), &status, AT_SYMLINK_NOFOLLOW) != 0 ||
      !(S_ISDIR(status.st_mode) || S_ISLNK(status.st_mode))) {
    return nullptr;
  }
  auto pmu = std::make_unique<Pmu>(Pmu::from_directory(std::string(name), join(devices, name)));
  if (vendor) Catalog::attach(*pmu, vendor);
  const Pmu* result = pmu.get();
  probed.emplace(std::string(name), std::move(pmu));
  return result;
}

Catalog::Catalog(std::unique_ptr<State> state) : state_(std::move(state)) {}
Catalog::Catalog(Catalog&&) noexcept = default;
Catalog& Catalog::operator=(Catalog&&) noexcept = default;
Catalog::~Catalog() = default;

Expected<Catalog> Catalog::open(const std::filesystem::path& dir) {
  std::string root = without_trailing_slashes(dir.string());
  if (root.empty()) {
    return unexpected(make_file_diagnostic(Severity::error, DiagId::catalog_unreadable, "<sysfs>",
                                           "no sysfs directory given"));
  }
  struct stat status {};
  if (::stat(root.c_str(), &status) != 0) {
    return unexpected(make_file_diagnostic(
        Severity::error, DiagId::catalog_unreadable, root,
        fmt::format("cannot open sysfs directory: {}", detail::error_text(errno))));
  }
  if (!S_ISDIR(status.st_mode)) {
    return unexpected(make_file_diagnostic(Severity::error, DiagId::catalog_unreadable, root,
                                           "expected a directory"));
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

  auto devices_fd = detail::open_directory_fd(AT_FDCWD, devices, devices);
  if (!devices_fd) return unexpected(std::move(devices_fd.error().diagnostic));
  auto state = std::make_unique<State>();
  state->devices_dir = devices;
  if (!named_devices && !below_root) {
    // Only what it holds tells a hand-made devices folder from any other directory.
    auto holds = holds_a_pmu(devices_fd->get(), devices);
    if (!holds) return unexpected(std::move(holds).error());
    if (!*holds) {
      Diagnostic not_a_tree = make_file_diagnostic(
          Severity::error, DiagId::catalog_not_pmu_tree, root,
          "not a PMU devices directory: it holds no bus/event_source/devices and no <pmu>/type");
      not_a_tree.hint = "pass /sys, /sys/bus/event_source/devices, or a copy of either";
      return unexpected(std::move(not_a_tree));
    }
  }
  state->devices_fd = std::move(*devices_fd);
  state->devices = std::move(devices);
  return Catalog(std::move(state));
}

void Catalog::attach(Pmu& pmu, std::shared_ptr<const detail::VendorCatalogs> vendor) {
  pmu.attach_vendor(std::move(vendor));
}

std::optional<Pmu> Catalog::unloaded_copy(const Pmu& pmu) const {
  if (pmu.path().empty()) return std::nullopt;
  Pmu copy = Pmu::from_directory(pmu.name(), pmu.path());
  if (state_->vendor) attach(copy, state_->vendor);
  return copy;
}

namespace {

std::shared_ptr<const detail::VendorCatalogs> make_vendor(const VendorOptions& options) {
  // Without a CPU identifier no model is chosen, but the system tables still apply (they attach
  // by the PMU's identifier).
  if (options.events_dir.empty()) return nullptr;
  return std::make_shared<const detail::VendorCatalogs>(options);
}

}  // namespace

Expected<Catalog> Catalog::open(const std::filesystem::path& dir, VendorOptions vendor) {
  auto catalog = open(dir);
  if (!catalog) return catalog;
  return std::move(*catalog).with_vendor(std::move(vendor));
}

Catalog Catalog::with_vendor(VendorOptions vendor) && {
  state_->vendor = make_vendor(vendor);
  state_->vendor_options = std::move(vendor);
  state_->attach_vendor_to_found();
  return std::move(*this);
}

Catalog Catalog::with_vendor(std::function<VendorOptions()> resolve) && {
  state_->vendor = std::make_shared<const detail::VendorCatalogs>(std::move(resolve));
  state_->vendor_options = {};
  state_->attach_vendor_to_found();
  return std::move(*this);
}

Expected<Catalog> Catalog::open_default() {
  const char* sysfs = std::getenv("PMUCAT_SYSFS");
  if (sysfs != nullptr && *sysfs != '\0') return open(sysfs);
  return open("/sys/bus/event_source/devices");
}

Catalog Catalog::from_pmus(std::vector<Pmu> pmus) {
  return from_pmus(std::move(pmus), VendorOptions{});
}

Catalog Catalog::from_pmus(std::vector<Pmu> pmus, VendorOptions vendor) {
  auto state = std::make_unique<State>();
  state->vendor = make_vendor(vendor);
  state->vendor_options = std::move(vendor);
  if (state->vendor) {
    for (Pmu& pmu : pmus) attach(pmu, state->vendor);
  }
  Listing listing;
  listing.pmus = std::move(pmus);
  std::stable_sort(listing.pmus.begin(), listing.pmus.end(),
                   [](const Pmu& a, const Pmu& b) { return natural_less(a.name(), b.name()); });
  state->set_listing(std::move(listing));
  return Catalog(std::move(state));
}

const std::filesystem::path& Catalog::devices_dir() const {
  return state_->devices_dir;
}

std::span<const Pmu> Catalog::pmus() const {
  return state_->list().pmus;
}

const Pmu* Catalog::find_pmu(std::string_view exact_name) const {
  if (!state_->listed.load(std::memory_order_acquire) && probeable_pmu_name(exact_name)) {
    return state_->probe(exact_name);
  }
  const std::vector<Pmu>& pmus = state_->list().pmus;
  auto found = std::lower_bound(
      pmus.begin(), pmus.end(), exact_name,
      [](const Pmu& pmu, std::string_view key) { return natural_less(pmu.name(), key); });
  return found != pmus.end() && found->name() == exact_name ? &*found : nullptr;
}

std::vector<const Pmu*> Catalog::match_pmus(std::string_view pattern) const {
  if (const Pmu* exact = find_pmu(pattern)) return {exact};
  std::vector<const Pmu*> matches;
  for (const Pmu& pmu : pmus()) {
    if (pmu_name_matches(pmu.name(), pattern)) matches.push_back(&pmu);
  }
  return matches;
}

const Pmu* Catalog::core_pmu() const {
  if (const Pmu* cpu = find_pmu("cpu")) return cpu;
  if (const Pmu* cpu_core = find_pmu("cpu_core")) return cpu_core;
  for (const Pmu& pmu : pmus()) {
    if (pmu.attributes().cpus) return &pmu;
  }
  return nullptr;
}

std::span<const Diagnostic> Catalog::diagnostics() const {
  return state_->list().diagnostics;
}

const HwmonPmus& Catalog::hwmon_pmus() const {
  std::call_once(state_->hwmon_once, [&] { state_->hwmon = read_hwmon_pmus(state_->devices_dir); });
  return state_->hwmon;
}

const VendorOptions& Catalog::vendor_options() const {
  return state_->vendor ? state_->vendor->options() : state_->vendor_options;
}

const VendorModel* Catalog::vendor_model() const {
  return state_->vendor ? state_->vendor->main().full().model.get() : nullptr;
}

// The vendor catalog whose metrics `-M` uses: the core PMU's model on Arm with a model per PMU.
const detail::VendorCatalog* Catalog::metrics_vendor_catalog() const {
  if (!state_->vendor) return nullptr;
  const detail::VendorCatalog* catalog = &state_->vendor->main();
  if (state_->vendor->per_pmu()) {
    if (const Pmu* core = core_pmu()) catalog = &state_->vendor->for_pmu(core->attributes());
  }
  return catalog;
}

std::span<const VendorMetric> Catalog::vendor_metrics() const {
  const detail::VendorCatalog* catalog = metrics_vendor_catalog();
  return catalog ? catalog->metrics() : std::span<const VendorMetric>();
}

std::vector<VendorMetricGroup> Catalog::vendor_metric_groups() const {
  const detail::VendorCatalog* catalog = metrics_vendor_catalog();
  if (!catalog) return {};
  return pmucat::vendor_metric_groups(catalog->metrics(), catalog->metric_group_descriptions());
}

std::span<const Diagnostic> Catalog::vendor_diagnostics() const {
  if (!state_->vendor) return {};
  return state_->vendor->main().full().diagnostics;
}

std::span<const Diagnostic> Catalog::vendor_diagnostics_so_far() const {
  if (!state_->vendor) return {};
  const detail::VendorCatalog* main = state_->vendor->main_if_made();
  const std::vector<Diagnostic>* diagnostics = main ? main->diagnostics_so_far() : nullptr;
  return diagnostics ? std::span<const Diagnostic>(*diagnostics) : std::span<const Diagnostic>();
}

std::string_view to_string(EventSource source) {
  switch (source) {
    case EventSource::sysfs:
      return "sysfs";
    case EventSource::json:
      return "json";
    case EventSource::both:
      return "both";
  }
  return "sysfs";
}

PMUCAT_END_NAMESPACE
