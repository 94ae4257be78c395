// Records <-> quipper's PerfEvent messages. Typed when the message reproduces the record byte
// for byte, otherwise (or for record types quipper has no message for) the raw bytes ride in
// the pmucat_raw extension.
#pragma once

#include <google/protobuf/arena.h>
#include <google/protobuf/io/coded_stream.h>

#include <memory>

#include "perf_data.pb.h"
#include "perfdata_proto/time_order.h"
#include "pmucat/perfdata.h"
#include "pmucat/perfdata_records.h"

PMUCAT_BEGIN_NAMESPACE
namespace perfdata {

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
// is filled whenever quipper's schema has a message for the record; when the reader, which finds
// the attr again from the typed ids among `events` (attr_for_proto_event), would not get these
// exact bytes back from it, the raw bytes go beside it (and header.size is the size quipper
// will rebuild from the typed form). Returns whether the event belongs in `events` (quipper can
// read and write it back) rather than in `pmucat_events` (no message: stored raw only).
// A typed SAMPLE whose fields are all known to come back exactly (sample_fields_round_trip) and
// whose attr the reader finds again is not re-encoded to be compared; `always_compare` compares
// every record (tests hold the two to the same output).
bool record_to_proto(const Record& record, const Attr* attr,
                     const std::vector<PerfEventEntry>& events,
                     quipper::PerfDataProto::PerfEvent& out, bool always_compare = false);

// Bytes appended without being zeroed first: each serialised event is written over its room
// at once.
class ByteArena {
 public:
  char* append(std::size_t n);  // room for n more bytes, valid until the next append
  char* data() { return data_.get(); }
  std::size_t size() const { return size_; }
  void clear() { size_ = 0; }
  void truncate(std::size_t n) { size_ = std::min(size_, n); }

 private:
  std::unique_ptr<char[]> data_;
  std::size_t size_ = 0, capacity_ = 0;
};

// A binary PerfDataProto written field by field: the file_attrs (put first), then the records,
// then the rest (names, features, layout). `events` go out in time order (TimeOrder, as
// quipper's own protos hold them), each with its pmucat_order_skip; `pmucat_events` as they
// come. to_perf_data_proto and PerfDataProtoWriter both write through it, so the two give the
// same bytes.
class ProtoFieldWriter {
 public:
  explicit ProtoFieldWriter(const std::vector<PerfEventEntry>& events);
  // The serialised file_attrs of `events`; nullopt when protobuf cannot serialise them.
  std::optional<std::string> prefix() const;
  void put(const Record& record, google::protobuf::io::CodedOutputStream& out);
  // Writes the events still held for sorting; call once after the last put.
  void flush(google::protobuf::io::CodedOutputStream& out);
  // The serialised fields after the events.
  std::optional<std::string> suffix(const PerfData& header) const;

 private:
  // A serialised event held in arena_ until it is written.
  struct Held {
    std::size_t offset = 0, size = 0;
  };
  void write_event(google::protobuf::io::CodedOutputStream& out, Held held, std::uint64_t index);
  void release_arena();

  const std::vector<PerfEventEntry>& events_;
  AttrLookup lookup_;
  // The records' messages live on an arena reset when its first block may be full: the block is
  // reused, so converting a record allocates nothing for its message, and a reset (not free)
  // comes once per few dozen small records.
  std::unique_ptr<char[]> arena_block_;
  google::protobuf::Arena message_arena_;
  std::size_t arena_guess_ = 0;  // what the messages since the last reset are guessed to take
  quipper::PerfDataProto::PerfEvent* event_ = nullptr;
  quipper::PerfDataProto::PmucatPlacedEvent placed_;
  std::uint64_t in_events_ = 0;
  TimeOrder<Held> order_;
  ByteArena arena_;                          // the held events' bytes, one after another
  std::optional<std::string> pipe_tracing_;  // the first HEADER_TRACING_DATA record's data
  std::int64_t last_index_ = -1;             // file-order index of the last event written
};

// The next entry's file-order index from the previous one's (-1 before the first) and its skip;
// nullopt when it falls outside [0, count).
std::optional<std::uint64_t> next_file_index(std::int64_t previous, std::int64_t skip,
                                             std::uint64_t count);

// The record `event` describes; nullopt when it has neither a usable typed message nor raw bytes.
std::optional<Record> record_from_proto(const quipper::PerfDataProto::PerfEvent& event,
                                        const Attr* attr);

// The attr of the proto event, for record_from_proto (by the typed ids it carries).
const Attr* attr_for_proto_event(const quipper::PerfDataProto::PerfEvent& event,
                                 const std::vector<PerfEventEntry>& events);

// A SAMPLE payload as quipper's SampleEvent; false when quipper cannot hold it (REGS_USER,
// STACK_USER, REGS_INTR, AUX, READ lost counts) or it does not match the attr.
// `exact` tells whether sample_from_proto gives back these very bytes (sample_fields_round_trip),
// given the same attr.
bool sample_to_proto(std::span<const std::byte> payload, const Attr& attr,
                     quipper::PerfDataProto::SampleEvent& out, std::uint64_t& timestamp,
                     bool& exact);
// Whether the SampleEvent of these decoded fields encodes back to the same payload: false when a
// field holds what the schema has no room for (AUX data, an IDENTIFIER unlike ID, CPU's reserved
// word, RAW data not ending 8-aligned, branch flags past the schema's bits).
bool sample_fields_round_trip(const SampleFields& fields, const Attr& attr);
// The SAMPLE payload a SampleEvent describes for `attr`.
std::vector<std::byte> sample_from_proto(const quipper::PerfDataProto::SampleEvent& in,
                                         const Attr& attr);

// The parts of PerfDataProto a streaming writer puts before (file_attrs) and after (names,
// features, layout) the events; to_perf_data_proto uses the same two.
void header_to_proto(const PerfData& data, quipper::PerfDataProto& proto);
void features_to_proto(const PerfData& data, quipper::PerfDataProto& proto);
// quipper takes the data of a pipe-mode HEADER_TRACING_DATA record from `tracing_data` (its
// writer puts it in the TRACING_DATA feature); ours stays a record. Fills that field and its
// metadata_mask bit, marked pmucat_typed_only_features, when `data` has no such feature.
void pipe_tracing_data_to_proto(const std::string& trailer, const PerfData& data,
                                quipper::PerfDataProto& proto);
// Events and features (records empty) of a proto whose `events` may be absent.
Expected<PerfData> header_from_proto(const quipper::PerfDataProto& proto, std::string_view file);
// "events[i].pmucat_order_skip S names no free place among the N events"
Diagnostic order_error(std::string_view file, std::uint64_t index, std::int64_t skip,
                       std::uint64_t events);
// "<field>[i] (type t) cannot be turned back into a record"
Diagnostic event_error(std::string_view file, std::string_view field, std::uint64_t index,
                       std::uint32_t type);

// The pmucat_events of a proto in record order: before(i) gives, one per call, the index of each
// entry that comes before events[i] (i = `events`, the number of events: those after the last).
class PlacedEvents {
 public:
  PlacedEvents(const quipper::PerfDataProto& proto, std::uint64_t events);
  std::optional<int> before(std::uint64_t index);

 private:
  const quipper::PerfDataProto& proto_;
  std::uint64_t events_ = 0;
  std::vector<int> order_;
  std::size_t next_ = 0;
};

}  // namespace perfdata
PMUCAT_END_NAMESPACE
