// Properties of metric_expr: printing and re-parsing gives the same tree, the same value and the
// same ids (in the same order); any text either parses or fails with a located diagnostic.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cmath>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "pmucat/metric_expr.h"

PMUCAT_BEGIN_NAMESPACE
namespace metric_expr {
namespace {

const std::map<std::string, double>& id_values() {
  static const std::map<std::string, double> values = {
      {"cycles", 1000}, {"instructions", 2500}, {"cpu@INST_RETIRED.ANY@", 0}, {"EV:u", -3},
      {"a-b", 0.5},     {"x,y=1", 7},           {"duration_time", 1e9},
  };
  return values;
}

Context context_for_test() {
  Context context;
  context.lookup = [](std::string_view name) -> std::optional<IdValue> {
    const auto& values = id_values();
    auto it = values.find(std::string(name));
    if (it == values.end()) return std::nullopt;
    return IdValue{it->second, 2};
  };
  for (int i = 0; i < literal_count; ++i) context.literals.values[i] = i % 3;
  return context;
}

// "n/10" as a decimal with one fraction digit ("3.7").
std::string fmt_decimal(int n) {
  std::string out = std::to_string(n / 10);
  out += '.';
  out += std::to_string(n % 10);
  return out;
}

std::string escaped(const std::string& name) {
  std::string out;
  for (char c : name) {
    if (c == '-' || c == ',' || c == '=') out += '\\';
    out += c;
  }
  return out;
}

// Valid expression text: every compound operand is parenthesized, so any choice parses.
rc::Gen<std::string> gen_expr(int depth) {
  auto leaf = rc::gen::oneOf(
      rc::gen::map(rc::gen::inRange(0, 1000), [](int n) { return std::to_string(n); }),
      rc::gen::map(rc::gen::inRange(0, 100), [](int n) { return fmt_decimal(n); }),
      rc::gen::map(rc::gen::elementOf(std::vector<std::string>{
                       "cycles", "instructions", "cpu@INST_RETIRED.ANY@", "EV:u", "a-b", "x,y=1",
                       "duration_time", "missing"}),
                   [](const std::string& name) { return escaped(name); }),
      rc::gen::elementOf(
          std::vector<std::string>{"#num_cpus", "#smt_on", "#core_wide", "#num_dies", "#SMT_ON"}),
      rc::gen::map(rc::gen::elementOf(std::vector<std::string>{"cycles", "EV:u", "nope"}),
                   [](const std::string& name) {
                     std::string out = "source_count(";
                     out += name;
                     out += ')';
                     return out;
                   }));
  if (depth <= 0) return leaf;
  auto sub = gen_expr(depth - 1);
  return rc::gen::oneOf(
      leaf,
      rc::gen::apply(
          [](std::string a, std::string op, std::string b) {
            std::string out = "(";
            out += a;
            out += ") ";
            out += op;
            out += " (";
            out += b;
            out += ")";
            return out;
          },
          sub,
          rc::gen::elementOf(
              std::vector<std::string>{"+", "-", "*", "/", "%", "|", "&", "^", "<", ">"}),
          sub),
      rc::gen::apply(
          [](std::string fn, std::string a, std::string b) {
            std::string out = fn;
            out += "(";
            out += a;
            out += ",";
            out += b;
            out += ")";
            return out;
          },
          rc::gen::elementOf(std::vector<std::string>{"min", "max", "d_ratio"}), sub, sub),
      rc::gen::apply(
          [](std::string a, std::string c, std::string b) {
            std::string out = "((";
            out += a;
            out += ") if (";
            out += c;
            out += ") else (";
            out += b;
            out += "))";
            return out;
          },
          sub, sub, sub),
      rc::gen::map(sub, [](std::string a) {
        std::string out = "-(";
        out += a;
        out += ")";
        return out;
      }));
}

bool same_value(const Result& x, const Result& y) {
  if (x.status != y.status || x.name != y.name) return false;
  if (x.status != Status::value) return true;
  if (std::isnan(x.value)) return std::isnan(y.value);
  return std::memcmp(&x.value, &y.value, sizeof(double)) == 0 || x.value == y.value;
}

bool same_tree(const Expr& x, const Expr& y) {
  if (x.nodes.size() != y.nodes.size() || x.root != y.root) return false;
  for (std::size_t i = 0; i < x.nodes.size(); ++i) {
    const Node& a = x.nodes[i];
    const Node& b = y.nodes[i];
    if (a.kind != b.kind || a.op != b.op || a.literal != b.literal || a.name != b.name ||
        a.a != b.a || a.b != b.b || a.c != b.c) {
      return false;
    }
    if (a.kind == NodeKind::number && a.number != b.number) return false;
  }
  return true;
}

void check_round_trip(const Expr& expr) {
  std::string printed = to_string(expr);
  auto again = parse(printed);
  RC_ASSERT(again.has_value());
  RC_ASSERT(same_tree(expr, *again));
  RC_ASSERT(to_string(*again) == printed);
  Context context = context_for_test();
  RC_ASSERT(same_value(evaluate(expr, context), evaluate(*again, context)));
  auto ids1 = compute_ids(expr, context.literals);
  auto ids2 = compute_ids(*again, context.literals);
  RC_ASSERT(ids1.has_value() == ids2.has_value());
  if (ids1) RC_ASSERT(ids1->keys() == ids2->keys());
}

RC_GTEST_PROP(MetricExprProperty, PrintThenParseIsIdentical, ()) {
  std::string text = *gen_expr(3);
  auto expr = parse(text);
  RC_ASSERT(expr.has_value());
  check_round_trip(*expr);
}

RC_GTEST_PROP(MetricExprProperty, AnyTextParsesOrIsLocated, ()) {
  std::string alphabet = "abcE0123456789.e-+*/%|&^<>(),#_@:?\\= \nifelsminaxd_rtosurc";
  std::string text = *rc::gen::container<std::string>(rc::gen::elementOf(alphabet));
  auto expr = parse(text);
  if (!expr) {
    RC_ASSERT(!expr.error().id.empty());
    RC_ASSERT(expr.error().range.offset <= text.size());
    return;
  }
  check_round_trip(*expr);
}

// Every id a successful evaluation depends on is in the ids perf would open: with only those
// ids known, evaluation still succeeds with the same value.
RC_GTEST_PROP(MetricExprProperty, IdsSufficeForEvaluation, ()) {
  std::string text = *gen_expr(3);
  auto expr = parse(text);
  RC_ASSERT(expr.has_value());
  Context context = context_for_test();
  Result full = evaluate(*expr, context);
  auto ids = compute_ids(*expr, context.literals);
  RC_PRE(full.ok() && ids.has_value());
  Context restricted = context;
  MetricIdSet needed = *ids;
  restricted.lookup = [needed,
                       inner = context.lookup](std::string_view name) -> std::optional<IdValue> {
    if (!needed.contains(name)) return std::nullopt;
    return inner(name);
  };
  RC_ASSERT(same_value(full, evaluate(*expr, restricted)));
}

}  // namespace
}  // namespace metric_expr
PMUCAT_END_NAMESPACE
