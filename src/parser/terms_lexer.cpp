// The event-term lexer: perf's token classes, with dropped bytes recorded for lints.
#include "parser/terms_lexer.h"

#include <algorithm>

#include "pmucat/version.h"

PMUCAT_BEGIN_NAMESPACE
namespace terms_detail {

using char_class::is_blank;
using char_class::is_digit;
using char_class::is_driver_cfg_char;
using char_class::is_driver_value_char;
using char_class::is_hex_digit;
using char_class::is_name_char;
using char_class::is_name_start;
using char_class::is_pmu_name_char;

bool TermsLexer::is_token_start(char c) const {
  if (is_digit(c) || is_name_start(c)) return true;
  switch (c) {
    case ',':
    case '=':
    case '\'':
    case '"':
    case '@':
    // perf's lexer returns these as tokens that no term rule accepts: they are parse errors,
    // unlike `+`, `.` or `;`, which it drops.
    case '-':
    case ':':
    case '{':
    case '}':
    case '[':
    case ']':
    case '/':
      return true;
    default:
      return false;
  }
}

void TermsLexer::skip() {
  while (pos_ < text_.size() && !is_token_start(text_[pos_])) {
    const std::size_t start = pos_;
    const bool blank = is_blank(text_[pos_]);
    while (pos_ < text_.size() && !is_token_start(text_[pos_]) && is_blank(text_[pos_]) == blank) {
      ++pos_;
    }
    const Span run{start, pos_ - start};
    if (!blank) {
      stray_runs_.push_back(run);
      continue;
    }
    const bool final_newline = run.length == 1 && pos_ == text_.size() && text_[start] == '\n';
    if (!final_newline && first_unusual_blank_.length == 0) first_unusual_blank_ = run;
  }
}

Token TermsLexer::next() {
  skip();
  Token token;
  token.offset = pos_;
  if (pos_ >= text_.size()) return token;
  const char c = text_[pos_];
  if (is_digit(c)) {
    // flex keeps the longer match: perf 6.12's name rule reads `0-1` or `12abc` as one name,
    // and a number where the name is no longer (`12`, `0x3c`).
    const std::size_t name_end = lexing_.digit_led_names ? name_rule_end(pos_) : pos_;
    if (name_end - pos_ > number_rule_length(pos_)) {
      take_name(token, name_end);
    } else {
      lex_number(token);
    }
  } else if (is_name_start(c)) {
    lex_name(token);
  } else if (c == '[' || c == ']') {
    take_name(token, name_rule_end(pos_));
  } else if (c == ',' || c == '=') {
    token.kind = c == ',' ? TokenKind::comma : TokenKind::equals;
    token.length = 1;
    ++pos_;
  } else if (c == '\'' || c == '"' || c == '@') {
    if (c == '@') {
      lex_driver_cfg(token);
    } else {
      lex_quoted(token);
    }
  } else {
    token.kind = TokenKind::stray_token;
    token.length = 1;
    ++pos_;
  }
  return token;
}

void TermsLexer::lex_number(Token& token) {
  const std::size_t start = pos_;
  const bool has_prefix = text_[pos_] == '0' && pos_ + 1 < text_.size() &&
                          (text_[pos_ + 1] == 'x' || text_[pos_ + 1] == 'X');
  bool overflow = false;
  std::uint64_t value = 0;
  if (has_prefix) {
    const bool upper_x = text_[pos_ + 1] == 'X';
    pos_ += 2;
    if (pos_ >= text_.size() || !is_hex_digit(text_[pos_])) {
      token.kind = TokenKind::bad;
      token.problem = upper_x ? LexProblem::uppercase_hex_prefix : LexProblem::hex_without_digits;
      token.problem_offset = start;
      token.length = 2;
      return;
    }
    bool upper_digits = false;
    for (; pos_ < text_.size() && is_hex_digit(text_[pos_]); ++pos_) {
      const char d = text_[pos_];
      unsigned digit = 0;
      if (is_digit(d)) {
        digit = static_cast<unsigned>(d - '0');
      } else if (d >= 'a') {
        digit = static_cast<unsigned>(d - 'a' + 10);
      } else {
        digit = static_cast<unsigned>(d - 'A' + 10);
        upper_digits = true;
      }
      if ((value >> 60) != 0) overflow = true;
      value = (value << 4) | digit;
    }
    token.style = upper_digits ? NumberStyle::hex_upper_digits : NumberStyle::hex;
    if (upper_x) {
      token.kind = TokenKind::bad;
      token.problem = LexProblem::uppercase_hex_prefix;
      token.problem_offset = start;
      token.length = pos_ - start;
      token.value = value;
      return;
    }
  } else {
    for (; pos_ < text_.size() && is_digit(text_[pos_]); ++pos_) {
      const auto digit = static_cast<std::uint64_t>(text_[pos_] - '0');
      if (value > (UINT64_MAX - digit) / 10) overflow = true;
      value = value * 10 + digit;
    }
    token.style = NumberStyle::decimal;
  }
  token.kind = TokenKind::number;
  token.value = value;
  token.text = text_.substr(start, pos_ - start);
  if (overflow) {
    token.kind = TokenKind::bad;
    token.problem = LexProblem::overflow;
    token.problem_offset = start;
  }
  if (pos_ < text_.size() && is_name_start(text_[pos_]) && !overflow) {
    // `0x3cg`, `12ab`: perf lexes a number and then a name with no comma between them.
    token.kind = TokenKind::bad;
    token.problem = LexProblem::junk_after_number;
    token.problem_offset = pos_;
    while (pos_ < text_.size() && is_name_char(text_[pos_])) ++pos_;
  }
  token.length = pos_ - start;
}

// The end of perf's `name` rule matched from `from`, whose byte starts it: perf 6.1's
// [a-zA-Z_*?[\]][a-zA-Z0-9_*?.[\]!]*, which perf 6.12 lets start with a digit and hold '-', and
// perf 7.3's term_name also ':'.
std::size_t TermsLexer::name_rule_end(std::size_t from) const {
  std::size_t end = from + 1;
  for (; end < text_.size(); ++end) {
    const char c = text_[end];
    if (c == '-') {
      if (!lexing_.digit_led_names) break;
    } else if (c == ':') {
      if (!lexing_.bang_in_term_names) break;
    } else if (!is_pmu_name_char(c)) {
      break;
    }
  }
  return end;
}

// The length of perf's number match at `from` (a digit): `0x` and 1 to 16 hex digits, else the
// decimal digits (of `0X3c` the number rule takes only the `0`).
std::size_t TermsLexer::number_rule_length(std::size_t from) const {
  std::size_t end = from;
  if (text_.substr(from, 2) == "0x" && from + 2 < text_.size() && is_hex_digit(text_[from + 2])) {
    end = from + 2;
    while (end < text_.size() && end - from < 18 && is_hex_digit(text_[end])) ++end;
    return end - from;
  }
  while (end < text_.size() && is_digit(text_[end])) ++end;
  return end - from;
}

void TermsLexer::lex_name(Token& token) {
  std::size_t end = pos_;
  while (end < text_.size() &&
         (is_name_char(text_[end]) || (lexing_.bang_in_term_names && text_[end] == '!'))) {
    ++end;
  }
  // perf's lexer also tries its name rule inside terms and flex keeps the longer match:
  // `metric-id=topdown!1retiring` (perf escapes '-' in a metric-id as "!1") is one name, not
  // `topdown` followed by junk.
  take_name(token, std::max(end, name_rule_end(pos_)));
}

void TermsLexer::take_name(Token& token, std::size_t end) {
  const std::size_t start = pos_;
  pos_ = end;
  token.kind = TokenKind::name;
  token.length = pos_ - start;
  token.text = text_.substr(start, token.length);
}

void TermsLexer::lex_quoted(Token& token) {
  const std::size_t start = pos_;
  const char quote = text_[pos_];
  const std::size_t close = text_.find(quote, start + 1);
  if (close == std::string_view::npos) {
    token.kind = TokenKind::bad;
    token.problem = LexProblem::unterminated_quote;
    token.problem_offset = start;
    token.length = 1;
    pos_ = text_.size();
    return;
  }
  token.kind = TokenKind::quoted;
  token.text = text_.substr(start + 1, close - start - 1);
  token.length = close - start + 1;
  pos_ = close + 1;
}

void TermsLexer::lex_driver_cfg(Token& token) {
  const std::size_t start = pos_;
  ++pos_;
  const std::size_t name_start = pos_;
  while (pos_ < text_.size() && is_driver_cfg_char(text_[pos_])) ++pos_;
  if (pos_ == name_start) {
    token.kind = TokenKind::bad;
    token.problem = LexProblem::empty_driver_cfg;
    token.problem_offset = start;
    token.length = 1;
    return;
  }
  token.kind = TokenKind::driver_cfg;
  token.text = text_.substr(name_start, pos_ - name_start);
  if (pos_ + 1 < text_.size() && text_[pos_] == '=' && is_driver_value_char(text_[pos_ + 1])) {
    const std::size_t value_start = ++pos_;
    while (pos_ < text_.size() && is_driver_value_char(text_[pos_])) ++pos_;
    token.value_text = text_.substr(value_start, pos_ - value_start);
  }
  token.length = pos_ - start;
}

}  // namespace terms_detail
PMUCAT_END_NAMESPACE
