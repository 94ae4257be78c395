#include "common/tree.h"

#include "common/vendor.h"

namespace pmucat::cli {

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

Expected<snap::OpenedTree> open_tree(const CommonOptions& options) {
  auto tree = open_tree(std::filesystem::path(options.sysfs));
  if (!tree) return tree;
  // Worked out when first needed: finding the installed catalog and telling the live tree costs
  // system calls that encoding `cpu/event=0x3c/` never needs.
  tree->catalog =
      std::move(tree->catalog).with_vendor([options, devices = tree->catalog.devices_dir()] {
        VendorOptions vendor = vendor_options(options, devices, capture_cpuid(devices));
        // No events directory: sysfs only, and no CPU identifier either, as before the choice
        // was deferred (the planner would otherwise take the identifier's vendor).
        return vendor.events_dir.empty() ? VendorOptions{} : vendor;
      });
  return tree;
}

}  // namespace pmucat::cli
