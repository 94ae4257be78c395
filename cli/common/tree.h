// Opening the tree a tool reads: a sysfs directory or a pmusnap .tar.gz capture, the same way in
// every tool (pmucat::snap::open_tree does the work). Separate from app.h because it needs the
// library's snapshot module (where captures live), which not every user of cli/common links.
#pragma once

#include <filesystem>

#include "common/options.h"
#include "pmucat/snapshot.h"

namespace pmucat::cli {

// Opens `path`: a devices folder, any root above bus/event_source/devices, or a pmusnap
// `.tar.gz`/`.tgz` (unpacked while the result lives). An empty path is the live /sys; the
// library's own default ($PMUCAT_SYSFS) is never consulted, --sysfs already carries it.
Expected<snap::OpenedTree> open_tree(const std::filesystem::path& path);

// The tree the common options select: --sysfs / $PMUCAT_SYSFS, else the live /sys. Reads
// nothing about any PMU (the devices folder is listed when first needed; see Catalog::open).
Expected<snap::OpenedTree> open_tree(const CommonOptions& options);

}  // namespace pmucat::cli
