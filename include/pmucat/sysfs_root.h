// Where a PMU devices folder sits in sysfs: the one rule every reader of a tree's other sysfs
// parts (CPU identifiers, hwmon devices, a capture's manifest) uses to find the root above it.
#pragma once

#include <filesystem>
#include <optional>

#include "pmucat/version.h"

PMUCAT_BEGIN_NAMESPACE

// The sysfs root above `devices_dir` when it is laid out as sysfs lays it out
// (`<root>/bus/event_source/devices`, read lexically: `/sys` for the live tree, a capture's or a
// fixture's root); nullopt for a devices folder anywhere else.
inline std::optional<std::filesystem::path> sysfs_root_above(
    const std::filesystem::path& devices_dir) {
  std::filesystem::path dir = devices_dir.lexically_normal();
  if (!dir.has_filename()) dir = dir.parent_path();
  const std::filesystem::path event_source = dir.parent_path();
  const std::filesystem::path bus = event_source.parent_path();
  if (dir.filename() != "devices" || event_source.filename() != "event_source" ||
      bus.filename() != "bus") {
    return std::nullopt;
  }
  return bus.parent_path();
}

PMUCAT_END_NAMESPACE
