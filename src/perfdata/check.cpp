// Structural validation: everything the parser rejects, plus what perf 6.1 would refuse or
// misread in a file that parses.
#include <fmt/format.h>

#include <algorithm>

#include "perfdata/bytes.h"
#include "perfdata/problems.h"
#include "pmucat/perfdata.h"
#include "pmucat/perfdata_features.h"
#include "pmucat/perfdata_records.h"

PMUCAT_BEGIN_NAMESPACE
namespace {

using perfdata::FeatureOffsets;
using perfdata::Problems;

constexpr std::size_t kMaxReportedRecordProblems = 20;
// perf 6.1 knows sample_type bits up to WEIGHT_STRUCT (1 << 24) and refuses an attr with any
// higher one ("Unknown sample type ... Please update perf tool").
constexpr std::uint64_t kPerf61SampleTypes = (std::uint64_t{1} << 25) - 1;
// PERF_RECORD_HEADER_MAX of perf 6.1: any type from here on makes perf stop reading ("failed
// to process type"). Unknown kernel types below 64 are only counted as unknown events.
constexpr std::uint32_t kPerf61RecordTypeEnd = 83;
constexpr std::uint32_t kPerf61KernelTypeEnd = 22;  // PERF_RECORD_MAX

void check_events(const PerfData& data, Problems& problems) {
  const auto& events = data.events;
  if (events.empty()) problems.warning(24, "the file describes no events");
  for (std::size_t i = 0; i < events.size(); ++i) {
    const Attr& a = events[i].attr;
    if (const std::uint64_t unknown = a.sample_type & ~kPerf61SampleTypes) {
      problems.error(24, fmt::format("event {}: sample_type bits {:#x} are unknown to perf 6.1 "
                                     "(perf: \"Unknown sample type\")",
                                     i, unknown));
    }
    if (a.reserved_flags != 0) {
      problems.warning(24, fmt::format("event {}: reserved flag bits {:#x} are set; perf 6.1 "
                                       "then drops EVENT_DESC",
                                       i, a.reserved_flags));
    }
    if (a.size != events.front().attr.size) {
      problems.warning(24, fmt::format("event {}: attr.size {} differs from event 0's {}", i,
                                       a.size, events.front().attr.size));
    }
    if (events.size() > 1) {
      if (!(a.sample_type & sample::identifier) && !(a.sample_type & sample::id)) {
        problems.warning(24, fmt::format("event {}: several events but no ID/IDENTIFIER in "
                                         "sample_type; samples cannot be attributed",
                                         i));
      }
      if (a.sample_id_all != events.front().attr.sample_id_all) {
        problems.warning(24, fmt::format("event {}: sample_id_all differs from event 0 (perf "
                                         "refuses the file)",
                                         i));
      }
    }
  }
}

// Record checks, one record at a time (the streaming check feeds it as records come).
class RecordChecker {
 public:
  RecordChecker(const PerfData& header, Problems& problems)
      : header_(header), problems_(problems) {}

  void record(const RecordView& r) {
    if (reported_ >= kMaxReportedRecordProblems) {
      if (r.type == record_type::sample) ++samples_;
      return;
    }
    if (r.type == record_type::compressed2) {
      // Newer perf's compressed record (perf record -z): expanded and checked like COMPRESSED.
      if (!warned_compressed2_) {
        problems_.warning(r.file_offset,
                          "COMPRESSED2 records (newer perf) are unknown to perf "
                          "6.1, which stops reading at the first one");
        warned_compressed2_ = true;
        ++reported_;
      }
    } else if (r.type == 0 || r.type >= kPerf61RecordTypeEnd) {
      problems_.error(r.file_offset, fmt::format("record type {} is unknown to perf 6.1, which "
                                                 "stops reading there (\"failed to process "
                                                 "type\")",
                                                 r.type));
      ++reported_;
      return;
    }
    if (r.type >= kPerf61KernelTypeEnd && r.type < 64) {
      problems_.warning(r.file_offset, fmt::format("record type {} is unknown to perf 6.1 (it "
                                                   "warns \"Found unknown events\")",
                                                   r.type));
      ++reported_;
    }
    // perf's own writer does not pad COMPRESSED records (their size is 8 + the zstd frame).
    if (is_compressed_record(r.type)) ++compressed_;
    if (r.size() % 8 != 0 && r.type != record_type::compressed) {
      problems_.warning(r.file_offset, fmt::format("{} record size {} is not a multiple of 8",
                                                   record_type_name(r.type), r.size()));
      ++reported_;
    }
    if (r.type != record_type::sample || header_.other_endian) return;
    ++samples_;
    if (header_.events.size() == 1 && !decode_sample(r.payload, header_.events.front().attr)) {
      problems_.warning(r.file_offset, "SAMPLE record does not match the event's sample_type");
      ++reported_;
    }
  }

  void finish() {
    // Samples inside COMPRESSED records (perf record -z) are counted only by the streaming
    // check built with zstd (check_perf_data_file); a file with COMPRESSED records raises no alarm.
    if (samples_ == 0 && compressed_ == 0 && !header_.other_endian) {
      problems_.warning(40, "no SAMPLE records (perf report will say the data has no samples)");
    }
  }

 private:
  const PerfData& header_;
  Problems& problems_;
  std::size_t reported_ = 0, samples_ = 0, compressed_ = 0;
  bool warned_compressed2_ = false;
};

// The records inside COMPRESSED and COMPRESSED2 records, expanded (zstd) and checked as well;
// a frame that cannot be expanded stops the expansion (one warning) for the rest of the file.
class InnerRecords {
 public:
  void check(const RecordView& r, bool other_endian, RecordChecker& checker, Problems& problems) {
    if (!is_compressed_record(r.type) || !CompressedRecords::supported() || !expandable_) return;
    r.copy_to(record_);
    if (auto bad = compressed_.expand(record_, other_endian,
                                      [&](const Record& inner) { checker.record(inner); })) {
      problems.warning(r.file_offset, fmt::format("{} record cannot be expanded ({}); the records "
                                                  "inside it and after are not checked",
                                                  record_type_name(r.type), *bad));
      expandable_ = false;
    }
  }

 private:
  CompressedRecords compressed_;
  Record record_;  // the compressed record being expanded
  bool expandable_ = true;
};

void check_records(const PerfData& data, Problems& problems) {
  RecordChecker checker(data, problems);
  InnerRecords inner;
  for (const auto& r : data.records) {
    checker.record(r);
    inner.check(r, data.other_endian, checker, problems);
  }
  checker.finish();
}

std::uint32_t nr_cpus_available(const PerfData& data) {
  const auto it = data.features.find(feature::nrcpus);
  if (it == data.features.end()) return 0;
  const auto n = decode_nrcpus(it->second);
  return n ? n->first : 0;
}

// Pipe-mode FEATURE records of newer perf are zero-padded to 8 bytes.
bool only_padding(std::span<const std::byte> rest) {
  return rest.size() < 8 &&
         std::all_of(rest.begin(), rest.end(), [](std::byte b) { return b == std::byte{0}; });
}

// The two sibling lists, then (when present) one core/socket id pair per available CPU, then
// (when present) a die list and one die id per CPU, then at most the 8-byte alignment padding:
// nothing else may fit the payload. perf 6.1 trusts the counts, and crashes on `report
// --header-only -I` when they do not match.
bool cpu_topology_matches(std::span<const std::byte> payload, std::uint32_t nr_cpus) {
  const auto topology = decode_cpu_topology(payload, nr_cpus);
  if (!topology) return false;
  if (nr_cpus == 0) return true;  // without NRCPUS the tails cannot be sized
  if (topology->cpus.empty() || only_padding(topology->extra)) {
    return only_padding(topology->extra);
  }
  perfdata::ByteReader in(topology->extra, false);
  const auto dies = in.read<std::uint32_t>();
  if (!dies || *dies > in.remaining() / 4) return false;
  for (std::uint32_t i = 0; i < *dies; ++i) {
    if (!in.read_header_string()) return false;
  }
  const auto die_ids = in.take(4ull * nr_cpus);
  return die_ids && only_padding(*in.take(in.remaining()));
}

void check_features(const PerfData& data, const FeatureOffsets& offsets, Problems& problems) {
  if (data.other_endian) return;
  for (const auto& [id, payload] : data.features) {
    const auto at_it = offsets.find(id);
    const std::uint64_t at = at_it == offsets.end() ? 0 : at_it->second;
    bool ok = true;
    switch (id) {
      case feature::hostname:
      case feature::osrelease:
      case feature::version:
      case feature::arch:
      case feature::cpudesc:
      case feature::cpuid:
        ok = decode_feature_string(payload).has_value();
        break;
      case feature::nrcpus:
        ok = decode_nrcpus(payload).has_value();
        break;
      case feature::total_mem:
        ok = decode_total_mem(payload).has_value();
        break;
      case feature::cmdline:
        ok = decode_feature_string_list(payload).has_value();
        break;
      case feature::event_desc: {
        const auto desc = decode_event_desc(payload);
        ok = desc.has_value();
        if (ok && desc->size() != data.events.size()) {
          problems.warning(at, fmt::format("EVENT_DESC names {} events but the file has {}",
                                           desc->size(), data.events.size()));
        }
        break;
      }
      case feature::pmu_mappings: {
        const auto pmus = decode_pmu_mappings(payload);
        ok = pmus.has_value();
        if (ok && pmus->empty()) {
          problems.warning(at, "PMU_MAPPINGS is empty (perf 6.1 then shows the host's PMUs)");
        }
        break;
      }
      case feature::group_desc:
        ok = decode_group_desc(payload).has_value();
        break;
      case feature::numa_topology:
        ok = decode_numa_topology(payload).has_value();
        break;
      case feature::hybrid_topology:
        ok = decode_hybrid_topology(payload).has_value();
        break;
      case feature::build_id:
        ok = decode_build_ids(payload).has_value();
        break;
      case feature::cpu_topology:
        if (!cpu_topology_matches(payload, nr_cpus_available(data))) {
          problems.error(at, fmt::format("CPU_TOPOLOGY counts do not match its {}-byte payload "
                                         "({} CPUs available); perf 6.1 misreads it",
                                         payload.size(), nr_cpus_available(data)));
        }
        break;
      default:
        break;
    }
    if (!ok) {
      problems.warning(at, fmt::format("{} feature payload ({} bytes) is malformed",
                                       feature_name(id), payload.size()));
    }
    if (id >= feature::last) {
      problems.warning(
          at, fmt::format("{} is unknown to perf 6.1 and will be skipped", feature_name(id)));
    }
  }
}

}  // namespace

std::vector<Diagnostic> check_perf_data(std::span<const std::byte> image, std::string_view file) {
  Problems problems(file);
  FeatureOffsets feature_offsets;
  if (auto data = perfdata::parse_image(image, problems, &feature_offsets)) {
    check_events(*data, problems);
    check_records(*data, problems);
    check_features(*data, feature_offsets, problems);
  }
  return problems.all();
}

namespace {

// The streaming check: record problems are collected apart and placed where the in-memory
// check puts them (after the events', before the features').
class CheckVisitor : public PerfDataVisitor {
 public:
  explicit CheckVisitor(std::string_view file) : record_problems_(file) {}
  std::optional<Diagnostic> begin(const PerfData& header) override {
    header_ = header;
    checker_.emplace(header_, record_problems_);
    return std::nullopt;
  }
  std::optional<Diagnostic> record(const Record& r) override { return record_view(r); }
  std::optional<Diagnostic> record_views(std::span<const RecordView> views) override {
    for (const auto& r : views) check(r);
    return std::nullopt;
  }
  std::optional<Diagnostic> record_view(const RecordView& r) override {
    check(r);
    return std::nullopt;
  }
  void check(const RecordView& r) {
    checker_->record(r);
    inner_.check(r, header_.other_endian, *checker_, record_problems_);
  }
  std::optional<Diagnostic> header_changed(const PerfData& header) override {
    header_.events = header.events;
    header_.features = header.features;
    return std::nullopt;
  }
  Problems record_problems_;
  PerfData header_;
  std::optional<RecordChecker> checker_;
  InnerRecords inner_;
};

}  // namespace

std::vector<Diagnostic> check_perf_data_file(const std::filesystem::path& path,
                                             const InputLimits& limits) {
  const std::string file = path.string();
  Problems problems(file);
  FeatureOffsets feature_offsets;
  CheckVisitor visitor(file);
  std::optional<Diagnostic> stopped;
  auto data =
      perfdata::parse_stream(path, limits, visitor, problems, &feature_offsets, &stopped, nullptr);
  if (stopped) return {*stopped};
  if (!data) return problems.all();
  // In memory the records' problems follow the parser's and the events'.
  Problems out(file);
  out.append(problems);
  check_events(*data, out);
  if (visitor.checker_) {
    visitor.checker_->finish();
  } else {
    RecordChecker(*data, visitor.record_problems_).finish();
  }
  out.append(visitor.record_problems_);
  check_features(*data, feature_offsets, out);
  return out.all();
}

PMUCAT_END_NAMESPACE
