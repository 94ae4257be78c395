// Reading any supported input (perf.data in either mode, binary or text PerfDataProto) and
// writing any supported output format.
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "pmucat/perfdata.h"

PMUCAT_BEGIN_NAMESPACE
namespace cli {

// pprof is an output only (a pprof profile.proto, see pmucat/perfdata_proto.h).
enum class DataFormat : std::uint8_t { perf_file, perf_pipe, proto_binary, proto_text, pprof };

struct LoadedData {
  PerfData data;  // streamed: the header only (records empty), see record_counts
  DataFormat format = DataFormat::perf_file;
  std::uint64_t size_bytes = 0;
  std::map<std::string, std::uint64_t> record_counts;  // by record_type_name
  std::uint64_t record_total = 0;
};

// A .pbtxt is parsed and printed in memory: inputs larger than this are refused for it unless
// --max-input-size says otherwise.
inline constexpr std::uint64_t kTextProtoLimit = std::uint64_t{16} << 20;

// Loads `path` for `info`: a regular perf.data or binary proto is streamed (the records only
// counted), anything else read whole (load_data).
Expected<LoadedData> load_summary(const std::filesystem::path& path, const InputLimits& limits);

// Converts `input` to `output`, streaming whenever input and output allow it: a regular
// perf.data or binary proto to perf.data or binary proto. A .pbtxt on either side is built in
// memory and refused past `text_limit` bytes of input.
std::optional<Diagnostic> convert_data(const std::filesystem::path& input,
                                       const std::filesystem::path& output,
                                       std::optional<DataFormat> to, const InputLimits& limits,
                                       std::uint64_t text_limit);

// Reads `path` (at most `max_bytes`, see read_input), telling the format from its first
// bytes: the PERFILE2 magic, else a binary or text PerfDataProto (the other encoding is tried
// too; the error reported is the one of the encoding the first bytes suggest). Directories,
// inputs under 8 bytes and protos describing nothing are refused.
Expected<LoadedData> load_data(const std::filesystem::path& path, const InputLimits& limits = {});

// The exit status for a load_data error: 2 for I/O (cannot open, a directory), 1 for a
// rejected input.
int exit_status_for(const Diagnostic& error);

// The format `--to` names ("perf", "pipe", "pb", "pbtxt", "pprof"), or nullopt.
std::optional<DataFormat> parse_format(std::string_view name);
// The format OUT's extension implies: .pb -> binary proto, .pbtxt/.textproto -> text proto,
// .pprof -> pprof, anything else -> perf.data in `perf_mode`.
DataFormat format_for_path(const std::filesystem::path& path, PerfDataMode perf_mode);

// Writes `data` as `format` to `path` through an OutputFile (pmucat/output_file.h): a regular
// file is replaced atomically, a FIFO, device or "-" (standard output) is streamed into, and
// perf.data goes there in pipe mode. Output failures have ids starting with "output-".
std::optional<Diagnostic> save_data(const std::filesystem::path& path, const PerfData& data,
                                    DataFormat format);

std::string_view to_string(DataFormat format);

}  // namespace cli
PMUCAT_END_NAMESPACE
