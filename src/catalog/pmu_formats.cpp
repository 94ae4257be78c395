// Loading format/: one listing, then each field file read and parsed; or one field by its path.
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>

#include "catalog/pmu_parts.h"
#include "catalog/sysfs_file.h"
#include "pmucat/catalog.h"
#include "pmucat/diagnostic_ids.h"
#include "pmucat/format.h"

PMUCAT_BEGIN_NAMESPACE
namespace detail {
namespace {

// Parses a field file's text into `format` (spec, and the last term of a file of several); an
// unparsable one keeps an empty spec and reports why.
void parse_into(Format& format, std::string text, std::vector<Diagnostic>& diagnostics) {
  format.text = std::move(text);
  auto spec = parse_format(format.text, format.path);
  if (!spec) {
    diagnostics.push_back(std::move(spec.error()));
    return;
  }
  format.spec = std::move(*spec);
  const bool several_terms =
      std::any_of(format.spec.lints.begin(), format.spec.lints.end(),
                  [](const Diagnostic& d) { return d.code == DiagId::format_multiple_terms; });
  if (several_terms) {
    if (auto last = parse_format(format.text, format.path, FormatTerm::last)) {
      last->lints.clear();  // the same as the first parse's
      format.last_term.push_back(std::move(*last));
    }
  }
}

}  // namespace

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
      parse_into(format, std::move(*content), loaded.diagnostics);
    }
    loaded.formats.push_back(std::move(format));
  }
  // Natural order (f1, f2, f10), as PMUs are listed; find_format() searches by it.
  std::sort(loaded.formats.begin(), loaded.formats.end(),
            [](const Format& a, const Format& b) { return natural_less(a.name, b.name); });
  return loaded;
}

ProbedFormat probe_format(const std::string& pmu_dir, std::string_view name) {
  ProbedFormat probed;
  Format format;
  format.path = pmu_dir + "/format/";
  format.path += name;
  auto content = read_sysfs_file_if_present(AT_FDCWD, format.path, format.path);
  if (!content) return probed;  // unreadable: the listing reports it
  if (!*content) {
    // The open missed. A dangling or looping link is still a listed (unusable) field; only
    // nothing at all there (or no format/ directory) is certainly absent from the listing.
    struct stat status {};
    const bool nothing_there = ::lstat(format.path.c_str(), &status) != 0 &&
                               (errno == ENOENT || errno == ENOTDIR || errno == ENAMETOOLONG);
    if (nothing_there) probed.outcome = ProbedFormat::Outcome::absent;
    return probed;
  }
  std::vector<Diagnostic> problems;
  format.name = std::string(name);
  parse_into(format, std::move(**content), problems);
  if (!problems.empty()) return probed;  // unparsable: the listing reports it
  probed.outcome = ProbedFormat::Outcome::found;
  probed.format = std::move(format);
  return probed;
}

}  // namespace detail
PMUCAT_END_NAMESPACE
