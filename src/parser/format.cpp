// The format-file parser: perf 6.1's grammar and semantics, with every tolerance reported.
#include "pmucat/format.h"

#include <fmt/format.h>

#include <limits>
#include <optional>

#include "parser/escape.h"
#include "parser/format_lexer.h"
#include "pmucat/diagnostic_ids.h"

PMUCAT_BEGIN_NAMESPACE
namespace {

using format_detail::FormatLexer;
using format_detail::StrayRun;
using format_detail::Token;
using format_detail::TokenKind;

constexpr unsigned kBitsPerWord = 64;

std::string_view describe(const Token& token) {
  switch (token.kind) {
    case TokenKind::number:
    case TokenKind::overflow:
    case TokenKind::hex:
      return "a number";
    case TokenKind::config:
      return "'config'";
    case TokenKind::colon:
      return "':'";
    case TokenKind::dash:
      return "'-'";
    case TokenKind::comma:
      return "','";
    case TokenKind::end:
      return "end of file";
  }
  return "a token";
}

bool iequals_config(std::string_view text) {
  if (text.size() != 6) return false;
  constexpr std::string_view kKeyword = "config";
  for (std::size_t i = 0; i < 6; ++i) {
    const char c = text[i];
    const char lower = (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
    if (lower != kKeyword[i]) return false;
  }
  return true;
}

// Bits of one `a` / `a-b` item with perf 6.1's reading: `a-0` is bit a, a > b is empty, bits
// from 64 on do not exist.
std::uint64_t item_mask(std::uint64_t first, std::uint64_t last, bool is_range) {
  if (!is_range || last == 0) last = first;
  if (first > last || first >= kBitsPerWord) return 0;
  const std::uint64_t top = std::min<std::uint64_t>(last, kBitsPerWord - 1);
  const std::uint64_t high = top == kBitsPerWord - 1 ? ~0ULL : (1ULL << (top + 1)) - 1;
  return high & ~((1ULL << first) - 1);
}

std::uint32_t saturate32(std::uint64_t value) {
  return static_cast<std::uint32_t>(
      std::min<std::uint64_t>(value, std::numeric_limits<std::uint32_t>::max()));
}

class FormatParser {
 public:
  FormatParser(std::string_view text, std::string_view file, FormatTerm which)
      : text_(text), file_(file), which_(which), lexer_(text) {}

  Expected<FormatSpec> parse() {
    advance();
    if (token_.kind == TokenKind::end) return unexpected(empty_file_error());
    unsigned term_index = 0;
    while (token_.kind != TokenKind::end) {
      if (auto error = parse_term(term_index)) return unexpected(std::move(*error));
      ++term_index;
    }
    spec_.lints = std::move(lints_);
    return std::move(spec_);
  }

 private:
  void advance() {
    previous_end_ = token_.offset + token_.length;
    token_ = lexer_.next([this](const StrayRun& run) { stray(run); });
    const bool inside_term =
        in_term_ && token_.kind != TokenKind::config && token_.kind != TokenKind::end;
    if (inside_term && token_.blank_in_gap && !blank_reported_) {
      // Blanks inside a term (`config1 : 40 - 43`) are skipped by perf but are not in the ABI.
      blank_reported_ = true;
      lint(DiagId::format_whitespace, token_.gap_offset, token_.offset - token_.gap_offset,
           "whitespace inside a format term; perf skips it but the ABI has none");
    }
  }

  void stray(const StrayRun& run) {
    lint(DiagId::format_stray_text, run.offset, run.length,
         fmt::format("perf skips '{}' here; it is not part of the format grammar",
                     parser_detail::escape_excerpt(text_.substr(run.offset, run.length), 40)));
  }

  void lint(DiagId id, std::size_t offset, std::size_t length, std::string message) {
    lints_.push_back(
        make_diagnostic(Severity::warning, id, file_, text_, offset, length, std::move(message)));
  }

  Diagnostic error(DiagId id, std::size_t offset, std::size_t length, std::string message) const {
    return make_diagnostic(Severity::error, id, file_, text_, offset, length, std::move(message));
  }

  // An error about the current token; at the end of the file it points just after the last token.
  Diagnostic error_here(std::string message) const {
    if (token_.kind == TokenKind::end)
      return error(DiagId::format_syntax, previous_end_, 0, std::move(message));
    if (token_.kind == TokenKind::overflow) return overflow_error();
    if (token_.kind == TokenKind::hex) return hex_error();
    return error(DiagId::format_syntax, token_.offset, token_.length, std::move(message));
  }

  Diagnostic overflow_error() const {
    Diagnostic diagnostic = error(DiagId::format_number_overflow, token_.offset, token_.length,
                                  "number does not fit in 64 bits");
    diagnostic.hint = "perf's format lexer rejects it and the whole PMU fails to load";
    return diagnostic;
  }

  Diagnostic hex_error() const {
    Diagnostic diagnostic = error(DiagId::format_hex_number, token_.offset, token_.length,
                                  "bit numbers in format files are decimal");
    diagnostic.hint = "perf reads '0x' as '0', a skipped 'x' and a second number, and fails";
    if (token_.value < kBitsPerWord * 1024) {
      diagnostic.fixit = FixIt{diagnostic.range, std::to_string(token_.value)};
    }
    return diagnostic;
  }

  Diagnostic empty_file_error() const {
    for (char c : text_) {
      if (!FormatLexer::is_blank(c)) {
        return error(DiagId::format_syntax, 0, text_.size(),
                     "no 'config' term found; expected 'config[N]:bits'");
      }
    }
    return error(DiagId::format_empty, 0, 0, "format file is empty; expected 'config[N]:bits'");
  }

  // The token should be `config`. Uppercase `CONFIG` is skipped by perf, so look behind for it.
  Diagnostic missing_keyword_error() const {
    std::size_t end = token_.kind == TokenKind::end ? text_.size() : token_.offset;
    while (end > 0 && FormatLexer::is_blank(text_[end - 1])) --end;
    if (end >= 6 && iequals_config(text_.substr(end - 6, 6))) {
      Diagnostic diagnostic =
          error(DiagId::format_syntax, end - 6, 6, "the keyword 'config' must be lowercase");
      diagnostic.hint = "perf skips the letters and finds no 'config' term";
      diagnostic.fixit = FixIt{diagnostic.range, "config"};
      return diagnostic;
    }
    return error_here(fmt::format("expected 'config' before {}", describe(token_)));
  }

  std::optional<Diagnostic> parse_term(unsigned term_index) {
    if (token_.kind != TokenKind::config) return missing_keyword_error();
    const std::size_t term_start = token_.offset;
    in_term_ = true;
    advance();
    unsigned word = 0;
    if (token_.kind == TokenKind::number) {
      word = saturate32(token_.value);
      check_word_spelling(term_start, word);
      advance();
    } else if (token_.kind == TokenKind::overflow || token_.kind == TokenKind::hex) {
      return error_here("");
    }
    const std::string word_name = config_word_name(word);
    if (token_.kind != TokenKind::colon) {
      Diagnostic diagnostic =
          error_here(fmt::format("expected ':' after '{}', found {}", word_name, describe(token_)));
      if (diagnostic.code == DiagId::format_syntax) {
        const Diagnostic at = error(DiagId::format_syntax, previous_end_, 0, "");
        diagnostic.fixit = FixIt{at.range, ":"};
      }
      return diagnostic;
    }
    advance();
    std::uint64_t mask = 0;
    SmallVector<BitRange, 4> ranges;
    for (;;) {
      if (token_.kind != TokenKind::number) {
        return error_here(fmt::format("expected a bit number after '{}', found {}",
                                      text_[previous_end_ - 1], describe(token_)));
      }
      auto item = parse_item();
      if (!item) return std::move(item).error();
      const BitRange range = *item;
      const std::uint64_t bits = check_item(range, mask);
      mask |= bits;
      ranges.push_back(range);
      if (token_.kind != TokenKind::comma) break;
      const std::size_t comma = token_.offset;
      advance();
      if (token_.kind == TokenKind::end) {
        Diagnostic diagnostic =
            error(DiagId::format_syntax, comma, 1, "expected a bit number after ','");
        diagnostic.fixit = FixIt{diagnostic.range, ""};
        return diagnostic;
      }
    }
    in_term_ = false;
    if (auto problem = check_term_end()) return problem;
    const std::size_t term_end = previous_end_;
    if (term_index == 0 || which_ == FormatTerm::last) {
      spec_.word = word;
      spec_.mask = mask;
      spec_.ranges = std::move(ranges);
    }
    if (term_index > 0) {
      lint(DiagId::format_multiple_terms, term_start, term_end - term_start,
           "more than one term in a format file; perf 6.1 uses the first, newer perf the last");
    }
    if (word >= kConfigWords) {
      lint(DiagId::format_unsupported_word, term_start, term_end - term_start,
           fmt::format("perf_event_attr has no '{}'; perf warns and cannot use this field",
                       word_name));
    }
    return std::nullopt;
  }

  // After a term: another `config` term or the end. Anything else is a syntax error in perf.
  std::optional<Diagnostic> check_term_end() {
    if (token_.kind == TokenKind::end || token_.kind == TokenKind::config) return std::nullopt;
    if (token_.kind == TokenKind::number) {
      Diagnostic diagnostic = error(DiagId::format_syntax, token_.offset, token_.length,
                                    "expected ',' or '-' between bit numbers");
      const Diagnostic at = error(DiagId::format_syntax, previous_end_, 0, "");
      diagnostic.fixit = FixIt{at.range, ","};
      return diagnostic;
    }
    return error_here(fmt::format("unexpected {} after the bit list", describe(token_)));
  }

  Expected<BitRange> parse_item() {
    BitRange range;
    const std::size_t start = token_.offset;
    const std::uint64_t first = token_.value;
    std::uint64_t last = first;
    advance();
    if (token_.kind == TokenKind::dash) {
      advance();
      if (token_.kind != TokenKind::number) {
        return unexpected(
            error_here(fmt::format("expected a bit number after '-', found {}", describe(token_))));
      } else {
        last = token_.value;
        range.is_range = true;
        advance();
      }
    }
    range.first = saturate32(first);
    range.last = saturate32(last);
    range.offset = saturate32(start);
    range.length = saturate32(previous_end_ - start);
    item_first_ = first;
    item_last_ = last;
    return range;
  }

  // Lints for one item; returns the bits it adds.
  std::uint64_t check_item(const BitRange& range, std::uint64_t mask_so_far) {
    const std::uint64_t first = item_first_;
    const std::uint64_t last = item_last_;
    const std::string_view written = text_.substr(range.offset, range.length);
    if (range.is_range && last == 0 && first != 0) {
      lint(DiagId::format_zero_end_range, range.offset, range.length,
           fmt::format("'{}' means bit {} only: perf reads an end of 0 as a single bit", written,
                       first));
    } else if (range.is_range && first > last) {
      Diagnostic lint_diagnostic = make_diagnostic(
          Severity::warning, DiagId::format_reversed_range, file_, text_, range.offset,
          range.length,
          fmt::format("range '{}' is reversed; perf reads it as no bits at all", written));
      lint_diagnostic.fixit = FixIt{lint_diagnostic.range, fmt::format("{}-{}", last, first)};
      lints_.push_back(std::move(lint_diagnostic));
      return 0;
    }
    const std::uint64_t effective_last = (range.is_range && last != 0) ? last : first;
    if (effective_last >= kBitsPerWord) {
      lint(DiagId::format_bit_out_of_range, range.offset, range.length,
           first >= kBitsPerWord
               ? fmt::format("bit {} is beyond the 64-bit word; perf ignores it", first)
               : fmt::format("bits {}-{} are beyond the 64-bit word; perf ignores them",
                             kBitsPerWord, effective_last));
    }
    const std::uint64_t bits = item_mask(first, last, range.is_range);
    if ((bits & mask_so_far) != 0) {
      lint(DiagId::format_overlap, range.offset, range.length,
           fmt::format("'{}' overlaps bits listed earlier in this term", written));
    }
    return bits;
  }

  // `config0` / `config01` are read as config / config1 but are not the ABI's spelling.
  void check_word_spelling(std::size_t term_start, unsigned word) {
    const std::string canonical = config_word_name(word);
    const std::size_t length = token_.offset + token_.length - term_start;
    if (text_.substr(term_start, length) == canonical) return;
    if (token_.blank_in_gap) return;  // `config 1`: reported as whitespace
    Diagnostic diagnostic = make_diagnostic(
        Severity::warning, DiagId::format_noncanonical_word, file_, text_, term_start, length,
        fmt::format("'{}' is read as '{}'",
                    parser_detail::escape_excerpt(text_.substr(term_start, length), 40),
                    canonical));
    diagnostic.fixit = FixIt{diagnostic.range, canonical};
    lints_.push_back(std::move(diagnostic));
  }

  std::string_view text_;
  std::string_view file_;
  FormatTerm which_;
  FormatLexer lexer_;
  Token token_;
  std::size_t previous_end_ = 0;
  std::uint64_t item_first_ = 0;
  std::uint64_t item_last_ = 0;
  bool in_term_ = false;
  bool blank_reported_ = false;
  FormatSpec spec_;
  std::vector<Diagnostic> lints_;
};

}  // namespace

Expected<FormatSpec> parse_format(std::string_view text, std::string_view file, FormatTerm which) {
  if (text.size() > std::numeric_limits<std::uint32_t>::max()) {
    return unexpected(make_diagnostic(Severity::error, DiagId::format_syntax, file, {}, 0, 0,
                                      "format file is larger than 4 GiB"));
  }
  return FormatParser(text, file, which).parse();
}

PMUCAT_END_NAMESPACE
