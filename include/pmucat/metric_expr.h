// perf 6.1's metric expression language (the `MetricExpr` of the vendor JSON tables): parsing
// into a copyable AST with located diagnostics, printing back, evaluation against event values,
// and the set of ids (events, other metrics) a metric needs, in the order perf 6.1 keeps them.
//
// The language, as perf 6.1's expr.l/expr.y accept it (docs/grammar.md, "Metric expressions"):
//   numbers `12`, `1.5`, `.5`, `2.`, `1e-3` (lower-case e, no `+`); ids `INST_RETIRED.ANY`,
//   `cpu@INST_RETIRED.ANY@`, `EVENT\,param\=?` (`\` escapes only `-`, `,` and `=`; `?` is the
//   runtime parameter); literals `#num_cpus`, `#smt_on`, ...; `+ - * / % | ^ & < >`, unary `-`,
//   `A if COND else B`, `min(a, b)`, `max(a, b)`, `d_ratio(a, b)`, `source_count(ID)`.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "pmucat/expected.h"
#include "pmucat/perf_profile.h"
#include "pmucat/version.h"

PMUCAT_BEGIN_NAMESPACE
namespace metric_expr {

// The literals perf's expr__get_literal knows: the first seven since perf 6.1, the last three
// since perf 6.12 (find_ids() under perf 6.1's rules rejects them as unknown). perf matches
// `#smt_on` and `#system_tsc_freq` case-insensitively, the others exactly.
enum class Literal : std::uint8_t {
  num_cpus,
  system_tsc_freq,
  smt_on,
  core_wide,
  num_packages,
  num_dies,
  num_cores,
  num_cpus_online,  // perf 6.12: the online CPUs
  has_pmem,         // perf 6.12: 1 when sysfs has firmware/acpi/tables/NFIT
  slots,            // perf 6.12: the core PMU's slots per cycle (NaN, so unusable, on x86)
  target_cpu,       // perf 7.2: 1 when perf counts CPUs (-a, -C), 0 when it counts a command
};
inline constexpr int literal_count = 11;
// The first dialect whose expr__get_literal knows `literal`.
MetricDialect literal_since(Literal literal);
// The first perf release whose expression language `dialect` is ("7.2"), for messages.
std::string_view dialect_name(MetricDialect dialect);
// The canonical spelling with its `#` ("#num_cpus").
std::string_view to_string(Literal literal);
// The literal `#name` denotes (the text includes the `#`), or nothing when no perf knows it
// (literal_since() says which perf; perf 6.1's rules reject the 6.12 ones). Under perf 6.1's and
// 6.12's rules only `#smt_on` and `#system_tsc_freq` match in any case; perf 7.3 looks every
// literal up as a tool-PMU event, by name in any case.
std::optional<Literal> find_literal(std::string_view text);
std::optional<Literal> find_literal(std::string_view text, MetricDialect rules);

// Binary operators and the two-argument functions, which share a node shape.
enum class Op : std::uint8_t {
  add,      // +
  sub,      // -
  mul,      // *
  div,      // /   (a zero divisor aborts the whole expression, as in perf)
  mod,      // %   ((long)a % (long)b)
  bit_or,   // |   ((long)a | (long)b)
  bit_and,  // &
  bit_xor,  // ^
  less,     // <   (1 or 0)
  greater,  // >
  min,      // min(a, b)
  max,      // max(a, b)
  d_ratio,  // d_ratio(a, b): a / b, 0 when b is 0
};
// "+", "min", ...
std::string_view to_string(Op op);
// Binding strength as perf's expr.y declares it (higher binds tighter); 0 for the functions.
int precedence(Op op);

enum class NodeKind : std::uint8_t {
  number,        // `number`
  id,            // `name`: an event, a tool event (duration_time) or another metric
  source_count,  // source_count(name)
  literal,       // `literal`
  negate,        // -a
  binary,        // a op b, or op(a, b) for min/max/d_ratio
  if_else,       // a if b else c
  // perf 6.12 (keywords of its lexer only; perf 6.1 reads them as ids):
  has_event,         // has_event(name): 1 when the event parses, else 0
  strcmp_cpuid_str,  // strcmp_cpuid_str(name): 1 when the CPU identifier matches name
  // perf 7.3 (a keyword of its lexer only):
  aggr_nr,  // aggr_nr(name): how many counts (CPUs, ...) were aggregated into name's value
};

using NodeIndex = std::uint32_t;
inline constexpr NodeIndex no_node = 0xffffffffU;

struct Node {
  NodeKind kind = NodeKind::number;
  Op op = Op::add;                      // binary
  Literal literal = Literal::num_cpus;  // literal
  double number = 0;                    // number
  // id / source_count / aggr_nr / has_event / strcmp_cpuid_str: the name with perf's `\` escapes
  // removed; a `?` is kept (it becomes the runtime parameter when ids are computed or looked up).
  std::string name;
  // negate: a; binary: a op b; if_else: a if b else c.
  NodeIndex a = no_node, b = no_node, c = no_node;
  std::uint32_t offset = 0;  // byte offset of the node's first token in the source
  std::uint32_t length = 0;  // bytes of source the node spans
  friend bool operator==(const Node&, const Node&) = default;
};

// A parsed expression: a value (copyable, comparable). Nodes are stored children first; the
// root is the last node.
struct Expr {
  std::vector<Node> nodes;
  NodeIndex root = no_node;
  std::string source;  // the text that was parsed
  std::string file;    // the name diagnostics use
  const Node& node(NodeIndex index) const { return nodes[index]; }
  const Node& root_node() const { return nodes[root]; }
  friend bool operator==(const Expr&, const Expr&) = default;
};

// Parses `text` in the dialect `rules`: perf 6.1's, perf 6.12's (MetricDialect::of_6_12), whose
// lexer adds the keywords `has_event` and `strcmp_cpuid_str` and the number `NaN`, or perf 7.3's,
// which adds `aggr_nr`, `#target_cpu` and literals in any case. Errors are
// located diagnostics (ids metric-expr-*) in `file_name` (default "<metric>").
Expected<Expr> parse(std::string_view text, std::string_view file_name = {},
                     MetricDialect rules = MetricDialect::of_6_1);

// Prints `expr` back in a canonical spelling (single spaces around binary operators, parentheses
// only where perf's precedence needs them, names re-escaped) that parses to an expression which
// evaluates identically.
std::string to_string(const Expr& expr);

// The name with `?` replaced by `runtime`, as perf's lexer does.
std::string substitute_runtime(std::string_view name, int runtime);

// ---- values ----------------------------------------------------------------------------------

// The literal values (perf reads them from the machine's topology); unset ones are "not known".
struct Literals {
  std::optional<double> values[literal_count];
  std::optional<double>& operator[](Literal literal) { return values[static_cast<int>(literal)]; }
  const std::optional<double>& operator[](Literal literal) const {
    return values[static_cast<int>(literal)];
  }
};

struct IdValue {
  double value = 0;
  int source_count = 1;  // what source_count(id) yields (perf: events aggregated into it)
  int aggr_nr = 1;       // what aggr_nr(id) yields (perf 7.3: counts aggregated into it)
};

// Looks up an id's value (after runtime substitution); nothing when unknown.
using IdLookup = std::function<std::optional<IdValue>(std::string_view name)>;

struct Context {
  IdLookup lookup;
  Literals literals;
  int runtime = 0;  // replaces `?` in names
  // strcmp_cpuid_str(name): whether the CPU identifier matches `name` (perf 6.12 asks its
  // architecture's rule); unset or nothing: not known (the value is NaN, as perf's without one).
  std::function<std::optional<bool>(std::string_view name)> cpuid_matches;
  // has_event(name): whether the machine has the event (perf 6.12 asks whether the event
  // string parses; `cpu@cycles\-t@` is asked as `cpu/cycles-t/`). Unset: whether `lookup`
  // knows the name.
  std::function<bool(std::string_view event)> event_exists;
};

enum class Status : std::uint8_t {
  value,             // `value` holds the result (possibly NaN or +-inf, as perf computes it)
  missing_id,        // an id the result depends on has no value; `name` says which
  missing_literal,   // a literal the expression uses is not known; `name` says which
  division_by_zero,  // `/` or `%` by zero: perf 6.1 aborts the expression (prints no value)
};
std::string_view to_string(Status status);

struct Result {
  Status status = Status::value;
  double value = 0;
  std::string name;          // the missing id or literal
  std::uint32_t offset = 0;  // where in the source the problem is
  bool ok() const { return status == Status::value; }
};

// Evaluates `expr` with perf 6.1's arithmetic (doubles; `| & ^ %` on values truncated to long as
// x86-64 does). `a if c else b` takes b exactly when c is zero and only the taken branch's ids
// must be known; every other operand must be known. A missing id is never turned into a number.
// has_event(name) is 1 when Context::event_exists says the event exists (without one: when
// `lookup` knows the name), else 0.
Result evaluate(const Expr& expr, const Context& context);

// ---- ids, in perf 6.1's hashmap order ----------------------------------------------------------

// perf 6.1's string hash for ids (expr.c key_hash: h = h * 31 + c with c a signed char).
std::size_t perf_id_hash(std::string_view key);
// libbpf hashmap's hash_bits: the top `bits` bits of hash * 11400714819323198485.
std::size_t perf_hash_bits(std::size_t hash, int bits);

// A set of ids that iterates exactly as perf 6.1's `struct hashmap` of ids does: buckets of
// 2^cap_bits (grown from 4 when more than 3/4 full), new keys at the head of their bucket, rehash
// walking the old buckets in order; iteration bucket by bucket, head first.
class MetricIdSet {
 public:
  // Inserts `key` (hashmap__set): an existing key keeps its place.
  void insert(std::string_view key);
  // Deletes `key` (hashmap__delete); returns whether it was there. Capacity is not reduced.
  bool erase(std::string_view key);
  bool contains(std::string_view key) const;
  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  std::size_t capacity() const { return buckets_.size(); }
  // The keys in perf's iteration order.
  std::vector<std::string> keys() const;
  // Empties the set and frees its buckets (hashmap__clear: capacity 0).
  void clear();

  // perf's ids__union(ids1, ids2): the larger set is kept (ids1 on a tie) and the other's keys
  // are inserted into it in its iteration order. `null` sets (perf's NULL) are modelled by
  // std::nullopt: union with nothing returns the other unchanged.
  static std::optional<MetricIdSet> unite(std::optional<MetricIdSet> ids1,
                                          std::optional<MetricIdSet> ids2);

  // Same keys in the same order and the same capacity.
  friend bool operator==(const MetricIdSet& a, const MetricIdSet& b);

 private:
  struct Entry {
    std::string key;
    std::int32_t next = -1;
    bool live = true;
  };
  void grow();
  std::int32_t find(std::string_view key, std::size_t bucket) const;
  std::vector<Entry> entries_;
  std::vector<std::int32_t> buckets_;  // head entry index per bucket, -1 when empty
  int cap_bits_ = 0;
  std::size_t size_ = 0;
};

// What perf 6.12's has_event() and strcmp_cpuid_str() ask of the machine while ids are computed.
struct Functions {
  // has_event(name): whether perf parses the event string (`cpu@cycles\-t@` is asked as
  // `cpu/cycles-t/`). A name already among the ids is there without asking. Unset: not known,
  // so the value is unknown and a conditional on it needs both branches.
  std::function<bool(std::string_view event)> event_parses;
  // strcmp_cpuid_str(name), as Context::cpuid_matches; unset or nothing: NaN.
  std::function<std::optional<bool>(std::string_view name)> cpuid_matches;
};

// perf's expr__find_ids(expr, one, ctx): computes the ids `expr` needs (constant-folding
// with `literals` so that `A if #smt_on else B` needs only the taken side), unites them into
// `ids` as expr.y's start rule does (ctx->ids = ids__union(new, ctx->ids)) and then deletes
// `one` when given. Errors (a division by a constant zero, an unknown literal value) are located
// diagnostics; `ids` is then unchanged.
//
// `rules` is the perf release whose expr.y folds the constants. perf 6.12 (measured against its
// `perf stat -M`): `|` `&` are logical and short-circuit on a constant side (`0 & x` needs no
// ids, `1 & x` needs x's), `^` of two constants is a logical xor, `x / 0` is NaN needing no ids
// (6.1: a broken metric), and #num_cpus_online, #has_pmem, #slots are literals.
Expected<bool> find_ids(const Expr& expr, const Literals& literals, MetricIdSet& ids,
                        std::string_view one = {}, int runtime = 0,
                        MetricDialect rules = MetricDialect::of_6_1,
                        const Functions& functions = {});

// The ids alone, in a fresh set.
Expected<MetricIdSet> compute_ids(const Expr& expr, const Literals& literals, int runtime = 0,
                                  MetricDialect rules = MetricDialect::of_6_1);

}  // namespace metric_expr
PMUCAT_END_NAMESPACE
