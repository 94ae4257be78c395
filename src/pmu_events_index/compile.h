// What write_vendor_index() and the cache (vendor_index_cache.h) share: one model's file, one
// architecture's system tables, the marker, and writing a file.
#pragma once

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "pmucat/perf_profile.h"

PMUCAT_BEGIN_NAMESPACE
namespace pmu_events_index {

// A compiled model file's bytes and what it holds.
struct CompiledFile {
  std::string bytes;
  std::size_t events = 0;
  std::size_t metrics = 0;
};

// The file of the model `arch`/`directory` of the JSON tree `json_root`: load_vendor_model()'s
// result, or the error it failed with. `relative`: locations named relative to `json_root` (an
// index to ship without the JSON); otherwise as load_vendor_model() gives them (the cache, whose
// readers must see what the JSON gives).
CompiledFile compile_model_file(const std::filesystem::path& json_root, std::string_view arch,
                                std::string_view directory, PerfRelease rules, bool relative);

// The file of an architecture's system tables (load_vendor_sys_tables()); nullopt when it has
// neither tables nor diagnostics (no file is written: a reader takes that as no tables).
std::optional<CompiledFile> compile_sys_file(const std::filesystem::path& json_root,
                                             std::string_view arch, PerfRelease rules,
                                             bool relative);

// The marker file's text (kVendorIndexMarker), written last.
std::string marker_text(PerfRelease rules);

// A new private directory `<target>.tmp.XXXXXX` (mkdtemp) beside `target`, to be renamed onto
// it once complete; nullopt (errno set) when it cannot be made.
std::optional<std::filesystem::path> temporary_sibling(const std::filesystem::path& target);

// Writes `bytes` to a new file `path` created with `mode` (less the umask); false on any
// failure. The cache passes 0600: its files must be the user's alone whatever the umask.
bool write_file(const std::filesystem::path& path, std::string_view bytes, unsigned mode = 0666);

}  // namespace pmu_events_index
PMUCAT_END_NAMESPACE
