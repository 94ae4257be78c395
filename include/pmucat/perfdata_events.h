// Encoded events -> a perf.data file perf opens (pmuencode -o). Defined in the perfdata_events
// module (src/perfdata_events/), where the encoder's output meets the perf.data writer.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "pmucat/diagnostic.h"
#include "pmucat/encode.h"
#include "pmucat/perfdata.h"
#include "pmucat/version.h"

PMUCAT_BEGIN_NAMESPACE

class Catalog;

struct EventsFileOptions {
  WriterOptions writer;
  std::vector<std::string> cmdline;  // for CMDLINE; empty writes none
  // Synthetic samples per event (every field the attr's sample_type asks for, empty), so
  // `perf report` and `perf script` show the events; 0 writes none.
  std::uint32_t samples_per_event = 1;
  std::uint32_t pid = 0;  // 0: the calling process
  std::string comm = "pmucat";
};

// Writes a perf.data describing `events` (one attr each, unique ids from 1, sample_type gaining
// perf record's IP|TID|TIME|PERIOD, sample_id_all, and PERF_SAMPLE_IDENTIFIER when there are
// several), with EVENT_DESC names, PMU_MAPPINGS from `catalog` (plus the event PMUs' types),
// host metadata, a COMM, a kernel map and `samples_per_event` synthetic samples. perf 6.1
// opens the result with `evlist -v` (file mode), `report --header-only`, `script` and `report`
// (when there are samples) with nothing on stderr. `path` is opened as an OutputFile: a
// stream target (FIFO, device, "-") gets pipe mode.
std::optional<Diagnostic> write_events_perf_data(const std::filesystem::path& path,
                                                 std::span<const EncodedEvent> events,
                                                 const Catalog& catalog,
                                                 const EventsFileOptions& options = {});

PMUCAT_END_NAMESPACE
