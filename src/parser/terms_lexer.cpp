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
    lex_number(token);
  } else if (is_name_start(c)) {
    lex_name(token);
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

void TermsLexer::lex_name(Token& token) {
  const std::size_t start = pos_;
  std::size_t end = start;
  while (end < text_.size() &&
         (is_name_char(text_[end]) || (bang_in_term_names_ && text_[end] == '!'))) {
    ++end;
  }
  // perf's lexer also tries its event-name rule, [a-zA-Z_*?][a-zA-Z0-9_*?.[\]!]*, inside terms
  // and flex keeps the longer match: `metric-id=topdown!1retiring` (perf escapes '-' in a
  // metric-id as "!1") is one name, not `topdown` followed by junk.
  std::size_t bang_end = start;
  while (bang_end < text_.size() && is_pmu_name_char(text_[bang_end]) && text_[bang_end] != '-') {
    ++bang_end;
  }
  pos_ = std::max(end, bang_end);
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
