// Building an index root from a JSON tree (the build's generator, tools/vendor-index).
#include <fmt/core.h>

#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>
#include <system_error>

#include "pmucat/diagnostic_ids.h"
#include "pmucat/vendor_index.h"
#include "vendor/text_file.h"

namespace pmucat {
namespace {

namespace fs = std::filesystem;

Diagnostic unwritable(const fs::path& path, std::string_view what) {
  return make_file_diagnostic(Severity::error, DiagId::vendor_index_unreadable, path.string(),
                              fmt::format("cannot write the index: {}", what));
}

bool write_text(const fs::path& path, std::string_view bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  out.close();
  return static_cast<bool>(out);
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

Expected<VendorIndexSummary> write_vendor_index(const fs::path& json_root,
                                                const fs::path& index_root, PerfVersion rules) {
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
  const std::string prefix = root_prefix(json_root);

  for (const std::string& arch : archs) {
    const fs::path mapfile_path = json_root / arch / "mapfile.csv";
    const std::optional<std::string> mapfile_text = vendor::read_text_file(mapfile_path);
    if (!mapfile_text) {
      return unexpected(make_file_diagnostic(Severity::error, DiagId::vendor_json_unreadable,
                                             mapfile_path.string(), "cannot read the mapfile"));
    }
    const fs::path arch_out = index_root / arch;
    if (!fs::create_directories(arch_out, error) && error) {
      return unexpected(unwritable(arch_out, error.message()));
    }
    if (!write_text(arch_out / "mapfile.csv", *mapfile_text)) {
      return unexpected(unwritable(arch_out / "mapfile.csv", "write failed"));
    }
    ++summary.archs;
    const Mapfile mapfile = parse_mapfile(*mapfile_text, mapfile_path.string(), arch);
    std::set<std::string> done;
    for (const MapfileRow& row : mapfile.rows) {
      if (!done.insert(row.directory).second) continue;
      auto model = load_vendor_model(json_root / arch, row.directory, rules);
      std::string bytes;
      if (model) {
        relativize_vendor_model(*model, json_root);
        summary.events += model->events.size();
        summary.metrics += model->metrics.size();
        bytes = encode_vendor_index_model(*model);
      } else {
        Diagnostic failure = std::move(model).error();
        relativize(failure, prefix);
        bytes = encode_vendor_index_failure(rules, arch, row.directory, failure);
      }
      const fs::path out = arch_out / vendor_index_file_name(row.directory);
      if (!write_text(out, bytes)) return unexpected(unwritable(out, "write failed"));
      summary.bytes += bytes.size();
      ++summary.models;
    }
  }
  // Every architecture's system tables, those of `test` (which has no mapfile) included.
  std::vector<std::string> all_archs;
  for (fs::directory_iterator it(json_root, error), end; !error && it != end; it.increment(error)) {
    std::error_code status_error;
    if (it->is_directory(status_error)) all_archs.push_back(it->path().filename().string());
  }
  std::sort(all_archs.begin(), all_archs.end());
  for (const std::string& arch : all_archs) {
    VendorModel tables = load_vendor_sys_tables(json_root / arch, rules);
    if (tables.events.empty() && tables.metrics.empty() && tables.diagnostics.empty()) continue;
    relativize_vendor_model(tables, json_root);
    const fs::path arch_out = index_root / arch;
    if (!fs::create_directories(arch_out, error) && error) {
      return unexpected(unwritable(arch_out, error.message()));
    }
    const std::string bytes = encode_vendor_index_model(tables);
    const fs::path out = arch_out / kVendorIndexSysFile;
    if (!write_text(out, bytes)) return unexpected(unwritable(out, "write failed"));
    summary.events += tables.events.size();
    summary.metrics += tables.metrics.size();
    summary.bytes += bytes.size();
  }
  // The marker last: an interrupted build leaves a directory that is not taken for an index. It
  // names the rules for a reader of the directory; every model file's header says them too.
  const fs::path marker = index_root / kVendorIndexMarker;
  if (!write_text(marker, fmt::format("pmucat-vendor-index {} rules {}\n", kVendorIndexVersion,
                                      to_string(rules)))) {
    return unexpected(unwritable(marker, "write failed"));
  }
  return summary;
}

}  // namespace pmucat
