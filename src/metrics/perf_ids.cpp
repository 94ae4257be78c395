#include "perf_ids.h"

#include <fmt/format.h>

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <string>
#include <utility>

#include "pmucat/diagnostic_ids.h"

namespace pmucat::metrics_detail {

namespace {

std::size_t key_hash(std::string_view key) {
  std::size_t hash = 0;
  for (char c : key) {
    hash *= 31;
    // perf adds the (signed on x86) char itself.
    hash += static_cast<std::size_t>(static_cast<long>(static_cast<signed char>(c)));
  }
  return hash;
}

constexpr unsigned kMinBits = 2;

}  // namespace

std::size_t PerfIdMap::bucket_of(std::string_view key, unsigned bits) const {
  if (bits == 0) return 0;
  const std::uint64_t h = static_cast<std::uint64_t>(key_hash(key)) * 11400714819323198485ULL;
  return static_cast<std::size_t>(h >> (64U - bits));
}

bool PerfIdMap::contains(std::string_view key) const {
  if (buckets_.empty()) return false;
  for (const auto& k : buckets_[bucket_of(key, bits_)]) {
    if (k == key) return true;
  }
  return false;
}

void PerfIdMap::grow() {
  unsigned bits = bits_ + 1;
  if (bits < kMinBits) bits = kMinBits;
  std::vector<std::vector<std::string>> fresh(std::size_t{1} << bits);
  for (auto& bucket : buckets_) {
    for (auto& key : bucket) {
      auto& target = fresh[bucket_of(key, bits)];
      target.insert(target.begin(), std::move(key));
    }
  }
  buckets_ = std::move(fresh);
  bits_ = bits;
}

void PerfIdMap::insert(std::string_view key) {
  if (contains(key)) return;
  const std::size_t cap = buckets_.size();
  if (cap == 0 || (size_ + 1) * 4 / 3 > cap) grow();
  auto& bucket = buckets_[bucket_of(key, bits_)];
  bucket.insert(bucket.begin(), std::string(key));
  ++size_;
}

bool PerfIdMap::erase(std::string_view key) {
  if (buckets_.empty()) return false;
  auto& bucket = buckets_[bucket_of(key, bits_)];
  for (auto it = bucket.begin(); it != bucket.end(); ++it) {
    if (*it == key) {
      bucket.erase(it);
      --size_;
      return true;
    }
  }
  return false;
}

std::vector<std::string> PerfIdMap::keys() const {
  std::vector<std::string> out;
  out.reserve(size_);
  for_each([&](const std::string& k) { out.push_back(k); });
  return out;
}

std::optional<PerfIdMap> ids_union(std::optional<PerfIdMap> a, std::optional<PerfIdMap> b) {
  if (!a) return b;
  if (!b) return a;
  if (a->size() < b->size()) std::swap(a, b);
  b->for_each([&](const std::string& k) { a->insert(k); });
  return a;
}

namespace {

enum class Tok : std::uint8_t {
  end,
  number,
  literal,
  id,
  d_ratio,
  max,
  min,
  if_,
  else_,
  source_count,
  punct,  // one of | ^ & < > - + * / % ( ) ,
  error,
};

struct Token {
  Tok kind = Tok::end;
  char punct = 0;
  double value = 0;
  std::string text;
  std::size_t offset = 0;
  std::size_t length = 0;
};

bool is_sym_char(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
         c == '.' || c == ':' || c == '@' || c == '?';
}
bool is_digit(char c) {
  return c >= '0' && c <= '9';
}
bool is_literal_char(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
         c == '.' || c == '-';
}

bool iequal(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    auto lower = [](char c) {
      return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
    };
    if (lower(a[i]) != lower(b[i])) return false;
  }
  return true;
}

// expr__get_literal's names: which compare exactly and which case-insensitively.
std::optional<double> literal_value(std::string_view text, const MetricLiterals& lit, bool& known) {
  known = true;
  if (text == "#num_cpus") return lit.num_cpus;
  if (iequal(text, "#system_tsc_freq")) return lit.system_tsc_freq;
  if (iequal(text, "#smt_on")) return lit.smt_on;
  if (text == "#core_wide") return lit.core_wide;
  if (text == "#num_packages") return lit.num_packages;
  if (text == "#num_dies") return lit.num_dies;
  if (text == "#num_cores") return lit.num_cores;
  known = false;
  return std::nullopt;
}

// Length of the longest match of expr.l's `number` at `s`, 0 when none.
std::size_t number_length(std::string_view s) {
  std::size_t a = 0;
  while (a < s.size() && is_digit(s[a])) ++a;
  std::size_t mantissa = a;
  if (a < s.size() && s[a] == '.') {
    std::size_t b = 0;
    while (a + 1 + b < s.size() && is_digit(s[a + 1 + b])) ++b;
    if (a > 0 || b > 0) mantissa = a + 1 + b;
  }
  if (mantissa == 0) return 0;
  std::size_t i = mantissa;
  if (i < s.size() && s[i] == 'e') {
    std::size_t j = i + 1;
    if (j < s.size() && s[j] == '-') ++j;
    std::size_t digits = 0;
    while (j + digits < s.size() && is_digit(s[j + digits])) ++digits;
    if (digits > 0) return j + digits;
  }
  return mantissa;
}

std::size_t symbol_length(std::string_view s) {
  std::size_t i = 0;
  while (i < s.size()) {
    if (s[i] == '\\' && i + 1 < s.size() &&
        (s[i + 1] == '-' || s[i + 1] == ',' || s[i + 1] == '=')) {
      i += 2;
    } else if (is_sym_char(s[i])) {
      ++i;
    } else {
      break;
    }
  }
  return i;
}

class Lexer {
 public:
  Lexer(std::string_view text, int runtime, const MetricLiterals& literals)
      : text_(text), runtime_(runtime), literals_(literals) {}

  Token next() {
    for (;;) {
      if (pos_ >= text_.size()) return Token{Tok::end, 0, 0, {}, pos_, 0};
      const std::string_view rest = text_.substr(pos_);
      struct Keyword {
        std::string_view word;
        Tok kind;
      };
      static constexpr Keyword kKeywords[] = {
          {"d_ratio", Tok::d_ratio}, {"max", Tok::max},    {"min", Tok::min},
          {"if", Tok::if_},          {"else", Tok::else_}, {"source_count", Tok::source_count}};
      // flex: the longest match wins, the earlier rule on a tie.
      std::size_t best = 0;
      int rule = -1;  // 0..5 keywords, 6 literal, 7 number, 8 symbol
      for (int k = 0; k < 6; ++k) {
        const auto& kw = kKeywords[k];
        if (rest.substr(0, kw.word.size()) == kw.word && kw.word.size() > best) {
          best = kw.word.size();
          rule = k;
        }
      }
      if (rest[0] == '#') {
        std::size_t n = 1;
        while (n < rest.size() && is_literal_char(rest[n])) ++n;
        if (n > 1 && n > best) {
          best = n;
          rule = 6;
        }
      }
      if (const std::size_t n = number_length(rest); n > best) {
        best = n;
        rule = 7;
      }
      if (const std::size_t n = symbol_length(rest); n > best) {
        best = n;
        rule = 8;
      }
      const std::size_t start = pos_;
      if (rule < 0) {
        const char c = rest[0];
        ++pos_;
        if (c == '|' || c == '^' || c == '&' || c == '<' || c == '>' || c == '-' || c == '+' ||
            c == '*' || c == '/' || c == '%' || c == '(' || c == ')' || c == ',') {
          return Token{Tok::punct, c, 0, {}, start, 1};
        }
        continue;  // flex's `.` rule (and its default rule for a newline): ignored
      }
      pos_ += best;
      const std::string_view word = rest.substr(0, best);
      if (rule < 6) return Token{kKeywords[rule].kind, 0, 0, std::string(word), start, best};
      if (rule == 6) {
        bool known = false;
        const auto value = literal_value(word, literals_, known);
        Token t{Tok::error, 0, 0, std::string(word), start, best};
        if (!known) {
          t.text = fmt::format("unrecognized literal '{}'", word);
        } else if (!value || std::isnan(*value)) {
          t.text = fmt::format(
              "the value of literal '{}' is not known (pass it as a literal option)", word);
        } else {
          t.kind = Tok::literal;
          t.value = *value;
        }
        return t;
      }
      if (rule == 7) {
        const std::string copy(word);
        errno = 0;
        const double v = std::strtod(copy.c_str(), nullptr);
        if (errno != 0) {
          return Token{Tok::error, 0,   0, fmt::format("number '{}' out of range", word),
                       start,      best};
        }
        return Token{Tok::number, 0, v, copy, start, best};
      }
      // symbol: `\` escapes dropped, `?` replaced by the runtime parameter.
      std::string id;
      for (std::size_t i = 0; i < word.size(); ++i) {
        if (word[i] == '\\') {
          ++i;
          id.push_back(word[i]);
        } else if (word[i] == '?') {
          id += fmt::format("{}", runtime_);
        } else {
          id.push_back(word[i]);
        }
      }
      return Token{Tok::id, 0, 0, std::move(id), start, best};
    }
  }

 private:
  std::string_view text_;
  std::size_t pos_ = 0;
  int runtime_;
  const MetricLiterals& literals_;
};

// A value while searching ids (expr.y's `struct ids`): a constant, or NaN (BOTTOM) with the ids
// it needs.
struct Ids {
  double val = NAN;
  std::optional<PerfIdMap> ids;
};

bool is_const(double v) {
  return std::isfinite(v);
}
bool is_zero(double v) {
  return std::fpclassify(v) == FP_ZERO;
}

Ids union_expr(Ids a, Ids b) {
  return Ids{NAN, ids_union(std::move(a.ids), std::move(b.ids))};
}

struct ParseError {
  std::size_t offset;
  std::size_t length;
  std::string message;
};

class Parser {
 public:
  Parser(std::string_view text, int runtime, const MetricLiterals& literals)
      : lexer_(text, runtime, literals) {
    advance();
  }

  std::optional<ParseError> error;

  std::optional<Ids> parse_all() {
    auto v = if_expr();
    if (!v) return std::nullopt;
    if (tok_.kind != Tok::end) return fail("syntax error: unexpected token");
    return v;
  }

 private:
  void advance() { tok_ = lexer_.next(); }
  bool at(char c) const { return tok_.kind == Tok::punct && tok_.punct == c; }
  std::nullopt_t fail(std::string message) {
    if (!error) {
      if (tok_.kind == Tok::error) {
        error = ParseError{tok_.offset, tok_.length, tok_.text};
      } else {
        error = ParseError{tok_.offset, tok_.length, std::move(message)};
      }
    }
    return std::nullopt;
  }
  bool expect(char c) {
    if (!at(c)) {
      fail(fmt::format("syntax error: expected '{}'", c));
      return false;
    }
    advance();
    return true;
  }

  std::optional<Ids> if_expr() {
    auto lhs = expr(0);
    if (!lhs) return std::nullopt;
    if (tok_.kind != Tok::if_) return lhs;
    advance();
    auto cond = expr(0);
    if (!cond) return std::nullopt;
    if (tok_.kind != Tok::else_) return fail("syntax error: expected 'else'");
    advance();
    auto rhs = if_expr();
    if (!rhs) return std::nullopt;
    if (is_zero(cond->val)) return rhs;
    if (is_const(cond->val)) return lhs;
    if (lhs->val == rhs->val) return Ids{lhs->val, std::nullopt};
    return union_expr(std::move(*lhs), union_expr(std::move(*cond), std::move(*rhs)));
  }

  static int precedence(char c) {
    switch (c) {
      case '|':
        return 1;
      case '^':
        return 2;
      case '&':
        return 3;
      case '<':
      case '>':
        return 4;
      case '+':
      case '-':
        return 5;
      case '*':
      case '/':
      case '%':
        return 6;
      default:
        return 0;
    }
  }

  std::optional<Ids> binary(char op, Ids l, Ids r, std::size_t op_offset) {
    const bool both = is_const(l.val) && is_const(r.val);
    if (op == '/' || op == '%') {
      if (is_zero(r.val)) {
        if (!error) error = ParseError{op_offset, 1, "division by zero"};
        return std::nullopt;
      }
    }
    if (!both) return union_expr(std::move(l), std::move(r));
    const double a = l.val;
    const double b = r.val;
    double v = 0;
    switch (op) {
      case '|':
        v = static_cast<double>(static_cast<long>(a) | static_cast<long>(b));
        break;
      case '&':
        v = static_cast<double>(static_cast<long>(a) & static_cast<long>(b));
        break;
      case '^':
        v = static_cast<double>(static_cast<long>(a) ^ static_cast<long>(b));
        break;
      case '<':
        v = a < b ? 1 : 0;
        break;
      case '>':
        v = a > b ? 1 : 0;
        break;
      case '+':
        v = a + b;
        break;
      case '-':
        v = a - b;
        break;
      case '*':
        v = a * b;
        break;
      case '/':
        v = a / b;
        break;
      case '%':
        v = static_cast<double>(static_cast<long>(a) % static_cast<long>(b));
        break;
      default:
        break;
    }
    return Ids{v, std::nullopt};
  }

  std::optional<Ids> expr(int min_prec) {
    auto lhs = unary();
    if (!lhs) return std::nullopt;
    for (;;) {
      if (tok_.kind != Tok::punct) return lhs;
      const char op = tok_.punct;
      const int prec = precedence(op);
      if (prec == 0 || prec <= min_prec) return lhs;
      const std::size_t op_offset = tok_.offset;
      advance();
      auto rhs = expr(prec);
      if (!rhs) return std::nullopt;
      lhs = binary(op, std::move(*lhs), std::move(*rhs), op_offset);
      if (!lhs) return std::nullopt;
    }
  }

  std::optional<Ids> unary() {
    if (at('-')) {
      advance();
      auto v = unary();
      if (!v) return std::nullopt;
      v->val = -v->val;
      return v;
    }
    return primary();
  }

  std::optional<Ids> two_args(Tok kind) {
    advance();
    if (!expect('(')) return std::nullopt;
    auto a = expr(0);
    if (!a) return std::nullopt;
    if (!expect(',')) return std::nullopt;
    auto b = expr(0);
    if (!b) return std::nullopt;
    if (!expect(')')) return std::nullopt;
    if (kind == Tok::d_ratio) {
      if (is_zero(b->val)) return Ids{0.0, std::nullopt};
      if (is_const(a->val) && is_const(b->val)) return Ids{a->val / b->val, std::nullopt};
    }
    return union_expr(std::move(*a), std::move(*b));
  }

  static Ids id_set(std::string id) {
    Ids r;
    r.ids.emplace();
    r.ids->insert(id);
    return r;
  }

  std::optional<Ids> primary() {
    switch (tok_.kind) {
      case Tok::number:
      case Tok::literal: {
        Ids r{tok_.value, std::nullopt};
        advance();
        return r;
      }
      case Tok::id: {
        Ids r = id_set(tok_.text);
        advance();
        return r;
      }
      case Tok::source_count: {
        advance();
        if (!expect('(')) return std::nullopt;
        if (tok_.kind != Tok::id) return fail("syntax error: expected an event name");
        Ids r = id_set(tok_.text);
        advance();
        if (!expect(')')) return std::nullopt;
        return r;
      }
      case Tok::d_ratio:
      case Tok::min:
      case Tok::max:
        return two_args(tok_.kind);
      case Tok::punct:
        if (tok_.punct == '(') {
          advance();
          auto v = if_expr();
          if (!v) return std::nullopt;
          if (!expect(')')) return std::nullopt;
          return v;
        }
        return fail("syntax error: unexpected token");
      case Tok::end:
        return fail("syntax error: unexpected end of expression");
      default:
        return fail("syntax error: unexpected token");
    }
  }

  Lexer lexer_;
  Token tok_;
};

}  // namespace

std::optional<Diagnostic> find_ids(std::string_view expr, int runtime,
                                   const MetricLiterals& literals, std::string_view file,
                                   PerfIdMap& ids) {
  Parser parser(expr, runtime, literals);
  auto found = parser.parse_all();
  if (!found) {
    const ParseError& e = *parser.error;
    return make_diagnostic(Severity::error, to_string(DiagId::metric_expr_invalid), file, expr,
                           e.offset, e.length, e.message);
  }
  // start: ctx->ids = ids__union(found, ctx->ids)
  auto merged = ids_union(std::move(found->ids), std::optional<PerfIdMap>(std::move(ids)));
  ids = std::move(*merged);
  return std::nullopt;
}

}  // namespace pmucat::metrics_detail
