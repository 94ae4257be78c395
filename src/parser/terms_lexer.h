// Tokens of the event-term grammar, split the way perf's parse-events lexer splits them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "parser/char_class.h"
#include "pmucat/terms.h"

PMUCAT_BEGIN_NAMESPACE
namespace terms_detail {

enum class TokenKind : std::uint8_t {
  name,    // [a-zA-Z_*?][a-zA-Z0-9_*?.:-]*, or perf's name rule (name_rule_end)
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

class TermsLexer {
 public:
  explicit TermsLexer(std::string_view text, TermLexing lexing = {})
      : text_(text), lexing_(lexing) {}

  Token next();

  // Runs of bytes perf's lexer drops silently (`+`, `;`, `.` between tokens, non-ASCII, NUL).
  const std::vector<Span>& stray_runs() const { return stray_runs_; }
  // The first whitespace run other than a single '\n' that ends the text (0 length if none).
  Span first_unusual_blank() const { return first_unusual_blank_; }

 private:
  bool is_token_start(char c) const;
  void skip();
  void lex_number(Token& token);
  std::size_t name_rule_end(std::size_t from) const;
  std::size_t number_rule_length(std::size_t from) const;
  void lex_name(Token& token);
  void take_name(Token& token, std::size_t end);
  void lex_quoted(Token& token);
  void lex_driver_cfg(Token& token);

  std::string_view text_;
  TermLexing lexing_;
  std::size_t pos_ = 0;
  std::vector<Span> stray_runs_;
  Span first_unusual_blank_;
};

}  // namespace terms_detail
PMUCAT_END_NAMESPACE
