// Runs the real `perf stat -vv` against a sysfs tree bind-mounted over
// /sys/bus/event_source/devices in a private mount namespace, and reads back the
// perf_event_attr blocks it prints before opening (and failing to open) each event.
#pragma once

#include <array>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "pmucat/attr.h"
#include "pmucat/perf_profile.h"
#include "support/scratch_dir.h"

PMUCAT_BEGIN_NAMESPACE
namespace differential {

// The part of an attr the differential test compares.
struct AttrWords {
  std::uint32_t type = 0;
  ConfigWords config{};       // config..config3 (perf 6.1 never prints config3)
  std::uint32_t bp_type = 0;  // breakpoints (config1/config2 are bp_addr/bp_len)
  friend auto operator<=>(const AttrWords&, const AttrWords&) = default;
};
std::string to_string(const AttrWords& words);

// The modifier-related bits of an attr (event groups compare these too).
struct AttrBits {
  bool exclude_user = false, exclude_kernel = false, exclude_hv = false;
  bool exclude_guest = false, exclude_host = false, exclude_idle = false;
  bool pinned = false, exclusive = false;
  unsigned precise_ip = 0;
  friend auto operator<=>(const AttrBits&, const AttrBits&) = default;
};
std::string to_string(const AttrBits& bits);

struct PerfResult {
  std::vector<AttrWords> attrs;  // distinct attrs, sorted; empty when perf rejected the spec
  // Every attr block perf printed, in print order, each as its "name value" lines (names as perf
  // spells them, single spaces): all fields, for the tool-defaults differential.
  std::vector<std::vector<std::string>> blocks;
  // Every attr block in the order perf printed it (repeats kept), with its modifier bits.
  std::vector<std::pair<AttrWords, AttrBits>> printed;
  std::vector<std::string> warnings;  // "WARNING: ..." lines
  std::string error;                  // perf's last error lines when it rejected the spec
  std::string output;                 // everything perf printed, for reports
  bool accepted() const { return !attrs.empty(); }
};

// One attr dump line ("  name    value", as perf -vv and pmucat::dump_attr() print it) as
// "name value" with single spaces; empty for a line that is not a field.
std::string normalise_attr_line(const std::string& line);

// Parses the output of one `perf stat -vv -e SPEC true` (or `perf record -vv`) run.
PerfResult parse_perf_output(const std::string& output);

struct OracleOptions {
  // The release it must be (oracle_unavailable() checks `perf --version`): from_environment()
  // takes $PMUCAT_DIFF_PERF_VERSION.
  PerfRelease version = PerfRelease::v6_1;
  // The binary: `perf` for 6.1, the build of scripts/perf-oracle-<release>.sh for a later
  // release ($PMUCAT_PERF_6_12, $PMUCAT_PERF_7_3); $PMUCAT_PERF overrides any in
  // from_environment().
  std::string perf = "perf";
  // perf processes run in parallel ($PMUCAT_DIFF_JOBS). A perf run spends longer waiting than
  // computing, so more workers than cores pay off.
  unsigned workers = 4;
  // PERF_CPUID in perf's environment: the vendor JSON table perf attaches to the tree's PMUs.
  // The default matches no table, so perf encodes from sysfs alone (and starts faster); the
  // vendor differential test names a model (`GenuineIntel-6-8F-0`).
  std::string cpuid = "PmucatNone-0-0-0";
  // The perf command and its options, run with `-vv -e SPEC true` (split at spaces): `stat`, or
  // `record -o perf.data` (in a scratch directory).
  std::string command = "stat";
  // A fake tracefs root (holding events/<sys>/<event>/format) for tracepoint specs, or empty.
  // perf 6.1 takes it from TRACEFS_PATH (tools/lib/api/fs/fs.c's NAME_PATH override), which
  // wins over /sys/kernel/tracing and debugfs alike; perf reads each event's `format` (its
  // `ID:` line), not `id`.
  std::string tracefs;
  static OracleOptions from_environment();
};

// Why the oracle cannot run here, or nullopt when it can (root, perf present, unshare works).
std::optional<std::string> oracle_unavailable(const OracleOptions& options);

// Types below this are fixed by the ABI (PERF_TYPE_HARDWARE..PERF_TYPE_BREAKPOINT); the kernel
// hands out the others to PMUs as they register.
inline constexpr std::uint32_t kFirstDynamicType = 6;
// A materialised tree's dynamic types are moved up by this much. perf really opens each attr, and
// where a fake PMU's type is also a host PMU's (msr, uprobe) that open can succeed or fail
// differently, which changes which attrs of a pattern perf goes on to print (seen on snb_ep:
// two of eight uncore_cbox instances missing).
inline constexpr std::uint32_t kMaterialisedTypeOffset = 10000;

// Undoes the move of dynamic types in perf's attrs, so they compare with pmucat's on the
// original tree.
void restore_materialised_types(PerfResult& result);

// A tree materialised for perf: symlinks resolved (`cp -rL`), dynamic types moved up by
// kMaterialisedTypeOffset, in a temporary directory that is removed with this object.
class MaterialisedTree {
 public:
  // Copies `devices_dir` (a devices folder, whose entries may be symlinks) into a new temp dir.
  static std::optional<MaterialisedTree> copy_of(const std::filesystem::path& devices_dir);
  MaterialisedTree(MaterialisedTree&& other) noexcept = default;
  MaterialisedTree& operator=(MaterialisedTree&&) = delete;
  const std::filesystem::path& devices_dir() const { return devices_; }

 private:
  MaterialisedTree(testing::ScratchDir root, std::filesystem::path devices);
  testing::ScratchDir root_;
  std::filesystem::path devices_;
};

// Runs perf once per spec against `devices_dir` (a folder of real directories, not symlinks); an
// empty spec runs perf without -e (plain `perf stat`: its default events).
// Returns one result per spec, in order, or an error text when the namespace or mount failed.
struct OracleRun {
  std::vector<PerfResult> results;
  std::string failure;  // non-empty when nothing could be run
};
OracleRun run_perf(const std::filesystem::path& devices_dir, const std::vector<std::string>& specs,
                   const OracleOptions& options);

}  // namespace differential
PMUCAT_END_NAMESPACE
