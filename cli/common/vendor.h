// Which vendor JSON catalog and CPU identifier a tool uses: a pure decision from everything that
// can ask for one (options, environment, capture, machine), and the impure wrapper that gathers
// those from the process.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include "common/options.h"
#include "pmucat/catalog.h"

PMUCAT_BEGIN_NAMESPACE
namespace cli {

// Everything that has a say, each absent when it has none.
struct VendorInputs {
  std::optional<std::string> option_events_dir;     // --events-dir (an empty value counts)
  bool option_no_events_dir = false;                // --no-events-dir
  std::optional<std::string> env_events_dir;        // $PMUCAT_EVENTS_DIR (set, even if empty)
  std::optional<std::string> installed_events_dir;  // the installed or built catalog, if found
  std::optional<PerfRelease> tables;                // --perf-semantics=VERSION (nullopt: newest)
  std::optional<std::string> option_cpuid;          // --cpuid
  std::optional<std::string> env_cpuid;             // $PMUCAT_CPUID (empty: not set)
  std::optional<std::string> capture_cpuid;         // the identifier a capture recorded
  // This machine's identifier; only used for the live /sys (a fixture or another machine's
  // tree is not described by this CPU).
  std::optional<std::string> host_cpuid;
  bool live_tree = false;
  // The tree's own arm64 MIDR files (devices/system/cpu/cpuN/regs/identification/midr_el1 under
  // its sysfs root): the root, and the identifier of its first CPU. Absent on other trees.
  std::optional<std::filesystem::path> midr_root;
  std::optional<std::string> tree_midr_cpuid;
  // The user's cache of compiled indexes (vendor_index_cache_dir() of $XDG_CACHE_HOME and
  // $HOME): a JSON events directory is compiled there once. Absent: the JSON is parsed each run.
  std::optional<std::filesystem::path> index_cache;
};

// The index of `tables` (nullopt: the default set) installed with the tools (beside the
// executable), else the one the build generated (a tool run from the build tree); nullopt when
// the build has no tables of that release.
std::optional<std::string> installed_events_dir(std::optional<PerfRelease> tables);

// First of: --no-events-dir (none), --events-dir, $PMUCAT_EVENTS_DIR, the installed catalog;
// an empty directory means none. CPU identifier: --cpuid, $PMUCAT_CPUID, the capture's, the
// host's for the live tree, the tree's first CPU's MIDR. Without --cpuid or $PMUCAT_CPUID (perf's
// PERF_CPUID), a tree with MIDR files chooses each PMU's model by its own CPUs (midr_root).
// The index cache goes with any events directory (a compiled index ignores it).
VendorOptions choose_vendor_options(const VendorInputs& inputs);

// The same from the process: the options, the environment, the catalog installed beside the
// executable (../share/pmucat/pmu-events/arch) or the build tree's, the host's identifier, the
// user's cache directory.
// `tree_dir` is the devices folder being read (live when it is the one under /sys).
VendorOptions vendor_options(const CommonOptions& options, const std::filesystem::path& tree_dir,
                             const std::optional<std::string>& capture_cpuid);

}  // namespace cli
PMUCAT_END_NAMESPACE
