#include "common/tree.h"

#include <fmt/core.h>
#include <sys/stat.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include "common/vendor.h"
#include "pmucat/cpuid_form.h"
#include "pmucat/diagnostic_ids.h"
#include "pmucat/vendor_index.h"

PMUCAT_BEGIN_NAMESPACE
namespace cli {

Expected<snap::OpenedTree> open_tree(const std::filesystem::path& path) {
  return snap::open_tree(path.empty() ? std::filesystem::path("/sys") : path);
}

std::optional<std::string> capture_cpuid(const std::filesystem::path& devices_dir) {
  auto manifest = snap::read_capture_manifest(devices_dir);
  if (!manifest) return std::nullopt;
  return manifest->cpuid;
}

std::string tracefs_root(const CommonOptions& options, const std::filesystem::path& devices_dir) {
  if (!options.tracefs.empty()) return options.tracefs;
  if (options.sysfs.empty()) return {};
  // devices_dir is <root>/sys/bus/event_source/devices (or a bare devices folder).
  return (devices_dir / ".." / ".." / ".." / "kernel" / "tracing").lexically_normal().string();
}

namespace {

// Where the events directory or CPU identifier in use came from, as a diagnostic names it.
struct Named {
  std::string where;  // "<--cpuid>", "$PMUCAT_CPUID", ...
  std::string value;
};

// The value the user gave: the option (`given`; empty means none), else the environment
// variable `env` when set and not empty.
std::optional<Named> named_value(const std::optional<std::string>& given, std::string option,
                                 const char* env) {
  if (given) {
    if (given->empty()) return std::nullopt;
    return Named{"<" + option + ">", *given};
  }
  const char* value = std::getenv(env);
  if (value == nullptr || *value == '\0') return std::nullopt;
  return Named{std::string("$") + env, value};
}

std::optional<Named> named_events_dir(const CommonOptions& options) {
  if (options.no_events_dir) return std::nullopt;
  return named_value(options.events_dir, "--events-dir", "PMUCAT_EVENTS_DIR");
}

std::optional<Named> named_cpuid(const CommonOptions& options) {
  return named_value(options.cpuid, "--cpuid", "PMUCAT_CPUID");
}

// An events directory that is not one would silently mean "sysfs events only".
// Whether `dir` holds what a table lookup reads: a compiled index, or an architecture folder
// with a mapfile.csv. Only the first kMaxArchDirs entries are looked at (the kernel's tree has a
// dozen), so a huge directory costs no more than that.
bool holds_tables(const std::string& dir) {
  constexpr int kMaxArchDirs = 4096;
  if (is_vendor_index(dir)) return true;
  std::error_code error;
  int seen = 0;
  for (auto it = std::filesystem::directory_iterator(dir, error);
       !error && it != std::filesystem::directory_iterator() && seen < kMaxArchDirs;
       it.increment(error), ++seen) {
    struct stat mapfile {};
    if (::stat((it->path() / "mapfile.csv").c_str(), &mapfile) == 0 && S_ISREG(mapfile.st_mode)) {
      return true;
    }
  }
  return false;
}

std::optional<Diagnostic> check_events_dir(const Named& dir) {
  struct stat status {};
  std::string problem;
  if (::stat(dir.value.c_str(), &status) != 0) {
    problem = std::strerror(errno);
  } else if (!S_ISDIR(status.st_mode)) {
    problem = "not a directory";
  } else if (!holds_tables(dir.value)) {
    problem =
        "it holds no <arch>/mapfile.csv (nor a compiled index), so no table of it would apply";
  } else {
    return std::nullopt;
  }
  const std::string option =
      dir.where.front() == '<' ? dir.where.substr(1, dir.where.size() - 2) : dir.where;
  return argument_error(
      DiagId::option_events_dir_missing, dir.where, dir.value, 0, dir.value.size(),
      fmt::format("{} '{}' is no events directory: {}", option, dir.value, problem),
      "give a directory laid out like the kernel's tools/perf/pmu-events/arch (or an index "
      "pmuls --compile-index wrote), or --no-events-dir for sysfs events only");
}

// mapfile-no-match, said where the identifier came from (a capture's: located at the tree), with
// the rows nearest to it. The tables are named only when the user named them: the installed
// ones' path says nothing to the user.
Diagnostic unmatched_cpuid(const VendorOptions& vendor, const std::optional<Named>& named,
                           bool named_tables, const std::filesystem::path& devices) {
  const std::string& id = vendor.cpuid;
  const std::string tables = named_tables ? "under " + vendor.events_dir.string()
                                          : std::string("of the installed vendor tables");
  // perf 7.2 and later then still read their common table's metrics (CPUs_utilized, ...).
  const bool common_table =
      vendor.rules && jevents_rules(*vendor.rules) >= JeventsRules::of_7_2;
  const std::string message =
      fmt::format("no mapfile.csv row {} matches CPU identifier '{}': {}", tables, id,
                  common_table ? "no model's vendor JSON events or metrics apply, only the "
                                 "common table's metrics"
                               : "no vendor JSON events or metrics apply");
  Diagnostic warning =
      named ? make_diagnostic(Severity::warning, DiagId::cpuid_unmatched, named->where,
                              named->value, 0, named->value.size(), message)
            : make_file_diagnostic(Severity::warning, DiagId::cpuid_unmatched, devices.string(),
                                   "the capture's identifier: " + message);
  const std::vector<std::string> nearest = nearest_mapfile_rows(vendor.events_dir, id, 3);
  if (!nearest.empty()) {
    warning.hint = "nearest rows (perf matches them as case-sensitive regular expressions): ";
    for (std::size_t i = 0; i < nearest.size(); ++i) {
      if (i != 0) warning.hint += ", ";
      warning.hint += nearest[i];
    }
  }
  return warning;
}

}  // namespace

DiagnosticPrinter::Watch report_vendor_problems(DiagnosticPrinter& printer, const Catalog& catalog,
                                                const CommonOptions& options) {
  return printer.watch([&catalog, named = named_cpuid(options),
                        named_tables = named_events_dir(options).has_value(),
                        devices = catalog.devices_dir(), verbose = options.verbose] {
    std::vector<Diagnostic> problems;
    for (const Diagnostic& diagnostic : catalog.vendor_diagnostics_so_far()) {
      if (diagnostic.code == DiagId::mapfile_no_match) {
        // The host's own identifier (the live tree, an arm64 tree's MIDR) is no choice the user
        // made: a machine perf has no tables for is not an error of the command line.
        const VendorOptions& vendor = catalog.vendor_options();
        if (named || capture_cpuid(devices) == vendor.cpuid) {
          problems.push_back(unmatched_cpuid(vendor, named, named_tables, devices));
        }
      } else if (diagnostic.severity == Severity::error) {
        Diagnostic warning = diagnostic;
        warning.severity = Severity::warning;
        problems.push_back(std::move(warning));
      } else if (verbose && diagnostic.severity == Severity::note) {
        problems.push_back(diagnostic);
      }
    }
    return problems;
  });
}

Expected<snap::OpenedTree> open_tree(const CommonOptions& options, DiagnosticPrinter& printer) {
  if (const auto dir = named_events_dir(options)) {
    if (auto problem = check_events_dir(*dir)) return unexpected(std::move(*problem));
  }
  // --perf-semantics=VERSION reads VERSION's tables: a build without them says so rather than
  // answering from sysfs alone as if that perf had no JSON events. Only when nothing else names
  // the tables (an empty --events-dir or $PMUCAT_EVENTS_DIR chooses none on purpose).
  if (options.tables && !options.no_events_dir && !options.events_dir &&
      std::getenv("PMUCAT_EVENTS_DIR") == nullptr && !installed_events_dir(options.tables)) {
    const std::string_view release = to_string(*options.tables);
    Diagnostic warning = make_diagnostic(
        Severity::warning, to_string(DiagId::vendor_tables_missing), "<--perf-semantics>", release,
        0, release.size(),
        fmt::format("this build has no vendor tables of linux {} (perf {}'s): only sysfs events "
                    "are known",
                    release, release));
    warning.hint = fmt::format(
        "give --events-dir with linux {}'s tools/perf/pmu-events/arch, or build pmucat with "
        "those tables",
        release);
    printer.print(warning);
  }
  if (const auto cpuid = named_cpuid(options)) {
    if (auto problem = check_cpuid_form(cpuid->value, cpuid->where)) printer.print(*problem);
  }
  auto tree = open_tree(std::filesystem::path(options.sysfs));
  if (!tree) return tree;
  // Worked out when first needed: finding the installed catalog and telling the live tree costs
  // system calls that encoding `cpu/event=0x3c/` never needs.
  tree->catalog =
      std::move(tree->catalog).with_vendor([options, devices = tree->catalog.devices_dir()] {
        VendorOptions vendor = vendor_options(options, devices, capture_cpuid(devices));
        // No events directory: sysfs only, and no CPU identifier either (the planner would
        // otherwise take the identifier's vendor).
        return vendor.events_dir.empty() ? VendorOptions{} : vendor;
      });
  return tree;
}

}  // namespace cli
PMUCAT_END_NAMESPACE
