// Tokens of the format-file grammar, split the way perf 6.1's format lexer splits them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "parser/char_class.h"
#include "pmucat/version.h"

PMUCAT_BEGIN_NAMESPACE
namespace format_detail {

enum class TokenKind : std::uint8_t {
  number,  // [0-9]+
  config,  // the keyword `config`
  colon,
  dash,
  comma,
  end,
  overflow,  // a number that does not fit 64 bits (perf's lexer fails on it)
  hex,       // `0x` + digits: perf lexes `0`, skips `x`, then a second number; always an error
};

struct Token {
  TokenKind kind = TokenKind::end;
  std::size_t offset = 0;
  std::size_t length = 0;
  std::uint64_t value = 0;
  std::size_t gap_offset = 0;  // where the skipped bytes before this token begin
  bool blank_in_gap = false;   // whitespace was among the bytes skipped before this token
};

// A run of bytes perf skips silently that are not whitespace (`xyz`, `garbage`, NUL, ...).
struct StrayRun {
  std::size_t offset = 0;
  std::size_t length = 0;
};

// Splits format text into tokens. Whitespace and every byte that is not part of a token are
// skipped; each skipped non-blank run is reported through `on_stray` so the parser can lint it.
class FormatLexer {
 public:
  explicit FormatLexer(std::string_view text) : text_(text) {}

  template <class OnStray>
  Token next(OnStray&& on_stray) {
    Token token;
    token.gap_offset = pos_;
    std::size_t stray_start = std::string_view::npos;
    while (pos_ < text_.size()) {
      const char c = text_[pos_];
      if (starts_token(pos_)) break;
      if (is_blank(c)) {
        token.blank_in_gap = true;
        if (stray_start != std::string_view::npos) {
          on_stray(StrayRun{stray_start, pos_ - stray_start});
          stray_start = std::string_view::npos;
        }
      } else {
        if (stray_start == std::string_view::npos) stray_start = pos_;
      }
      ++pos_;
    }
    if (stray_start != std::string_view::npos) on_stray(StrayRun{stray_start, pos_ - stray_start});
    token.offset = pos_;
    if (pos_ >= text_.size()) return token;
    lex_token(token);
    return token;
  }

  static constexpr bool is_blank(char c) { return char_class::is_blank(c); }
  static constexpr bool is_digit(char c) { return char_class::is_digit(c); }

 private:
  bool starts_token(std::size_t at) const {
    const char c = text_[at];
    return is_digit(c) || c == ':' || c == '-' || c == ',' || text_.substr(at, 6) == "config";
  }

  void lex_token(Token& token) {
    const char c = text_[pos_];
    token.length = 1;
    switch (c) {
      case ':':
        token.kind = TokenKind::colon;
        ++pos_;
        return;
      case '-':
        token.kind = TokenKind::dash;
        ++pos_;
        return;
      case ',':
        token.kind = TokenKind::comma;
        ++pos_;
        return;
      default:
        break;
    }
    if (!is_digit(c)) {
      token.kind = TokenKind::config;
      token.length = 6;
      pos_ += 6;
      return;
    }
    if (c == '0' && pos_ + 2 < text_.size() && (text_[pos_ + 1] == 'x' || text_[pos_ + 1] == 'X') &&
        is_digit(text_[pos_ + 2])) {
      lex_hex(token);
      return;
    }
    token.kind = TokenKind::number;
    std::uint64_t value = 0;
    bool overflow = false;
    const std::size_t start = pos_;
    for (; pos_ < text_.size() && is_digit(text_[pos_]); ++pos_) {
      const auto digit = static_cast<std::uint64_t>(text_[pos_] - '0');
      if (value > (UINT64_MAX - digit) / 10) overflow = true;
      value = value * 10 + digit;
    }
    token.length = pos_ - start;
    token.value = value;
    if (overflow) token.kind = TokenKind::overflow;
  }

  // `0x1f`: the value is kept (when it fits) so the error can suggest the decimal spelling.
  void lex_hex(Token& token) {
    const std::size_t start = pos_;
    pos_ += 2;
    std::uint64_t value = 0;
    bool overflow = false;
    for (; pos_ < text_.size(); ++pos_) {
      const char c = text_[pos_];
      unsigned digit = 0;
      if (is_digit(c)) {
        digit = static_cast<unsigned>(c - '0');
      } else if (c >= 'a' && c <= 'f') {
        digit = static_cast<unsigned>(c - 'a' + 10);
      } else if (c >= 'A' && c <= 'F') {
        digit = static_cast<unsigned>(c - 'A' + 10);
      } else {
        break;
      }
      if (value >> 60 != 0) overflow = true;
      value = (value << 4) | digit;
    }
    token.kind = TokenKind::hex;
    token.length = pos_ - start;
    token.value = overflow ? UINT64_MAX : value;
  }

  std::string_view text_;
  std::size_t pos_ = 0;
};

}  // namespace format_detail
PMUCAT_END_NAMESPACE
