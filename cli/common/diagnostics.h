// Printing diagnostics on stderr, clang-style, coloured only when stderr wants it.
#pragma once

#include <cstdio>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "pmucat/diagnostic.h"
#include "pmucat/diagnostic_ids.h"

PMUCAT_BEGIN_NAMESPACE
namespace cli {

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

  // Diagnostics that lazy work turns up while a tool runs (the vendor catalog, read on first
  // need): while the Watch lives, `source` is asked before every diagnostic printed and once
  // more when the Watch ends, and whatever it returns that was not printed yet is printed first,
  // so each problem shows once, before any error it explains. End the Watch before whatever
  // `source` reads from.
  class Watch {
   public:
    explicit Watch(DiagnosticPrinter* printer) : printer_(printer) {}
    Watch(Watch&& other) noexcept : printer_(std::exchange(other.printer_, nullptr)) {}
    Watch& operator=(Watch&&) = delete;
    ~Watch();

   private:
    DiagnosticPrinter* printer_;
  };
  [[nodiscard]] Watch watch(std::function<std::vector<Diagnostic>()> source);

  bool color() const { return color_; }
  // True once anything was printed with error severity.
  bool had_error() const { return had_error_; }

 private:
  std::FILE* stream_;
  bool color_;
  std::string tool_;
  bool had_error_ = false;
  std::function<std::vector<Diagnostic>()> watched_;
  std::vector<std::string> printed_;  // the watched diagnostics printed, rendered
  bool flushing_ = false;
  void flush_watched();
};

// A located error about a command-line argument (`<--pmu>`, `<decode>`, ...): the caret points
// at bytes [offset, offset + length) of `text`.
Diagnostic argument_error(DiagId id, std::string_view what, std::string_view text,
                          std::size_t offset, std::size_t length, std::string message,
                          std::string hint = {});

}  // namespace cli
PMUCAT_END_NAMESPACE
