// The compiled vendor event index: a whole `pmu-events/arch` tree turned at build time into one
// binary file per model, so that a tool finds one JSON event by name without parsing any JSON and
// without decoding the rest of the model.
//
// Layout of an index root (docs/catalog.md):
//   pmucat-index.version          the marker: `pmucat-vendor-index <format version>`
//   <arch>/mapfile.csv            a copy of the tree's mapfile (choose_vendor_model reads it)
//   <arch>/<model file>           one per mapfile Directory: vendor_index_file_name(directory)
//
// A model file (little-endian; every string is a u32 length and its bytes, so any byte works):
//   header   "PMUCATVI", u32 format version, u32 status (0 loaded, 1 the model failed to load),
//            u8 the jevents rules it was read with (PerfRelease: 0 perf 6.1, 1 perf 6.12),
//            arch, directory, cpuid, u32 diagnostic count + the model's diagnostics (status 1:
//            the one error load_vendor_model returned), u32 metrics offset (from the start
//            of the file: the metrics section after the records)
//   names    u32 count, then count entries {u32 name offset, u32 name length, u32 table
//            position, u32 record offset} sorted by (lower-case name, table position); the
//            offsets are from the start of the file
//   records  the events in perf's table order, every VendorEvent field
//   metrics  (at the header's metrics offset) u32 count, then the metrics in perf's table
//            order, every VendorMetric field (format version 2); then u32 count + the metric
//            group descriptions (name, description), u32 count + the counter.json objects (unit,
//            generic, fixed, location) (format version 3, with the rules byte)
//   digest   (format version 4) the last 8 bytes: u64 XXH64 (seed 0) of every byte before
//            them. Checked on every open, so a file changed after it was written (a flipped
//            byte that still parses) is a vendor-index-corrupt error, never other events.
// Readers trust no count or offset: each is checked against the bytes present before use, and a
// bad one is a vendor-index-corrupt error at its byte offset.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "pmucat/diagnostic.h"
#include "pmucat/expected.h"
#include "pmucat/perf_profile.h"
#include "pmucat/vendor_events.h"
#include "pmucat/version.h"

PMUCAT_BEGIN_NAMESPACE

// Diagnostic ids of this module:
//  vendor-index-corrupt     a model file or marker that is truncated, malformed or of another
//                           format version (located at the byte offset that failed)
//  vendor-index-rules       (the catalog's) an index built with other jevents rules than the
//                           catalog was asked for: used anyway, with this warning
//  vendor-index-unreadable  a model file or index root that cannot be read or written

inline constexpr std::string_view kVendorIndexMarker = "pmucat-index.version";
// 3: the rules byte, DefaultMetricgroupName, group descriptions and counters (perf 6.12).
// 4: the content digest at the end of every file.
// 5: RetirementLatencyMean/Min/Max and DefaultShowEvents (perf 7.3).
// 6: the rules byte's values with perf 7.2 among the releases.
inline constexpr std::uint32_t kVendorIndexVersion = 6;
// The largest model file opened (docs/catalog.md): linux 6.12's largest is 1.3 MB.
inline constexpr std::size_t kMaxVendorIndexFileSize = std::size_t{64} << 20;

// True when `root` holds the index marker (any version: a wrong one is reported on load).
bool is_vendor_index(const std::filesystem::path& root);

// The model file's name for a mapfile Directory: `/` and `%` percent-encoded (so `arm/cortex-a53`
// and a directory really named `arm%2Fcortex-a53` cannot collide), then `.pmuidx`.
std::string vendor_index_file_name(std::string_view directory);

// A model file's bytes. `failure` set: the model did not load (load_vendor_model's error).
std::string encode_vendor_index_model(const VendorModel& model);
std::string encode_vendor_index_failure(PerfRelease rules, std::string_view arch,
                                        std::string_view directory, const Diagnostic& failure);

// One model file, opened: the header and diagnostics decoded, names and records read on demand.
// Copies share the bytes (a read-only mapping of the file, or a string).
class VendorIndexModel {
 public:
  // Who may have written a file that is opened. `installed`: a shipped index, trusted as the
  // tools beside it are, so any owner, but not a world-writable file. `private_to_user`: a cache
  // entry, which only this user may have written: owned by the effective user, neither group-
  // nor world-writable, and not a symlink.
  enum class Trust { installed, private_to_user };
  // Maps `file` read-only. Fails (vendor-index-unreadable, vendor-index-corrupt) when it cannot be
  // read, is not a regular file (a FIFO or device is refused without blocking), is larger than
  // kMaxVendorIndexFileSize, fails `trust`'s rule, its digest does not match its bytes, or its
  // header and sections do not fit the bytes present. The file must not shrink while mapped
  // (SIGBUS): the generator writes a fresh index, it never rewrites one in place.
  static Expected<VendorIndexModel> open(const std::filesystem::path& file,
                                         Trust trust = Trust::installed);
  // The same over bytes in memory (tests, the fuzzer); `path` names them in diagnostics.
  static Expected<VendorIndexModel> from_bytes(std::string bytes, std::string path);

  const std::string& arch() const { return header_.arch; }
  const std::string& directory() const { return header_.directory; }
  // The jevents rules the model was read with when the index was built.
  PerfRelease rules() const { return header_.rules; }
  // The error the model failed with at build time (load_vendor_model's), or null.
  const Diagnostic* failure() const { return header_.failed ? &header_.failure : nullptr; }
  // The model's load diagnostics (files that failed, skipped events, duplicates).
  const std::vector<Diagnostic>& diagnostics() const { return header_.diagnostics; }
  std::size_t size() const { return header_.count; }
  // The file's length in bytes, digest included.
  std::size_t byte_size() const { return file_size_; }

  // The events named `lower_name` (already lower-cased, as VendorEvent::name is), in table order:
  // a binary search over the name section, decoding only the matching records.
  Expected<std::vector<VendorEvent>> named(std::string_view lower_name) const;
  // Every event in table order, with the header's fields and diagnostics: what load_vendor_model
  // returned when the index was built (metrics included).
  Expected<VendorModel> model() const;
  // The model's metrics in table order (VendorModel::metrics), decoded without the events.
  Expected<std::vector<VendorMetric>> metrics() const;
  // VendorModel::metric_group_descriptions, decoded without the events.
  Expected<std::vector<VendorMetricGroupDescription>> metric_group_descriptions() const;

 private:
  struct Header {
    std::string arch;
    std::string directory;
    std::string cpuid;
    PerfRelease rules = PerfRelease::v6_1;
    bool failed = false;
    Diagnostic failure;
    std::vector<Diagnostic> diagnostics;
    std::uint32_t count = 0;
    std::size_t names_offset = 0;    // first name entry
    std::size_t records_offset = 0;  // first record
    std::size_t metrics_offset = 0;  // the metrics section (its count)
  };
  static Expected<VendorIndexModel> parse(std::shared_ptr<const void> owner, std::string_view bytes,
                                          std::string path);
  std::shared_ptr<const void> owner_;  // keeps `bytes_` alive
  std::string_view bytes_;             // the file without its digest
  std::size_t file_size_ = 0;
  std::string path_;
  Header header_;
};

// load_vendor_model() for an index root: `<index_root>/<arch>/<model file of directory>`.
// Fails like load_vendor_model did when the index was built, or when the file is missing or
// corrupt.
Expected<VendorIndexModel> open_vendor_index_model(const std::filesystem::path& index_root,
                                                   std::string_view arch,
                                                   std::string_view directory);

// The file of an architecture's system tables (load_vendor_sys_tables) in the index. A model
// file's name percent-encodes `%`, so no model directory can have this name.
inline constexpr std::string_view kVendorIndexSysFile = "%sys.pmuidx";

// `<index_root>/<arch>/%sys.pmuidx`, opened: nullopt when the architecture has no system tables
// (no such file); an error when the file is corrupt or holds another architecture's tables.
// Its events are marked system_table when decoded by named() or model() of the catalog.
Expected<std::optional<VendorIndexModel>> open_vendor_index_sys(
    const std::filesystem::path& index_root, std::string_view arch);

// Builds an index of the JSON tree `json_root` (laid out like pmu-events/arch) in `index_root`:
// every architecture with a mapfile.csv, every Directory its rows name, and every architecture's
// system tables (`sys` directories, `test` included: perf builds those in whatever its arch).
// Diagnostic and event locations name files relative to `json_root` (`x86/skylake/cache.json`): the
// index is installed without the JSON. Fails on the first file it cannot write.
struct VendorIndexSummary {
  std::size_t archs = 0;
  std::size_t models = 0;
  std::size_t events = 0;
  std::size_t metrics = 0;
  std::size_t bytes = 0;
};
Expected<VendorIndexSummary> write_vendor_index(const std::filesystem::path& json_root,
                                                const std::filesystem::path& index_root,
                                                PerfRelease rules = kPmucatBaseRelease);

// `path` relative to `root` when it lies under it (generic form), else unchanged: how the index
// names the JSON files its events came from. Applied to every location of `model`.
void relativize_vendor_model(VendorModel& model, const std::filesystem::path& root);

PMUCAT_END_NAMESPACE
