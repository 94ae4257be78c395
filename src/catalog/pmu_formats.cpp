// Loading format/: one listing, then each field file read and parsed.
#include <algorithm>

#include "catalog/pmu_parts.h"
#include "catalog/sysfs_file.h"
#include "pmucat/catalog.h"
#include "pmucat/diagnostic_ids.h"
#include "pmucat/format.h"

namespace pmucat::detail {

LoadedFormats load_formats(const std::string& pmu_dir) {
  LoadedFormats loaded;
  std::string format_dir = pmu_dir + "/format";
  auto directory = Directory::open(AT_FDCWD, format_dir, format_dir);
  if (!directory) {
    // No format/ at all is normal (software, tracepoint, ...).
    if (!directory.error().missing())
      loaded.diagnostics.push_back(std::move(directory.error().diagnostic));
    return loaded;
  }
  std::vector<DirEntry> entries = directory->list();
  loaded.formats.reserve(entries.size());
  for (DirEntry& entry : entries) {
    Format format;
    format.path = format_dir + "/" + entry.name;
    auto content = may_be_regular(entry.type)
                       ? read_sysfs_file(directory->fd(), entry.name, format.path, entry.type)
                       : Expected<std::string, ReadFailure>(
                             unexpected(not_regular_failure(entry.type, format.path)));
    format.name = std::move(entry.name);
    // An unreadable or unparsable field is still listed (with no bits) so that validators
    // and encoders see the name and can say why it cannot be used, as newer perf does.
    if (!content) {
      loaded.diagnostics.push_back(std::move(content.error().diagnostic));
    } else {
      format.text = std::move(*content);
      auto spec = parse_format(format.text, format.path);
      if (spec) {
        format.spec = std::move(*spec);
        const bool several_terms =
            std::any_of(format.spec.lints.begin(), format.spec.lints.end(),
                        [](const Diagnostic& d) { return d.id == DiagId::format_multiple_terms; });
        if (several_terms) {
          if (auto last = parse_format(format.text, format.path, FormatTerm::last)) {
            last->lints.clear();  // the same as the first parse's
            format.last_term.push_back(std::move(*last));
          }
        }
      } else {
        loaded.diagnostics.push_back(std::move(spec.error()));
      }
    }
    loaded.formats.push_back(std::move(format));
  }
  // Natural order (f1, f2, f10), as PMUs are listed; find_format() searches by it.
  std::sort(loaded.formats.begin(), loaded.formats.end(),
            [](const Format& a, const Format& b) { return natural_less(a.name, b.name); });
  return loaded;
}

}  // namespace pmucat::detail
