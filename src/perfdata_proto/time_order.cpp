// The time of a record as quipper sorts by it (see time_order.h).
#include "perfdata_proto/time_order.h"

#include <cstring>

#include "pmucat/perfdata_records.h"

PMUCAT_BEGIN_NAMESPACE
namespace perfdata {

bool all_events_timed(const std::vector<PerfEventEntry>& events) {
  return std::all_of(events.begin(), events.end(), [](const PerfEventEntry& e) {
    return (e.attr.sample_type & sample::time) != 0;
  });
}

std::uint64_t record_time(const Record& record, const Attr* attr) {
  if (attr == nullptr || !(attr->sample_type & sample::time)) return 0;
  const std::uint64_t t = attr->sample_type;
  std::size_t at = 0;
  if (record.type == record_type::sample) {
    // IDENTIFIER, IP and TID come before TIME.
    at = 8 *
         ((t & sample::identifier ? 1 : 0) + (t & sample::ip ? 1 : 0) + (t & sample::tid ? 1 : 0));
  } else {
    const std::size_t n = sample_id_size(*attr);
    if (n == 0 || record.type >= 64 || record.payload.size() < n) return 0;
    at = record.payload.size() - n + (t & sample::tid ? 8 : 0);
  }
  if (record.payload.size() < at + 8) return 0;
  std::uint64_t time = 0;
  std::memcpy(&time, record.payload.data() + at, sizeof time);
  return time;
}

}  // namespace perfdata
PMUCAT_END_NAMESPACE
