// perf 6.12's metric.py, imitated step by step: the text is first rewritten into Python source
// (names become Event(r"..."), with a few repairs), that source is read with Python's grammar
// and evaluated with Python's number rules and metric.py's operator overloads, the tree is
// simplified, and printed back. Whatever would make Python raise is an error here, since perf's
// build would have stopped on it.
#include "pmu_events/metric_py_rewrite.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <system_error>
#include <variant>
#include <vector>

#include "parser/char_class.h"
#include "pmucat/version.h"

PMUCAT_BEGIN_NAMESPACE
namespace pmu_events {
namespace {

// ---------------------------------------------------------------------------------------------
// Step 1: the regex pass that makes Python source of the metric text.

using char_class::is_digit;
using char_class::is_hex_digit;
constexpr bool is_ascii_letter(char c) {
  return char_class::is_alpha(c);
}

// The characters that end a name in metric.py's name pattern (a `\` may still escape one).
bool ends_name(char c) {
  switch (c) {
    case '-':
    case '+':
    case '/':
    case '*':
    case ' ':
    case '\\':
    case '(':
    case ')':
    case ',':
      return true;
    default:
      return false;
  }
}

// Python's str.strip() for the ASCII whitespace it knows.
std::string_view python_strip(std::string_view s) {
  auto space = [](char c) {
    return c == ' ' || (c >= '\t' && c <= '\r') || (c >= '\x1c' && c <= '\x1f');
  };
  while (!s.empty() && space(s.front())) s.remove_prefix(1);
  while (!s.empty() && space(s.back())) s.remove_suffix(1);
  return s;
}

// Every run that starts with a letter becomes Event(r"run"); a `\` takes the next character
// (not a newline) into the run.
std::string wrap_names(std::string_view s) {
  std::string out;
  std::size_t i = 0;
  while (i < s.size()) {
    if (!is_ascii_letter(s[i])) {
      out += s[i++];
      continue;
    }
    std::size_t j = i + 1;
    while (true) {
      while (j < s.size() && !ends_name(s[j])) ++j;
      if (j + 1 < s.size() && s[j] == '\\' && s[j + 1] != '\n') {
        j += 2;
        continue;
      }
      break;
    }
    out += "Event(r\"";
    out += s.substr(i, j - i);
    out += "\")";
    i = j;
  }
  return out;
}

// `#Event(r"x")` back to the runtime literal Literal("#x").
std::string restore_literals(std::string_view s) {
  constexpr std::string_view open = "#Event(r\"";
  std::string out;
  std::size_t i = 0;
  while (i < s.size()) {
    if (s.substr(i, open.size()) == open) {
      const std::size_t quote = s.find('"', i + open.size());
      if (quote != std::string_view::npos && quote + 1 < s.size() && s[quote + 1] == ')') {
        out += "Literal(\"#";
        out += s.substr(i + open.size(), quote - i - open.size());
        out += "\")";
        i = quote + 2;
        continue;
      }
    }
    out += s[i++];
  }
  return out;
}

// `0Event(r"x1F")` back to a hex number that stays an event, Event("0x1F") (always a lower-case
// x), so that perf keeps reading it as an integer.
std::string restore_hex(std::string_view s) {
  constexpr std::string_view open = "0Event(r\"";
  std::string out;
  std::size_t i = 0;
  while (i < s.size()) {
    if (s.substr(i, open.size()) == open && i + open.size() < s.size() &&
        (s[i + open.size()] == 'x' || s[i + open.size()] == 'X')) {
      std::size_t j = i + open.size() + 1;
      while (j < s.size() && is_hex_digit(s[j])) ++j;
      if (s.substr(j, 2) == "\")") {
        out += "Event(\"0x";
        out += s.substr(i + open.size() + 1, j - i - open.size() - 1);
        out += "\")";
        i = j + 2;
        continue;
      }
    }
    out += s[i++];
  }
  return out;
}

// `1Event(r"e9")` back to the number 1e9 (only a lower-case e with digits after it).
std::string restore_exponents(std::string_view s) {
  constexpr std::string_view open = "Event(r\"e";
  std::string out;
  std::size_t i = 0;
  while (i < s.size()) {
    if (is_digit(s[i])) {
      std::size_t j = i;
      while (j < s.size() && is_digit(s[j])) ++j;
      if (s.substr(j, open.size()) == open) {
        std::size_t k = j + open.size();
        while (k < s.size() && is_digit(s[k])) ++k;
        if (k > j + open.size() && s.substr(k, 2) == "\")") {
          out += s.substr(i, j - i);
          out += 'e';
          out += s.substr(j + open.size(), k - j - open.size());
          i = k + 2;
          continue;
        }
      }
    }
    out += s[i++];
  }
  return out;
}

std::string replace_all(std::string s, std::string_view from, std::string_view to) {
  std::size_t at = 0;
  while ((at = s.find(from, at)) != std::string::npos) {
    s.replace(at, from.size(), to);
    at += to.size();
  }
  return s;
}

// perf 7.3's metric.py: `Event(r"a"),Event(r"b")` becomes `Event(r"a,b")`, again until nothing
// changes (an event's terms, `X@umask=0xFF,name=Y@`, were split at the `,` by the name pattern;
// written without a space, two arguments of a function are joined alike).
std::string join_broken_events(std::string s) {
  constexpr std::string_view open = "Event(r\"";
  constexpr std::string_view middle = "\"),Event(r\"";
  for (;;) {
    std::string out;
    bool changed = false;
    std::size_t i = 0;
    while (i < s.size()) {
      if (s.compare(i, open.size(), open) == 0) {
        const std::size_t first = s.find('"', i + open.size());
        if (first != std::string::npos && s.compare(first, middle.size(), middle) == 0) {
          const std::size_t second = s.find('"', first + middle.size());
          if (second != std::string::npos && second + 1 < s.size() && s[second + 1] == ')') {
            out += open;
            out.append(s, i + open.size(), first - i - open.size());
            out += ',';
            out.append(s, first + middle.size(), second - first - middle.size());
            out += "\")";
            i = second + 2;
            changed = true;
            continue;
          }
        }
      }
      out += s[i++];
    }
    if (!changed) return s;
    s = std::move(out);
  }
}

constexpr std::string_view kKeywords[] = {
    "if", "else", "min", "max", "d_ratio", "source_count", "has_event", "strcmp_cpuid_str"};

std::string to_python_source(std::string_view written, JeventsRules rules) {
  const bool of_7_2 = rules >= JeventsRules::of_7_2;
  std::string py = wrap_names(python_strip(written));
  py = restore_literals(py);
  if (of_7_2) py = join_broken_events(std::move(py));
  py = restore_hex(py);
  py = restore_exponents(py);
  for (std::string_view keyword : kKeywords) {
    py = replace_all(std::move(py), "Event(r\"" + std::string(keyword) + "\")", keyword);
  }
  if (of_7_2) py = replace_all(std::move(py), "Event(r\"aggr_nr\")", "aggr_nr");
  return py;
}

// ---------------------------------------------------------------------------------------------
// Step 2: metric.py's expression tree.

enum class Kind : std::uint8_t { op, select, function, event, constant, literal };
using Id = std::uint32_t;
constexpr Id kNone = 0xffffffffU;

struct Node {
  Kind kind = Kind::constant;
  char op = 0;       // op: one of + - * / % | ^ & < >
  std::string text;  // function name, event name, constant's printed value, literal
  Id a = kNone;      // op: lhs; select: value when true; function: first argument
  Id b = kNone;      // op: rhs; select: condition; function: second argument (kNone: none)
  Id c = kNone;      // select: value when false
  int depth = 1;     // of the tree below and including this node
};

// metric.py's bracketing ranks, which follow perf's expr.y rather than Python (comparisons bind
// tighter than the bitwise operators there).
int rank(char op) {
  switch (op) {
    case '|':
      return 0;
    case '^':
      return 1;
    case '&':
      return 2;
    case '<':
    case '>':
      return 3;
    case '+':
    case '-':
      return 4;
    default:
      return 5;  // * / %
  }
}

// ---------------------------------------------------------------------------------------------
// Python numbers and how metric.py's Constant prints them.

struct Number {
  bool is_float = false;
  bool is_bool = false;  // a comparison's result: an int, but & | ^ of two stay bools
  std::int64_t i = 0;
  double f = 0;
};

// A decimal significand (no leading zeros) times a power of ten.
struct Decimal {
  bool negative = false;
  std::string digits;
  int exponent = 0;
};

// Decimal.normalize() then to_eng_string(), with metric.py's removal of `+` and lower-case `e`.
std::string engineering_string(Decimal d) {
  while (d.digits.size() > 1 && d.digits.back() == '0') {
    d.digits.pop_back();
    ++d.exponent;
  }
  if (d.digits == "0") d.exponent = 0;
  const int size = static_cast<int>(d.digits.size());
  const int left = d.exponent + size;
  auto floor_mod3 = [](int v) { return ((v % 3) + 3) % 3; };
  int dot = 0;
  if (d.exponent <= 0 && left > -6) {
    dot = left;
  } else if (d.digits == "0") {
    dot = floor_mod3(left + 1) - 1;
  } else {
    dot = floor_mod3(left - 1) + 1;
  }
  std::string out = d.negative ? "-" : "";
  if (dot <= 0) {
    out += "0.";
    out.append(static_cast<std::size_t>(-dot), '0');
    out += d.digits;
  } else if (dot >= size) {
    out += d.digits;
    out.append(static_cast<std::size_t>(dot - size), '0');
  } else {
    out += d.digits.substr(0, static_cast<std::size_t>(dot));
    out += '.';
    out += d.digits.substr(static_cast<std::size_t>(dot));
  }
  if (left != dot) {
    out += 'e';
    out += std::to_string(left - dot);
  }
  return out;
}

std::optional<std::string> constant_text(const Number& n) {
  Decimal d;
  if (!n.is_float) {
    d.negative = n.i < 0;
    const std::uint64_t magnitude =
        d.negative ? ~static_cast<std::uint64_t>(n.i) + 1 : static_cast<std::uint64_t>(n.i);
    d.digits = std::to_string(magnitude);
    return engineering_string(std::move(d));
  }
  if (!std::isfinite(n.f)) return std::nullopt;
  d.negative = std::signbit(n.f);
  if (n.f == 0) {
    d.digits = "0";
    return engineering_string(std::move(d));
  }
  // Python's repr() is the shortest text that reads back as the same double, as to_chars is;
  // 17 digits at most, so the 20-digit context of metric.py never rounds it.
  char buffer[64];
  const auto [end, ec] =
      std::to_chars(buffer, buffer + sizeof buffer, std::fabs(n.f), std::chars_format::scientific);
  if (ec != std::errc()) return std::nullopt;
  const std::string_view text(buffer, static_cast<std::size_t>(end - buffer));
  const std::size_t e = text.find('e');
  for (char c : text.substr(0, e)) {
    if (c != '.') d.digits += c;
  }
  int exponent = 0;
  std::string_view exp_text = text.substr(e + 1);
  if (!exp_text.empty() && exp_text.front() == '+') exp_text.remove_prefix(1);
  std::from_chars(exp_text.data(), exp_text.data() + exp_text.size(), exponent);
  d.exponent = exponent - static_cast<int>(d.digits.size()) + 1;
  return engineering_string(std::move(d));
}

// ---------------------------------------------------------------------------------------------
// Python source tokens (only what the rewritten text can hold; anything else is an error, as
// it would be a syntax or name error in Python).

enum class Tok : std::uint8_t { end, number, string, name, punct };

struct Token {
  Tok kind = Tok::end;
  std::string text;  // number text, decoded string, name, or operator
  bool raw = false;  // string: had the r prefix
};

class Rewriter {
 public:
  std::optional<std::string> error;

  std::optional<std::string> run(std::string_view written, JeventsRules rules) {
    source_ = to_python_source(written, rules);
    next();
    const std::optional<Value> value = test();
    if (!value || error) return std::nullopt;
    if (token_.kind != Tok::end) return fail("unexpected `" + token_.text + "`");
    const Id tree = constify(*value);
    if (tree == kNone) return std::nullopt;
    const Id simple = simplify(tree);
    if (simple == kNone) return std::nullopt;
    return print(simple);
  }

 private:
  using Value = std::variant<Number, Id>;

  std::string source_;
  std::size_t pos_ = 0;
  Token token_;
  std::vector<Node> nodes_;
  int nesting_ = 0;  // brackets and unary operators open while reading
  // Inside the operands a false comparison link leaves unevaluated: Python reads them (syntax
  // errors still count) but never computes them, so nothing there can raise.
  bool skipping_ = false;

  std::nullopt_t fail(std::string message) {
    if (!error) error = std::move(message);
    return std::nullopt;
  }
  Id fail_id(std::string message) {
    fail(std::move(message));
    return kNone;
  }

  // --- tokens ---

  void next() { token_ = lex(); }

  Token lex() {
    while (pos_ < source_.size() &&
           (source_[pos_] == ' ' || source_[pos_] == '\t' || source_[pos_] == '\f')) {
      ++pos_;
    }
    Token t;
    if (pos_ >= source_.size()) return t;
    const char c = source_[pos_];
    if (is_digit(c) || (c == '.' && pos_ + 1 < source_.size() && is_digit(source_[pos_ + 1]))) {
      return lex_number();
    }
    if (is_ascii_letter(c) || c == '_') {
      std::size_t end = pos_;
      while (end < source_.size() &&
             (is_ascii_letter(source_[end]) || is_digit(source_[end]) || source_[end] == '_')) {
        ++end;
      }
      t.text = source_.substr(pos_, end - pos_);
      pos_ = end;
      if (pos_ < source_.size() && (source_[pos_] == '"' || source_[pos_] == '\'')) {
        if (t.text != "r") {
          fail("string prefix `" + t.text + "`");
          return Token{};
        }
        return lex_string(true);
      }
      t.kind = Tok::name;
      return t;
    }
    if (c == '"') return lex_string(false);
    // Of Python's two-character operators only the comparisons have a meaning metric.py gives
    // (see equality()); the others are refused whole.
    static constexpr std::string_view kTwo[] = {"**", "//", "<<", ">>", "->", ":="};
    for (std::string_view two : kTwo) {
      if (std::string_view(source_).substr(pos_, 2) == two) {
        fail("operator `" + std::string(two) + "`");
        return Token{};
      }
    }
    for (std::string_view two : {"<=", ">=", "==", "!="}) {
      if (std::string_view(source_).substr(pos_, 2) == two) {
        pos_ += 2;
        t.kind = Tok::punct;
        t.text = std::string(two);
        return t;
      }
    }
    if (std::string_view("+-*/%|^&<>~(),").find(c) == std::string_view::npos) {
      fail(std::string("character `") + c + "`");
      return Token{};
    }
    ++pos_;
    t.kind = Tok::punct;
    t.text = std::string(1, c);
    return t;
  }

  Token lex_number() {
    const std::size_t start = pos_;
    bool is_float = false;
    while (pos_ < source_.size() && is_digit(source_[pos_])) ++pos_;
    if (pos_ < source_.size() && source_[pos_] == '.') {
      is_float = true;
      ++pos_;
      while (pos_ < source_.size() && is_digit(source_[pos_])) ++pos_;
    }
    if (pos_ < source_.size() && (source_[pos_] == 'e' || source_[pos_] == 'E')) {
      std::size_t e = pos_ + 1;
      if (e < source_.size() && (source_[e] == '+' || source_[e] == '-')) ++e;
      if (e < source_.size() && is_digit(source_[e])) {
        is_float = true;
        pos_ = e;
        while (pos_ < source_.size() && is_digit(source_[pos_])) ++pos_;
      }
    }
    if (pos_ < source_.size() && (is_ascii_letter(source_[pos_]) || is_digit(source_[pos_]) ||
                                  source_[pos_] == '_' || source_[pos_] == '.')) {
      fail("invalid number `" + source_.substr(start, pos_ + 1 - start) + "`");
      return Token{};
    }
    Token t;
    t.kind = Tok::number;
    t.text = source_.substr(start, pos_ - start);
    // Python refuses leading zeros on a non-zero integer ("007").
    if (!is_float && t.text.size() > 1 && t.text[0] == '0' &&
        t.text.find_first_not_of('0') != std::string::npos) {
      fail("invalid number `" + t.text + "`");
      return Token{};
    }
    t.raw = is_float;  // reused: the number is a float
    return t;
  }

  Token lex_string(bool raw) {
    const char quote = source_[pos_++];
    Token t;
    t.kind = Tok::string;
    t.raw = raw;
    while (true) {
      if (pos_ >= source_.size() || source_[pos_] == '\n') {
        fail("unterminated string");
        return Token{};
      }
      const char c = source_[pos_++];
      if (c == quote) return t;
      if (c != '\\') {
        t.text += c;
        continue;
      }
      if (pos_ >= source_.size()) continue;  // reported as unterminated next round
      const char escaped = source_[pos_++];
      if (raw) {
        t.text += c;
        t.text += escaped;
      } else if (escaped == '\\' || escaped == '"' || escaped == '\'') {
        t.text += escaped;
      } else if (std::string_view("\nabfnrtvx01234567NuU").find(escaped) !=
                 std::string_view::npos) {
        fail(std::string("string escape `\\") + escaped + "`");
        return Token{};
      } else {
        // Python keeps an unknown escape as written.
        t.text += c;
        t.text += escaped;
      }
    }
  }

  bool at(std::string_view punct) const {
    return token_.kind == Tok::punct && token_.text == punct;
  }
  bool at_name(std::string_view name) const {
    return token_.kind == Tok::name && token_.text == name;
  }
  bool expect(std::string_view punct) {
    if (!at(punct)) {
      fail("expected `" + std::string(punct) + "`");
      return false;
    }
    next();
    return true;
  }

  // --- Python's grammar, evaluated as it is read ---

  // test: or_test ['if' or_test 'else' test]; every if/else becomes metric.py's Select.
  std::optional<Value> test() {
    std::optional<Value> body = comparison();
    if (!body) return std::nullopt;
    if (!at_name("if")) return body;
    next();
    std::optional<Value> condition = comparison();
    if (!condition) return std::nullopt;
    if (!at_name("else")) return fail("expected `else`");
    next();
    std::optional<Value> orelse = test();
    if (!orelse) return std::nullopt;
    if (skipping_) return Value(Number{});
    Node node;
    node.kind = Kind::select;
    node.a = constify(*body);
    node.b = constify(*condition);
    node.c = constify(*orelse);
    if (node.a == kNone || node.b == kNone || node.c == kNone) return std::nullopt;
    return value_of(add(std::move(node)));
  }

  std::optional<Value> comparison() {
    std::optional<Value> lhs = bit_or();
    if (!lhs || !at_comparison()) return lhs;
    // A chain (a < b < c) is Python's `a < b and b < c`: the first false link, else the last
    // (an expression is always true).
    std::optional<Value> result;
    const bool was_skipping = skipping_;
    while (at_comparison()) {
      const std::string op = token_.text;
      next();
      std::optional<Value> rhs = bit_or();
      if (!rhs) return std::nullopt;
      if (!skipping_) {
        result = op.size() == 1 ? binary(op[0], *lhs, *rhs) : equality(op, *lhs, *rhs);
        if (!result) return std::nullopt;
        skipping_ = !truthy(*result);
      }
      lhs = std::move(rhs);
    }
    skipping_ = was_skipping;
    if (skipping_) return Value(Number{});
    return result;
  }

  static bool truthy(const Value& value) {
    const Number* n = std::get_if<Number>(&value);
    return !n || (n->is_float ? n->f != 0 : n->i != 0);
  }

  bool at_comparison() const {
    return at("<") || at(">") || at("<=") || at(">=") || at("==") || at("!=");
  }

  // Expression defines no __eq__, __le__ or __ge__: == and != fall back to identity (each name
  // read is a new object, so never equal), <= and >= raise.
  std::optional<Value> equality(const std::string& op, const Value& lhs, const Value& rhs) {
    const Number* l = std::get_if<Number>(&lhs);
    const Number* r = std::get_if<Number>(&rhs);
    Number out;
    out.is_bool = true;
    if (!l || !r) {
      if (op == "<=" || op == ">=") return fail("`" + op + "` of an expression");
      out.i = op == "!=" ? 1 : 0;
      return Value(out);
    }
    const long double a = l->is_float ? static_cast<long double>(l->f) : l->i;
    const long double b = r->is_float ? static_cast<long double>(r->f) : r->i;
    const bool result = op == "<=" ? a <= b : op == ">=" ? a >= b : op == "==" ? a == b : a != b;
    out.i = result ? 1 : 0;
    return Value(out);
  }

  template <class Next>
  std::optional<Value> left_assoc(std::string_view ops, Next next_level) {
    std::optional<Value> lhs = (this->*next_level)();
    while (lhs && token_.kind == Tok::punct && token_.text.size() == 1 &&
           ops.find(token_.text[0]) != std::string_view::npos) {
      const char op = token_.text[0];
      next();
      std::optional<Value> rhs = (this->*next_level)();
      if (!rhs) return std::nullopt;
      lhs = skipping_ ? Value(Number{}) : binary(op, *lhs, *rhs);
    }
    return lhs;
  }
  std::optional<Value> bit_or() { return left_assoc("|", &Rewriter::bit_xor); }
  std::optional<Value> bit_xor() { return left_assoc("^", &Rewriter::bit_and); }
  std::optional<Value> bit_and() { return left_assoc("&", &Rewriter::arith); }
  std::optional<Value> arith() { return left_assoc("+-", &Rewriter::term); }
  std::optional<Value> term() { return left_assoc("*/%", &Rewriter::factor); }

  // Python's tokenizer refuses more than 200 open brackets; unary operators nest the same way.
  static constexpr int kMaxNesting = 200;

  std::optional<Value> factor() {
    if (at("-") || at("+") || at("~")) {
      const char op = token_.text[0];
      next();
      if (++nesting_ > kMaxNesting) return fail("too many nested operators");
      std::optional<Value> operand = factor();
      --nesting_;
      if (!operand) return std::nullopt;
      if (skipping_) return Value(Number{});
      const Number* n = std::get_if<Number>(&*operand);
      // metric.py's Expression has no __neg__, __pos__ or __invert__.
      if (!n) return fail(std::string("unary `") + op + "` of an expression");
      return unary(op, *n);
    }
    return primary();
  }

  std::optional<Value> primary() {
    std::optional<Value> value = atom();
    while (value && at("(")) {
      if (!arguments()) return std::nullopt;
      if (!skipping_) return fail("a call of a value that is not a function");
      value = Value(Number{});
    }
    if (value && token_.kind == Tok::string) return fail("unexpected string");
    return value;
  }

  // `( test, ... )` from the `(` on, a trailing comma allowed: the values, or nullopt on a
  // syntax error.
  std::optional<std::vector<Value>> arguments() {
    next();
    std::vector<Value> values;
    while (!at(")")) {
      std::optional<Value> value = test();
      if (!value) return std::nullopt;
      values.push_back(std::move(*value));
      if (at(",")) {
        next();
      } else if (!at(")")) {
        fail("expected `,` or `)`");
        return std::nullopt;
      }
    }
    next();
    return values;
  }

  std::optional<Value> atom() {
    if (token_.kind == Tok::number) {
      Token t = std::move(token_);
      next();
      return number(t);
    }
    if (at("(")) {
      next();
      if (++nesting_ > kMaxNesting) return fail("too many nested brackets");
      std::optional<Value> inner = test();
      if (!inner) return std::nullopt;
      if (at(",")) {
        // A tuple: Python builds it, and metric.py can do nothing with one.
        if (!arguments()) return std::nullopt;
        --nesting_;
        if (!skipping_) return fail("a tuple");
        return Value(Number{});
      }
      --nesting_;
      if (!expect(")")) return std::nullopt;
      return inner;
    }
    if (token_.kind == Tok::name) return call();
    if (token_.kind == Tok::end) return fail("unexpected end");
    return fail("unexpected `" + token_.text + "`");
  }

  // Event(r"name"), Event("0x.."), Literal("#name") and metric.py's functions: the only names
  // the rewritten text holds; any other is a NameError or a call Python refuses.
  std::optional<Value> call() {
    const std::string name = std::move(token_.text);
    next();
    if (!at("(")) {
      if (skipping_) return Value(Number{});
      return fail("`" + name + "` is not a value");
    }
    if (name == "Event" || name == "Literal") {
      next();
      if (token_.kind != Tok::string) return fail("`" + name + "` of no string");
      Node node;
      node.kind = name == "Event" ? Kind::event : Kind::literal;
      node.text = name == "Event" ? fix_escapes(token_.text) : token_.text;
      next();
      if (!expect(")")) return std::nullopt;
      if (skipping_) return Value(Number{});
      return value_of(add(std::move(node)));
    }
    std::optional<std::vector<Value>> args = arguments();
    if (!args) return std::nullopt;
    if (skipping_) return Value(Number{});
    const bool two = name == "min" || name == "max" || name == "d_ratio";
    const bool one = name == "source_count" || name == "has_event" || name == "strcmp_cpuid_str" ||
                     name == "aggr_nr";
    if (!one && !two) return fail("unknown function `" + name + "`");
    if (args->size() != (two ? 2U : 1U)) return fail("wrong argument count for `" + name + "`");
    Node node;
    node.kind = Kind::function;
    node.text = name;
    node.a = constify((*args)[0]);
    if (node.a == kNone) return std::nullopt;
    if (two) {
      node.b = constify((*args)[1]);
      if (node.b == kNone) return std::nullopt;
    }
    return value_of(add(std::move(node)));
  }

  // metric.py escapes a `,` or `=` in an event name that no `\` precedes; each match consumes
  // the character before, so of `,,` only the first is escaped.
  static std::string escape_unescaped(std::string_view name, char special) {
    std::string out;
    std::size_t i = 0;
    while (i < name.size()) {
      if (i + 1 < name.size() && name[i] != '\\' && name[i + 1] == special) {
        out += name[i];
        out += '\\';
        out += special;
        i += 2;
      } else {
        out += name[i++];
      }
    }
    return out;
  }
  static std::string fix_escapes(std::string_view name) {
    return escape_unescaped(escape_unescaped(name, ','), '=');
  }

  std::optional<Value> number(const Token& t) {
    Number n;
    const char* first = t.text.data();
    const char* last = first + t.text.size();
    if (t.raw) {
      n.is_float = true;
      const auto [ptr, ec] = std::from_chars(first, last, n.f);
      if (ec == std::errc::result_out_of_range) {
        return fail("number out of range");  // Python gives inf or 0.0 here: not imitated
      }
      if (ec != std::errc() || ptr != last) return fail("bad number `" + t.text + "`");
    } else {
      const auto [ptr, ec] = std::from_chars(first, last, n.i);
      if (ec != std::errc() || ptr != last) return fail("integer too large `" + t.text + "`");
    }
    return Value(n);
  }

  // --- Python's arithmetic and metric.py's operator overloads ---

  std::optional<Value> value_of(Id id) {
    if (id == kNone) return std::nullopt;
    return Value(id);
  }

  // Python's recursion limit (1000 frames) stops metric.py on a deeper tree; stopping a little
  // earlier also keeps the recursive simplify and print here within the stack.
  static constexpr int kMaxTreeDepth = 900;

  Id add(Node node) {
    for (Id child : {node.a, node.b, node.c}) {
      if (child != kNone) node.depth = std::max(node.depth, nodes_[child].depth + 1);
    }
    if (node.depth > kMaxTreeDepth) return fail_id("an expression nested too deeply");
    nodes_.push_back(std::move(node));
    return static_cast<Id>(nodes_.size() - 1);
  }

  Id constant(std::string text) {
    Node node;
    node.kind = Kind::constant;
    node.text = std::move(text);
    return add(std::move(node));
  }

  // _Constify: numbers (bools as 0 or 1) become Constants.
  Id constify(const Value& value) {
    if (const Id* id = std::get_if<Id>(&value)) return *id;
    const Number& n = std::get<Number>(value);
    std::optional<std::string> text = constant_text(n);
    if (!text) return fail_id("a constant that is not finite");
    return constant(std::move(*text));
  }

  Id make_op(char op, Id lhs, Id rhs) {
    Node node;
    node.kind = Kind::op;
    node.op = op;
    node.a = lhs;
    node.b = rhs;
    return add(std::move(node));
  }

  std::optional<Value> binary(char op, const Value& lhs, const Value& rhs) {
    const Number* l = std::get_if<Number>(&lhs);
    const Number* r = std::get_if<Number>(&rhs);
    if (l && r) return arithmetic(op, *l, *r);
    if (!l) {
      const Id rhs_id = constify(rhs);
      if (rhs_id == kNone) return std::nullopt;
      return value_of(make_op(op, std::get<Id>(lhs), rhs_id));
    }
    // A number on the left: Python asks the expression's reflected method. Comparisons swap
    // sides (5 > x is x < 5); ^ and % have no reflected method in metric.py.
    const Id lhs_id = constify(lhs);
    if (lhs_id == kNone) return std::nullopt;
    const Id rhs_id = std::get<Id>(rhs);
    if (op == '<') return value_of(make_op('>', rhs_id, lhs_id));
    if (op == '>') return value_of(make_op('<', rhs_id, lhs_id));
    if (op == '^' || op == '%') {
      return fail(std::string("`") + op + "` of a number and an expression");
    }
    return value_of(make_op(op, lhs_id, rhs_id));
  }

  static double as_double(const Number& n) { return n.is_float ? n.f : static_cast<double>(n.i); }

  std::optional<Value> arithmetic(char op, const Number& l, const Number& r) {
    Number out;
    if (op == '<' || op == '>') {
      const long double a = l.is_float ? static_cast<long double>(l.f) : l.i;
      const long double b = r.is_float ? static_cast<long double>(r.f) : r.i;
      out.is_bool = true;
      out.i = (op == '<' ? a < b : a > b) ? 1 : 0;
      return Value(out);
    }
    if (op == '|' || op == '^' || op == '&') {
      if (l.is_float || r.is_float) return fail("bitwise operator on a float");
      out.i = op == '|' ? (l.i | r.i) : op == '^' ? (l.i ^ r.i) : (l.i & r.i);
      out.is_bool = l.is_bool && r.is_bool;
      return Value(out);
    }
    if (op == '/') {
      if ((r.is_float && r.f == 0) || (!r.is_float && r.i == 0)) return fail("division by zero");
      // Python divides integers exactly and rounds once; so does a double division while both
      // fit in 53 bits.
      constexpr std::int64_t kExact = std::int64_t{1} << 53;
      if ((!l.is_float && (l.i > kExact || l.i < -kExact)) ||
          (!r.is_float && (r.i > kExact || r.i < -kExact))) {
        return fail("integer division beyond 53 bits");
      }
      out.is_float = true;
      out.f = as_double(l) / as_double(r);
      return Value(out);
    }
    if (op == '%') {
      if ((r.is_float && r.f == 0) || (!r.is_float && r.i == 0)) return fail("modulo by zero");
      if (!l.is_float && !r.is_float) {
        if (l.i == INT64_MIN && r.i == -1) return fail("integer overflow");
        std::int64_t m = l.i % r.i;
        if (m != 0 && ((m < 0) != (r.i < 0))) m += r.i;
        out.i = m;
        return Value(out);
      }
      const double a = as_double(l);
      const double b = as_double(r);
      double m = std::fmod(a, b);
      if (m != 0) {
        if ((b < 0) != (m < 0)) m += b;
      } else {
        m = std::copysign(0.0, b);
      }
      out.is_float = true;
      out.f = m;
      return Value(out);
    }
    if (l.is_float || r.is_float) {
      const double a = as_double(l);
      const double b = as_double(r);
      out.is_float = true;
      out.f = op == '+' ? a + b : op == '-' ? a - b : a * b;
      return Value(out);
    }
    bool overflow = false;
    if (op == '+') {
      overflow = __builtin_add_overflow(l.i, r.i, &out.i);
    } else if (op == '-') {
      overflow = __builtin_sub_overflow(l.i, r.i, &out.i);
    } else {
      overflow = __builtin_mul_overflow(l.i, r.i, &out.i);
    }
    if (overflow) return fail("integer beyond 64 bits");
    return Value(out);
  }

  std::optional<Value> unary(char op, const Number& n) {
    Number out = n;
    out.is_bool = false;
    if (op == '+') return Value(out);
    if (n.is_float) {
      if (op == '~') return fail("`~` of a float");
      out.f = -n.f;
      return Value(out);
    }
    if (n.i == INT64_MIN) return fail("integer beyond 64 bits");
    out.i = op == '-' ? -n.i : ~n.i;
    return Value(out);
  }

  // --- metric.py's Simplify, Equals and ToPerfJson ---

  bool is_constant(Id id) const { return nodes_[id].kind == Kind::constant; }
  bool constant_is(Id id, std::string_view value) const {
    return is_constant(id) && nodes_[id].text == value;
  }

  Id simplify(Id id) {
    const Node node = nodes_[id];  // a copy: add() may move the vector
    switch (node.kind) {
      case Kind::op:
        return simplify_op(node);
      case Kind::select: {
        const Id cond = simplify(node.b);
        const Id when_true = cond == kNone ? kNone : simplify(node.a);
        const Id when_false = when_true == kNone ? kNone : simplify(node.c);
        if (when_false == kNone) return kNone;
        if (is_constant(cond)) return nodes_[cond].text == "0" ? when_false : when_true;
        if (equals(when_true, when_false)) return when_true;
        Node out = node;
        out.a = when_true;
        out.b = cond;
        out.c = when_false;
        return add(std::move(out));
      }
      case Kind::function: {
        const Id lhs = simplify(node.a);
        if (lhs == kNone) return kNone;
        Id rhs = kNone;
        if (node.b != kNone) {
          rhs = simplify(node.b);
          if (rhs == kNone) return kNone;
        }
        if (is_constant(lhs) && rhs != kNone && is_constant(rhs)) {
          if (node.text == "d_ratio" && nodes_[rhs].text == "0") return constant("0");
          // metric.py hands the printed call to ast.literal_eval, which refuses it.
          return fail_id("`" + node.text + "` of two constants");
        }
        Node out = node;
        out.a = lhs;
        out.b = rhs;
        return add(std::move(out));
      }
      default:
        return id;
    }
  }

  Id simplify_op(const Node& node) {
    const Id lhs = simplify(node.a);
    if (lhs == kNone) return kNone;
    const Id rhs = simplify(node.b);
    if (rhs == kNone) return kNone;
    // metric.py folds two constants by handing an Operator object to ast.literal_eval, which
    // refuses it: perf's build would stop.
    if (is_constant(lhs) && is_constant(rhs)) return fail_id("an operator on two constants");
    const char op = node.op;
    // The left side is tested before simplification, the right after (as metric.py does).
    if (is_constant(node.a)) {
      if ((op == '+' || op == '|') && constant_is(lhs, "0")) return rhs;
      // 0 * slots events stay: the topdown metrics put them there on purpose.
      if (op == '*' && constant_is(lhs, "0") &&
          (nodes_[rhs].kind != Kind::event || !contains_slots(nodes_[rhs].text))) {
        return constant("0");
      }
      if (op == '*' && constant_is(lhs, "1")) return rhs;
    }
    if (is_constant(rhs)) {
      if ((op == '+' || op == '|') && constant_is(rhs, "0")) return lhs;
      if (op == '*' && constant_is(rhs, "0")) return constant("0");
      if (op == '*') {
        // metric.py reads the unsimplified right side's value here; only a Constant has one.
        if (!is_constant(node.b)) return fail_id("`*` of an expression that became a constant");
        if (constant_is(node.b, "1")) return lhs;
      }
    }
    return make_op(op, lhs, rhs);
  }

  static bool contains_slots(std::string_view name) {
    std::string lower(name);
    for (char& c : lower) {
      if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    }
    return lower.find("slots") != std::string::npos;
  }

  bool equals(Id x, Id y) const {
    const Node& a = nodes_[x];
    const Node& b = nodes_[y];
    if (a.kind != b.kind) return false;
    switch (a.kind) {
      case Kind::op:
        return a.op == b.op && equals(a.a, b.a) && equals(a.b, b.b);
      case Kind::select:
        return equals(a.b, b.b) && equals(a.c, b.c) && equals(a.a, b.a);
      case Kind::function:
        // metric.py compares the second argument only when the left one has it.
        if (a.text != b.text || !equals(a.a, b.a)) return false;
        if (a.b == kNone) return true;
        return b.b != kNone && equals(a.b, b.b);
      default:
        return a.text == b.text;
    }
  }

  std::string print(Id id) const {
    const Node& node = nodes_[id];
    switch (node.kind) {
      case Kind::op:
        return bracket(node.op, node.a, false) + ' ' + node.op + ' ' +
               bracket(node.op, node.b, true);
      case Kind::select:
        return '(' + print(node.a) + " if " + print(node.b) + " else " + print(node.c) + ')';
      case Kind::function:
        if (node.b == kNone) return node.text + '(' + print(node.a) + ')';
        return node.text + '(' + print(node.a) + ", " + print(node.b) + ')';
      case Kind::event: {
        std::string name = node.text;
        for (char& c : name) {
          if (c == '/') c = '@';
        }
        return name;
      }
      default:
        return node.text;
    }
  }

  // An operand is bracketed when it is an operator that binds less tightly, or as tightly on
  // the right (a - (b - c), a / (b * c)).
  std::string bracket(char op, Id operand, bool right) const {
    std::string text = print(operand);
    const Node& node = nodes_[operand];
    if (node.kind == Kind::op &&
        (rank(op) > rank(node.op) || (right && rank(op) == rank(node.op)))) {
      return '(' + text + ')';
    }
    return text;
  }
};

}  // namespace

Expected<std::string, std::string> metric_py_rewrite(std::string_view written, JeventsRules rules) {
  Rewriter rewriter;
  std::optional<std::string> result = rewriter.run(written, rules);
  if (!result) {
    return unexpected(rewriter.error ? *rewriter.error : std::string("metric.py refuses it"));
  }
  return std::move(*result);
}

}  // namespace pmu_events
PMUCAT_END_NAMESPACE
