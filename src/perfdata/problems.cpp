// Located perf.data problems.
#include "perfdata/problems.h"

#include <fmt/format.h>

#include "pmucat/diagnostic_ids.h"

PMUCAT_BEGIN_NAMESPACE
namespace perfdata {

void Problems::add(Severity severity, std::uint64_t offset, std::string message) {
  Diagnostic d;
  d.severity = severity;
  set_id(d, severity == Severity::error ? DiagId::perfdata_malformed : DiagId::perfdata_suspicious);
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
  set_id(d, DiagId::perfdata_malformed);
  d.range.file = file_;
  d.message = "not a readable perf.data file";
  return d;
}

Diagnostic io_error(std::string_view file, std::string message) {
  Diagnostic d;
  set_id(d, DiagId::perfdata_io);
  d.range.file = std::string(file);
  d.message = std::move(message);
  return d;
}

}  // namespace perfdata
PMUCAT_END_NAMESPACE
