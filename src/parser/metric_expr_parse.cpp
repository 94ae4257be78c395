// perf 6.1's metric expression language: the lexer (flex rules of util/expr.l restated as a
// longest-match scanner) and a parser with util/expr.y's precedences whose rules keep their
// state on the heap, so that no input can exhaust the machine's stack.
#include <fmt/format.h>

#include <array>
#include <cfloat>
#include <charconv>
#include <cmath>
#include <limits>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

#include "parser/char_class.h"
#include "pmucat/diagnostic_ids.h"
#include "pmucat/metric_expr.h"
#include "pmucat/suggest.h"

PMUCAT_BEGIN_NAMESPACE
namespace metric_expr {

namespace {

constexpr std::array<std::string_view, literal_count> literal_names = {
    "#num_cpus",  "#system_tsc_freq", "#smt_on",   "#core_wide", "#num_packages", "#num_dies",
    "#num_cores", "#num_cpus_online", "#has_pmem", "#slots",     "#target_cpu",
};

using char_class::ascii_iequal;

}  // namespace

std::string_view to_string(Literal literal) {
  return literal_names[static_cast<std::size_t>(literal)];
}

MetricDialect literal_since(Literal literal) {
  switch (literal) {
    case Literal::num_cpus_online:
    case Literal::has_pmem:
    case Literal::slots:
      return MetricDialect::of_6_12;
    case Literal::target_cpu:
      return MetricDialect::of_7_2;
    default:
      return MetricDialect::of_6_1;
  }
}

std::string_view dialect_name(MetricDialect rules) {
  switch (rules) {
    case MetricDialect::of_6_1:
      return "6.1";
    case MetricDialect::of_6_12:
      return "6.12";
    case MetricDialect::of_7_2:
      return "7.2";
  }
  return "";
}

std::optional<Literal> find_literal(std::string_view text) {
  return find_literal(text, MetricDialect::of_6_12);
}

std::optional<Literal> find_literal(std::string_view text, MetricDialect rules) {
  for (int i = 0; i < literal_count; ++i) {
    auto literal = static_cast<Literal>(i);
    // perf 7.3 looks a literal up among the tool PMU's events with strcasecmp.
    bool caseless = rules == MetricDialect::of_7_2 || literal == Literal::smt_on ||
                    literal == Literal::system_tsc_freq;
    if (caseless ? ascii_iequal(text, literal_names[static_cast<std::size_t>(i)])
                 : text == literal_names[static_cast<std::size_t>(i)]) {
      return literal;
    }
  }
  return std::nullopt;
}

std::string_view to_string(Op op) {
  switch (op) {
    case Op::add:
      return "+";
    case Op::sub:
      return "-";
    case Op::mul:
      return "*";
    case Op::div:
      return "/";
    case Op::mod:
      return "%";
    case Op::bit_or:
      return "|";
    case Op::bit_and:
      return "&";
    case Op::bit_xor:
      return "^";
    case Op::less:
      return "<";
    case Op::greater:
      return ">";
    case Op::min:
      return "min";
    case Op::max:
      return "max";
    case Op::d_ratio:
      return "d_ratio";
  }
  return "?";
}

int precedence(Op op) {
  switch (op) {
    case Op::bit_or:
      return 2;
    case Op::bit_xor:
      return 3;
    case Op::bit_and:
      return 4;
    case Op::less:
    case Op::greater:
      return 5;
    case Op::add:
    case Op::sub:
      return 6;
    case Op::mul:
    case Op::div:
    case Op::mod:
      return 7;
    case Op::min:
    case Op::max:
    case Op::d_ratio:
      return 0;
  }
  return 0;
}

std::string substitute_runtime(std::string_view name, int runtime) {
  std::string out;
  out.reserve(name.size());
  for (char c : name) {
    if (c == '?') {
      out += fmt::format("{}", runtime);
    } else {
      out += c;
    }
  }
  return out;
}

namespace {

enum class Tok : std::uint8_t {
  number,
  id,
  literal,
  kw_d_ratio,
  kw_max,
  kw_min,
  kw_if,
  kw_else,
  kw_source_count,
  kw_aggr_nr,
  kw_has_event,
  kw_strcmp_cpuid_str,
  bar,
  caret,
  amp,
  less,
  greater,
  minus,
  plus,
  star,
  slash,
  percent,
  lparen,
  rparen,
  comma,
  end,
  bad_number,
  bad_literal,
};

struct Token {
  Tok kind = Tok::end;
  std::uint32_t offset = 0;
  std::uint32_t length = 0;
  double number = 0;
  std::string name;  // id: unescaped; literal/bad tokens: the text
  Literal literal = Literal::num_cpus;
};

using char_class::is_alnum;
using char_class::is_digit;
// expr.l's `sym` class: [0-9a-zA-Z_\.:@?]
bool is_sym(char c) {
  return is_alnum(c) || c == '_' || c == '.' || c == ':' || c == '@' || c == '?';
}
// expr.l's `literal` tail: [0-9a-zA-Z_\.\-]
bool is_literal_char(char c) {
  return is_alnum(c) || c == '_' || c == '.' || c == '-';
}
bool is_escapable(char c) {
  return c == '-' || c == ',' || c == '=';
}

// Length of expr.l's `number` match at the start of `s`:
// ([0-9]+\.?[0-9]*|[0-9]*\.?[0-9]+)(e-?[0-9]+)?
std::size_t number_match(std::string_view s) {
  std::size_t i = 0;
  while (i < s.size() && is_digit(s[i])) ++i;
  std::size_t int_digits = i;
  if (i < s.size() && s[i] == '.') {
    std::size_t j = i + 1;
    while (j < s.size() && is_digit(s[j])) ++j;
    if (int_digits > 0 || j > i + 1) i = j;
  }
  if (i == 0) return 0;
  if (i < s.size() && s[i] == 'e') {
    std::size_t j = i + 1;
    if (j < s.size() && s[j] == '-') ++j;
    std::size_t k = j;
    while (k < s.size() && is_digit(s[k])) ++k;
    if (k > j) i = k;
  }
  return i;
}

// Length of expr.l's `symbol` match: ({spec}|{sym})+ with spec = \\[-,=].
std::size_t symbol_match(std::string_view s) {
  std::size_t i = 0;
  while (i < s.size()) {
    if (is_sym(s[i])) {
      ++i;
    } else if (s[i] == '\\' && i + 1 < s.size() && is_escapable(s[i + 1])) {
      i += 2;
    } else {
      break;
    }
  }
  return i;
}

struct Keyword {
  std::string_view text;
  Tok kind;
};
constexpr std::array<Keyword, 6> keywords = {{
    {"d_ratio", Tok::kw_d_ratio},
    {"max", Tok::kw_max},
    {"min", Tok::kw_min},
    {"if", Tok::kw_if},
    {"else", Tok::kw_else},
    {"source_count", Tok::kw_source_count},
}};

// strtod as perf calls it (a token of the `number` pattern), with its ERANGE as failure.
std::optional<double> to_double(std::string_view text) {
  double value = 0;
  auto [ptr, ec] =
      std::from_chars(text.data(), text.data() + text.size(), value, std::chars_format::general);
  if (ec != std::errc{} || ptr != text.data() + text.size()) return std::nullopt;
  if (std::isinf(value)) return std::nullopt;
  if (value != 0 && std::fabs(value) < DBL_MIN) return std::nullopt;  // glibc: ERANGE underflow
  if (value == 0) {
    // A mantissa with a non-zero digit that rounded to zero underflowed (glibc sets ERANGE).
    for (char c : text) {
      if (c == 'e') break;
      if (c >= '1' && c <= '9') return std::nullopt;
    }
  }
  return value;
}

// perf 6.12's lexer's additions.
constexpr std::array<Keyword, 2> keywords_612 = {{
    {"has_event", Tok::kw_has_event},
    {"strcmp_cpuid_str", Tok::kw_strcmp_cpuid_str},
}};

std::vector<Token> lex(std::string_view text, MetricDialect rules) {
  std::vector<Token> tokens;
  tokens.reserve(text.size() / 4 + 2);
  std::size_t i = 0;
  // perf scans a C string: a NUL ends the text.
  std::size_t end = text.find('\0');
  if (end == std::string_view::npos) end = text.size();
  while (i < end) {
    std::string_view rest = text.substr(i, end - i);
    char c = rest[0];
    Token token;
    token.offset = static_cast<std::uint32_t>(i);
    if (c == '#') {
      std::size_t n = 1;
      while (n < rest.size() && is_literal_char(rest[n])) ++n;
      if (n > 1) {
        token.length = static_cast<std::uint32_t>(n);
        token.name = std::string(rest.substr(0, n));
        auto literal = find_literal(token.name, rules);
        // An older expr__get_literal knows none of the newer releases' literals.
        if (literal && literal_since(*literal) > rules) literal.reset();
        if (literal) {
          token.kind = Tok::literal;
          token.literal = *literal;
        } else {
          token.kind = Tok::bad_literal;
        }
        tokens.push_back(std::move(token));
        i += n;
        continue;
      }
      ++i;  // a lone '#': expr.l's `.` rule ignores it
      continue;
    }
    std::size_t num = number_match(rest);
    std::size_t sym = symbol_match(rest);
    if (num > 0 || sym > 0) {
      if (num >= sym) {
        token.length = static_cast<std::uint32_t>(num);
        token.name = std::string(rest.substr(0, num));
        auto value = to_double(token.name);
        if (value) {
          token.kind = Tok::number;
          token.number = *value;
        } else {
          token.kind = Tok::bad_number;
        }
        tokens.push_back(std::move(token));
        i += num;
        continue;
      }
      token.length = static_cast<std::uint32_t>(sym);
      std::string_view word = rest.substr(0, sym);
      token.kind = Tok::id;
      for (const auto& keyword : keywords) {
        if (word == keyword.text) token.kind = keyword.kind;
      }
      if (rules == MetricDialect::of_7_2 && word == "aggr_nr") token.kind = Tok::kw_aggr_nr;
      if (rules >= MetricDialect::of_6_12) {
        for (const auto& keyword : keywords_612) {
          if (word == keyword.text) token.kind = keyword.kind;
        }
        if (word == "NaN") {
          token.kind = Tok::number;
          token.number = std::numeric_limits<double>::quiet_NaN();
          token.name = std::string(word);
        }
      }
      if (token.kind == Tok::id) {
        token.name.reserve(sym);
        for (std::size_t k = 0; k < word.size(); ++k) {
          if (word[k] == '\\') ++k;
          token.name += word[k];
        }
      }
      tokens.push_back(std::move(token));
      i += sym;
      continue;
    }
    Tok kind = Tok::end;
    switch (c) {
      case '|':
        kind = Tok::bar;
        break;
      case '^':
        kind = Tok::caret;
        break;
      case '&':
        kind = Tok::amp;
        break;
      case '<':
        kind = Tok::less;
        break;
      case '>':
        kind = Tok::greater;
        break;
      case '-':
        kind = Tok::minus;
        break;
      case '+':
        kind = Tok::plus;
        break;
      case '*':
        kind = Tok::star;
        break;
      case '/':
        kind = Tok::slash;
        break;
      case '%':
        kind = Tok::percent;
        break;
      case '(':
        kind = Tok::lparen;
        break;
      case ')':
        kind = Tok::rparen;
        break;
      case ',':
        kind = Tok::comma;
        break;
      default:
        break;  // whitespace and every other byte: ignored, as expr.l's `.` rule does
    }
    if (kind != Tok::end) {
      token.kind = kind;
      token.length = 1;
      tokens.push_back(std::move(token));
    }
    ++i;
  }
  Token eof;
  eof.kind = Tok::end;
  eof.offset = static_cast<std::uint32_t>(end);
  tokens.push_back(std::move(eof));
  return tokens;
}

std::optional<Op> binary_op(Tok kind) {
  switch (kind) {
    case Tok::bar:
      return Op::bit_or;
    case Tok::caret:
      return Op::bit_xor;
    case Tok::amp:
      return Op::bit_and;
    case Tok::less:
      return Op::less;
    case Tok::greater:
      return Op::greater;
    case Tok::minus:
      return Op::sub;
    case Tok::plus:
      return Op::add;
    case Tok::star:
      return Op::mul;
    case Tok::slash:
      return Op::div;
    case Tok::percent:
      return Op::mod;
    default:
      return std::nullopt;
  }
}

std::string describe(const Token& token, std::string_view text) {
  switch (token.kind) {
    case Tok::end:
      return "the end of the expression";
    case Tok::number:
    case Tok::bad_number:
      return fmt::format("number '{}'", token.name);
    case Tok::id:
      return fmt::format("'{}'", text.substr(token.offset, token.length));
    case Tok::literal:
    case Tok::bad_literal:
      return fmt::format("literal '{}'", token.name);
    default:
      return fmt::format("'{}'", text.substr(token.offset, token.length));
  }
}

class Parser {
 public:
  Parser(std::string_view text, std::string_view file, MetricDialect rules)
      : rules_(rules),
        text_(text),
        file_(file.empty() ? std::string_view("<metric>") : file),
        tokens_(lex(text, rules)) {}

  Expected<Expr> run() {
    nodes_.reserve(tokens_.size());
    // Lexer errors first: perf's scanner returns EXPR_ERROR for them, which no rule accepts.
    for (const auto& token : tokens_) {
      if (token.kind == Tok::bad_number) {
        return unexpected(
            error(DiagId::metric_expr_bad_number, token.offset, token.length,
                  fmt::format("number '{}' is out of the range of a double", token.name)));
      }
      if (token.kind == Tok::bad_literal) {
        Diagnostic diagnostic =
            error(DiagId::metric_expr_unknown_literal, token.offset, token.length,
                  fmt::format("unknown literal '{}'", token.name));
        std::vector<std::string> names;
        for (int i = 0; i < literal_count; ++i) {
          if (literal_since(static_cast<Literal>(i)) <= rules_) {
            names.emplace_back(literal_names[static_cast<std::size_t>(i)]);
          }
        }
        if (auto near = nearest_name(token.name, names)) {
          diagnostic.hint = fmt::format("did you mean '{}'?", *near);
          diagnostic.fixit = fixit(token.offset, token.length, *near);
        } else {
          std::string known;
          for (const std::string& name : names) known += (known.empty() ? "" : ", ") + name;
          diagnostic.hint = fmt::format("perf {} knows {}", dialect_name(rules_), known);
        }
        return unexpected(std::move(diagnostic));
      }
    }
    if (peek().kind == Tok::end) {
      return unexpected(error(DiagId::metric_expr_syntax, 0, 0, "empty metric expression"));
    }
    auto root = parse_root();
    if (!root) return unexpected(std::move(root).error());
    if (peek().kind != Tok::end) return unexpected(trailing());
    Expr expr;
    expr.nodes = std::move(nodes_);
    expr.root = *root;
    expr.source = std::string(text_);
    expr.file = std::string(file_);
    return expr;
  }

 private:
  const Token& peek() const { return tokens_[pos_]; }
  const Token& take() { return tokens_[pos_++]; }

  Diagnostic error(DiagId id, std::size_t offset, std::size_t length, std::string message) const {
    return make_diagnostic(Severity::error, id, file_, text_, offset, length, std::move(message));
  }
  FixIt fixit(std::size_t offset, std::size_t length, std::string replacement) const {
    return FixIt{make_diagnostic(Severity::note, "", file_, text_, offset, length, "").range,
                 std::move(replacement)};
  }

  NodeIndex add(Node node) {
    nodes_.push_back(std::move(node));
    return static_cast<NodeIndex>(nodes_.size() - 1);
  }
  std::uint32_t end_of(NodeIndex index) const {
    return nodes_[index].offset + nodes_[index].length;
  }
  void span(Node& node, std::uint32_t from, std::uint32_t to) const {
    node.offset = from;
    node.length = to - from;
  }

  Unexpected<Diagnostic> too_deep() const {
    const Token& token = peek();
    return unexpected(error(DiagId::metric_expr_syntax, token.offset, token.length,
                            fmt::format("expression nested deeper than {} levels", max_depth)));
  }

  Diagnostic trailing() const {
    const Token& token = peek();
    if (token.kind == Tok::rparen) {
      Diagnostic diagnostic = error(DiagId::metric_expr_unbalanced_paren, token.offset, 1,
                                    "')' without a matching '('");
      diagnostic.fixit = fixit(token.offset, 1, "");
      return diagnostic;
    }
    Diagnostic diagnostic =
        error(DiagId::metric_expr_syntax, token.offset, token.length,
              fmt::format("expected an operator, found {}", describe(token, text_)));
    if (token.kind == Tok::kw_else) {
      diagnostic.hint = "'else' without 'if'";
    } else if (token.kind == Tok::kw_if) {
      diagnostic.hint = "'if' is allowed at the top level or in parentheses only";
    } else {
      diagnostic.hint = "operators are + - * / % | ^ & < > (perf has no == or <=)";
    }
    return diagnostic;
  }

  Expected<NodeIndex> expect(Tok kind, std::string_view what, const Token* open) {
    if (peek().kind == kind) {
      take();
      return NodeIndex{0};
    }
    const Token& token = peek();
    if (kind == Tok::rparen && open != nullptr) {
      Diagnostic diagnostic =
          error(DiagId::metric_expr_unbalanced_paren, token.offset, token.length,
                fmt::format("expected ')', found {}", describe(token, text_)));
      diagnostic.notes.push_back(make_diagnostic(Severity::note, "", file_, text_, open->offset,
                                                 open->length, "to match this '('"));
      if (token.kind == Tok::end) diagnostic.fixit = fixit(token.offset, 0, ")");
      return unexpected(std::move(diagnostic));
    }
    return unexpected(error(DiagId::metric_expr_syntax, token.offset, token.length,
                            fmt::format("expected {}, found {}", what, describe(token, text_))));
  }

  // The grammar, parsed without recursion on the machine's stack (nesting and long operator
  // chains cost heap, not stack): each rule of the recursive-descent form below is a frame on
  // `frames_`, resumed at its `stage` when the rule it called returns its node in `result`.
  //   if_expr:  expr(2) [IF expr(2) ELSE if_expr]
  //   expr(p):  unary {op expr(prec(op) + 1)}  for the ops of precedence >= p, left-associative
  //   unary:    '-' unary | primary
  //   primary:  number | id | literal | f '(' id ')' | '(' if_expr ')' | g '(' arg ',' arg ')'
  //   arg:      expr(2), not followed by IF
  enum class Rule : std::uint8_t { if_expr, expr, unary, paren, call, argument };
  struct Frame {
    Rule rule = Rule::if_expr;
    std::uint8_t stage = 0;
    bool counted = false;    // holds a nesting level (if_expr, '-')
    int min_prec = 0;        // expr
    Op op = Op::add;         // expr: the pending operator; call: the function
    NodeIndex x = no_node;   // if_expr: the value; expr: the left operand; call: the first argument
    NodeIndex y = no_node;   // if_expr: the condition
    std::uint32_t from = 0;  // unary: the '-' offset
    std::size_t token = 0;   // paren: the '('; call: the function name
    std::size_t open = 0;    // call: its '('
  };

  Expected<NodeIndex> parse_root() {
    frames_.push_back(Frame{});
    NodeIndex result = no_node;
    const auto call = [this](Frame frame) { frames_.push_back(frame); };
    const auto finish = [this, &result](NodeIndex value) {
      if (frames_.back().counted) --depth_;
      frames_.pop_back();
      result = value;
    };
    while (!frames_.empty()) {
      Frame& f = frames_.back();
      switch (f.rule) {
        case Rule::if_expr:
          switch (f.stage) {
            case 0:
              if (++depth_ > max_depth) return too_deep();
              f.counted = true;
              f.stage = 1;
              call(Frame{.rule = Rule::expr, .min_prec = 2});
              break;
            case 1:
              if (peek().kind != Tok::kw_if) {
                finish(result);
                break;
              }
              take();
              f.x = result;
              f.stage = 2;
              call(Frame{.rule = Rule::expr, .min_prec = 2});
              break;
            case 2: {
              if (peek().kind != Tok::kw_else) {
                const Token& token = peek();
                Diagnostic diagnostic =
                    error(DiagId::metric_expr_syntax, token.offset, token.length,
                          fmt::format("expected 'else', found {}", describe(token, text_)));
                if (token.kind == Tok::kw_if) {
                  diagnostic.hint = "a condition cannot be a conditional: parenthesize it";
                }
                return unexpected(std::move(diagnostic));
              }
              take();
              f.y = result;
              f.stage = 3;
              call(Frame{.rule = Rule::if_expr});
              break;
            }
            default: {
              Node node;
              node.kind = NodeKind::if_else;
              node.a = f.x;
              node.b = f.y;
              node.c = result;
              span(node, nodes_[f.x].offset, end_of(result));
              finish(add(std::move(node)));
              break;
            }
          }
          break;
        case Rule::expr: {
          if (f.stage == 0) {
            f.stage = 1;
            call(Frame{.rule = Rule::unary});
            break;
          }
          if (f.stage == 1) {
            f.x = result;
          } else {
            Node node;
            node.kind = NodeKind::binary;
            node.op = f.op;
            node.a = f.x;
            node.b = result;
            span(node, nodes_[f.x].offset, end_of(result));
            f.x = add(std::move(node));
          }
          auto op = binary_op(peek().kind);
          if (!op || precedence(*op) < f.min_prec) {
            finish(f.x);
            break;
          }
          take();
          f.op = *op;
          f.stage = 2;
          call(Frame{.rule = Rule::expr, .min_prec = precedence(*op) + 1});
          break;
        }
        case Rule::unary:
          if (f.stage == 0) {
            if (peek().kind != Tok::minus) {
              f = Frame{.rule = Rule::paren};  // a primary: parse it in this frame's place
              auto primary = parse_primary(f);
              if (!primary) return unexpected(std::move(primary).error());
              if (*primary != no_node) finish(*primary);
              break;
            }
            // Nesting is bounded so that a hostile expression is a located error, never an
            // unbounded tree (perf's bison stack allows deeper nesting: docs/perf-compat.md).
            if (++depth_ > max_depth) return too_deep();
            f.counted = true;
            f.from = take().offset;
            f.stage = 1;
            call(Frame{.rule = Rule::unary});
          } else {
            Node node;
            node.kind = NodeKind::negate;
            node.a = result;
            span(node, f.from, end_of(result));
            finish(add(std::move(node)));
          }
          break;
        case Rule::paren:
          // Only reached when the '(' has been taken and its if_expr parsed.
          if (auto ok = expect(Tok::rparen, "')'", &tokens_[f.token]); !ok) return ok;
          finish(result);
          break;
        case Rule::call:
          if (f.stage == 1) {
            f.x = result;
            if (peek().kind != Tok::comma) {
              const Token& bad = peek();
              Diagnostic diagnostic =
                  error(DiagId::metric_expr_syntax, bad.offset, bad.length,
                        fmt::format("expected ',', found {}", describe(bad, text_)));
              diagnostic.hint = fmt::format("{} takes two arguments", to_string(f.op));
              return unexpected(std::move(diagnostic));
            }
            take();
            f.stage = 2;
            call(Frame{.rule = Rule::argument});
          } else {
            const Token& close = peek();
            if (close.kind == Tok::comma) {
              return unexpected(error(DiagId::metric_expr_syntax, close.offset, 1,
                                      fmt::format("{} takes two arguments", to_string(f.op))));
            }
            if (auto ok = expect(Tok::rparen, "')'", &tokens_[f.open]); !ok) return ok;
            Node node;
            node.kind = NodeKind::binary;
            node.op = f.op;
            node.a = f.x;
            node.b = result;
            span(node, tokens_[f.token].offset, close.offset + 1);
            finish(add(std::move(node)));
          }
          break;
        case Rule::argument:
          // A function argument is an `expr`: a conditional needs parentheses.
          if (f.stage == 0) {
            f.stage = 1;
            call(Frame{.rule = Rule::expr, .min_prec = 2});
            break;
          }
          if (peek().kind == Tok::kw_if) {
            const Token& token = peek();
            Diagnostic diagnostic = error(DiagId::metric_expr_syntax, token.offset, token.length,
                                          "a conditional is not allowed as a function argument");
            diagnostic.hint = "parenthesize it: min((a if c else b), x)";
            return unexpected(std::move(diagnostic));
          }
          finish(result);
          break;
      }
    }
    return result;
  }

  // A primary in `frame`'s place: its node, or no_node when `frame` now waits for what it
  // called ('(' if_expr ')', a two-argument function).
  Expected<NodeIndex> parse_primary(Frame& frame) {
    const std::size_t at = pos_;
    const Token& token = peek();
    switch (token.kind) {
      case Tok::number: {
        take();
        Node node;
        node.kind = NodeKind::number;
        node.number = token.number;
        span(node, token.offset, token.offset + token.length);
        return add(std::move(node));
      }
      case Tok::id: {
        take();
        Node node;
        node.kind = NodeKind::id;
        node.name = token.name;
        span(node, token.offset, token.offset + token.length);
        return add(std::move(node));
      }
      case Tok::literal: {
        take();
        Node node;
        node.kind = NodeKind::literal;
        node.literal = token.literal;
        span(node, token.offset, token.offset + token.length);
        return add(std::move(node));
      }
      case Tok::kw_source_count:
      case Tok::kw_aggr_nr:
      case Tok::kw_has_event:
      case Tok::kw_strcmp_cpuid_str: {
        take();
        const std::string_view function = token.kind == Tok::kw_source_count ? "source_count"
                                          : token.kind == Tok::kw_aggr_nr    ? "aggr_nr"
                                          : token.kind == Tok::kw_has_event  ? "has_event"
                                                                             : "strcmp_cpuid_str";
        const Token& open = peek();
        if (auto ok = expect(Tok::lparen, fmt::format("'(' after {}", function), nullptr); !ok)
          return ok;
        const Token& id = peek();
        if (id.kind != Tok::id) {
          Diagnostic diagnostic =
              error(DiagId::metric_expr_syntax, id.offset, id.length,
                    fmt::format("expected an event name, found {}", describe(id, text_)));
          diagnostic.hint = fmt::format("{} takes one event name", function);
          return unexpected(std::move(diagnostic));
        }
        take();
        const Token& close = peek();
        if (auto ok = expect(Tok::rparen, "')'", &open); !ok) return ok;
        Node node;
        node.kind = token.kind == Tok::kw_source_count ? NodeKind::source_count
                    : token.kind == Tok::kw_aggr_nr    ? NodeKind::aggr_nr
                    : token.kind == Tok::kw_has_event  ? NodeKind::has_event
                                                       : NodeKind::strcmp_cpuid_str;
        node.name = id.name;
        span(node, token.offset, close.offset + 1);
        return add(std::move(node));
      }
      case Tok::lparen: {
        take();
        frame = Frame{.rule = Rule::paren, .stage = 1, .token = at};
        frames_.push_back(Frame{.rule = Rule::if_expr});
        return no_node;
      }
      case Tok::kw_min:
      case Tok::kw_max:
      case Tok::kw_d_ratio: {
        take();
        Op op = token.kind == Tok::kw_min   ? Op::min
                : token.kind == Tok::kw_max ? Op::max
                                            : Op::d_ratio;
        const std::size_t open = pos_;
        if (auto ok = expect(Tok::lparen, fmt::format("'(' after {}", to_string(op)), nullptr);
            !ok) {
          return ok;
        }
        frame = Frame{.rule = Rule::call, .stage = 1, .op = op, .token = at, .open = open};
        frames_.push_back(Frame{.rule = Rule::argument});
        return no_node;
      }
      case Tok::rparen: {
        Diagnostic diagnostic =
            error(DiagId::metric_expr_syntax, token.offset, 1, "expected an operand, found ')'");
        return unexpected(std::move(diagnostic));
      }
      default: {
        Diagnostic diagnostic =
            error(DiagId::metric_expr_syntax, token.offset, token.length,
                  fmt::format("expected an operand, found {}", describe(token, text_)));
        if (token.kind == Tok::end && pos_ > 0) {
          const Token& last = tokens_[pos_ - 1];
          diagnostic.notes.push_back(
              make_diagnostic(Severity::note, "", file_, text_, last.offset, last.length,
                              fmt::format("after {}", describe(last, text_))));
        }
        if (token.kind == Tok::plus) diagnostic.hint = "perf has no unary '+'";
        return unexpected(std::move(diagnostic));
      }
    }
  }

  MetricDialect rules_;  // whose lexer: perf 6.1's or 6.12's
  std::string_view text_;
  std::string_view file_;
  std::vector<Token> tokens_;
  std::size_t pos_ = 0;
  std::vector<Node> nodes_;
  std::vector<Frame> frames_;  // the rules being parsed, innermost last
  int depth_ = 0;
  static constexpr int max_depth = 256;
};

}  // namespace

Expected<Expr> parse(std::string_view text, std::string_view file_name, MetricDialect rules) {
  return Parser(text, file_name, rules).run();
}

}  // namespace metric_expr
PMUCAT_END_NAMESPACE
