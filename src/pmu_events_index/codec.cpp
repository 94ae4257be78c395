// Model file bytes: the writer the generator uses and the bounded reader every load uses.
#include "pmu_events_index/codec.h"

#include <fmt/core.h>

#include <array>

#include "pmucat/diagnostic_ids.h"

PMUCAT_BEGIN_NAMESPACE
namespace pmu_events_index {
namespace {

enum EventFlag : std::uint8_t {
  kPerPkg = 1U << 0U,
  kDeprecated = 1U << 1U,
  kDataLa = 1U << 2U,
  kBriefFromStd = 1U << 3U,
  kPublicFromStd = 1U << 4U,
  kHasPerfDescription = 1U << 5U,
  kAllFlags = (1U << 6U) - 1U,
};

enum MetricFlag : std::uint8_t {
  kMetricPerPkg = 1U << 0U,
  kMetricDeprecated = 1U << 1U,
  kMetricHasPerfDescription = 1U << 2U,
  kMetricSystemTable = 1U << 3U,
  kAllMetricFlags = (1U << 4U) - 1U,
};

// A metric's string fields in record order.
template <typename Metric>
auto metric_fields(Metric& m) {
  return std::array{&m.name,
                    &m.expr,
                    &m.group,
                    &m.threshold,
                    &m.scale_unit,
                    &m.brief_description,
                    &m.public_description,
                    &m.constraint,
                    &m.no_group,
                    &m.default_metricgroup_name,
                    &m.unit,
                    &m.pmu,
                    &m.compat,
                    &m.aggregation_mode,
                    &m.default_show_events,
                    &m.event_name,
                    &m.topic,
                    &m.location.file};
}

}  // namespace

void Writer::u32(std::uint32_t value) {
  for (int shift = 0; shift < 32; shift += 8) u8(static_cast<std::uint8_t>(value >> shift));
}

void Writer::u64(std::uint64_t value) {
  for (int shift = 0; shift < 64; shift += 8) u8(static_cast<std::uint8_t>(value >> shift));
}

void Writer::str(std::string_view text) {
  u32(static_cast<std::uint32_t>(text.size()));
  bytes_.append(text);
}

void Writer::range(const SourceRange& range) {
  str(range.file);
  u32(range.line);
  u32(range.column);
  u32(range.length);
  u64(range.offset);
}

void Writer::diagnostic(const Diagnostic& diagnostic) {
  u8(static_cast<std::uint8_t>(diagnostic.severity));
  str(diagnostic.id);
  range(diagnostic.range);
  str(diagnostic.message);
  str(diagnostic.source_line);
  str(diagnostic.hint);
  u8(diagnostic.fixit ? 1 : 0);
  if (diagnostic.fixit) {
    range(diagnostic.fixit->range);
    str(diagnostic.fixit->replacement);
  }
  u32(static_cast<std::uint32_t>(diagnostic.notes.size()));
  for (const Diagnostic& note : diagnostic.notes) this->diagnostic(note);
}

void Writer::event(const VendorEvent& event) {
  for (const std::string* field :
       {&event.name, &event.pmu, &event.unit, &event.terms, &event.topic, &event.brief_description,
        &event.public_description, &event.scale_unit, &event.errata, &event.pebs, &event.counter,
        &event.counter_mask, &event.compat, &event.arch_std_event, &event.retirement_latency_mean,
        &event.retirement_latency_min, &event.retirement_latency_max}) {
    str(*field);
  }
  std::uint8_t flags = 0;
  if (event.per_pkg) flags |= kPerPkg;
  if (event.deprecated) flags |= kDeprecated;
  if (event.data_la) flags |= kDataLa;
  if (event.brief_from_std_event) flags |= kBriefFromStd;
  if (event.public_from_std_event) flags |= kPublicFromStd;
  if (event.has_perf_description) flags |= kHasPerfDescription;
  u8(flags);
  range(event.location);
}

void Writer::metric(const VendorMetric& metric) {
  // The location's file is among the strings; its numbers follow the flags.
  for (const std::string* field : metric_fields(metric)) str(*field);
  std::uint8_t flags = 0;
  if (metric.per_pkg) flags |= kMetricPerPkg;
  if (metric.deprecated) flags |= kMetricDeprecated;
  if (metric.has_perf_description) flags |= kMetricHasPerfDescription;
  if (metric.system_table) flags |= kMetricSystemTable;
  u8(flags);
  u32(metric.location.line);
  u32(metric.location.column);
  u32(metric.location.length);
  u64(metric.location.offset);
}

void Writer::group_description(const VendorMetricGroupDescription& description) {
  str(description.name);
  str(description.description);
}

void Writer::counter(const VendorCounterInfo& counter) {
  str(counter.unit);
  str(counter.generic);
  str(counter.fixed);
  range(counter.location);
}

void Writer::patch_u32(std::size_t offset, std::uint32_t value) {
  for (int i = 0; i < 4; ++i) {
    bytes_[offset + static_cast<std::size_t>(i)] = static_cast<char>(value >> (8 * i));
  }
}

void Reader::fail(std::string message) {
  if (!ok()) return;
  failed_at_ = offset_;
  failure_ = std::move(message);
}

bool Reader::take(std::size_t size, const char* what) {
  if (!ok()) return false;
  // A reader may start at an offset taken from the file: past the end, nothing is left.
  const std::size_t left = offset_ < bytes_.size() ? bytes_.size() - offset_ : 0;
  if (left < size) {
    fail(fmt::format("{} needs {} bytes, {} left", what, size, left));
    return false;
  }
  return true;
}

std::uint8_t Reader::u8() {
  if (!take(1, "a byte")) return 0;
  return static_cast<std::uint8_t>(bytes_[offset_++]);
}

std::uint32_t Reader::u32() {
  if (!take(4, "a 32-bit number")) return 0;
  std::uint32_t value = 0;
  for (int i = 0; i < 4; ++i) {
    value |= static_cast<std::uint32_t>(static_cast<std::uint8_t>(bytes_[offset_++])) << (8 * i);
  }
  return value;
}

std::uint64_t Reader::u64() {
  if (!take(8, "a 64-bit number")) return 0;
  std::uint64_t value = 0;
  for (int i = 0; i < 8; ++i) {
    value |= static_cast<std::uint64_t>(static_cast<std::uint8_t>(bytes_[offset_++])) << (8 * i);
  }
  return value;
}

std::string_view Reader::str_view() {
  const std::size_t start = offset_;
  const std::uint32_t size = u32();
  if (!take(size, "a string")) {
    offset_ = start;  // locate the failure at the string's length
    return {};
  }
  std::string_view text = bytes_.substr(offset_, size);
  offset_ += size;
  return text;
}

std::string Reader::str() {
  return std::string(str_view());
}

std::uint32_t Reader::count(std::size_t min_size) {
  const std::size_t start = offset_;
  const std::uint32_t value = u32();
  if (ok() && static_cast<std::uint64_t>(value) * min_size > remaining()) {
    offset_ = start;
    fail(fmt::format("a count of {} does not fit in the {} bytes left", value, remaining() - 4));
    return 0;
  }
  return value;
}

SourceRange Reader::range() {
  SourceRange range;
  range.file = str();
  range.line = u32();
  range.column = u32();
  range.length = u32();
  range.offset = u64();
  return range;
}

Diagnostic Reader::diagnostic(int depth) {
  Diagnostic diagnostic;
  const std::size_t start = offset_;
  const std::uint8_t severity = u8();
  if (ok() && severity > static_cast<std::uint8_t>(Severity::error)) {
    offset_ = start;
    fail(fmt::format("severity {} is not note, warning or error", severity));
  }
  diagnostic.severity = static_cast<Severity>(severity);
  set_id(diagnostic, str());
  diagnostic.range = range();
  diagnostic.message = str();
  diagnostic.source_line = str();
  diagnostic.hint = str();
  const std::size_t fixit_at = offset_;
  const std::uint8_t has_fixit = u8();
  if (has_fixit == 1) {
    FixIt fixit;
    fixit.range = range();
    fixit.replacement = str();
    diagnostic.fixit = std::move(fixit);
  } else if (has_fixit != 0) {
    offset_ = fixit_at;
    fail("a fix-it flag that is neither 0 nor 1");
  }
  const std::size_t notes_at = offset_;
  const std::uint32_t notes = count(kMinDiagnosticSize);
  if (notes != 0 && depth >= kMaxNoteDepth) {
    offset_ = notes_at;
    fail("notes nested too deeply");
  }
  for (std::uint32_t i = 0; i < notes && ok(); ++i) {
    diagnostic.notes.push_back(this->diagnostic(depth + 1));
  }
  return diagnostic;
}

VendorEvent Reader::event() {
  VendorEvent event;
  for (std::string* field :
       {&event.name, &event.pmu, &event.unit, &event.terms, &event.topic, &event.brief_description,
        &event.public_description, &event.scale_unit, &event.errata, &event.pebs, &event.counter,
        &event.counter_mask, &event.compat, &event.arch_std_event, &event.retirement_latency_mean,
        &event.retirement_latency_min, &event.retirement_latency_max}) {
    *field = str();
  }
  const std::size_t flags_at = offset_;
  const std::uint8_t flags = u8();
  if (ok() && (flags & ~kAllFlags) != 0) {
    offset_ = flags_at;
    fail(fmt::format("event flags {:#x} set unknown bits", flags));
  }
  event.per_pkg = (flags & kPerPkg) != 0;
  event.deprecated = (flags & kDeprecated) != 0;
  event.data_la = (flags & kDataLa) != 0;
  event.brief_from_std_event = (flags & kBriefFromStd) != 0;
  event.public_from_std_event = (flags & kPublicFromStd) != 0;
  event.has_perf_description = (flags & kHasPerfDescription) != 0;
  event.location = range();
  return event;
}

VendorMetric Reader::metric() {
  VendorMetric metric;
  for (std::string* field : metric_fields(metric)) *field = str();
  const std::size_t flags_at = offset_;
  const std::uint8_t flags = u8();
  if (ok() && (flags & ~kAllMetricFlags) != 0) {
    offset_ = flags_at;
    fail(fmt::format("metric flags {:#x} set unknown bits", flags));
  }
  metric.per_pkg = (flags & kMetricPerPkg) != 0;
  metric.deprecated = (flags & kMetricDeprecated) != 0;
  metric.has_perf_description = (flags & kMetricHasPerfDescription) != 0;
  metric.system_table = (flags & kMetricSystemTable) != 0;
  metric.location.line = u32();
  metric.location.column = u32();
  metric.location.length = u32();
  metric.location.offset = u64();
  return metric;
}

VendorMetricGroupDescription Reader::group_description() {
  VendorMetricGroupDescription description;
  description.name = str();
  description.description = str();
  return description;
}

VendorCounterInfo Reader::counter() {
  VendorCounterInfo counter;
  counter.unit = str();
  counter.generic = str();
  counter.fixed = str();
  counter.location = range();
  return counter;
}

}  // namespace pmu_events_index
PMUCAT_END_NAMESPACE
