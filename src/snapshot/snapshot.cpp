// pmusnap: copies the files of a PMU tree that tools read, following symlinks, into a plain
// directory tree. Every entry that cannot be copied byte for byte gets an empty placeholder and
// a manifest entry naming the pmucheck rule the original hits, so the capture keeps the bug.
#include "pmucat/snapshot.h"

#include <fcntl.h>
#include <fmt/core.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <iterator>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <system_error>

#include "catalog/sysfs_file.h"
#include "pmucat/diagnostic_ids.h"
#include "pmucat/pmu_attribute_files.h"
#include "pmucat/sysfs_root.h"
#include "pmucat/tracefs.h"
#include "snapshot_detail.h"

PMUCAT_BEGIN_NAMESPACE
namespace snap {
namespace {

namespace fs = std::filesystem;

// Directories of a PMU whose files are all kept; everything else below the PMU (power/,
// subsystem, device links) is driver-core plumbing no tool reads.
constexpr std::string_view kKeptDirs[] = {"format", "events", "caps", "interface"};
// Of those, the ones the catalog reads (interface/ is kept for people, not tools).
constexpr std::string_view kCatalogDirs[] = {"format", "events", "caps"};
constexpr std::string_view kSkippedFiles[] = {"uevent"};

bool listed(std::span<const std::string_view> names, std::string_view name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

// Why one entry was not copied; `rule` is none for files no pmucheck rule reads.
struct Miss {
  std::optional<DiagId> rule;
  std::string reason;
  bool directory = false;  // the placeholder is an empty directory, not an empty file
  bool missing = false;    // nothing there: a dangling link
};

// True when `path` (absolute, without links) is `root` or lies below it.
bool is_within(const fs::path& path, const fs::path& root) {
  auto [root_end, path_end] = std::mismatch(root.begin(), root.end(), path.begin(), path.end());
  return root_end == root.end() || (std::next(root_end) == root.end() && root_end->empty());
}

Miss outside_the_tree(const fs::path& real) {
  return Miss{
      std::nullopt,
      fmt::format("a symlink leads out of the captured tree (to '{}'); not copied", real.string()),
      false};
}

// Where a link in the tree leads, when that is outside `tree` (the tree's root, without links):
// what pmusnap must not copy. Dangling links are left to the reader (nothing to copy).
std::optional<Miss> leads_outside(const fs::path& from, const fs::path& tree) {
  std::error_code ec;
  const fs::path real = fs::canonical(from, ec);
  if (ec || is_within(real, tree)) return std::nullopt;
  return outside_the_tree(real);
}

// The bytes of a regular file at `from` (symlinks followed, but never out of `tree`), or why
// they cannot be had. A FIFO or device is never opened; a file over kMaxCapturedFileSize is not
// read past the limit.
Expected<std::string, Miss> read_bounded(const fs::path& from, const fs::path& tree) {
  struct stat status {};
  if (::stat(from.c_str(), &status) != 0) {
    return unexpected(Miss{DiagId::file_unreadable,
                           fmt::format("cannot open file: {}", detail::error_text(errno)), false,
                           errno == ENOENT});
  }
  auto not_regular = [](mode_t mode) {
    return Miss{DiagId::file_not_regular,
                fmt::format("expected a regular file, found {}", pmucat::detail::file_kind(mode)),
                S_ISDIR(mode)};
  };
  auto too_large = [](std::uint64_t size) {
    return Miss{DiagId::file_too_large,
                fmt::format("file is larger than {} bytes ({} bytes); sysfs attributes are "
                            "smaller than a page",
                            kMaxCapturedFileSize, size)};
  };
  if (!S_ISREG(status.st_mode)) return unexpected(not_regular(status.st_mode));
  if (static_cast<std::uint64_t>(status.st_size) > kMaxCapturedFileSize) {
    return unexpected(too_large(static_cast<std::uint64_t>(status.st_size)));
  }
  if (auto outside = leads_outside(from, tree)) return unexpected(std::move(*outside));
  // O_NONBLOCK: should the entry have become a FIFO since the stat(), open() must not wait.
  detail::UniqueFd fd(::open(from.c_str(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC));
  if (fd.get() < 0) {
    return unexpected(Miss{DiagId::file_unreadable,
                           fmt::format("cannot open file: {}", detail::error_text(errno))});
  }
  // What was opened, as the kernel names it: a link swapped in since the check above still
  // cannot lead out of the tree.
  std::error_code ec;
  const fs::path opened = fs::read_symlink(fmt::format("/proc/self/fd/{}", fd.get()), ec);
  if (!ec && !is_within(opened, tree)) return unexpected(outside_the_tree(opened));
  if (::fstat(fd.get(), &status) != 0 || !S_ISREG(status.st_mode)) {
    return unexpected(not_regular(status.st_mode));
  }
  std::string content;
  char buffer[16384];
  for (;;) {
    ssize_t got = ::read(fd.get(), buffer, sizeof buffer);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) {
      return unexpected(Miss{DiagId::file_unreadable,
                             fmt::format("cannot read file: {}", detail::error_text(errno))});
    }
    if (got == 0) break;
    content.append(buffer, static_cast<std::size_t>(got));
    // A file that grows while read (or lies in st_size, as sysfs does) is still bounded here.
    if (content.size() > kMaxCapturedFileSize) return unexpected(too_large(content.size()));
  }
  return content;
}

struct Copier {
  fs::path capture_root;  // the capture being written
  fs::path tree_root;  // the root of the tree captured, links resolved: nothing outside is copied
  fs::path devices_out;
  Summary summary;
  // Every entry written, relative to `root` (directories end in '/'): the manifest lists them,
  // so that --force can later prove a directory holds nothing but a capture's own files.
  std::set<std::string> written;

  void note_written(const fs::path& path, bool directory) {
    const fs::path relative = path.lexically_relative(capture_root);
    fs::path prefix;
    for (auto it = relative.begin(); it != relative.end(); ++it) {
      if (*it == "." || it->empty()) continue;
      prefix /= *it;
      const bool last = std::next(it) == relative.end();
      written.insert(prefix.string() + (!last || directory ? "/" : ""));
    }
  }
  std::optional<Diagnostic> write_error;  // the capture itself could not be written

  void record(const std::string& relative, const Miss& miss) {
    summary.unreadable.push_back(relative);
    summary.not_captured.push_back(NotCaptured{
        relative, miss.rule ? std::string(to_string(*miss.rule)) : std::string(), miss.reason});
  }

  void fail_write(const fs::path& path, std::string message) {
    if (!write_error) {
      write_error = make_file_diagnostic(Severity::error, DiagId::snapshot_failed, path.string(),
                                         std::move(message));
    }
  }

  void make_directory(const fs::path& path) {
    std::error_code ec;
    fs::create_directories(path, ec);
    if (ec) fail_write(path, fmt::format("cannot create directory: {}", ec.message()));
    note_written(path, true);
  }

  void write_file(const fs::path& to, std::string_view content) {
    if (auto error = detail::write_new_file(to, content)) fail_write(to, std::move(*error));
    note_written(to, false);
  }

  // `catalog_reads`: the catalog reads this file, so its miss is filed under a pmucheck rule.
  void copy_file(const fs::path& from, const fs::path& to, const std::string& relative,
                 bool catalog_reads) {
    auto content = read_bounded(from, tree_root);
    if (content) {
      write_file(to, *content);
      ++summary.files;
      return;
    }
    Miss miss = std::move(content).error();
    if (!catalog_reads) miss.rule.reset();
    if (miss.missing && relative.find('/') == relative.rfind('/')) {
      // A dangling link among the PMU's own files reads as "no such file" to the catalog,
      // which treats the file as absent: so does the capture (no placeholder).
      miss.rule.reset();
      record(relative, miss);
      return;
    }
    // The placeholder: an empty directory reproduces a directory exactly for every reader; an
    // empty file stands for everything else and the manifest says what it was.
    if (miss.directory) {
      make_directory(to);
    } else {
      write_file(to, "");
    }
    record(relative, miss);
  }

  void copy_dir_files(const fs::path& from, const fs::path& to, const std::string& relative,
                      bool catalog_reads) {
    make_directory(to);
    if (auto outside = leads_outside(from, tree_root)) {
      outside->directory = true;
      record(relative, *outside);
      return;
    }
    std::error_code ec;
    for (fs::directory_iterator it(from, ec), end; !ec && it != end; it.increment(ec)) {
      std::string name = it->path().filename().string();
      copy_file(it->path(), to / name, relative + "/" + name, catalog_reads);
    }
    if (ec) {
      record(relative,
             Miss{catalog_reads ? std::optional<DiagId>(DiagId::file_unreadable) : std::nullopt,
                  fmt::format("cannot list directory: {}", ec.message())});
    }
  }

  // arm64: each CPU's MIDR (devices/system/cpu/cpuN/regs/identification/midr_el1 under the
  // sysfs root above `devices`), so that tools choose each PMU's vendor model by its own CPUs
  // on the capture as on the machine (docs/catalog.md). Nothing on other machines.
  void copy_midr_files(const fs::path& devices, const fs::path& root) {
    const std::optional<fs::path> source_root = sysfs_root_above(devices);
    if (!source_root) return;
    const fs::path cpu_dir = *source_root / "devices/system/cpu";
    std::error_code ec;
    if (!fs::exists(cpu_dir / "cpu0/regs/identification/midr_el1", ec)) return;
    for (fs::directory_iterator it(cpu_dir, ec), end; !ec && it != end; it.increment(ec)) {
      const std::string name = it->path().filename().string();
      if (!name.starts_with("cpu") || name.size() == 3 ||
          name.find_first_not_of("0123456789", 3) != std::string::npos) {
        continue;
      }
      const fs::path from = it->path() / "regs/identification/midr_el1";
      std::error_code status;
      if (!fs::exists(from, status)) continue;
      const std::string relative = "devices/system/cpu/" + name + "/regs/identification";
      make_directory(root / relative);
      copy_file(from, root / relative / "midr_el1", relative + "/midr_el1", false);
    }
  }

  void copy_pmu(const Pmu& pmu) {
    fs::path out_dir = devices_out / pmu.name();
    std::error_code ec;
    fs::directory_iterator it(pmu.path(), ec);
    if (ec) {
      // A dangling PMU link: the tree claims the PMU, so an empty directory stands for it.
      make_directory(out_dir);
      record(pmu.name(), Miss{DiagId::pmu_dir_unreadable,
                              fmt::format("cannot open directory: {}", ec.message()), true});
      return;
    }
    make_directory(out_dir);
    if (auto outside = leads_outside(pmu.path(), tree_root)) {
      outside->directory = true;
      record(pmu.name(), *outside);
      return;
    }
    ++summary.pmus;
    for (fs::directory_iterator end; !ec && it != end; it.increment(ec)) {
      std::string name = it->path().filename().string();
      std::string relative = pmu.name() + "/" + name;
      std::error_code status_ec;
      bool directory = fs::is_directory(fs::status(it->path(), status_ec));  // follows symlinks
      if (listed(kKeptDirs, name)) {
        if (directory) {
          copy_dir_files(it->path(), out_dir / name, relative, listed(kCatalogDirs, name));
          continue;
        }
        // Not a directory: the catalog fails to list it whatever it is, and an empty file
        // fails the same way, so a non-regular one is recorded as what the catalog says. A
        // dangling link is an absent directory to the catalog: left out, listed without rule.
        auto content = read_bounded(it->path(), tree_root);
        if (!content && content.error().missing) {
          record(relative, Miss{std::nullopt, content.error().reason});
          continue;
        }
        write_file(out_dir / name, content ? *content : std::string());
        if (content) {
          ++summary.files;
        } else if (!listed(kCatalogDirs, name)) {
          record(relative, Miss{std::nullopt, content.error().reason});
        } else if (content.error().rule == DiagId::file_unreadable) {
          record(relative, Miss{DiagId::file_unreadable, content.error().reason});  // a link loop
        } else {
          record(relative, Miss{DiagId::file_unreadable, "cannot open directory: Not a directory"});
        }
        continue;
      }
      if (listed(kSkippedFiles, name)) continue;
      // A PMU file the catalog reads; a directory of such a name hides the attribute.
      const bool catalog_reads =
          std::any_of(std::begin(kPmuAttributeFiles), std::end(kPmuAttributeFiles),
                      [&](const PmuAttributeFile& file) { return file.name == name; });
      if (directory && !catalog_reads) continue;  // power/, subsystem, device: plumbing
      // A dangling link is still a file the tree claims to have: copy_file records it.
      copy_file(it->path(), out_dir / name, relative, catalog_reads);
    }
    if (ec) {
      record(pmu.name(), Miss{DiagId::pmu_dir_unreadable,
                              fmt::format("cannot list directory: {}", ec.message())});
    }
  }

  // Files among the PMU directories: the catalog only notes their names (catalog-stray-entry),
  // so their bytes are copied when they can be and an empty file stands in otherwise.
  void copy_stray_entry(const fs::path& from) {
    std::string name = from.filename().string();
    auto content = read_bounded(from, tree_root);
    write_file(devices_out / name, content ? *content : std::string());
    if (content) {
      ++summary.files;
    } else {
      record(name, Miss{DiagId::catalog_stray_entry, content.error().reason});
    }
  }
};

// The tracepoint ids of `tracefs` into `root`/kernel/tracing/events/<system>/<event>/id. An id
// that cannot be read is left out and listed (path `kernel/tracing/...`, no rule: pmucheck does
// not read tracefs); a tracefs that cannot be opened fails the capture.
std::optional<Diagnostic> copy_tracefs(Copier& copier, const std::string& tracefs,
                                       const fs::path& root) {
  auto opened = Tracefs::open(tracefs);
  if (!opened) return std::move(opened).error();
  auto systems = opened->systems();
  if (!systems) return std::move(systems).error();
  const fs::path events_out = root / "kernel" / "tracing" / "events";
  copier.make_directory(events_out);
  for (const std::string& system : *systems) {
    auto events = opened->events(system);
    if (!events) {
      copier.record("kernel/tracing/events/" + system, Miss{std::nullopt, events.error().message});
      continue;
    }
    for (const std::string& event : *events) {
      const std::string relative = "kernel/tracing/events/" + system + "/" + event + "/id";
      auto id = opened->id(system, event);
      if (!id) {
        copier.record(relative, Miss{std::nullopt, id.error().message});
        continue;
      }
      copier.make_directory(events_out / system / event);
      copier.write_file(events_out / system / event / "id", std::to_string(*id) + "\n");
      ++copier.summary.tracepoints;
    }
  }
  return std::nullopt;
}

// The host facts the explainer reads (docs/explain.md) into `root`/proc/sys/kernel/. A file the
// host does not have (nmi_watchdog on some architectures) is left out, as it is unknown there
// too; one that cannot be read is listed (no rule: pmucheck does not read /proc).
void copy_host_facts(Copier& copier, const fs::path& host_root, const fs::path& root) {
  const fs::path kernel_out = root / "proc" / "sys" / "kernel";
  for (const char* name :
       {"perf_event_paranoid", "nmi_watchdog", "perf_event_max_sample_rate", "osrelease"}) {
    const std::string relative = std::string("proc/sys/kernel/") + name;
    std::error_code ec;
    auto content = read_bounded(host_root / relative, fs::canonical(host_root, ec));
    if (!content) {
      if (!content.error().missing)
        copier.record(relative, Miss{std::nullopt, content.error().reason});
      continue;
    }
    copier.make_directory(kernel_out);
    copier.write_file(kernel_out / name, *content);
    ++copier.summary.host_facts;
  }
}

nlohmann::json manifest_of(const Copier& copier, const fs::path& source,
                           const CaptureOptions& options) {
  const std::optional<std::string>& cpuid = options.cpuid;
  nlohmann::json not_captured = nlohmann::json::array();
  for (const NotCaptured& entry : copier.summary.not_captured) {
    nlohmann::json item = {{"path", entry.path}, {"reason", entry.reason}};
    item["rule"] = entry.rule.empty() ? nlohmann::json(nullptr) : nlohmann::json(entry.rule);
    not_captured.push_back(std::move(item));
  }
  return {{"tool", "pmusnap"},
          {"manifest_version", kManifestVersion},
          {"source", source.string()},
          {"cpuid", cpuid ? nlohmann::json(*cpuid) : nlohmann::json(nullptr)},
          {"max_file_size", kMaxCapturedFileSize},
          {"pmus", copier.summary.pmus},
          {"files", copier.summary.files},
          {"not_captured", std::move(not_captured)},
          {"tracefs", options.tracefs ? nlohmann::json(*options.tracefs) : nlohmann::json(nullptr)},
          {"tracepoints", copier.summary.tracepoints},
          {"host_facts", copier.summary.host_facts},
          {"written", copier.written}};
}

}  // namespace

Expected<Summary> copy_tree(const fs::path& sysfs, const fs::path& root,
                            const CaptureOptions& options) {
  auto catalog = Catalog::open(sysfs);
  if (!catalog) return unexpected(std::move(catalog).error());
  Copier copier;
  copier.capture_root = root;
  {
    std::error_code ec;
    // The tree is the sysfs root above bus/event_source/devices, or a devices folder by itself.
    const fs::path tree = fs::canonical(catalog->devices_dir(), ec);
    copier.tree_root = sysfs_root_above(tree).value_or(tree);
  }
  copier.devices_out = root / "bus" / "event_source" / "devices";
  copier.make_directory(copier.devices_out);
  if (copier.write_error) return unexpected(std::move(*copier.write_error));
  for (const Pmu& pmu : catalog->pmus()) copier.copy_pmu(pmu);
  for (const Diagnostic& diagnostic : catalog->diagnostics()) {
    if (diagnostic.code == DiagId::catalog_stray_entry)
      copier.copy_stray_entry(diagnostic.range.file);
  }
  std::error_code ec;
  fs::path source = fs::absolute(catalog->devices_dir(), ec);
  copier.copy_midr_files(source, root);
  if (options.tracefs) {
    if (auto error = copy_tracefs(copier, *options.tracefs, root)) return unexpected(*error);
  }
  if (options.host_root) copy_host_facts(copier, *options.host_root, root);
  copier.write_file(root / kManifestName,
                    manifest_of(copier, source, options)
                            .dump(2, ' ', false, nlohmann::json::error_handler_t::replace) +
                        "\n");
  if (copier.write_error) return unexpected(std::move(*copier.write_error));
  return copier.summary;
}

std::string describe_not_captured(const Summary& summary) {
  std::string out;
  for (const NotCaptured& entry : summary.not_captured) {
    out += fmt::format("pmusnap: warning: {}: not captured: {}{}\n", entry.path, entry.reason,
                       entry.rule.empty() ? "" : fmt::format(" [{}]", entry.rule));
  }
  if (!summary.not_captured.empty()) {
    out += fmt::format(
        "pmusnap: {} entr{} not captured byte for byte (empty placeholders, listed in {})\n",
        summary.not_captured.size(), summary.not_captured.size() == 1 ? "y" : "ies", kManifestName);
  }
  return out;
}

}  // namespace snap
PMUCAT_END_NAMESPACE
