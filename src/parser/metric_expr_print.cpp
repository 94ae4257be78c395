// Printing a metric expression back in a canonical spelling that perf 6.1's grammar re-reads to
// the same expression.
#include <fmt/format.h>

#include <cmath>
#include <string>

#include "pmucat/metric_expr.h"

namespace pmucat::metric_expr {

namespace {

// The precedence of a node as an operand (higher binds tighter): primaries and function calls
// bind tightest, a conditional loosest.
int node_precedence(const Node& node) {
  switch (node.kind) {
    case NodeKind::if_else:
      return 1;
    case NodeKind::binary: {
      int prec = precedence(node.op);
      return prec == 0 ? 9 : prec;
    }
    case NodeKind::negate:
      return 8;
    default:
      return 9;
  }
}

void print_number(std::string& out, double value) {
  if (std::isnan(value)) {
    out += "NaN";  // perf 6.12's spelling (only its lexer makes a NaN number)
    return;
  }
  if (value < 0 || (value == 0 && std::signbit(value))) {
    out += '-';
    value = -value;
  }
  std::string text = fmt::format("{}", value);
  // expr.l's exponent is `e-?[0-9]+`: no '+'.
  if (auto plus = text.find("e+"); plus != std::string::npos) text.erase(plus + 1, 1);
  out += text;
}

void print_name(std::string& out, const std::string& name) {
  for (char c : name) {
    if (c == '-' || c == ',' || c == '=') out += '\\';
    out += c;
  }
}

class Printer {
 public:
  explicit Printer(const Expr& expr) : expr_(expr) {}

  void print(NodeIndex index, int min_prec, std::string& out) const {
    const Node& node = expr_.node(index);
    bool parens = node_precedence(node) < min_prec;
    if (parens) out += '(';
    switch (node.kind) {
      case NodeKind::number:
        print_number(out, node.number);
        break;
      case NodeKind::id:
        print_name(out, node.name);
        break;
      case NodeKind::source_count:
      case NodeKind::has_event:
      case NodeKind::strcmp_cpuid_str:
        out += node.kind == NodeKind::source_count ? "source_count("
               : node.kind == NodeKind::has_event  ? "has_event("
                                                   : "strcmp_cpuid_str(";
        print_name(out, node.name);
        out += ')';
        break;
      case NodeKind::literal:
        out += to_string(node.literal);
        break;
      case NodeKind::negate:
        out += '-';
        print(node.a, 8, out);
        break;
      case NodeKind::binary: {
        int prec = precedence(node.op);
        if (prec == 0) {
          out += to_string(node.op);
          out += '(';
          print(node.a, 2, out);
          out += ", ";
          print(node.b, 2, out);
          out += ')';
        } else {
          print(node.a, prec, out);  // left-associative: an equal left operand needs none
          out += ' ';
          out += to_string(node.op);
          out += ' ';
          print(node.b, prec + 1, out);
        }
        break;
      }
      case NodeKind::if_else:
        print(node.a, 2, out);
        out += " if ";
        print(node.b, 2, out);
        out += " else ";
        print(node.c, 1, out);
        break;
    }
    if (parens) out += ')';
  }

 private:
  const Expr& expr_;
};

}  // namespace

std::string to_string(const Expr& expr) {
  std::string out;
  if (expr.root == no_node) return out;
  Printer(expr).print(expr.root, 1, out);
  return out;
}

}  // namespace pmucat::metric_expr
