// Printing diagnostics on stderr, clang-style, coloured only when stderr wants it.
#pragma once

#include <cstdio>
#include <span>
#include <string>
#include <string_view>

#include "pmucat/diagnostic.h"
#include "pmucat/diagnostic_ids.h"

namespace pmucat::cli {

class DiagnosticPrinter {
 public:
  // Prints to `stream` (normally stderr); `tool` prefixes messages that have no location.
  DiagnosticPrinter(std::FILE* stream, bool color, std::string tool);

  // Prints one diagnostic as it is (location, source line, caret, hint, fix-it).
  void print(const Diagnostic& diagnostic);
  // Prints an error as a warning: used where the tool goes on (a broken PMU while listing).
  void print_as_warning(Diagnostic diagnostic);
  // Prints every error-severity diagnostic in `diagnostics` as a warning; lints are skipped
  // (they are pmucheck's business, and the tools stay quiet when nothing is wrong).
  void print_errors_as_warnings(std::span<const Diagnostic> diagnostics);
  // `tool: error: message` for problems without a location (usage, I/O).
  void error(std::string_view message);

  bool color() const { return color_; }
  // True once anything was printed with error severity.
  bool had_error() const { return had_error_; }

 private:
  std::FILE* stream_;
  bool color_;
  std::string tool_;
  bool had_error_ = false;
};

// A located error about a command-line argument (`<--pmu>`, `<decode>`, ...): the caret points
// at bytes [offset, offset + length) of `text`.
Diagnostic argument_error(DiagId id, std::string_view what, std::string_view text,
                          std::size_t offset, std::size_t length, std::string message,
                          std::string hint = {});

}  // namespace pmucat::cli
