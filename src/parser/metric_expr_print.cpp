// Printing a metric expression back in a canonical spelling that perf 6.1's grammar re-reads to
// the same expression.
#include <fmt/format.h>

#include <cmath>
#include <string>
#include <string_view>
#include <vector>

#include "pmucat/metric_expr.h"

PMUCAT_BEGIN_NAMESPACE
namespace metric_expr {

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

// Prints with an explicit stack of what is still to write, so that a deep tree (a long
// `a + b + c + ...` chain is as deep as it is long) needs heap, not the machine's stack.
class Printer {
 public:
  explicit Printer(const Expr& expr) : expr_(expr) {}

  void print(NodeIndex root, int min_prec, std::string& out) {
    todo_.push_back(Item{root, min_prec, {}});
    while (!todo_.empty()) {
      const Item item = todo_.back();
      todo_.pop_back();
      if (item.node == no_node) {
        out += item.text;
        continue;
      }
      const Node& node = expr_.node(item.node);
      if (node_precedence(node) < item.min_prec) {
        out += '(';
        text(")");
      }
      switch (node.kind) {
        case NodeKind::number:
          print_number(out, node.number);
          break;
        case NodeKind::id:
          print_name(out, node.name);
          break;
        case NodeKind::source_count:
        case NodeKind::aggr_nr:
        case NodeKind::has_event:
        case NodeKind::strcmp_cpuid_str:
          out += node.kind == NodeKind::source_count ? "source_count("
                 : node.kind == NodeKind::aggr_nr    ? "aggr_nr("
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
          later(node.a, 8);
          break;
        case NodeKind::binary: {
          // Pushed last first: they are written in the opposite order.
          const int prec = precedence(node.op);
          if (prec == 0) {
            out += to_string(node.op);
            out += '(';
            text(")");
            later(node.b, 2);
            text(", ");
            later(node.a, 2);
          } else {
            later(node.b, prec + 1);
            text(" ");
            text(to_string(node.op));
            text(" ");
            later(node.a, prec);  // left-associative: an equal left operand needs none
          }
          break;
        }
        case NodeKind::if_else:
          later(node.c, 1);
          text(" else ");
          later(node.b, 2);
          text(" if ");
          later(node.a, 2);
          break;
      }
    }
  }

 private:
  struct Item {
    NodeIndex node;  // no_node: write `text`
    int min_prec;
    std::string_view text;  // a literal of this file or of to_string(Op)
  };
  void later(NodeIndex node, int min_prec) { todo_.push_back(Item{node, min_prec, {}}); }
  void text(std::string_view text) { todo_.push_back(Item{no_node, 0, text}); }

  const Expr& expr_;
  std::vector<Item> todo_;
};

}  // namespace

std::string to_string(const Expr& expr) {
  std::string out;
  if (expr.root == no_node) return out;
  Printer(expr).print(expr.root, 1, out);
  return out;
}

}  // namespace metric_expr
PMUCAT_END_NAMESPACE
