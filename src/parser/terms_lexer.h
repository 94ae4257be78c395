// Tokens of the event-term grammar, split the way perf's parse-events lexer splits them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "pmucat/terms.h"

namespace pmucat::terms_detail {

enum class TokenKind : std::uint8_t {
  name,    // [a-zA-Z_*?][a-zA-Z0-9_*?.:-]*
  number,  // [0-9]+ or 0x[0-9a-fA-F]+
  comma,
  equals,
  quoted,       // '...' or "..." (command line only); `text` excludes the quotes
  driver_cfg,   // @name[=value] (command line only); `text` is the name, `value_text` the value
  stray_token,  // a byte perf lexes as a token the term grammar has no place for: - : { } [ ] /
  end,
  bad,  // a lexical error: see `problem`
};

enum class LexProblem : std::uint8_t {
  none,
  uppercase_hex_prefix,  // 0X...
  hex_without_digits,    // 0x followed by no hex digit
  overflow,              // more than 64 bits
  junk_after_number,     // 0x3cg, 12ab
  unterminated_quote,
  empty_driver_cfg,  // '@' not followed by a name
};

struct Token {
  TokenKind kind = TokenKind::end;
  LexProblem problem = LexProblem::none;
  std::size_t offset = 0;
  std::size_t length = 0;
  std::uint64_t value = 0;
  NumberStyle style = NumberStyle::none;
  std::string_view text;           // name, quoted content, driver config name
  std::string_view value_text;     // driver config value (after '=')
  std::size_t problem_offset = 0;  // for `bad`: the byte the problem is at
};

// A run of skipped bytes.
struct Span {
  std::size_t offset = 0;
  std::size_t length = 0;
};

inline bool is_blank(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}
inline bool is_digit(char c) {
  return c >= '0' && c <= '9';
}
inline bool is_alpha(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
inline bool is_hex_digit(char c) {
  return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}
inline bool is_name_start(char c) {
  return is_alpha(c) || c == '_' || c == '*' || c == '?';
}
inline bool is_name_char(char c) {
  return is_name_start(c) || is_digit(c) || c == '.' || c == ':' || c == '-';
}
inline bool is_driver_cfg_char(char c) {
  return is_alpha(c) || is_digit(c) || c == '_' || c == '.';
}
inline bool is_driver_value_char(char c) {
  return is_alpha(c) || is_digit(c) || c == '_' || c == '*' || c == '?' || c == '.' || c == ':';
}

// True when `name` lexes as one NAME token (so it can be printed without quotes).
inline bool is_plain_name(std::string_view name) {
  if (name.empty() || !is_name_start(name.front())) return false;
  for (char c : name) {
    if (!is_name_char(c)) return false;
  }
  return true;
}

class TermsLexer {
 public:
  explicit TermsLexer(std::string_view text) : text_(text) {}

  Token next();

  // Runs of bytes perf's lexer drops silently (`+`, `;`, `.` between tokens, non-ASCII, NUL).
  const std::vector<Span>& stray_runs() const { return stray_runs_; }
  // The first whitespace run other than a single '\n' that ends the text (0 length if none).
  Span first_unusual_blank() const { return first_unusual_blank_; }

 private:
  bool is_token_start(char c) const;
  void skip();
  void lex_number(Token& token);
  void lex_name(Token& token);
  void lex_quoted(Token& token);
  void lex_driver_cfg(Token& token);

  std::string_view text_;
  std::size_t pos_ = 0;
  std::vector<Span> stray_runs_;
  Span first_unusual_blank_;
};

}  // namespace pmucat::terms_detail
