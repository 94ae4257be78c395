// Input detection and output writing for pmudata.
#include "pmudata/inputs.h"

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include "pmucat/output_file.h"

namespace pmucat::cli {
namespace {

Diagnostic io_diagnostic(const std::filesystem::path& path, std::string message) {
  Diagnostic d;
  d.id = "pmudata-io";
  d.range.file = path.string();
  d.message = std::move(message);
  return d;
}

}  // namespace

std::string_view to_string(DataFormat format) {
  switch (format) {
    case DataFormat::perf_file:
      return "perf.data (file mode)";
    case DataFormat::perf_pipe:
      return "perf.data (pipe mode)";
    case DataFormat::proto_binary:
      return "PerfDataProto (binary)";
    case DataFormat::proto_text:
      return "PerfDataProto (text)";
  }
  return "?";
}

Expected<LoadedData> load_data(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return unexpected(io_diagnostic(path, fmt::format("cannot open: {}", std::strerror(errno))));
  std::ostringstream buffer;
  buffer << in.rdbuf();
  const std::string bytes = buffer.str();
  LoadedData loaded;
  loaded.size_bytes = bytes.size();
  if (bytes.rfind("PERFILE2", 0) == 0 || bytes.rfind("2ELIFREP", 0) == 0) {
    auto data = parse_perf_data(
        std::span(reinterpret_cast<const std::byte*>(bytes.data()), bytes.size()), path.string());
    if (!data) return unexpected(std::move(data).error());
    loaded.format =
        data->mode == PerfDataMode::pipe ? DataFormat::perf_pipe : DataFormat::perf_file;
    loaded.data = std::move(*data);
    return loaded;
  }
  if (auto data = from_perf_data_proto(bytes, ProtoFormat::binary, path.string())) {
    loaded.format = DataFormat::proto_binary;
    loaded.data = std::move(*data);
    return loaded;
  }
  auto data = from_perf_data_proto(bytes, ProtoFormat::text, path.string());
  if (!data) {
    return unexpected(io_diagnostic(path,
                                    "neither perf.data (no PERFILE2 magic) nor a "
                                    "PerfDataProto (binary or text)"));
  }
  loaded.format = DataFormat::proto_text;
  loaded.data = std::move(*data);
  return loaded;
}

std::optional<DataFormat> parse_format(std::string_view name) {
  if (name == "perf" || name == "file") return DataFormat::perf_file;
  if (name == "pipe") return DataFormat::perf_pipe;
  if (name == "pb") return DataFormat::proto_binary;
  if (name == "pbtxt") return DataFormat::proto_text;
  return std::nullopt;
}

DataFormat format_for_path(const std::filesystem::path& path, PerfDataMode perf_mode) {
  const auto ext = path.extension().string();
  if (ext == ".pb") return DataFormat::proto_binary;
  if (ext == ".pbtxt" || ext == ".textproto") return DataFormat::proto_text;
  return perf_mode == PerfDataMode::pipe ? DataFormat::perf_pipe : DataFormat::perf_file;
}

std::optional<Diagnostic> save_data(const std::filesystem::path& path, const PerfData& data,
                                    DataFormat format) {
  if (format == DataFormat::perf_file || format == DataFormat::perf_pipe) {
    WriterOptions options = options_like(data);
    const PerfDataMode mode =
        format == DataFormat::perf_pipe ? PerfDataMode::pipe : PerfDataMode::file;
    if (mode != data.mode) options.pipe_end_marker = feature::last;
    options.mode = mode;
    return write_perf_data(path, data, options);
  }
  auto bytes = to_perf_data_proto(
      data, format == DataFormat::proto_binary ? ProtoFormat::binary : ProtoFormat::text);
  if (!bytes) return std::move(bytes).error();
  // Same rules as the perf.data writer: a regular file is replaced atomically, a FIFO,
  // device or "-" is streamed into.
  return write_output_file(path, *bytes);
}

}  // namespace pmucat::cli
