// Located diagnostics, rendered clang-style: `path:line:col: error: message`, the source line, a
// caret.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "pmucat/version.h"

PMUCAT_BEGIN_NAMESPACE

enum class Severity : std::uint8_t { note, warning, error };

// The diagnostic ids (pmucat/diagnostic_ids.h has the table).
enum class DiagId : std::uint16_t;

std::string_view to_string(Severity severity);

// A span of bytes in a named text: a sysfs file, or "<spec>" for a command-line event spec.
struct SourceRange {
  std::string file;          // path as the user would recognise it
  std::uint32_t line = 1;    // 1-based
  std::uint32_t column = 1;  // 1-based, counted in bytes
  std::uint32_t length = 0;  // bytes to underline; 0 means a caret only
  std::uint64_t offset = 0;  // byte offset of the start in the whole text
  friend bool operator==(const SourceRange&, const SourceRange&) = default;
};

// A suggested edit ("fix-it"): replace `range` with `replacement`.
struct FixIt {
  SourceRange range;
  std::string replacement;
  friend bool operator==(const FixIt&, const FixIt&) = default;
};

struct Diagnostic {
  Severity severity = Severity::error;
  // The id, what code compares (`diagnostic.code == DiagId::format_reversed_range`); none for a
  // note or an id the table lacks.
  std::optional<DiagId> code;
  // Its stable text, for output only ("format-reversed-range"); may be empty. The factories and
  // set_id() (pmucat/diagnostic_ids.h) keep the two in step.
  std::string id;
  SourceRange range;
  std::string message;      // one line, no trailing period, no location
  std::string source_line;  // the full text of range.line (without '\n'), for the caret
  std::string hint;         // optional extra line ("valid terms: ...", "did you mean 'umask'?")
  std::optional<FixIt> fixit;
  // Located notes shown after this diagnostic, e.g. where in the spec an event file whose
  // content failed was referenced (severity note; their own notes are not used).
  std::vector<Diagnostic> notes;
  friend bool operator==(const Diagnostic&, const Diagnostic&) = default;
};

// The factories below are cold: a diagnostic is the rare path, and the attribute lets the
// compiler move the code that builds one (message formatting included) out of the functions that
// call them, so a run that reports nothing touches fewer pages (docs/performance.md, "One event
// against a static C floor").

// Builds a diagnostic for bytes [offset, offset+length) of `text`, computing line, column and the
// source line. `id` is a table id's text (its code is looked up) or empty; code that knows the id
// passes the DiagId (the overloads in pmucat/diagnostic_ids.h). Offsets past the end are clamped
// (so a "missing X at end of input" points at EOF).
[[gnu::cold]] Diagnostic make_diagnostic(Severity severity, std::string_view id,
                                         std::string_view file, std::string_view text,
                                         std::size_t offset, std::size_t length,
                                         std::string message);

// Diagnostic with a file name only (for I/O errors, where there is no text to point into).
// Its range has line 0 and column 0, which render() prints as `path: error: message`.
[[gnu::cold]] Diagnostic make_file_diagnostic(Severity severity, std::string_view id,
                                              std::string_view file, std::string message);

// Recomputes line, column and source line of `diagnostic` (and of its fix-it) from their byte
// offsets, which must point into `whole_text`: for diagnostics from a parser that was given a
// slice of a larger text and a base offset (parse_terms on the part between `pmu/` and `/`).
Diagnostic rebase_diagnostic(const Diagnostic& diagnostic, std::string_view whole_text);

struct RenderOptions {
  bool color = false;   // ANSI colours as clang uses them (bold, red error, magenta warning)
  bool show_id = true;  // append " [id]" after the message when the id is non-empty
};

// Renders `path:line:col: severity: message [id]`, then the source line and a caret/tilde line,
// then `hint`, then a fix-it line, each terminated by '\n'. Non-printable bytes in the source
// line are shown as `\xNN` and the caret column is adjusted to match.
std::string render(const Diagnostic& diagnostic, const RenderOptions& options = {});

PMUCAT_END_NAMESPACE
