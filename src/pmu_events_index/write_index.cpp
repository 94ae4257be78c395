// Building an index root from a JSON tree (the build's generator, tools/vendor-index).
#include <fcntl.h>
#include <fmt/core.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <set>
#include <system_error>

#include "pmu_events/text_file.h"
#include "pmu_events_index/compile.h"
#include "pmucat/diagnostic_ids.h"
#include "pmucat/vendor_index.h"
#include "pmucat/vendor_index_cache.h"

PMUCAT_BEGIN_NAMESPACE
namespace {

namespace fs = std::filesystem;

Diagnostic unwritable(const fs::path& path, std::string_view what) {
  return make_file_diagnostic(Severity::error, DiagId::vendor_index_unreadable, path.string(),
                              fmt::format("cannot write the index: {}", what));
}

void relativize(std::string& file, std::string_view prefix) {
  if (file.size() > prefix.size() && file.starts_with(prefix)) file.erase(0, prefix.size());
}

void relativize(Diagnostic& diagnostic, std::string_view prefix) {
  relativize(diagnostic.range.file, prefix);
  if (diagnostic.fixit) relativize(diagnostic.fixit->range.file, prefix);
  for (Diagnostic& note : diagnostic.notes) relativize(note, prefix);
}

std::string root_prefix(const fs::path& root) {
  std::string prefix = root.string();
  if (!prefix.ends_with('/')) prefix += '/';
  return prefix;
}

}  // namespace

void relativize_vendor_model(VendorModel& model, const fs::path& root) {
  const std::string prefix = root_prefix(root);
  for (VendorEvent& event : model.events) relativize(event.location.file, prefix);
  for (VendorMetric& metric : model.metrics) relativize(metric.location.file, prefix);
  for (Diagnostic& diagnostic : model.diagnostics) relativize(diagnostic, prefix);
}

namespace pmu_events_index {

bool write_file(const fs::path& path, std::string_view bytes, unsigned mode) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW,
                        static_cast<mode_t>(mode));
  if (fd < 0) return false;
  bool ok = true;
  while (ok && !bytes.empty()) {
    const ssize_t wrote = ::write(fd, bytes.data(), bytes.size());
    if (wrote < 0 && errno == EINTR) continue;
    ok = wrote > 0;
    if (ok) bytes.remove_prefix(static_cast<std::size_t>(wrote));
  }
  return ::close(fd) == 0 && ok;
}

CompiledFile compile_model_file(const fs::path& json_root, std::string_view arch,
                                std::string_view directory, PerfRelease rules, bool relative) {
  CompiledFile file;
  auto model = load_vendor_model(json_root / arch, directory, rules);
  if (!model) {
    Diagnostic failure = std::move(model).error();
    if (relative) relativize(failure, root_prefix(json_root));
    file.bytes = encode_vendor_index_failure(rules, arch, directory, failure);
    return file;
  }
  if (relative) relativize_vendor_model(*model, json_root);
  file.events = model->events.size();
  file.metrics = model->metrics.size();
  file.bytes = encode_vendor_index_model(*model);
  return file;
}

std::optional<CompiledFile> compile_sys_file(const fs::path& json_root, std::string_view arch,
                                             PerfRelease rules, bool relative) {
  VendorModel tables = load_vendor_sys_tables(json_root / arch, rules);
  if (tables.events.empty() && tables.metrics.empty() && tables.diagnostics.empty()) {
    return std::nullopt;
  }
  if (relative) relativize_vendor_model(tables, json_root);
  CompiledFile file;
  file.events = tables.events.size();
  file.metrics = tables.metrics.size();
  file.bytes = encode_vendor_index_model(tables);
  return file;
}

std::optional<fs::path> temporary_sibling(const fs::path& target) {
  std::string name = target.string() + ".tmp.XXXXXX";
  if (::mkdtemp(name.data()) == nullptr) return std::nullopt;
  return fs::path(name);
}

std::string marker_text(PerfRelease rules) {
  // It names the rules for a reader of the directory; every model file's header says them too.
  return fmt::format("pmucat-vendor-index {} rules {}\n", kVendorIndexVersion, to_string(rules));
}

}  // namespace pmu_events_index

Expected<VendorIndexSummary> write_vendor_index(const fs::path& json_root,
                                                const fs::path& index_root, PerfRelease rules) {
  VendorIndexSummary summary;
  std::error_code error;
  // Only an earlier index (or nothing) is replaced: stale model files must not survive a
  // rebuild, and a mistyped path must not lose someone's directory.
  if (fs::exists(index_root, error) && !fs::is_empty(index_root, error) &&
      !is_vendor_index(index_root)) {
    return unexpected(unwritable(index_root, "the directory is not empty and not an index"));
  }
  fs::remove_all(index_root, error);
  if (!fs::create_directories(index_root, error) && error) {
    return unexpected(unwritable(index_root, error.message()));
  }

  std::vector<std::string> archs;
  for (fs::directory_iterator it(json_root, error), end; !error && it != end; it.increment(error)) {
    std::error_code status_error;
    if (fs::is_regular_file(it->path() / "mapfile.csv", status_error)) {
      archs.push_back(it->path().filename().string());
    }
  }
  if (error) {
    return unexpected(make_file_diagnostic(Severity::error, DiagId::vendor_json_unreadable,
                                           json_root.string(), error.message()));
  }
  std::sort(archs.begin(), archs.end());

  // One model file, compiled from `arch`/`directory` of the tree into `arch_out`.
  auto write_model = [&](std::string_view arch, const std::string& directory,
                         const fs::path& arch_out) -> std::optional<Diagnostic> {
    const pmu_events_index::CompiledFile file =
        pmu_events_index::compile_model_file(json_root, arch, directory, rules, true);
    const fs::path out = arch_out / vendor_index_file_name(directory);
    if (!pmu_events_index::write_file(out, file.bytes)) return unwritable(out, "write failed");
    summary.events += file.events;
    summary.metrics += file.metrics;
    summary.bytes += file.bytes.size();
    return std::nullopt;
  };
  for (const std::string& arch : archs) {
    const fs::path mapfile_path = json_root / arch / "mapfile.csv";
    const auto mapfile_text =
        pmu_events::read_bounded_text_file(mapfile_path, pmu_events::kMaxMapfileSize);
    if (!mapfile_text) {
      return unexpected(make_file_diagnostic(Severity::error, DiagId::vendor_json_unreadable,
                                             mapfile_path.string(),
                                             "cannot read the mapfile: " + mapfile_text.error()));
    }
    const fs::path arch_out = index_root / arch;
    if (!fs::create_directories(arch_out, error) && error) {
      return unexpected(unwritable(arch_out, error.message()));
    }
    if (!pmu_events_index::write_file(arch_out / "mapfile.csv", *mapfile_text)) {
      return unexpected(unwritable(arch_out / "mapfile.csv", "write failed"));
    }
    ++summary.archs;
    const Mapfile mapfile = parse_mapfile(*mapfile_text, mapfile_path.string(), arch);
    std::set<std::string> done;
    for (const MapfileRow& row : mapfile.rows) {
      if (!done.insert(row.directory).second) continue;
      if (auto failed = write_model(arch, row.directory, arch_out)) {
        return unexpected(std::move(*failed));
      }
      ++summary.models;
    }
  }
  // perf 7.2+'s common table, which has no mapfile: the metrics of a CPU no row matches.
  if (jevents_rules(rules) >= JeventsRules::of_7_2 &&
      fs::is_directory(json_root / "common" / "common", error)) {
    const fs::path arch_out = index_root / "common";
    if (!fs::create_directories(arch_out, error) && error) {
      return unexpected(unwritable(arch_out, error.message()));
    }
    if (auto failed = write_model("common", "common", arch_out)) {
      return unexpected(std::move(*failed));
    }
  }
  error.clear();
  // Every architecture's system tables, those of `test` (which has no mapfile) included.
  std::vector<std::string> all_archs;
  for (fs::directory_iterator it(json_root, error), end; !error && it != end; it.increment(error)) {
    std::error_code status_error;
    if (it->is_directory(status_error)) all_archs.push_back(it->path().filename().string());
  }
  std::sort(all_archs.begin(), all_archs.end());
  for (const std::string& arch : all_archs) {
    const std::optional<pmu_events_index::CompiledFile> file =
        pmu_events_index::compile_sys_file(json_root, arch, rules, true);
    if (!file) continue;
    const fs::path arch_out = index_root / arch;
    if (!fs::create_directories(arch_out, error) && error) {
      return unexpected(unwritable(arch_out, error.message()));
    }
    const fs::path out = arch_out / kVendorIndexSysFile;
    if (!pmu_events_index::write_file(out, file->bytes)) {
      return unexpected(unwritable(out, "write failed"));
    }
    summary.events += file->events;
    summary.metrics += file->metrics;
    summary.bytes += file->bytes.size();
  }
  // The marker last: an interrupted build leaves a directory that is not taken for an index. It
  // names the rules for a reader of the directory; every model file's header says them too.
  const fs::path marker = index_root / kVendorIndexMarker;
  if (!pmu_events_index::write_file(marker, pmu_events_index::marker_text(rules))) {
    return unexpected(unwritable(marker, "write failed"));
  }
  return summary;
}

Expected<VendorIndexSummary> compile_vendor_index(const fs::path& json_root,
                                                  const fs::path& given_root, PerfRelease rules) {
  // `idx/` names the directory `idx`: its temporary sibling must be beside it, not in it.
  std::string spelled = given_root.string();
  while (spelled.size() > 1 && spelled.ends_with('/')) spelled.pop_back();
  const fs::path index_root(spelled);
  const std::string name = index_root.filename().string();
  if (name.empty() || name == "." || name == ".." || spelled == "/") {
    return unexpected(unwritable(given_root,
                                 "name the index directory itself (its last component is "
                                 "replaced by a rename), not '.', '..' or '/'"));
  }
  // lstat: a symlink is refused as itself, never followed to a directory it names.
  struct stat status {};
  const bool exists = ::lstat(index_root.c_str(), &status) == 0;
  if (!exists && errno != ENOENT) return unexpected(unwritable(index_root, std::strerror(errno)));
  std::error_code error;
  if (exists && !S_ISDIR(status.st_mode)) {
    return unexpected(unwritable(index_root, "not a directory (it is never replaced)"));
  }
  if (exists && !fs::is_empty(index_root, error) && !is_vendor_index(index_root)) {
    return unexpected(unwritable(index_root, "the directory is not empty and not an index"));
  }
  const auto temporary = pmu_events_index::temporary_sibling(index_root);
  if (!temporary) return unexpected(unwritable(index_root, std::strerror(errno)));
  auto summary = write_vendor_index(json_root, *temporary, rules);
  if (!summary) {
    fs::remove_all(*temporary, error);
    return summary;
  }
  // Missing or empty: a rename puts the new index in place. An earlier index: exchanged with the
  // new one in one step, then removed.
  const bool replaced = exists && !fs::is_empty(index_root, error);
  const int renamed = replaced ? ::renameat2(AT_FDCWD, temporary->c_str(), AT_FDCWD,
                                             index_root.c_str(), RENAME_EXCHANGE)
                               : ::rename(temporary->c_str(), index_root.c_str());
  if (renamed != 0) {
    const int rename_error = errno;
    fs::remove_all(*temporary, error);
    return unexpected(unwritable(index_root, std::strerror(rename_error)));
  }
  if (replaced) fs::remove_all(*temporary, error);  // the earlier index, now at the temporary
  return summary;
}

PMUCAT_END_NAMESPACE
