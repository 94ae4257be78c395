// Capture of a PMU tree (pmusnap), and opening a tree or a capture for reading. The only part of
// the library that runs another program: the system `tar`, for `.tar.gz` captures.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "pmucat/capture_manifest.h"
#include "pmucat/catalog.h"
#include "pmucat/expected.h"
#include "pmucat/version.h"

PMUCAT_BEGIN_NAMESPACE
namespace snap {

// Files larger than this are not copied (an empty placeholder and a manifest entry stand in):
// 16 times the catalog's kMaxSysfsFileSize, so a file the catalog calls too large is still
// captured as it is, and hv_24x7's binary interface/catalog fits.
inline constexpr std::size_t kMaxCapturedFileSize = std::size_t{1} << 20;

// What a capture copied, and what it could not.
struct Summary {
  std::size_t pmus = 0;
  std::size_t files = 0;                  // files copied byte for byte
  std::vector<NotCaptured> not_captured;  // in tree order
  std::vector<std::string> unreadable;    // the paths of not_captured (older callers)
  std::size_t tracepoints = 0;            // tracepoint ids captured (CaptureOptions::tracefs)
  std::size_t host_facts = 0;             // proc/sys/kernel files captured (::host_root)
};

struct CaptureOptions {
  // Replace an existing OUT: a regular .tar.gz file, or a directory holding a previous capture.
  // Never a symlink, FIFO, device or a directory pmusnap did not write.
  bool force = false;
  // The CPU identifier (perf's PERF_CPUID format) of the machine the tree describes, recorded in
  // the manifest's `cpuid` so tools reading the capture choose its vendor JSON model; absent:
  // null. pmusnap passes the one its options, the source capture or this machine give
  // (cli/common/vendor.h); the library never guesses it.
  std::optional<std::string> cpuid;
  // A tracefs root (holding events/) whose tracepoint ids to capture as
  // `out`/kernel/tracing/events/<system>/<event>/id (ids only: no format, no other file), where
  // tools reading the capture find them (cli/common/tree.h). Absent: no tracefs capture.
  std::optional<std::string> tracefs;
  // A root laid out like `/` whose proc/sys/kernel/{perf_event_paranoid,nmi_watchdog,
  // perf_event_max_sample_rate,osrelease}
  // (what `pmuencode --explain --host-root` reads, docs/explain.md) to copy to
  // `out`/proc/sys/kernel/; a file the host lacks is left out. Absent: none (pmusnap passes `/`
  // when it captures the live /sys, whose host it describes).
  std::optional<std::filesystem::path> host_root = {};
};

// Copies the files tools read of every PMU under `sysfs` (a devices dir or a root above one)
// to `out`/bus/event_source/devices/: `out` is a new or empty directory or a `.tar.gz`/`.tgz`
// (`-`: a .tar.gz stream on standard output).
// Only regular files are opened; what is not copied byte for byte gets an empty placeholder and
// a manifest entry (docs/man/pmusnap.1.md). Fails, leaving nothing behind, when the tree cannot
// be read or `out` cannot be written.
Expected<Summary> capture(const std::filesystem::path& sysfs, const std::filesystem::path& out,
                          const CaptureOptions& options = {});

// One `pmusnap: warning: PATH: not captured: REASON [RULE]` line per entry, then a count line;
// empty when everything was captured.
std::string describe_not_captured(const Summary& summary);

// What unpacking a capture may cost at most (docs/robustness.md): the bytes of the tar stream
// (the files' contents plus 512 bytes of header each) and the number of entries. A real
// machine's capture is a few MB and a few thousand entries.
struct UnpackLimits {
  std::uint64_t max_bytes = std::uint64_t{64} << 20;
  std::size_t max_entries = 100000;
};

// A capture unpacked into a fresh temporary directory, removed again on destruction, and by
// SIGINT, SIGTERM or SIGHUP while it lives (or while it is being unpacked). Lets tools take
// `--sysfs capture.tar.gz`.
class Unpacked {
 public:
  // Unpacks `tar_gz` (gzip and tar, the system's) into a new temporary directory, within
  // `limits`; then checks what came out: only directories, regular files and symlinks that
  // resolve inside the capture. Anything else (a link out of the capture, absolute or through
  // `..`, a device node, a FIFO) refuses the whole capture. Every failure removes what was
  // unpacked and names the capture.
  static Expected<Unpacked> open(const std::filesystem::path& tar_gz,
                                 const UnpackLimits& limits = {});
  Unpacked(Unpacked&& other) noexcept;
  Unpacked& operator=(Unpacked&& other) noexcept;
  Unpacked(const Unpacked&) = delete;
  Unpacked& operator=(const Unpacked&) = delete;
  ~Unpacked();
  // The directory the capture was unpacked into (holds bus/event_source/devices).
  const std::filesystem::path& root() const { return root_; }

 private:
  Unpacked(std::filesystem::path root, int cleanup_slot)
      : root_(std::move(root)), cleanup_slot_(cleanup_slot) {}
  void remove();
  std::filesystem::path root_;
  int cleanup_slot_ = -1;  // io's signal-time removal of root_
};

// True when `path` names a gzip-compressed tar (by its `.tar.gz`/`.tgz` name).
bool is_tarball(const std::filesystem::path& path);

// A catalog opened from a tree directory or from a pmusnap `.tar.gz` (kept unpacked while this
// lives; members are destroyed catalog first).
struct OpenedTree {
  std::optional<Unpacked> unpacked;
  Catalog catalog;
};
// Opens `path` (a directory or a capture tarball), or the default tree when `path` is empty.
Expected<OpenedTree> open_tree(const std::filesystem::path& path);

}  // namespace snap
PMUCAT_END_NAMESPACE
