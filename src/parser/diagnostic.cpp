// Building located diagnostics and rendering them the way clang does.
#include "pmucat/diagnostic.h"

#include <fmt/format.h>

#include <algorithm>
#include <limits>

namespace pmucat {
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

bool is_printable(unsigned char byte) {
  return byte >= 0x20 && byte < 0x7f;
}

// The display form of a source line: printable ASCII as is, tabs expanded, every other byte as
// `\xNN`. `columns[i]` is the display column where byte i starts (one extra entry for the end),
// so carets stay aligned under escaped bytes.
struct DisplayLine {
  std::string text;
  std::vector<std::size_t> columns;
};

DisplayLine make_display_line(std::string_view line) {
  DisplayLine display;
  display.text.reserve(line.size() + 8);
  display.columns.reserve(line.size() + 1);
  for (char c : line) {
    const auto byte = static_cast<unsigned char>(c);
    display.columns.push_back(display.text.size());
    if (byte == '\t') {
      display.text.append(kTabStop - display.text.size() % kTabStop, ' ');
    } else if (is_printable(byte)) {
      display.text.push_back(c);
    } else {
      display.text += fmt::format("\\x{:02x}", byte);
    }
  }
  display.columns.push_back(display.text.size());
  return display;
}

// A caret line: `^` under byte `start` of the line, `~` under the rest of the `length` bytes.
std::string caret_line(const DisplayLine& display, std::size_t start, std::size_t length) {
  const std::size_t last_byte = display.columns.size() - 1;
  start = std::min(start, last_byte);
  const std::size_t end = std::min(start + length, last_byte);
  const std::size_t from = display.columns[start];
  const std::size_t to = std::max(display.columns[end], from + 1);
  std::string line(from, ' ');
  line.push_back('^');
  line.append(to - from - 1, '~');
  return line;
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
  const DisplayLine display = make_display_line(corrected);
  out += display.text;
  out += '\n';
  out += fmt::format("{}{}{}\n", green,
                     caret_line(display, start, std::max<std::size_t>(fixit.replacement.size(), 1)),
                     reset);
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
  diagnostic.id = std::string(id);
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
  diagnostic.id = std::string(id);
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
    out += fmt::format("{}{}: ", bold, range.file);
  } else {
    out += fmt::format("{}{}:{}:{}: ", bold, range.file, range.line, range.column);
  }
  out += fmt::format("{}{}:{} {}{}{}", color, to_string(diagnostic.severity), reset, bold,
                     diagnostic.message, reset);
  if (options.show_id && !diagnostic.id.empty()) out += fmt::format(" [{}]", diagnostic.id);
  out += '\n';

  if (range.line != 0) {
    const DisplayLine display = make_display_line(diagnostic.source_line);
    const std::size_t start = range.column == 0 ? 0 : range.column - 1;
    out += display.text;
    out += '\n';
    out += fmt::format("{}{}{}\n", options.color ? kGreen : "",
                       caret_line(display, start, range.length), reset);
  }
  if (!diagnostic.hint.empty()) {
    out += diagnostic.hint;
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

}  // namespace pmucat
