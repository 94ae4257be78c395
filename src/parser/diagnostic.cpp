// Building located diagnostics and rendering them the way clang does.
#include "pmucat/diagnostic.h"

#include <fmt/format.h>

#include <algorithm>
#include <limits>

#include "pmucat/diagnostic_ids.h"

PMUCAT_BEGIN_NAMESPACE
namespace {

constexpr std::size_t kTabStop = 8;

// ANSI sequences clang uses: bold for the location line, red/magenta/black for the severity,
// green for carets and fix-its.
constexpr std::string_view kBold = "\x1b[1m";
constexpr std::string_view kReset = "\x1b[0m";
constexpr std::string_view kRed = "\x1b[1;31m";
constexpr std::string_view kMagenta = "\x1b[1;35m";
constexpr std::string_view kBlack = "\x1b[1;30m";
constexpr std::string_view kGreen = "\x1b[1;32m";

std::uint32_t saturate32(std::size_t value) {
  return static_cast<std::uint32_t>(
      std::min<std::size_t>(value, std::numeric_limits<std::uint32_t>::max()));
}

constexpr std::size_t kMaxShownColumns = 100;  // longer source lines are cut around the caret
constexpr std::string_view kEllipsis = "...";

bool is_printable(unsigned char byte) {
  return byte >= 0x20 && byte < 0x7f;
}

// Length of the well-formed UTF-8 sequence at the start of `text` (no overlongs, surrogates or
// code points past U+10FFFF), or 0.
std::size_t utf8_length(std::string_view text) {
  const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[i]); };
  const unsigned char lead = byte(0);
  std::size_t length = 0;
  unsigned char low = 0x80;
  unsigned char high = 0xbf;
  if (lead >= 0xc2 && lead <= 0xdf) {
    length = 2;
  } else if (lead >= 0xe0 && lead <= 0xef) {
    length = 3;
    if (lead == 0xe0) low = 0xa0;
    if (lead == 0xed) high = 0x9f;
  } else if (lead >= 0xf0 && lead <= 0xf4) {
    length = 4;
    if (lead == 0xf0) low = 0x90;
    if (lead == 0xf4) high = 0x8f;
  } else {
    return 0;
  }
  if (text.size() < length) return 0;
  if (byte(1) < low || byte(1) > high) return 0;
  for (std::size_t i = 2; i < length; ++i) {
    if (byte(i) < 0x80 || byte(i) > 0xbf) return 0;
  }
  return length;
}

// The display form of a source line: printable ASCII and well-formed UTF-8 characters as they
// are (one column each), tabs expanded, every other byte as `\xNN`. The line is a run of
// units (a character, an escape, a tab) that carets and cuts never split.
struct DisplayLine {
  std::string text;
  std::vector<std::size_t> unit_columns;  // display column where each unit starts, + the end
  std::vector<std::size_t> unit_offsets;  // byte offset in `text` of each unit, + the end
  std::vector<std::size_t> unit_of_byte;  // unit holding each source byte, + one past the end

  std::size_t width() const { return unit_columns.back(); }
  // Display column where source byte `byte` starts (the column of its character).
  std::size_t column_of(std::size_t byte) const {
    return unit_columns[unit_of_byte[std::min(byte, unit_of_byte.size() - 1)]];
  }
  // Display column where source bytes ending before `byte` end: a range that ends inside a
  // character covers all of it.
  std::size_t end_column_of(std::size_t byte) const {
    byte = std::min(byte, unit_of_byte.size() - 1);
    if (byte == 0) return 0;
    return unit_columns[unit_of_byte[byte - 1] + 1];
  }
};

DisplayLine make_display_line(std::string_view line) {
  DisplayLine display;
  display.text.reserve(line.size() + 8);
  display.unit_of_byte.reserve(line.size() + 1);
  std::size_t column = 0;
  for (std::size_t at = 0; at < line.size();) {
    const auto byte = static_cast<unsigned char>(line[at]);
    const std::size_t unit = display.unit_columns.size();
    display.unit_columns.push_back(column);
    display.unit_offsets.push_back(display.text.size());
    std::size_t bytes = 1;
    if (byte == '\t') {
      const std::size_t spaces = kTabStop - column % kTabStop;
      display.text.append(spaces, ' ');
      column += spaces;
    } else if (is_printable(byte)) {
      display.text.push_back(line[at]);
      ++column;
    } else if (const std::size_t length = byte >= 0x80 ? utf8_length(line.substr(at)) : 0;
               length != 0) {
      display.text.append(line.substr(at, length));
      bytes = length;
      ++column;
    } else {
      const std::string escaped = fmt::format("\\x{:02x}", byte);
      display.text += escaped;
      column += escaped.size();
    }
    display.unit_of_byte.insert(display.unit_of_byte.end(), bytes, unit);
    at += bytes;
  }
  display.unit_of_byte.push_back(display.unit_columns.size());
  display.unit_columns.push_back(column);
  display.unit_offsets.push_back(display.text.size());
  return display;
}

// The source line as shown and its caret line: `^` under byte `start`, `~` under the rest of
// the `length` bytes. A line wider than kMaxShownColumns is cut to a window around the caret,
// with "..." where text was left out; the caret stays under the same character.
struct ShownLine {
  std::string text;
  std::string carets;
};

ShownLine show_line(const DisplayLine& display, std::size_t start, std::size_t length) {
  const std::size_t last_byte = display.unit_of_byte.size() - 1;
  start = std::min(start, last_byte);
  const std::size_t end = std::min(start + length, last_byte);
  const std::size_t from = display.column_of(start);
  const std::size_t to = std::max(length == 0 ? from : display.end_column_of(end), from + 1);

  // The window of columns to show: all of it when it fits, else centred on the caret (its start
  // when the caret alone is wider), moved to whole units.
  std::size_t first_unit = 0;
  std::size_t end_unit = display.unit_columns.size() - 1;
  if (display.width() > kMaxShownColumns) {
    const std::size_t room = kMaxShownColumns - 2 * kEllipsis.size();
    const std::size_t caret = std::min(to - from, room);
    std::size_t window = from > (room - caret) / 2 ? from - (room - caret) / 2 : 0;
    window = std::min(window, display.width() > room ? display.width() - room : 0);
    while (first_unit + 1 < end_unit && display.unit_columns[first_unit + 1] <= window) {
      ++first_unit;
    }
    while (end_unit > first_unit + 1 &&
           display.unit_columns[end_unit] > display.unit_columns[first_unit] + room) {
      --end_unit;
    }
  }
  const std::size_t window_start = display.unit_columns[first_unit];
  const std::size_t window_end = display.unit_columns[end_unit];
  const bool cut_before = first_unit > 0;
  const bool cut_after = end_unit + 1 < display.unit_columns.size();

  ShownLine shown;
  if (cut_before) shown.text += kEllipsis;
  shown.text.append(display.text, display.unit_offsets[first_unit],
                    display.unit_offsets[end_unit] - display.unit_offsets[first_unit]);
  if (cut_after) shown.text += kEllipsis;
  const std::size_t lead = cut_before ? kEllipsis.size() : 0;
  const std::size_t caret_from = std::clamp(from, window_start, window_end);
  const std::size_t caret_to = std::clamp(to, caret_from + 1, std::max(window_end, caret_from + 1));
  shown.carets.assign(lead + caret_from - window_start, ' ');
  shown.carets.push_back('^');
  shown.carets.append(caret_to - caret_from - 1, '~');
  return shown;
}

std::string_view severity_color(Severity severity) {
  switch (severity) {
    case Severity::error:
      return kRed;
    case Severity::warning:
      return kMagenta;
    case Severity::note:
      return kBlack;
  }
  return kBold;
}

// "replace '0X' with '0x'", "insert ','", "remove ','".
std::string describe_fixit(const FixIt& fixit, std::string_view replaced) {
  if (fixit.range.length == 0) return fmt::format("insert '{}'", fixit.replacement);
  if (fixit.replacement.empty()) {
    return replaced.empty() ? std::string("remove the marked text")
                            : fmt::format("remove '{}'", replaced);
  }
  return fmt::format("replace '{}' with '{}'", replaced, fixit.replacement);
}

void append_fixit(std::string& out, const Diagnostic& diagnostic, const RenderOptions& options) {
  const FixIt& fixit = *diagnostic.fixit;
  const std::string_view line = diagnostic.source_line;
  const bool on_this_line = fixit.range.line == diagnostic.range.line && fixit.range.column >= 1 &&
                            fixit.range.column - 1 <= line.size();
  std::string_view replaced;
  std::size_t start = 0;
  std::size_t length = 0;
  if (on_this_line) {
    start = fixit.range.column - 1;
    length = std::min<std::size_t>(fixit.range.length, line.size() - start);
    replaced = line.substr(start, length);
  }
  const std::string_view green = options.color ? kGreen : "";
  const std::string_view reset = options.color ? kReset : "";
  out += fmt::format("{}fix-it:{} {}\n", green, reset,
                     on_this_line || fixit.range.length == 0 || fixit.replacement.empty()
                         ? describe_fixit(fixit, replaced)
                         : fmt::format("replace with '{}'", fixit.replacement));
  if (!on_this_line) return;
  std::string corrected;
  corrected.reserve(line.size() + fixit.replacement.size());
  corrected.append(line.substr(0, start));
  corrected.append(fixit.replacement);
  corrected.append(line.substr(start + length));
  const ShownLine shown = show_line(make_display_line(corrected), start,
                                    std::max<std::size_t>(fixit.replacement.size(), 1));
  out += shown.text;
  out += '\n';
  out += fmt::format("{}{}{}\n", green, shown.carets, reset);
}

// `text` with its control bytes (a newline included, unless `keep_newlines`) as `\xNN`: a file
// name or message built from a directory entry's name must not start a line of its own, which a
// reader of the output would take for the tool's.
std::string without_controls(std::string_view text, bool keep_newlines = false) {
  const auto is_control = [keep_newlines](unsigned char byte) {
    return (byte < 0x20 && byte != '\t' && !(keep_newlines && byte == '\n')) || byte == 0x7f;
  };
  if (std::none_of(text.begin(), text.end(),
                   [&](char c) { return is_control(static_cast<unsigned char>(c)); })) {
    return std::string(text);
  }
  std::string out;
  out.reserve(text.size() + 8);
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (is_control(byte)) {
      out += fmt::format("\\x{:02x}", byte);
    } else {
      out.push_back(c);
    }
  }
  return out;
}

}  // namespace

std::string_view to_string(Severity severity) {
  switch (severity) {
    case Severity::note:
      return "note";
    case Severity::warning:
      return "warning";
    case Severity::error:
      return "error";
  }
  return "error";
}

Diagnostic make_diagnostic(Severity severity, std::string_view id, std::string_view file,
                           std::string_view text, std::size_t offset, std::size_t length,
                           std::string message) {
  offset = std::min(offset, text.size());
  length = std::min(length, text.size() - offset);
  // The line holding `offset`; an offset on a '\n' belongs to the line that '\n' ends.
  const std::size_t previous_newline =
      offset == 0 ? std::string_view::npos : text.rfind('\n', offset - 1);
  const std::size_t first = previous_newline == std::string_view::npos ? 0 : previous_newline + 1;
  std::size_t line_end = text.find('\n', first);
  if (line_end == std::string_view::npos) line_end = text.size();

  Diagnostic diagnostic;
  diagnostic.severity = severity;
  set_id(diagnostic, id);
  diagnostic.message = std::move(message);
  diagnostic.range.file = std::string(file);
  diagnostic.range.line = saturate32(
      1 + static_cast<std::size_t>(std::count(text.begin(), text.begin() + first, '\n')));
  diagnostic.range.column = saturate32(offset - first + 1);
  diagnostic.range.length = saturate32(length);
  diagnostic.range.offset = offset;
  diagnostic.source_line = std::string(text.substr(first, line_end - first));
  return diagnostic;
}

Diagnostic make_file_diagnostic(Severity severity, std::string_view id, std::string_view file,
                                std::string message) {
  Diagnostic diagnostic;
  diagnostic.severity = severity;
  set_id(diagnostic, id);
  diagnostic.message = std::move(message);
  diagnostic.range.file = std::string(file);
  diagnostic.range.line = 0;
  diagnostic.range.column = 0;
  return diagnostic;
}

Diagnostic rebase_diagnostic(const Diagnostic& diagnostic, std::string_view whole_text) {
  Diagnostic rebased =
      make_diagnostic(diagnostic.severity, diagnostic.id, diagnostic.range.file, whole_text,
                      diagnostic.range.offset, diagnostic.range.length, diagnostic.message);
  rebased.code = diagnostic.code;
  rebased.hint = diagnostic.hint;
  rebased.notes = diagnostic.notes;  // notes may point into other texts (event files): kept as is
  if (diagnostic.fixit) {
    const Diagnostic at =
        make_diagnostic(diagnostic.severity, "", diagnostic.fixit->range.file, whole_text,
                        diagnostic.fixit->range.offset, diagnostic.fixit->range.length, "");
    rebased.fixit = FixIt{at.range, diagnostic.fixit->replacement};
  }
  return rebased;
}

std::string render(const Diagnostic& diagnostic, const RenderOptions& options) {
  const std::string_view bold = options.color ? kBold : "";
  const std::string_view reset = options.color ? kReset : "";
  const std::string_view color = options.color ? severity_color(diagnostic.severity) : "";
  const SourceRange& range = diagnostic.range;

  std::string out;
  out.reserve(diagnostic.message.size() + 3 * diagnostic.source_line.size() + 96);
  if (range.line == 0) {
    out += fmt::format("{}{}: ", bold, without_controls(range.file));
  } else {
    out +=
        fmt::format("{}{}:{}:{}: ", bold, without_controls(range.file), range.line, range.column);
  }
  out += fmt::format("{}{}:{} {}{}{}", color, to_string(diagnostic.severity), reset, bold,
                     without_controls(diagnostic.message), reset);
  if (options.show_id && !diagnostic.id.empty()) out += fmt::format(" [{}]", diagnostic.id);
  out += '\n';

  if (range.line != 0) {
    const std::size_t start = range.column == 0 ? 0 : range.column - 1;
    const ShownLine shown =
        show_line(make_display_line(diagnostic.source_line), start, range.length);
    out += shown.text;
    out += '\n';
    out += fmt::format("{}{}{}\n", options.color ? kGreen : "", shown.carets, reset);
  }
  if (!diagnostic.hint.empty()) {
    out += without_controls(diagnostic.hint, /*keep_newlines=*/true);
    out += '\n';
  }
  if (diagnostic.fixit) append_fixit(out, diagnostic, options);
  for (const Diagnostic& note : diagnostic.notes) {
    Diagnostic shown = note;
    shown.notes.clear();
    out += render(shown, options);
  }
  return out;
}

PMUCAT_END_NAMESPACE
