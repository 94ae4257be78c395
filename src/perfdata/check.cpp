// Structural validation: everything the parser rejects, plus what perf 6.1 would refuse or
// misread in a file that parses.
#include <fmt/format.h>

#include "perfdata/problems.h"
#include "pmucat/perfdata.h"

namespace pmucat {
namespace {

using perfdata::Problems;

constexpr std::size_t kMaxReportedRecordProblems = 20;

void check_events(const PerfData& data, Problems& problems) {
  const auto& events = data.events;
  if (events.empty()) problems.warning(24, "the file describes no events");
  for (std::size_t i = 0; i < events.size(); ++i) {
    const Attr& a = events[i].attr;
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

void check_records(const PerfData& data, Problems& problems) {
  std::size_t reported = 0, samples = 0;
  for (const auto& r : data.records) {
    if (reported >= kMaxReportedRecordProblems) break;
    if (r.size() % 8 != 0) {
      problems.warning(r.file_offset, fmt::format("{} record size {} is not a multiple of 8",
                                                  record_type_name(r.type), r.size()));
      ++reported;
    }
    if (r.type != record_type::sample || data.other_endian) continue;
    ++samples;
    if (data.events.size() == 1 && !decode_sample(r.payload, data.events.front().attr)) {
      problems.warning(r.file_offset, "SAMPLE record does not match the event's sample_type");
      ++reported;
    }
  }
  if (samples == 0 && !data.other_endian) {
    problems.warning(40, "no SAMPLE records (perf report will say the data has no samples)");
  }
}

void check_features(const PerfData& data, Problems& problems) {
  if (data.other_endian) return;
  for (const auto& [id, payload] : data.features) {
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
          problems.warning(0, fmt::format("EVENT_DESC names {} events but the file has {}",
                                          desc->size(), data.events.size()));
        }
        break;
      }
      case feature::pmu_mappings: {
        const auto pmus = decode_pmu_mappings(payload);
        ok = pmus.has_value();
        if (ok && pmus->empty()) {
          problems.warning(0, "PMU_MAPPINGS is empty (perf 6.1 then shows the host's PMUs)");
        }
        break;
      }
      case feature::group_desc:
        ok = decode_group_desc(payload).has_value();
        break;
      case feature::numa_topology:
        ok = decode_numa_topology(payload).has_value();
        break;
      case feature::build_id:
        ok = decode_build_ids(payload).has_value();
        break;
      default:
        break;
    }
    if (!ok) {
      problems.warning(0, fmt::format("{} feature payload ({} bytes) is malformed",
                                      feature_name(id), payload.size()));
    }
    if (id >= feature::last) {
      problems.warning(
          0, fmt::format("{} is unknown to perf 6.1 and will be skipped", feature_name(id)));
    }
  }
}

}  // namespace

std::vector<Diagnostic> check_perf_data(std::span<const std::byte> image, std::string_view file) {
  Problems problems(file);
  if (auto data = perfdata::parse_image(image, problems)) {
    check_events(*data, problems);
    check_records(*data, problems);
    check_features(*data, problems);
  }
  return problems.all();
}

}  // namespace pmucat
