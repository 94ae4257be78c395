// The event-term parser (events/<name> files and the inside of `pmu/.../`).
#include "pmucat/terms.h"

#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <optional>

#include "parser/escape.h"
#include "parser/terms_lexer.h"
#include "pmucat/diagnostic_ids.h"

PMUCAT_BEGIN_NAMESPACE
namespace {

using terms_detail::LexProblem;
using terms_detail::Token;
using terms_detail::TokenKind;

// perf 6.1 reads event files into a 256-byte buffer and writes its terminator past the end.
constexpr std::size_t kPerf61EventFileLimit = 255;

std::string describe(const Token& token, std::string_view text) {
  switch (token.kind) {
    case TokenKind::name:
      return fmt::format("'{}'", token.text);
    case TokenKind::number:
      return fmt::format("the number '{}'", token.text);
    case TokenKind::comma:
      return "','";
    case TokenKind::equals:
      return "'='";
    case TokenKind::quoted:
      return "a quoted string";
    case TokenKind::driver_cfg:
      return fmt::format("'@{}'", token.text);
    case TokenKind::stray_token:
      return fmt::format("'{}'", text.substr(token.offset, 1));
    case TokenKind::end:
      return "end of input";
    case TokenKind::bad:
      break;
  }
  return "an invalid token";
}

// Parses into `Sink::add(const TermView&)`, so that owning and view outputs share one parser.
template <class Sink>
class TermsParser {
 public:
  TermsParser(std::string_view text, std::string_view file, TermSyntax syntax,
              std::uint32_t base_offset, Sink& sink, std::vector<Diagnostic>& lints,
              TermLexing lexing = {})
      : text_(text),
        file_(file),
        syntax_(syntax),
        base_(base_offset),
        lexer_(text, lexing),
        sink_(sink),
        lints_(lints),
        lints_begin_(lints.size()) {}

  // The number of terms added, or the first error.
  Expected<std::size_t> parse() {
    advance();
    if (token_.kind == TokenKind::end) return finish();
    for (;;) {
      if (auto problem = parse_item()) return unexpected(std::move(*problem));
      if (token_.kind == TokenKind::end) return finish();
      if (token_.kind != TokenKind::comma) return unexpected(after_item_error());
      const Token comma = token_;
      advance();
      if (token_.kind == TokenKind::end) {
        Diagnostic diagnostic = error(DiagId::terms_trailing_comma, comma.offset, 1,
                                      "trailing ',' after the last term");
        diagnostic.fixit = FixIt{diagnostic.range, ""};
        return unexpected(std::move(diagnostic));
      }
    }
  }

 private:
  void advance() {
    previous_end_ = token_.offset + token_.length;
    token_ = lexer_.next();
  }

  Diagnostic make(Severity severity, DiagId id, std::size_t offset, std::size_t length,
                  std::string message) const {
    return make_located(severity, to_string(id), offset, length, std::move(message));
  }

  // make() with any id: "" for the ranges of fix-its.
  Diagnostic make_located(Severity severity, std::string_view id, std::size_t offset,
                          std::size_t length, std::string message) const {
    Diagnostic diagnostic =
        make_diagnostic(severity, id, file_, text_, offset, length, std::move(message));
    diagnostic.range.offset += base_;
    return diagnostic;
  }

  Diagnostic error(DiagId id, std::size_t offset, std::size_t length, std::string message) const {
    return make(Severity::error, id, offset, length, std::move(message));
  }

  void lint(Diagnostic diagnostic) { lints_.push_back(std::move(diagnostic)); }

  void add(const TermView& term) {
    sink_.add(term);
    ++count_;
  }

  FixIt fixit_at(std::size_t offset, std::size_t length, std::string replacement) const {
    return FixIt{make_located(Severity::note, "", offset, length, "").range,
                 std::move(replacement)};
  }

  Diagnostic lexical_error(const Token& token) const {
    switch (token.problem) {
      case LexProblem::uppercase_hex_prefix: {
        Diagnostic diagnostic = error(DiagId::terms_uppercase_hex_prefix, token.offset, 2,
                                      "hexadecimal prefix must be lowercase '0x'");
        diagnostic.hint = "perf reads '0X' as the number 0 followed by a name and fails";
        diagnostic.fixit = fixit_at(token.offset, 2, "0x");
        return diagnostic;
      }
      case LexProblem::hex_without_digits:
        return error(DiagId::terms_syntax, token.offset, token.length,
                     "expected hexadecimal digits after '0x'");
      case LexProblem::overflow: {
        Diagnostic diagnostic = error(DiagId::terms_number_overflow, token.offset, token.length,
                                      "number does not fit in 64 bits");
        diagnostic.hint = "the largest value is 0xffffffffffffffff (18446744073709551615)";
        return diagnostic;
      }
      case LexProblem::junk_after_number:
        return error(DiagId::terms_syntax, token.problem_offset,
                     token.offset + token.length - token.problem_offset,
                     fmt::format("unexpected '{}' after a number",
                                 text_.substr(token.problem_offset,
                                              token.offset + token.length - token.problem_offset)));
      case LexProblem::unterminated_quote: {
        Diagnostic diagnostic =
            error(DiagId::terms_unterminated_quote, token.offset, 1, "missing closing quote");
        diagnostic.fixit = fixit_at(text_.size(), 0, std::string(1, text_[token.offset]));
        return diagnostic;
      }
      case LexProblem::empty_driver_cfg:
        return error(DiagId::terms_syntax, token.offset, 1,
                     "expected a driver config name after '@'");
      case LexProblem::none:
        break;
    }
    return error(DiagId::terms_syntax, token.offset, token.length, "invalid token");
  }

  // An error at the current token; at the end of input it points just after the last token.
  Diagnostic error_here(DiagId id, std::string message) const {
    if (token_.kind == TokenKind::bad) return lexical_error(token_);
    if (token_.kind == TokenKind::end) return error(id, previous_end_, 0, std::move(message));
    return error(id, token_.offset, token_.length, std::move(message));
  }

  std::optional<Diagnostic> parse_item() {
    switch (token_.kind) {
      case TokenKind::name:
        return parse_named_term();
      case TokenKind::driver_cfg:
        add_driver_cfg();
        return std::nullopt;
      case TokenKind::comma: {
        Diagnostic diagnostic =
            error(DiagId::terms_empty_item, token_.offset, 1, "empty term before ','");
        diagnostic.fixit = fixit_at(token_.offset, 1, "");
        return diagnostic;
      }
      default:
        return error_here(DiagId::terms_syntax,
                          fmt::format("expected a term name, found {}", describe(token_, text_)));
    }
  }

  std::optional<Diagnostic> parse_named_term() {
    TermView term;
    term.name = token_.text;
    term.offset = offset32(token_.offset);
    term.value_offset = term.offset;
    const std::size_t start = token_.offset;
    advance();
    if (token_.kind != TokenKind::equals) {
      term.length = static_cast<std::uint32_t>(previous_end_ - start);
      add(term);
      return std::nullopt;
    }
    advance();
    switch (token_.kind) {
      case TokenKind::number:
        term.kind = TermValueKind::number;
        term.value = token_.value;
        term.style = token_.style;
        lint_number(token_);
        break;
      case TokenKind::name:
        term.value = 0;
        term.text = token_.text;
        term.kind = term.text == "?" ? TermValueKind::param : TermValueKind::string;
        break;
      case TokenKind::quoted:
        term.value = 0;
        term.kind = TermValueKind::string;
        term.text = token_.text;
        lint_command_line_syntax("a quoted value");
        break;
      default: {
        Diagnostic diagnostic = error_here(
            DiagId::terms_missing_value,
            fmt::format("expected a value after '=', found {}", describe(token_, text_)));
        if (token_.kind == TokenKind::stray_token && text_[token_.offset] == '-') {
          diagnostic.hint = "values are unsigned: decimal or 0x-prefixed hexadecimal";
        }
        return diagnostic;
      }
    }
    term.value_offset = offset32(token_.offset);
    term.value_length = static_cast<std::uint32_t>(token_.length);
    advance();
    term.length = static_cast<std::uint32_t>(previous_end_ - start);
    add(term);
    return std::nullopt;
  }

  void add_driver_cfg() {
    lint_command_line_syntax("a driver config term");
    TermView term;
    // The name keeps its '@', which the lexer put right before it.
    term.name = text_.substr(token_.offset, 1 + token_.text.size());
    term.offset = offset32(token_.offset);
    term.length = static_cast<std::uint32_t>(token_.length);
    term.value_offset = term.offset;
    if (!token_.value_text.empty()) {
      term.kind = TermValueKind::string;
      term.value = 0;
      term.text = token_.value_text;
      term.value_offset = offset32(token_.offset + 2 + token_.text.size());
      term.value_length = static_cast<std::uint32_t>(token_.value_text.size());
    }
    add(term);
    advance();
  }

  // After a complete item only ',' or the end may follow.
  Diagnostic after_item_error() const {
    switch (token_.kind) {
      case TokenKind::name:
      case TokenKind::number:
      case TokenKind::quoted:
      case TokenKind::driver_cfg: {
        Diagnostic diagnostic =
            error(DiagId::terms_missing_comma, token_.offset, token_.length,
                  fmt::format("expected ',' before {}", describe(token_, text_)));
        diagnostic.fixit = separator_fixit();
        return diagnostic;
      }
      case TokenKind::equals:
        return error(DiagId::terms_syntax, token_.offset, 1, "unexpected '=' after a value");
      case TokenKind::stray_token:
        return error(DiagId::terms_syntax, token_.offset, 1,
                     fmt::format("unexpected {} in a term list", describe(token_, text_)));
      default:
        return error_here(DiagId::terms_syntax,
                          fmt::format("unexpected {}", describe(token_, text_)));
    }
  }

  // Insert ',' after the previous item, or replace what perf skipped between the items (`;`).
  FixIt separator_fixit() const {
    const std::string_view gap = text_.substr(previous_end_, token_.offset - previous_end_);
    const bool only_blanks =
        std::all_of(gap.begin(), gap.end(), [](char c) { return char_class::is_blank(c); });
    if (only_blanks || gap.find('\n') != std::string_view::npos) {
      return fixit_at(previous_end_, 0, ",");
    }
    return fixit_at(previous_end_, gap.size(), ",");
  }

  // perf reads event files with its command-line lexer, so it accepts these; the ABI has neither.
  void lint_command_line_syntax(std::string_view what) {
    if (syntax_ != TermSyntax::event_file) return;
    lint(
        make(Severity::warning, DiagId::terms_command_line_syntax, token_.offset, token_.length,
             fmt::format("{} in an event file; perf accepts it but the sysfs ABI has none", what)));
  }

  void lint_number(const Token& token) {
    if (token.style == NumberStyle::hex_upper_digits && syntax_ == TermSyntax::event_file) {
      Diagnostic diagnostic =
          make(Severity::warning, DiagId::terms_uppercase_hex, token.offset, token.length,
               fmt::format("'{}' has uppercase hex digits; the ABI uses lowercase", token.text));
      std::string lower(token.text);
      for (char& c : lower) {
        if (c >= 'A' && c <= 'F') c = static_cast<char>(c - 'A' + 'a');
      }
      diagnostic.fixit = fixit_at(token.offset, token.length, std::move(lower));
      lint(std::move(diagnostic));
    }
    if (token.style == NumberStyle::decimal && token.text.size() > 1 && token.text.front() == '0') {
      lint(make(Severity::warning, DiagId::terms_leading_zero, token.offset, token.length,
                fmt::format("'{}' is read as decimal {}, not octal", token.text, token.value)));
    }
  }

  Expected<std::size_t> finish() {
    for (const auto& run : lexer_.stray_runs()) {
      lint(make(Severity::warning, DiagId::terms_stray_byte, run.offset, run.length,
                fmt::format("perf skips {} here; it is not part of the term grammar",
                            fmt::format("'{}'", parser_detail::escape_excerpt(
                                                    text_.substr(run.offset, run.length), 16)))));
    }
    if (syntax_ == TermSyntax::event_file) {
      const auto blank = lexer_.first_unusual_blank();
      if (blank.length != 0) {
        lint(make(Severity::warning, DiagId::terms_whitespace, blank.offset, blank.length,
                  "whitespace in an event file; perf skips it but the ABI has none"));
      }
      if (text_.size() > kPerf61EventFileLimit) {
        lint(make(Severity::warning, DiagId::terms_event_file_too_long, kPerf61EventFileLimit,
                  text_.size() - kPerf61EventFileLimit,
                  fmt::format("event file is {} bytes; perf 6.1 handles at most {}", text_.size(),
                              kPerf61EventFileLimit)));
      }
    }
    std::stable_sort(
        lints_.begin() + static_cast<std::ptrdiff_t>(lints_begin_), lints_.end(),
        [](const Diagnostic& a, const Diagnostic& b) { return a.range.offset < b.range.offset; });
    return count_;
  }

  std::uint32_t offset32(std::size_t local) const {
    return static_cast<std::uint32_t>(std::min<std::uint64_t>(
        std::uint64_t{local} + base_, std::numeric_limits<std::uint32_t>::max()));
  }

  std::string_view text_;
  std::string_view file_;
  TermSyntax syntax_;
  std::uint32_t base_;
  terms_detail::TermsLexer lexer_;
  Token token_;
  std::size_t previous_end_ = 0;
  Sink& sink_;
  std::vector<Diagnostic>& lints_;
  std::size_t lints_begin_;
  std::size_t count_ = 0;
};

struct OwningSink {
  std::vector<Term>& terms;
  void add(const TermView& term) { terms.push_back(term.to_term()); }
};

struct ViewSink {
  std::vector<TermView>& terms;
  void add(const TermView& term) { terms.push_back(term); }
};

std::optional<Diagnostic> too_large(std::string_view text, std::string_view file,
                                    std::uint32_t base_offset) {
  if (text.size() <= std::numeric_limits<std::uint32_t>::max() - std::uint64_t{base_offset}) {
    return std::nullopt;
  }
  return make_diagnostic(Severity::error, DiagId::terms_syntax, file, {}, 0, 0,
                         "term list is larger than 4 GiB");
}

}  // namespace

TermView TermView::of(const Term& term) {
  return TermView{term.name,   term.kind,   term.value,        term.text,        term.style,
                  term.offset, term.length, term.value_offset, term.value_length};
}

Term TermView::to_term() const {
  return Term{std::string(name), kind,        value, std::string(text), style, offset, length,
              value_offset,      value_length};
}

std::size_t find_terms_end(std::string_view spec, std::size_t start) {
  for (std::size_t i = start; i < spec.size(); ++i) {
    const char c = spec[i];
    if (c == '/') return i;
    if (c == '\'' || c == '"') {
      i = spec.find(c, i + 1);
      if (i == std::string_view::npos) return std::string_view::npos;
    }
  }
  return std::string_view::npos;
}

Expected<TermList> parse_terms(std::string_view text, std::string_view file, TermSyntax syntax,
                               std::uint32_t base_offset) {
  if (auto error = too_large(text, file, base_offset)) return unexpected(std::move(*error));
  TermList list;
  list.terms.reserve(4 + text.size() / 12);
  OwningSink sink{list.terms};
  auto parsed = TermsParser(text, file, syntax, base_offset, sink, list.lints).parse();
  if (!parsed) return unexpected(std::move(parsed).error());
  return list;
}

Expected<std::size_t> parse_term_views(std::string_view text, std::string_view file,
                                       TermSyntax syntax, std::uint32_t base_offset,
                                       std::vector<TermView>& out, std::vector<Diagnostic>& lints,
                                       TermLexing lexing) {
  if (auto error = too_large(text, file, base_offset)) return unexpected(std::move(*error));
  ViewSink sink{out};
  return TermsParser(text, file, syntax, base_offset, sink, lints, lexing).parse();
}

PMUCAT_END_NAMESPACE
