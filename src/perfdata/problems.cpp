// Located perf.data problems and whole-file reading.
#include "perfdata/problems.h"

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <fstream>

namespace pmucat::perfdata {

void Problems::add(Severity severity, std::uint64_t offset, std::string message) {
  Diagnostic d;
  d.severity = severity;
  d.id = severity == Severity::error ? "perfdata-malformed" : "perfdata-suspicious";
  d.range.file = file_;
  d.range.offset = offset;
  d.message = fmt::format("at byte offset {} ({:#x}): {}", offset, offset, message);
  all_.push_back(std::move(d));
}

Diagnostic Problems::first_error() const {
  for (const auto& d : all_) {
    if (d.severity == Severity::error) return d;
  }
  Diagnostic d;
  d.id = "perfdata-malformed";
  d.range.file = file_;
  d.message = "not a readable perf.data file";
  return d;
}

Diagnostic io_error(std::string_view file, std::string message) {
  Diagnostic d;
  d.id = "perfdata-io";
  d.range.file = std::string(file);
  d.message = std::move(message);
  return d;
}

Expected<std::vector<std::byte>> read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return unexpected(
        io_error(path.string(), fmt::format("cannot open: {}", std::strerror(errno))));
  }
  std::vector<std::byte> bytes;
  char buffer[1 << 16];
  while (in) {
    in.read(buffer, sizeof buffer);
    const auto n = static_cast<std::size_t>(in.gcount());
    const auto* first = reinterpret_cast<const std::byte*>(buffer);
    bytes.insert(bytes.end(), first, first + n);
  }
  if (in.bad()) return unexpected(io_error(path.string(), "read error"));
  return bytes;
}

}  // namespace pmucat::perfdata
