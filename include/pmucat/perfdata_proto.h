// perf.data <-> PerfDataProto (quipper's schema, package `quipper`), binary or text format.
// Defined in the perfdata_proto module (src/perfdata_proto/), the only one that needs Protobuf.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>

#include "pmucat/expected.h"
#include "pmucat/perfdata.h"
#include "pmucat/version.h"

PMUCAT_BEGIN_NAMESPACE

enum class ProtoFormat : std::uint8_t { binary, text };

// perf.data -> PerfDataProto. quipper's typed fields are filled wherever they reproduce the
// bytes exactly; everything else (and the file layout) goes into pmucat extension fields
// (numbers >= 1000), so from_perf_data_proto gives back an equal model. Other-endian models
// are refused.
Expected<std::string> to_perf_data_proto(const PerfData& data, ProtoFormat format);

// PerfDataProto (ours or quipper's) -> perf.data model. Without pmucat extensions (a quipper
// proto), features are rebuilt from the typed metadata and records from the typed events.
Expected<PerfData> from_perf_data_proto(std::string_view bytes, ProtoFormat format,
                                        std::string_view file);

// Streams a binary PerfDataProto: file_attrs first, then one `events` entry per record as it
// comes (protobuf's CodedOutputStream), then names, metadata and layout: the bytes
// to_perf_data_proto(model, binary) gives. Memory does not grow with the records. `path` is an
// OutputFile (replaced atomically; a FIFO or "-" is streamed into).
class PerfDataProtoWriter {
 public:
  // `header`: the events (and mode); its records are ignored.
  static Expected<PerfDataProtoWriter> create(const std::filesystem::path& path,
                                              const PerfData& header);
  PerfDataProtoWriter(PerfDataProtoWriter&&) noexcept;
  PerfDataProtoWriter& operator=(PerfDataProtoWriter&&) noexcept;
  ~PerfDataProtoWriter();

  std::optional<Diagnostic> write(const Record& record);
  // Writes what follows the events (names, features, layout of `header`) and commits.
  std::optional<Diagnostic> finish(const PerfData& header);
  std::uint64_t records_written() const;

 private:
  struct State;
  explicit PerfDataProtoWriter(std::unique_ptr<State> state);
  std::unique_ptr<State> state_;
};

// Reads a binary PerfDataProto from a regular file field by field (protobuf's
// CodedInputStream) in two passes: first everything but the events (skipped by their length),
// handed to visitor.begin, then each event, turned back into a record. Memory is bounded
// independently of the number of events; a declared length is never allocated before the
// bytes are there. Other inputs (a FIFO, "-") are refused: read those with
// from_perf_data_proto.
Expected<StreamSummary> stream_perf_data_proto(const std::filesystem::path& path,
                                               PerfDataVisitor& visitor,
                                               const InputLimits& limits = {});

// perf.data -> pprof's profile.proto (github.com/google/pprof), as quipper's perf_to_profile
// writes it: two sample types per event ("<name>_sample", "<name>_event": samples and their
// periods), one location per ip and callchain address (return addresses less one), the
// mappings of MMAP/MMAP2 records with their build ids, no functions (unsymbolized), samples of
// equal stacks merged. Uncompressed; pprof reads it as it is or gzipped. Memory grows with the
// distinct stacks, addresses and mappings, not with the records.
class PprofBuilder {
 public:
  // `header`: the events (names, ids) and features (BUILD_ID, VERSION, CMDLINE).
  explicit PprofBuilder(const PerfData& header);
  PprofBuilder(PprofBuilder&&) noexcept;
  PprofBuilder& operator=(PprofBuilder&&) noexcept;
  ~PprofBuilder();

  // Records in file order; COMPRESSED records are expanded here (finish() reports a bad one).
  // They are handled in time order, as perf_to_profile sorts them (where every event has
  // PERF_SAMPLE_TIME), within a bounded window: perf's rounds, at most 32 MiB held.
  void add(const Record& record);
  // The serialised Profile (call once).
  Expected<std::string> finish();

 private:
  struct State;
  std::unique_ptr<State> state_;
};

// The whole model through a PprofBuilder. Other-endian models are refused.
Expected<std::string> to_pprof(const PerfData& data);

PMUCAT_END_NAMESPACE
