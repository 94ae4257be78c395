// Parsers of the per-event metadata files (.unit, .scale, .per-pkg, .snapshot).
#include "pmucat/metadata.h"

#include <fmt/format.h>

#include <array>
#include <charconv>
#include <cmath>
#include <system_error>

#include "parser/char_class.h"
#include "parser/escape.h"
#include "pmucat/diagnostic_ids.h"

PMUCAT_BEGIN_NAMESPACE
namespace {

// perf 6.1 reads at most 31 bytes of a unit and 127 of a scale.
constexpr std::size_t kPerf61UnitLimit = 31;
constexpr std::size_t kPerf61ScaleLimit = 127;

struct SuffixName {
  std::string_view suffix;
  MetadataSuffix kind;
};

constexpr std::array<SuffixName, 4> kSuffixes{{{".unit", MetadataSuffix::unit},
                                               {".scale", MetadataSuffix::scale},
                                               {".per-pkg", MetadataSuffix::per_pkg},
                                               {".snapshot", MetadataSuffix::snapshot}}};

std::string_view without_final_newline(std::string_view text) {
  if (!text.empty() && text.back() == '\n') text.remove_suffix(1);
  return text;
}

using char_class::is_blank;

bool is_control(char c) {
  const auto byte = static_cast<unsigned char>(c);
  return byte < 0x20 || byte == 0x7f;
}

std::string shown(char c) {
  const auto byte = static_cast<unsigned char>(c);
  if (byte >= 0x20 && byte < 0x7f) return fmt::format("'{}'", c);
  return fmt::format("byte 0x{:02x}", byte);
}

Diagnostic scale_error(DiagId id, std::string_view text, std::string_view file, std::size_t offset,
                       std::size_t length, std::string message) {
  Diagnostic diagnostic =
      make_diagnostic(Severity::error, id, file, text, offset, length, std::move(message));
  diagnostic.hint = "perf reads a scale it cannot parse as 0 and then uses 1.0";
  return diagnostic;
}

// The DMR defect: a scale written with its JSON quotes, `"3.814697266e-6"`.
Diagnostic quoted_scale_error(std::string_view text, std::string_view file, std::size_t start,
                              std::string_view trimmed) {
  Diagnostic diagnostic = scale_error(DiagId::scale_quoted, text, file, start, 1,
                                      "scale must be a bare number, not quoted");
  if (trimmed.size() >= 2 && trimmed.back() == trimmed.front()) {
    const Diagnostic whole =
        make_diagnostic(Severity::note, "", file, text, start, trimmed.size(), "");
    diagnostic.fixit = FixIt{whole.range, std::string(trimmed.substr(1, trimmed.size() - 2))};
  }
  return diagnostic;
}

}  // namespace

MetadataSuffix metadata_suffix(std::string_view file_name) {
  for (const auto& [suffix, kind] : kSuffixes) {
    if (file_name.size() > suffix.size() && file_name.ends_with(suffix)) return kind;
  }
  return MetadataSuffix::none;
}

std::string_view metadata_base_name(std::string_view file_name) {
  for (const auto& [suffix, kind] : kSuffixes) {
    if (file_name.size() > suffix.size() && file_name.ends_with(suffix)) {
      return file_name.substr(0, file_name.size() - suffix.size());
    }
  }
  return file_name;
}

Expected<Unit> parse_unit(std::string_view text, std::string_view file) {
  const std::string_view body = without_final_newline(text);
  if (body.empty()) {
    Diagnostic diagnostic = make_diagnostic(Severity::error, DiagId::unit_empty, file, text, 0, 0,
                                            "unit file is empty");
    diagnostic.hint = "perf 6.1 reads the byte before its buffer for an empty unit";
    return unexpected(std::move(diagnostic));
  }
  Unit unit;
  unit.text = std::string(body);
  for (std::size_t i = 0; i < body.size(); ++i) {
    if (is_control(body[i])) {
      unit.lints.push_back(make_diagnostic(Severity::warning, DiagId::unit_nonprintable, file, text,
                                           i, 1, fmt::format("unit contains {}", shown(body[i]))));
      break;
    }
  }
  if (body.size() > kPerf61UnitLimit) {
    unit.lints.push_back(
        make_diagnostic(Severity::warning, DiagId::unit_too_long, file, text, kPerf61UnitLimit,
                        body.size() - kPerf61UnitLimit,
                        fmt::format("unit is {} bytes; perf 6.1 keeps only the first {}",
                                    body.size(), kPerf61UnitLimit)));
  }
  return unit;
}

Expected<Scale> parse_scale(std::string_view text, std::string_view file) {
  const std::string_view body = without_final_newline(text);
  std::size_t start = 0;
  std::size_t end = body.size();
  while (start < end && is_blank(body[start])) ++start;
  while (end > start && is_blank(body[end - 1])) --end;
  const std::string_view trimmed = body.substr(start, end - start);
  if (trimmed.empty()) {
    return unexpected(scale_error(DiagId::scale_empty, text, file, 0, 0,
                                  "scale file is empty; expected a number"));
  }
  Scale scale;
  scale.text = std::string(trimmed);
  std::size_t number_start = start;
  if (trimmed.front() == '+') {
    scale.lints.push_back(make_diagnostic(Severity::warning, DiagId::scale_plus_sign, file, text,
                                          start, 1, "'+' before the scale; perf accepts it"));
    ++number_start;
  }
  if (trimmed.front() == '"' || trimmed.front() == '\'') {
    return unexpected(quoted_scale_error(text, file, start, trimmed));
  }
  double value = 0;
  const char* first = body.data() + number_start;
  const char* last = body.data() + end;
  const auto [stop, status] = std::from_chars(first, last, value, std::chars_format::general);
  const auto stop_offset = static_cast<std::size_t>(stop - body.data());
  if (status == std::errc::invalid_argument) {
    const char bad = body[number_start < end ? number_start : start];
    return unexpected(scale_error(DiagId::scale_syntax, text, file, number_start, 1,
                                  fmt::format("expected a number, found {}", shown(bad))));
  }
  if (status == std::errc::result_out_of_range) {
    return unexpected(scale_error(DiagId::scale_out_of_range, text, file, number_start,
                                  end - number_start, "scale is out of the range of a double"));
  }
  if (stop_offset != end) {
    return unexpected(
        scale_error(DiagId::scale_syntax, text, file, stop_offset, end - stop_offset,
                    fmt::format("unexpected {} after the number", shown(body[stop_offset]))));
  }
  if (!std::isfinite(value)) {
    return unexpected(scale_error(DiagId::scale_not_finite, text, file, number_start,
                                  end - number_start, "scale must be a finite number"));
  }
  if (text.size() > kPerf61ScaleLimit) {
    scale.lints.push_back(
        make_diagnostic(Severity::warning, DiagId::scale_too_long, file, text, kPerf61ScaleLimit,
                        text.size() - kPerf61ScaleLimit,
                        fmt::format("scale file is {} bytes; perf 6.1 reads only the first {}",
                                    text.size(), kPerf61ScaleLimit)));
  }
  if (value == 0) {
    scale.lints.push_back(make_diagnostic(Severity::warning, DiagId::scale_zero, file, text, start,
                                          trimmed.size(),
                                          "a scale of 0 means 'unset' to perf, which uses 1.0"));
    value = 1.0;
  } else if (value < 0) {
    scale.lints.push_back(make_diagnostic(Severity::warning, DiagId::scale_negative, file, text,
                                          start, trimmed.size(), "scale is negative"));
  }
  scale.value = value;
  return scale;
}

Flag parse_flag(std::string_view text, std::string_view file) {
  Flag flag;
  const std::string_view body = without_final_newline(text);
  if (body == "1") return flag;
  std::string message = body.empty() ? std::string("flag file is empty")
                                     : fmt::format("flag file holds '{}', not '1'",
                                                   parser_detail::escape_excerpt(body, 16));
  Diagnostic diagnostic = make_diagnostic(Severity::warning, DiagId::flag_content, file, text, 0,
                                          body.size(), std::move(message));
  diagnostic.hint = "perf treats the file's existence as true; newer debug builds expect '1'";
  flag.lints.push_back(std::move(diagnostic));
  return flag;
}

PMUCAT_END_NAMESPACE
