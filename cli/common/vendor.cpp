#include "common/vendor.h"

#include <cstdlib>
#include <system_error>

#include "pmucat/sysfs_root.h"
#include "pmucat/vendor_events.h"
#include "pmucat/vendor_index_cache.h"
#include "pmucat/vendor_index_install.h"

PMUCAT_BEGIN_NAMESPACE
namespace cli {
namespace {

std::optional<std::string> environment(const char* name) {
  const char* value = std::getenv(name);
  if (value == nullptr) return std::nullopt;
  return std::string(value);
}

std::optional<std::string> non_empty(std::optional<std::string> value) {
  if (value && value->empty()) return std::nullopt;
  return value;
}

bool is_live(const std::filesystem::path& tree_dir) {
  std::error_code error;
  return std::filesystem::equivalent(tree_dir, "/sys/bus/event_source/devices", error) && !error;
}

// The sysfs root above a devices folder (`<root>/bus/event_source/devices`) when it describes
// arm64 CPUs: one stat of cpu0's MIDR decides, so other trees pay a single failed call.
std::optional<std::filesystem::path> tree_midr_root(const std::filesystem::path& tree_dir) {
  // The lexical form has an event_source component only if the text has the word.
  if (tree_dir.native().find("event_source") == std::string::npos) return std::nullopt;
  std::optional<std::filesystem::path> root = sysfs_root_above(tree_dir);
  std::error_code error;
  if (!root || !std::filesystem::exists(
                   *root / "devices/system/cpu/cpu0/regs/identification/midr_el1", error)) {
    return std::nullopt;
  }
  return root;
}

}  // namespace

// The PMUCAT_EVENTS_DIR_FROM_BIN paths come from cmake/PmucatEvents.cmake.
std::optional<std::string> installed_events_dir(std::optional<PerfRelease> tables) {
  const std::string bin = executable_dir();
  return installed_vendor_index(tables, {bin, PMUCAT_EVENTS_DIR_FROM_BIN});
}

VendorOptions choose_vendor_options(const VendorInputs& inputs) {
  VendorOptions options;
  // pmucat's semantics read the default tables (the newest set the build has), and a JSON tree
  // by the same release's jevents rules: linux 7.3's tree with its generated and common files.
  options.rules =
      inputs.tables ? *inputs.tables : default_tables_release().value_or(kPmucatBaseRelease);
  if (!inputs.option_no_events_dir) {
    if (inputs.option_events_dir) {
      options.events_dir = *inputs.option_events_dir;
    } else if (inputs.env_events_dir) {
      options.events_dir = *inputs.env_events_dir;
    } else if (inputs.installed_events_dir) {
      options.events_dir = *inputs.installed_events_dir;
    }
  }
  if (inputs.option_cpuid) {
    options.cpuid = *inputs.option_cpuid;
  } else if (inputs.env_cpuid) {
    options.cpuid = *inputs.env_cpuid;
  } else if (inputs.capture_cpuid) {
    options.cpuid = *inputs.capture_cpuid;
  } else if (inputs.live_tree && inputs.host_cpuid) {
    options.cpuid = *inputs.host_cpuid;
  } else if (inputs.tree_midr_cpuid) {
    options.cpuid = *inputs.tree_midr_cpuid;
  }
  if (!options.events_dir.empty() && inputs.index_cache) options.index_cache = *inputs.index_cache;
  // perf 6.1 on arm64: each PMU's identifier from its own CPUs, unless PERF_CPUID names one.
  if (inputs.midr_root && !inputs.option_cpuid && !inputs.env_cpuid) {
    options.midr_root = *inputs.midr_root;
  }
  return options;
}

VendorOptions vendor_options(const CommonOptions& options, const std::filesystem::path& tree_dir,
                             const std::optional<std::string>& capture_cpuid) {
  VendorInputs inputs;
  inputs.option_events_dir = options.events_dir;
  inputs.option_no_events_dir = options.no_events_dir;
  inputs.env_events_dir = environment("PMUCAT_EVENTS_DIR");
  // Looked for only when nothing else names a directory: it costs a readlink and a stat.
  if (!inputs.option_no_events_dir && !inputs.option_events_dir && !inputs.env_events_dir) {
    inputs.installed_events_dir = installed_events_dir(options.tables);
  }
  inputs.tables = options.tables;
  // Only a named directory can be a JSON tree: the installed one is an index.
  if (!inputs.option_no_events_dir && (inputs.option_events_dir || inputs.env_events_dir)) {
    inputs.index_cache = vendor_index_cache_dir(environment("XDG_CACHE_HOME").value_or(""),
                                                environment("HOME").value_or(""));
  }
  inputs.option_cpuid = options.cpuid;
  inputs.env_cpuid = non_empty(environment("PMUCAT_CPUID"));
  inputs.capture_cpuid = capture_cpuid;
  inputs.live_tree = is_live(tree_dir);
  if (inputs.live_tree && !inputs.option_cpuid && !inputs.env_cpuid && !capture_cpuid) {
    inputs.host_cpuid = host_cpuid("/sys");
  }
  if (!inputs.option_cpuid && !inputs.env_cpuid) {
    if (auto root = tree_midr_root(tree_dir)) {
      inputs.tree_midr_cpuid = arm64_midr_cpuid(*root);
      if (inputs.tree_midr_cpuid) inputs.midr_root = std::move(root);
    }
  }
  return choose_vendor_options(inputs);
}

}  // namespace cli
PMUCAT_END_NAMESPACE
