// Records <-> quipper's PerfEvent messages. Typed when the message reproduces the record byte
// for byte, otherwise (or for record types quipper has no message for) the raw bytes ride in
// the pmucat_raw extension.
#pragma once

#include "perf_data.pb.h"
#include "pmucat/perfdata.h"
#include "pmucat/perfdata_records.h"

namespace pmucat::perfdata {

// Finds the attr a record belongs to (by IDENTIFIER/ID when there are several events).
class AttrLookup {
 public:
  explicit AttrLookup(const std::vector<PerfEventEntry>& events);
  const Attr* find(const Record& record) const;

 private:
  const std::vector<PerfEventEntry>& events_;
  std::map<std::uint64_t, std::size_t> by_id_;
};

// Fills `out` from `record`; `attr` is the record's event (nullptr when unknown). The typed form
// is kept only when the reader, which finds the attr again from the typed ids among `events`
// (attr_for_proto_event), gets these exact bytes back; otherwise the record is stored raw.
void record_to_proto(const Record& record, const Attr* attr,
                     const std::vector<PerfEventEntry>& events,
                     quipper::PerfDataProto::PerfEvent& out);

// The record `event` describes; nullopt when it has neither a usable typed message nor raw bytes.
std::optional<Record> record_from_proto(const quipper::PerfDataProto::PerfEvent& event,
                                        const Attr* attr);

// The attr of the proto event, for record_from_proto (by the typed ids it carries).
const Attr* attr_for_proto_event(const quipper::PerfDataProto::PerfEvent& event,
                                 const std::vector<PerfEventEntry>& events);

// A SAMPLE payload as quipper's SampleEvent; false when quipper cannot hold it (REGS_USER,
// STACK_USER, REGS_INTR, AUX, READ lost counts) or it does not match the attr.
bool sample_to_proto(std::span<const std::byte> payload, const Attr& attr,
                     quipper::PerfDataProto::SampleEvent& out, std::uint64_t& timestamp);
// The SAMPLE payload a SampleEvent describes for `attr`.
std::vector<std::byte> sample_from_proto(const quipper::PerfDataProto::SampleEvent& in,
                                         const Attr& attr);

// The parts of PerfDataProto a streaming writer puts before (file_attrs) and after (names,
// features, layout) the events; to_perf_data_proto uses the same two.
void header_to_proto(const PerfData& data, quipper::PerfDataProto& proto);
void features_to_proto(const PerfData& data, quipper::PerfDataProto& proto);
// Events and features (records empty) of a proto whose `events` may be absent.
Expected<PerfData> header_from_proto(const quipper::PerfDataProto& proto, std::string_view file);
// "events[i] (type t) cannot be turned back into a record"
Diagnostic event_error(std::string_view file, std::uint64_t index, std::uint32_t type);

}  // namespace pmucat::perfdata
