// Reading a vendor catalog's small text files (mapfile.csv, JSON files, /proc texts).
#pragma once

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>

#include "pmucat/expected.h"

PMUCAT_BEGIN_NAMESPACE
namespace pmu_events {

// The most bytes read of each kind of file (docs/catalog.md, "Bounds"): a file larger is refused
// whole, so a huge sparse file or one that never ends (/dev/zero, /proc/self/pagemap) costs at
// most this much, never the memory it claims. Each is far above what the kernel's tree holds
// (linux 6.12: the largest JSON file 1.2 MB, the largest mapfile 2 KB).
inline constexpr std::size_t kMaxJsonFileSize = std::size_t{64} << 20;
inline constexpr std::size_t kMaxMapfileSize = std::size_t{1} << 20;
inline constexpr std::size_t kMaxSmallTextSize = std::size_t{1} << 20;  // /proc, sysfs texts

// The whole content of the regular file at `path`, at most `cap` bytes; else why not: the host
// module's bounded reader (host/host_root.h: a FIFO or device refused without blocking).
Expected<std::string, std::string> read_bounded_text_file(const std::filesystem::path& path,
                                                          std::size_t cap);

// The same with kMaxSmallTextSize, and no reason.
std::optional<std::string> read_text_file(const std::filesystem::path& path);

}  // namespace pmu_events
PMUCAT_END_NAMESPACE
