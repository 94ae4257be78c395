// Collects located problems found while parsing an image; shared by the reader and `check`.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "pmucat/diagnostic.h"
#include "pmucat/diagnostic_ids.h"
#include "pmucat/expected.h"
#include "pmucat/perfdata.h"

PMUCAT_BEGIN_NAMESPACE
namespace perfdata {

class Problems {
 public:
  explicit Problems(std::string_view file) : file_(file) {}

  void error(std::uint64_t offset, std::string message) {
    add(Severity::error, offset, std::move(message));
  }
  void warning(std::uint64_t offset, std::string message) {
    add(Severity::warning, offset, std::move(message));
  }
  const std::vector<Diagnostic>& all() const { return all_; }
  const std::string& file() const { return file_; }
  // The file later problems name (a perf.data directory's data.N while its records are read).
  void set_file(std::string file) { file_ = std::move(file); }
  void append(const Problems& other) {
    all_.insert(all_.end(), other.all_.begin(), other.all_.end());
  }
  // The first error; a generic one if only warnings were recorded.
  Diagnostic first_error() const;

 private:
  void add(Severity severity, std::uint64_t offset, std::string message);
  std::string file_;
  std::vector<Diagnostic> all_;
};

// A diagnostic about a file as a whole (I/O), id perfdata-io.
Diagnostic io_error(std::string_view file, std::string message);

// Where each feature's payload starts in the image, for diagnostics about a feature.
using FeatureOffsets = std::map<std::uint32_t, std::uint64_t>;

// The parser behind parse_perf_data; problems (errors and warnings) go to `problems`, and
// each feature's payload offset to `feature_offsets` when given.
std::optional<PerfData> parse_image(std::span<const std::byte> image, Problems& problems,
                                    FeatureOffsets* feature_offsets = nullptr);

// The streaming parser: the records go to `visitor` instead of the model (whose records stay
// empty). A regular file is read through a bounded window (pread), anything else through
// read_input. A visitor's diagnostic stops the walk and is stored in `*stopped`.
std::optional<PerfData> parse_stream(const std::filesystem::path& path, const InputLimits& limits,
                                     PerfDataVisitor& visitor, Problems& problems,
                                     FeatureOffsets* feature_offsets,
                                     std::optional<Diagnostic>* stopped, std::uint64_t* size_bytes);

}  // namespace perfdata
PMUCAT_END_NAMESPACE
