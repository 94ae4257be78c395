// Evaluating a metric expression with perf 6.1's arithmetic (util/expr.y with compute_ids false),
// and computing the ids it needs (compute_ids true) into perf's hashmap order, with perf 6.1's or
// perf 6.12's constant folding.
#include <fmt/format.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "pmucat/diagnostic_ids.h"
#include "pmucat/metric_expr.h"

PMUCAT_BEGIN_NAMESPACE
namespace metric_expr {

std::string_view to_string(Status status) {
  switch (status) {
    case Status::value:
      return "value";
    case Status::missing_id:
      return "missing-id";
    case Status::missing_literal:
      return "missing-literal";
    case Status::division_by_zero:
      return "division-by-zero";
  }
  return "?";
}

namespace {

// (long)x as x86-64 computes it (cvttsd2si): NaN and values out of range give LONG_MIN.
std::int64_t to_long(double x) {
  constexpr double limit = 9223372036854775808.0;  // 2^63
  if (std::isnan(x) || x >= limit || x < -limit) return std::numeric_limits<std::int64_t>::min();
  return static_cast<std::int64_t>(x);
}

bool is_zero(double x) {
  return std::fpclassify(x) == FP_ZERO;
}

// An operator's value; nothing for a `/` or `%` perf aborts on (or crashes on: `%` by a value
// that truncates to 0, LONG_MIN % -1).
std::optional<double> apply(Op op, double a, double b) {
  switch (op) {
    case Op::add:
      return a + b;
    case Op::sub:
      return a - b;
    case Op::mul:
      return a * b;
    case Op::div:
      if (is_zero(b)) return std::nullopt;
      return a / b;
    case Op::mod: {
      if (is_zero(b)) return std::nullopt;
      std::int64_t la = to_long(a);
      std::int64_t lb = to_long(b);
      if (lb == 0 || (lb == -1 && la == std::numeric_limits<std::int64_t>::min())) {
        return std::nullopt;
      }
      return static_cast<double>(la % lb);
    }
    case Op::bit_or:
      return static_cast<double>(to_long(a) | to_long(b));
    case Op::bit_and:
      return static_cast<double>(to_long(a) & to_long(b));
    case Op::bit_xor:
      return static_cast<double>(to_long(a) ^ to_long(b));
    case Op::less:
      return a < b ? 1.0 : 0.0;
    case Op::greater:
      return a > b ? 1.0 : 0.0;
    case Op::min:
      return a < b ? a : b;
    case Op::max:
      return a > b ? a : b;
    case Op::d_ratio:
      if (is_zero(b)) return 0.0;
      return a / b;
  }
  return std::nullopt;
}

struct Value {
  double value = 0;
  NodeIndex missing = no_node;  // the first id node the value depends on that has no value
};

}  // namespace

namespace {

// has_event's question: the id with its first and last `@` as `/` (`cpu@cycles-t@` ->
// `cpu/cycles-t/`), as perf 6.12 parses it.
std::string has_event_string(std::string_view id) {
  std::string out(id);
  const auto first = out.find('@');
  if (first == std::string::npos) return out;
  out[first] = '/';
  const auto last = out.rfind('@');
  if (last != std::string::npos) out[last] = '/';
  return out;
}

}  // namespace

Result evaluate(const Expr& expr, const Context& context) {
  Result result;
  if (expr.root == no_node) {
    result.status = Status::missing_id;
    return result;
  }
  // Nodes are stored children first, so one pass in index order is perf's bottom-up reduction.
  std::vector<Value> values(expr.nodes.size());
  for (NodeIndex i = 0; i < expr.nodes.size(); ++i) {
    const Node& node = expr.nodes[i];
    Value& out = values[i];
    switch (node.kind) {
      case NodeKind::number:
        out.value = node.number;
        break;
      case NodeKind::id:
      case NodeKind::source_count:
      case NodeKind::aggr_nr: {
        std::optional<IdValue> found;
        if (context.lookup) {
          if (node.name.find('?') == std::string::npos) {
            found = context.lookup(node.name);  // no runtime parameter: no copy
          } else {
            found = context.lookup(substitute_runtime(node.name, context.runtime));
          }
        }
        if (!found) {
          out.value = std::numeric_limits<double>::quiet_NaN();
          out.missing = i;
        } else {
          out.value = node.kind == NodeKind::id ? found->value
                      : node.kind == NodeKind::source_count
                          ? static_cast<double>(found->source_count)
                          : static_cast<double>(found->aggr_nr);
        }
        break;
      }
      case NodeKind::has_event: {
        const std::string name = substitute_runtime(node.name, context.runtime);
        if (context.event_exists) {
          out.value = context.event_exists(has_event_string(name)) ? 1.0 : 0.0;
        } else {
          out.value = context.lookup && context.lookup(name) ? 1.0 : 0.0;
        }
        break;
      }
      case NodeKind::strcmp_cpuid_str: {
        std::optional<bool> match;
        if (context.cpuid_matches) match = context.cpuid_matches(node.name);
        out.value = match ? (*match ? 1.0 : 0.0) : std::numeric_limits<double>::quiet_NaN();
        break;
      }
      case NodeKind::literal: {
        const auto& literal = context.literals[node.literal];
        if (!literal) {
          result.status = Status::missing_literal;
          result.name = std::string(to_string(node.literal));
          result.offset = node.offset;
          return result;
        }
        out.value = *literal;
        break;
      }
      case NodeKind::negate:
        out.value = -values[node.a].value;
        out.missing = values[node.a].missing;
        break;
      case NodeKind::binary: {
        const Value& a = values[node.a];
        const Value& b = values[node.b];
        auto value = apply(node.op, a.value, b.value);
        if (!value) {
          result.status = Status::division_by_zero;
          result.offset = node.offset;
          return result;
        }
        out.value = *value;
        if (node.op == Op::d_ratio && is_zero(b.value)) {
          out.missing = no_node;  // d_ratio(x, 0) is 0 whatever x is; perf opens no event for x
        } else {
          out.missing = a.missing != no_node ? a.missing : b.missing;
        }
        break;
      }
      case NodeKind::if_else: {
        const Value& then = values[node.a];
        const Value& condition = values[node.b];
        const Value& otherwise = values[node.c];
        const Value& taken = is_zero(condition.value) ? otherwise : then;
        out.value = taken.value;
        out.missing = taken.missing;
        if (condition.missing != no_node) {
          // The branch is unknown unless both sides are the same known value (perf then opens
          // no event for the condition).
          bool same = then.missing == no_node && otherwise.missing == no_node &&
                      then.value == otherwise.value;
          if (!same) out.missing = condition.missing;
        }
        break;
      }
    }
  }
  const Value& root = values[expr.root];
  if (root.missing != no_node) {
    const Node& node = expr.nodes[root.missing];
    result.status = Status::missing_id;
    result.name = substitute_runtime(node.name, context.runtime);
    result.offset = node.offset;
    return result;
  }
  result.value = root.value;
  return result;
}

// ---- ids ---------------------------------------------------------------------------------------

static_assert(sizeof(std::size_t) == 8, "perf's LP64 hash_bits");

std::size_t perf_id_hash(std::string_view key) {
  std::size_t hash = 0;
  for (char c : key) {
    hash *= 31;
    // `hash += *str` with a (signed, on x86) char: bytes >= 0x80 subtract.
    hash += static_cast<std::size_t>(static_cast<std::int64_t>(static_cast<signed char>(c)));
  }
  return hash;
}

std::size_t perf_hash_bits(std::size_t hash, int bits) {
  if (bits == 0) return 0;
  return (hash * 11400714819323198485ULL) >> (64 - bits);
}

std::int32_t MetricIdSet::find(std::string_view key, std::size_t bucket) const {
  if (buckets_.empty()) return -1;
  for (std::int32_t cur = buckets_[bucket]; cur >= 0;
       cur = entries_[static_cast<std::size_t>(cur)].next) {
    if (entries_[static_cast<std::size_t>(cur)].key == key) return cur;
  }
  return -1;
}

void MetricIdSet::grow() {
  int new_bits = cap_bits_ + 1;
  if (new_bits < 2) new_bits = 2;
  std::vector<std::int32_t> fresh(std::size_t{1} << new_bits, -1);
  for (std::int32_t head : buckets_) {
    for (std::int32_t cur = head; cur >= 0;) {
      Entry& entry = entries_[static_cast<std::size_t>(cur)];
      std::int32_t next = entry.next;
      std::size_t h = perf_hash_bits(perf_id_hash(entry.key), new_bits);
      entry.next = fresh[h];
      fresh[h] = cur;
      cur = next;
    }
  }
  buckets_ = std::move(fresh);
  cap_bits_ = new_bits;
}

void MetricIdSet::insert(std::string_view key) {
  std::size_t hash = perf_id_hash(key);
  if (find(key, perf_hash_bits(hash, cap_bits_)) >= 0) return;
  // libbpf: grow when empty or when more than 75% full after this insertion.
  if (buckets_.empty() || (size_ + 1) * 4 / 3 > buckets_.size()) grow();
  std::size_t h = perf_hash_bits(hash, cap_bits_);
  Entry entry;
  entry.key = std::string(key);
  entry.next = buckets_[h];
  entries_.push_back(std::move(entry));
  buckets_[h] = static_cast<std::int32_t>(entries_.size() - 1);
  ++size_;
}

bool MetricIdSet::erase(std::string_view key) {
  if (buckets_.empty()) return false;
  std::size_t h = perf_hash_bits(perf_id_hash(key), cap_bits_);
  std::int32_t* link = &buckets_[h];
  while (*link >= 0) {
    Entry& entry = entries_[static_cast<std::size_t>(*link)];
    if (entry.key == key) {
      *link = entry.next;
      entry.next = -1;
      entry.live = false;
      entry.key.clear();
      --size_;
      return true;
    }
    link = &entry.next;
  }
  return false;
}

bool MetricIdSet::contains(std::string_view key) const {
  return find(key, perf_hash_bits(perf_id_hash(key), cap_bits_)) >= 0;
}

std::vector<std::string> MetricIdSet::keys() const {
  std::vector<std::string> out;
  out.reserve(size_);
  for (std::int32_t head : buckets_) {
    for (std::int32_t cur = head; cur >= 0; cur = entries_[static_cast<std::size_t>(cur)].next) {
      out.push_back(entries_[static_cast<std::size_t>(cur)].key);
    }
  }
  return out;
}

void MetricIdSet::clear() {
  entries_.clear();
  buckets_.clear();
  cap_bits_ = 0;
  size_ = 0;
}

bool operator==(const MetricIdSet& a, const MetricIdSet& b) {
  return a.capacity() == b.capacity() && a.keys() == b.keys();
}

std::optional<MetricIdSet> MetricIdSet::unite(std::optional<MetricIdSet> ids1,
                                              std::optional<MetricIdSet> ids2) {
  if (!ids1) return ids2;
  if (!ids2) return ids1;
  if (ids1->size() < ids2->size()) std::swap(ids1, ids2);
  for (const std::string& key : ids2->keys()) ids1->insert(key);
  return ids1;
}

namespace {

struct IdsValue {
  double value = 0;  // NaN: perf's BOTTOM ("any value")
  std::optional<MetricIdSet> ids;
};

bool is_const(double value) {
  return std::isfinite(value);
}

IdsValue union_of(IdsValue& a, IdsValue& b) {
  IdsValue out;
  out.value = std::numeric_limits<double>::quiet_NaN();
  out.ids = MetricIdSet::unite(std::move(a.ids), std::move(b.ids));
  return out;
}

Diagnostic located(const Expr& expr, DiagId id, const Node& node, std::string message) {
  return make_diagnostic(Severity::error, id, expr.file.empty() ? "<metric>" : expr.file,
                         expr.source, node.offset, node.length, std::move(message));
}

}  // namespace

namespace {

// perf 6.12's `|` and `&` while ids are computed: logical, a constant side deciding alone
// when it can (`1 | x` is 1 and `0 & x` is 0, needing no ids; `0 | x` and `1 & x` are x).
IdsValue logical_612(Op op, IdsValue& a, IdsValue& b) {
  const bool is_or = op == Op::bit_or;
  IdsValue out;
  if (is_const(a.value) && is_const(b.value)) {
    out.value = is_or ? (is_zero(a.value) && is_zero(b.value) ? 0.0 : 1.0)
                      : (!is_zero(a.value) && !is_zero(b.value) ? 1.0 : 0.0);
    return out;
  }
  IdsValue* constant = is_const(a.value) ? &a : is_const(b.value) ? &b : nullptr;
  if (constant == nullptr) return union_of(a, b);
  IdsValue& other = constant == &a ? b : a;
  // The side that decides alone: non-zero for `|`, zero for `&`.
  if (is_zero(constant->value) != is_or) {
    out.value = is_or ? 1.0 : 0.0;
    return out;
  }
  return std::move(other);
}

}  // namespace

Expected<bool> find_ids(const Expr& expr, const Literals& literals, MetricIdSet& ids,
                        std::string_view one, int runtime, MetricDialect rules,
                        const Functions& functions) {
  // perf 6.12's folding rules, which perf 7.3 keeps.
  const bool dialect_6_12 = rules >= MetricDialect::of_6_12;
  if (expr.root == no_node) return true;
  constexpr double bottom = std::numeric_limits<double>::quiet_NaN();
  std::vector<IdsValue> values(expr.nodes.size());
  for (NodeIndex i = 0; i < expr.nodes.size(); ++i) {
    const Node& node = expr.nodes[i];
    IdsValue& out = values[i];
    switch (node.kind) {
      case NodeKind::number:
        out.value = node.number;
        break;
      case NodeKind::id:
      case NodeKind::source_count:
      case NodeKind::aggr_nr:
        out.value = bottom;
        out.ids.emplace();
        out.ids->insert(substitute_runtime(node.name, runtime));
        break;
      case NodeKind::has_event: {
        // The ids gathered so far (the context's, before this expression joins them) answer
        // first; then whether the event parses.
        const std::string name = substitute_runtime(node.name, runtime);
        if (ids.contains(name)) {
          out.value = 1.0;
        } else if (functions.event_parses) {
          out.value = functions.event_parses(has_event_string(name)) ? 1.0 : 0.0;
        } else {
          out.value = bottom;
        }
        break;
      }
      case NodeKind::strcmp_cpuid_str: {
        std::optional<bool> match;
        if (functions.cpuid_matches) match = functions.cpuid_matches(node.name);
        out.value = match ? (*match ? 1.0 : 0.0) : bottom;
        break;
      }
      case NodeKind::literal: {
        if (literal_since(node.literal) > rules) {
          return unexpected(
              located(expr, DiagId::metric_expr_unknown_literal, node,
                      fmt::format("unknown literal '{}' (perf {} knows it, perf {} does not)",
                                  to_string(node.literal),
                                  dialect_name(literal_since(node.literal)), dialect_name(rules))));
        }
        const auto& literal = literals[node.literal];
        if (!literal || std::isnan(*literal)) {
          return unexpected(
              located(expr, DiagId::metric_expr_missing_literal, node,
                      fmt::format("the value of {} is not known", to_string(node.literal))));
        }
        out.value = *literal;
        break;
      }
      case NodeKind::negate:
        out.value = -values[node.a].value;
        out.ids = std::move(values[node.a].ids);
        break;
      case NodeKind::binary: {
        IdsValue& a = values[node.a];
        IdsValue& b = values[node.b];
        if (dialect_6_12 && node.op == Op::div && is_zero(b.value)) {
          out.value = bottom;  // NaN, needing no ids
          break;
        }
        if (dialect_6_12 && (node.op == Op::bit_or || node.op == Op::bit_and)) {
          out = logical_612(node.op, a, b);
          break;
        }
        if (dialect_6_12 && node.op == Op::bit_xor && is_const(a.value) && is_const(b.value)) {
          out.value = is_zero(a.value) != is_zero(b.value) ? 1.0 : 0.0;
          break;
        }
        bool divides = node.op == Op::div || node.op == Op::mod;
        if (divides && is_zero(b.value)) {
          return unexpected(located(expr, DiagId::metric_expr_division_by_zero, node,
                                    "division by a constant zero"));
        }
        if (node.op == Op::d_ratio && is_zero(b.value)) {
          out.value = 0.0;  // no events needed
          break;
        }
        if (node.op != Op::min && node.op != Op::max && is_const(a.value) && is_const(b.value)) {
          auto value = apply(node.op, a.value, b.value);
          if (!value) {
            return unexpected(located(expr, DiagId::metric_expr_division_by_zero, node,
                                      "'%' by a value that truncates to zero"));
          }
          out.value = *value;
          break;
        }
        out = union_of(a, b);
        break;
      }
      case NodeKind::if_else: {
        IdsValue& then = values[node.a];
        IdsValue& condition = values[node.b];
        IdsValue& otherwise = values[node.c];
        if (is_zero(condition.value)) {
          out = std::move(otherwise);
        } else if (is_const(condition.value)) {
          out = std::move(then);
        } else if (then.value == otherwise.value) {
          out.value = then.value;
        } else {
          IdsValue inner = union_of(condition, otherwise);
          out = union_of(then, inner);
        }
        break;
      }
    }
  }
  auto united = MetricIdSet::unite(std::move(values[expr.root].ids), std::move(ids));
  ids = united ? std::move(*united) : MetricIdSet{};
  if (!one.empty()) ids.erase(one);
  return true;
}

Expected<MetricIdSet> compute_ids(const Expr& expr, const Literals& literals, int runtime,
                                  MetricDialect rules) {
  MetricIdSet ids;
  auto ok = find_ids(expr, literals, ids, {}, runtime, rules);
  if (!ok) return unexpected(std::move(ok).error());
  return ids;
}

}  // namespace metric_expr
PMUCAT_END_NAMESPACE
