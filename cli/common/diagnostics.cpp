#include "common/diagnostics.h"

#include <fmt/core.h>

#include <algorithm>
#include <utility>

#include "pmucat/version.h"

PMUCAT_BEGIN_NAMESPACE
namespace cli {

DiagnosticPrinter::DiagnosticPrinter(std::FILE* stream, bool color, std::string tool)
    : stream_(stream), color_(color), tool_(std::move(tool)) {}

void DiagnosticPrinter::print(const Diagnostic& diagnostic) {
  flush_watched();
  if (diagnostic.severity == Severity::error) had_error_ = true;
  RenderOptions options;
  options.color = color_;
  const std::string text = render(diagnostic, options);
  std::fwrite(text.data(), 1, text.size(), stream_);
}

void DiagnosticPrinter::print_as_warning(Diagnostic diagnostic) {
  if (diagnostic.severity == Severity::error) diagnostic.severity = Severity::warning;
  print(diagnostic);
}

void DiagnosticPrinter::print_errors_as_warnings(std::span<const Diagnostic> diagnostics) {
  for (const Diagnostic& diagnostic : diagnostics) {
    if (diagnostic.severity == Severity::error) print_as_warning(diagnostic);
  }
}

DiagnosticPrinter::Watch DiagnosticPrinter::watch(std::function<std::vector<Diagnostic>()> source) {
  watched_ = std::move(source);
  return Watch(this);
}

DiagnosticPrinter::Watch::~Watch() {
  if (printer_ == nullptr) return;
  printer_->flush_watched();
  printer_->watched_ = nullptr;
}

void DiagnosticPrinter::flush_watched() {
  if (!watched_ || flushing_) return;
  flushing_ = true;
  for (const Diagnostic& diagnostic : watched_()) {
    std::string key = render(diagnostic);
    if (std::find(printed_.begin(), printed_.end(), key) != printed_.end()) continue;
    printed_.push_back(std::move(key));
    print(diagnostic);
  }
  flushing_ = false;
}

void DiagnosticPrinter::error(std::string_view message) {
  flush_watched();
  had_error_ = true;
  if (color_) {
    fmt::print(stream_, "\x1b[1m{}: \x1b[1;31merror: \x1b[0m\x1b[1m{}\x1b[0m\n", tool_, message);
  } else {
    fmt::print(stream_, "{}: error: {}\n", tool_, message);
  }
}

Diagnostic argument_error(DiagId id, std::string_view what, std::string_view text,
                          std::size_t offset, std::size_t length, std::string message,
                          std::string hint) {
  Diagnostic diagnostic =
      make_diagnostic(Severity::error, id, what, text, offset, length, std::move(message));
  diagnostic.hint = std::move(hint);
  return diagnostic;
}

}  // namespace cli
PMUCAT_END_NAMESPACE
