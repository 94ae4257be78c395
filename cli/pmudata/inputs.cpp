// Input detection and output writing for pmudata.
#include "pmudata/inputs.h"

#include <fmt/format.h>

#include <cerrno>
#include <cstring>

#include "pmucat/diagnostic_ids.h"
#include "pmucat/output_file.h"
#include "pmucat/perfdata_proto.h"

namespace pmucat::cli {

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

namespace {

Expected<PerfData> parse_proto(const InputImage& image, ProtoFormat format,
                               const std::filesystem::path& path) {
  const std::string_view text(reinterpret_cast<const char*>(image.bytes.data()),
                              image.bytes.size());
  return from_perf_data_proto(text, format, path.string());
}

}  // namespace

Expected<LoadedData> load_data(const std::filesystem::path& path, const InputLimits& limits) {
  auto image = read_input(path, limits);
  if (!image) return unexpected(std::move(image).error());
  LoadedData loaded;
  loaded.size_bytes = image->bytes.size();
  if (image->kind == InputKind::perf_data) {
    auto data = parse_perf_data(image->bytes, path.string());
    if (!data) return unexpected(std::move(data).error());
    loaded.format =
        data->mode == PerfDataMode::pipe ? DataFormat::perf_pipe : DataFormat::perf_file;
    loaded.data = std::move(*data);
    return loaded;
  }
  // The first bytes say which proto encoding is more plausible; its error is the one reported
  // when the other encoding does not parse either.
  const bool binary_first = image->kind == InputKind::proto_binary;
  const ProtoFormat first = binary_first ? ProtoFormat::binary : ProtoFormat::text;
  const ProtoFormat second = binary_first ? ProtoFormat::text : ProtoFormat::binary;
  auto data = parse_proto(*image, first, path);
  ProtoFormat format = first;
  if (!data) {
    auto other = parse_proto(*image, second, path);
    if (!other) return unexpected(std::move(data).error());
    data = std::move(other);
    format = second;
  }
  if (data->events.empty() && data->records.empty()) {
    Diagnostic d;
    d.id = to_string(DiagId::perfdata_malformed);
    d.range.file = path.string();
    d.message = "a PerfDataProto with no events and no records";
    return unexpected(std::move(d));
  }
  loaded.format = format == ProtoFormat::binary ? DataFormat::proto_binary : DataFormat::proto_text;
  loaded.data = std::move(*data);
  return loaded;
}

int exit_status_for(const Diagnostic& error) {
  return error.id == DiagId::perfdata_io ? 2 : 1;
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
