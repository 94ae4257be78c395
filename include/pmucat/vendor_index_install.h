// Where the compiled vendor event indexes installed with pmucat are found. Every part of pmucat
// that reads the default tables (the tools, the Python package) asks this one lookup, so they all
// read the same ones (docs/catalog.md, "Where the events come from").
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "pmucat/perf_profile.h"
#include "pmucat/version.h"

PMUCAT_BEGIN_NAMESPACE

// Where one installed component of pmucat finds the indexes: the directory its code was loaded
// from, and the installed index of the default table set relative to that directory
// (cmake/PmucatEvents.cmake computes it when the build is configured: from the tools' bin/, from
// the Python package's folder). Every other set lies beside it, named after its kernel release
// (`pmu-events-index` and `pmu-events-index-6.1`), as the build's own indexes do.
struct InstalledIndexPaths {
  std::string_view anchor_dir;  // "" when unknown: only the build's index is looked for
  std::string_view newest;      // the default set's index (linux PMUCAT_EVENTS_VERSION's)
};

// The compiled index of `tables` (nullopt: the default set; another release's set lies beside
// it, named `<index>-<its kernel release>`) installed beside `paths.anchor_dir`,
// else the one this build generated (code run from its build tree), the first of them that is a
// directory; nullopt when neither is (a build without the kernel's tables), or when the build
// has no set of that release (its tables are missing: never another release's). One stat() each.
std::optional<std::string> installed_vendor_index(std::optional<PerfRelease> tables,
                                                  const InstalledIndexPaths& paths);

// The release of the build's default table set (linux PMUCAT_EVENTS_VERSION's), nullopt for a
// build without tables: the jevents rules a JSON tree is read by when no perf is named.
std::optional<PerfRelease> default_tables_release();

// The directory holding the running executable, the anchor of the tools ("" when
// /proc/self/exe cannot be read).
std::string executable_dir();

PMUCAT_END_NAMESPACE
