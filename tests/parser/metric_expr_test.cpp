// perf 6.1's metric expression language: values of every operator and literal, perf's own
// tests/expr.c cases restated as facts, the lexer's corner cases, located errors, ids and their
// hashmap order.
#include "pmucat/metric_expr.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include "pmucat/diagnostic_ids.h"

PMUCAT_BEGIN_NAMESPACE
namespace metric_expr {
namespace {

Context make_context(std::map<std::string, double> values = {{"FOO", 1}, {"BAR", 2}}) {
  Context context;
  context.lookup = [values = std::move(values)](std::string_view name) -> std::optional<IdValue> {
    auto it = values.find(std::string(name));
    if (it == values.end()) return std::nullopt;
    return IdValue{it->second, 3};
  };
  context.literals[Literal::num_cpus] = 8;
  context.literals[Literal::num_cores] = 4;
  context.literals[Literal::num_dies] = 1;
  context.literals[Literal::num_packages] = 1;
  context.literals[Literal::smt_on] = 1;
  context.literals[Literal::core_wide] = 0;
  context.literals[Literal::system_tsc_freq] = 2.5e9;
  return context;
}

Result eval(std::string_view text, const Context& context = make_context()) {
  auto expr = parse(text);
  EXPECT_TRUE(expr.has_value()) << text << ": " << (expr ? "" : render(expr.error()));
  if (!expr) return Result{Status::missing_id, 0, "<parse error>", 0};
  return evaluate(*expr, context);
}

double value_of(std::string_view text) {
  Result result = eval(text);
  EXPECT_EQ(result.status, Status::value) << text << " " << result.name;
  return result.value;
}

struct Case {
  const char* text;
  double value;
};

// Hand-computed: FOO = 1, BAR = 2, source_count = 3, #num_cpus = 8, #num_cores = 4, #smt_on = 1,
// #core_wide = 0.
TEST(MetricExpr, EveryOperatorAndLiteral) {
  const Case cases[] = {
      {"1 + 2", 3},
      {"5 - 7", -2},
      {"3 * 4", 12},
      {"7 / 2", 3.5},
      {"7 % 3", 1},
      {"7.9 % 3.9", 1},  // (long)7.9 % (long)3.9 = 7 % 3
      {"-7 % 3", -1},    // C's truncating %
      {"5 | 2", 7},
      {"5.7 | 2.2", 7},
      {"6 & 3", 2},
      {"6 ^ 3", 5},
      {"1 < 2", 1},
      {"2 < 1", 0},
      {"2 > 1", 1},
      {"1 > 1", 0},
      {"-3", -3},
      {"--3", 3},
      {"- -3", 3},
      {"2 * -3", -6},
      {"-2 * 3 + 1", -5},
      {"min(3, 2)", 2},
      {"max(3, 2)", 3},
      {"d_ratio(3, 4)", 0.75},
      {"d_ratio(3, 0)", 0},
      {"d_ratio(FOO, 0)", 0},
      {"source_count(FOO)", 3},
      {"FOO", 1},
      {"FOO + BAR * 2", 5},
      {"#num_cpus", 8},
      {"#num_cores", 4},
      {"#num_dies", 1},
      {"#num_packages", 1},
      {"#smt_on", 1},
      {"#SMT_ON", 1},  // perf compares #smt_on with strcasecmp
      {"#core_wide", 0},
      {"#system_tsc_freq", 2.5e9},
      {"#System_Tsc_Freq", 2.5e9},
      {"1 if #smt_on else 2", 1},
      {"1 if #core_wide else 2", 2},
      {"1 if 0.0 else 2", 2},
      {"1 if -0 else 2", 2},
      {"(1 if 0 else 2) * 3", 6},
      {"1 + 2 if 0 else 3 + 4", 7},
      // precedence: | < ^ < & < comparisons < + - < * / % < unary -
      {"1 | 2 ^ 3", 1},  // 1 | (2 ^ 3)
      {"6 ^ 3 & 1", 7},  // 6 ^ (3 & 1)
      {"3 & 1 < 2", 1},  // 3 & (1 < 2)
      {"1 < 2 + 3", 1},  // 1 < 5
      {"3 < 2 < 1", 1},  // (3 < 2) < 1 = 0 < 1
      {"2 + 3 * 4", 14},
      {"10 - 4 - 3", 3},  // left-associative
      {"16 / 4 / 2", 2},
      {"17 % 5 * 2", 4},
      {"1e3", 1000},
      {"2.", 2},
      {".5", 0.5},
      {"1.e2", 100},
      {"1e-2", 0.01},
      {"1 <= 2", 1},  // '=' is ignored by perf's lexer: this is 1 < 2 (and `2 == 2` is `2 2`)
      {"2 <= 2", 0},
  };
  for (const Case& c : cases) EXPECT_EQ(value_of(c.text), c.value) << c.text;
}

// perf 6.1's tests/expr.c, restated: with FOO = 1 and BAR = 2.
TEST(MetricExpr, PerfTestsExprFacts) {
  const Case cases[] = {
      {"1+1", 2},
      {"FOO+BAR", 3},
      {"(BAR/2)%2", 1},
      {"1 - -4", 5},
      {"(FOO-1)*2 + (BAR/2)%2 - -4", 5},
      {"1-1 | 1", 1},
      {"1-1 & 1", 0},
      {"min(1,2) + 1", 2},
      {"max(1,2) + 1", 3},
      {"1+1 if 3*4 else 0", 2},
      {"100 if 1 else 200 if 1 else 300", 100},
      {"100 if 0 else 200 if 1 else 300", 200},
      {"100 if 1 else 200 if 0 else 300", 100},
      {"100 if 0 else 200 if 0 else 300", 300},
      {"1.1 + 2.1", 3.2},
      {".1 + 2.", 2.1},
      {"d_ratio(1, 2)", 0.5},
      {"d_ratio(2.5, 0)", 0},
      {"1.1 < 2.2", 1},
      {"2.2 > 1.1", 1},
      {"1.1 < 1.1", 0},
      {"2.2 > 2.2", 0},
      {"2.2 < 1.1", 0},
      {"1.1 > 2.2", 0},
      {"1.1e10 < 1.1e100", 1},
      {"1.1e2 > 1.1e-2", 1},
  };
  for (const Case& c : cases) EXPECT_EQ(value_of(c.text), c.value) << c.text;
  // "FOO/0": division by zero fails the expression; "BAR/" is a syntax error.
  EXPECT_EQ(eval("FOO/0").status, Status::division_by_zero);
  EXPECT_FALSE(parse("BAR/").has_value());
}

TEST(MetricExpr, PerfTestsFindIdsFacts) {
  Literals literals = make_context().literals;
  MetricIdSet ids;
  ASSERT_TRUE(find_ids(*parse("FOO + BAR + BAZ + BOZO"), literals, ids, "FOO"));
  EXPECT_EQ(ids.size(), 3U);
  EXPECT_TRUE(ids.contains("BAR"));
  EXPECT_TRUE(ids.contains("BAZ"));
  EXPECT_TRUE(ids.contains("BOZO"));
  EXPECT_FALSE(ids.contains("FOO"));

  auto runtime = compute_ids(*parse("EVENT1\\,param\\=?@ + EVENT2\\,param\\=?@"), literals, 3);
  ASSERT_TRUE(runtime);
  EXPECT_EQ(runtime->size(), 2U);
  EXPECT_TRUE(runtime->contains("EVENT1,param=3@"));
  EXPECT_TRUE(runtime->contains("EVENT2,param=3@"));

  auto dash = compute_ids(*parse("dash\\-event1 - dash\\-event2"), literals);
  ASSERT_TRUE(dash);
  EXPECT_EQ(dash->keys(), (std::vector<std::string>{"dash-event2", "dash-event1"}));

  for (double smt : {0.0, 1.0}) {
    Literals with = literals;
    with[Literal::smt_on] = smt;
    with[Literal::core_wide] = smt;
    auto a = compute_ids(*parse("EVENT1 if #smt_on else EVENT2"), with);
    ASSERT_TRUE(a);
    EXPECT_EQ(a->keys(), std::vector<std::string>{smt != 0 ? "EVENT1" : "EVENT2"});
    auto b = compute_ids(*parse("EVENT1 if #core_wide else EVENT2"), with);
    ASSERT_TRUE(b);
    EXPECT_EQ(b->keys(), std::vector<std::string>{smt != 0 ? "EVENT1" : "EVENT2"});
  }
  auto constant = compute_ids(*parse("1.0 if EVENT1 > 100.0 else 1.0"), literals);
  ASSERT_TRUE(constant);
  EXPECT_TRUE(constant->empty());

  auto source = compute_ids(*parse("source_count(EVENT1)"), literals);
  ASSERT_TRUE(source);
  EXPECT_EQ(source->keys(), std::vector<std::string>{"EVENT1"});
}

TEST(MetricExpr, IdsFolding) {
  Literals literals = make_context().literals;
  auto keys = [&](std::string_view text) {
    auto expr = parse(text);
    EXPECT_TRUE(expr) << text;
    auto ids = compute_ids(*expr, literals);
    EXPECT_TRUE(ids) << text;
    return ids ? ids->keys() : std::vector<std::string>{};
  };
  using V = std::vector<std::string>;
  EXPECT_EQ(keys("a if 1 < 2 else b"), V{"a"});  // constant condition
  EXPECT_EQ(keys("a if 2 < 1 else b"), V{"b"});
  EXPECT_EQ(keys("a if c else b"), (V{"c", "b", "a"}));     // union of all three
  EXPECT_EQ(keys("a if min(1, 2) else b"), (V{"b", "a"}));  // min is never constant-folded
  EXPECT_EQ(keys("d_ratio(a, 0)"), V{});  // d_ratio by constant zero needs nothing
  EXPECT_EQ(keys("d_ratio(a, 1 - 1)"), V{});
  EXPECT_EQ(keys("d_ratio(a, b)"), (V{"b", "a"}));
  EXPECT_EQ(keys("duration_time * 1e9"), V{"duration_time"});
  EXPECT_EQ(keys("#num_cpus * 2"), V{});  // literals are not ids
  EXPECT_EQ(keys("a + a + a"), V{"a"});
  EXPECT_EQ(keys("cpu@INST_RETIRED.ANY@ / cycles"), (V{"cpu@INST_RETIRED.ANY@", "cycles"}));
  EXPECT_EQ(keys("EV:u + EV:k"), (V{"EV:k", "EV:u"}));

  auto zero = compute_ids(*parse("a / (2 - 2)"), literals);
  ASSERT_FALSE(zero);
  EXPECT_EQ(zero.error().code, DiagId::metric_expr_division_by_zero);
  EXPECT_EQ(zero.error().range.column, 1U);

  Literals unknown;
  auto missing = compute_ids(*parse("a if #smt_on else b"), unknown);
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().code, DiagId::metric_expr_missing_literal);
  EXPECT_EQ(missing.error().range.column, 6U);
}

// The id search as src/metrics' expansion uses it (expr__find_ids with runtime 0 into a root
// metric's ids): facts that were checked against perf 6.1 on every x86 metric.
TEST(MetricExpr, FindIdsFacts) {
  using V = std::vector<std::string>;
  auto keys = [](std::string_view text, const Literals& literals = {}, int runtime = 0) {
    auto expr = parse(text);
    EXPECT_TRUE(expr) << text;
    if (!expr) return V{"<parse error>"};
    auto ids = compute_ids(*expr, literals, runtime);
    EXPECT_TRUE(ids) << text << ": " << (ids ? "" : render(ids.error()));
    return ids ? ids->keys() : V{"<error>"};
  };
  // Same ids whatever the operand order: a set, in hash order.
  EXPECT_EQ(keys("a + b"), keys("b * a"));
  EXPECT_EQ(keys("cpu@INST_RETIRED.ANY@ / msr@tsc@"), keys("msr@tsc@ / cpu@INST_RETIRED.ANY@"));
  EXPECT_EQ(keys("min(a, b)").size(), 2U);
  EXPECT_EQ(keys("max(a, b)").size(), 2U);
  EXPECT_EQ(keys("d_ratio(a, b) + source_count(c)").size(), 3U);
  EXPECT_EQ(keys("-a * b").size(), 2U);  // a negated id still needs its event
  EXPECT_EQ(keys("1 + 2 * 3"), V{});
  EXPECT_EQ(keys("1e3 + 2.5e-1"), V{});
  EXPECT_EQ(keys("ev\\=1"), V{"ev=1"});    // escapes removed
  EXPECT_EQ(keys("imc?.x"), V{"imc0.x"});  // `?` is the runtime parameter, 0 off powerpc
  EXPECT_EQ(keys("imc?.x", {}, 2), V{"imc2.x"});
  EXPECT_EQ(keys("0x10"), V{"0x10"});     // a symbol, longer than the number 0
  EXPECT_EQ(keys("if2"), V{"if2"});       // a symbol, longer than the keyword
  EXPECT_EQ(keys("a $ + b").size(), 2U);  // unknown bytes are skipped

  Literals on;
  on[Literal::smt_on] = 1;
  Literals off;
  off[Literal::smt_on] = 0;
  EXPECT_EQ(keys("a if #smt_on else b", on), V{"a"});
  EXPECT_EQ(keys("a if #SMT_on else b", off), V{"b"});  // #smt_on is case-insensitive
  EXPECT_EQ(keys("a if c else b", off).size(), 3U);
  EXPECT_EQ(keys("1 if c else 1"), V{});  // both branches the same constant
  EXPECT_EQ(keys("a if 2 > 1 else b"), V{"a"});
  EXPECT_EQ(keys("(a if 2 < 1 else b) * c").size(), 2U);

  // Found ids are united into the set given (the larger set kept), and `one` deleted after.
  MetricIdSet ids;
  for (const char* key : {"x1", "x2", "x3"}) ids.insert(key);
  ASSERT_TRUE(find_ids(*parse("a + x1"), {}, ids));
  EXPECT_EQ(ids.size(), 4U);
  EXPECT_TRUE(ids.contains("a"));
  ASSERT_TRUE(find_ids(*parse("b"), {}, ids, "x2"));
  EXPECT_EQ(ids.size(), 4U);
  EXPECT_FALSE(ids.contains("x2"));
  // A failed search leaves the set unchanged.
  const V before = ids.keys();
  EXPECT_FALSE(find_ids(*parse("c / 0"), {}, ids));
  EXPECT_FALSE(find_ids(*parse("c if #smt_on else d"), {}, ids));
  EXPECT_EQ(ids.keys(), before);
}

// Hash facts computed by hand from perf's key_hash (h = h * 31 + c) and libbpf's hash_bits
// (top bits of h * 11400714819323198485).
TEST(MetricIdSet, PerfHashFacts) {
  EXPECT_EQ(perf_id_hash(""), 0U);
  EXPECT_EQ(perf_id_hash("a"), 97U);
  EXPECT_EQ(perf_id_hash("FOO"), 69798U);  // (70 * 31 + 79) * 31 + 79
  EXPECT_EQ(perf_id_hash("BAR"), 65523U);
  EXPECT_EQ(perf_id_hash("BAZ"), 65531U);
  EXPECT_EQ(perf_id_hash("BOZO"), 2044994U);
  // A byte >= 0x80 is a negative (signed) char: "\xe9" hashes to 2^64 - 23 ... * 31 + ...
  EXPECT_EQ(perf_id_hash("\xe9"), static_cast<std::size_t>(-23));
  EXPECT_EQ(perf_hash_bits(97, 0), 0U);
  EXPECT_EQ(perf_hash_bits(97, 2), 3U);
  EXPECT_EQ(perf_hash_bits(97, 3), 7U);
  EXPECT_EQ(perf_hash_bits(69798, 2), 2U);
  EXPECT_EQ(perf_hash_bits(65523, 2), 1U);
  EXPECT_EQ(perf_hash_bits(65531, 2), 1U);
  EXPECT_EQ(perf_hash_bits(65523, 3), 3U);
  EXPECT_EQ(perf_hash_bits(65531, 3), 3U);
  EXPECT_EQ(perf_hash_bits(69798, 3), 4U);
  EXPECT_EQ(perf_hash_bits(2044994, 3), 6U);
}

TEST(MetricIdSet, IterationOrderFollowsPerfHashmap) {
  MetricIdSet ids;
  EXPECT_EQ(ids.capacity(), 0U);
  ids.insert("FOO");  // cap 4: bucket 2
  ids.insert("BAR");  // bucket 1
  ids.insert("BAZ");  // bucket 1, at the head
  EXPECT_EQ(ids.capacity(), 4U);
  EXPECT_EQ(ids.keys(), (std::vector<std::string>{"BAZ", "BAR", "FOO"}));
  // The 4th key grows the map to 8 (4 * 4 / 3 > 4): bucket 1 is rehashed head first, so
  // BAZ then BAR land at the head of bucket 3 (BAR first), FOO in 4, BOZO in 6.
  ids.insert("BOZO");
  EXPECT_EQ(ids.capacity(), 8U);
  EXPECT_EQ(ids.keys(), (std::vector<std::string>{"BAR", "BAZ", "FOO", "BOZO"}));
  ids.insert("BAR");  // present: keeps its place
  EXPECT_EQ(ids.keys(), (std::vector<std::string>{"BAR", "BAZ", "FOO", "BOZO"}));
  EXPECT_TRUE(ids.erase("BAZ"));
  EXPECT_FALSE(ids.erase("BAZ"));
  EXPECT_EQ(ids.keys(), (std::vector<std::string>{"BAR", "FOO", "BOZO"}));
  EXPECT_EQ(ids.capacity(), 8U);

  MetricIdSet letters;
  std::vector<std::vector<std::string>> expected = {
      {"a"},
      {"b", "a"},
      {"c", "b", "a"},
      {"c", "b", "d", "a"},
      {"c", "e", "b", "d", "a"},
      {"f", "c", "e", "b", "d", "a"},
      {"f", "c", "e", "b", "g", "d", "a"},
  };
  std::vector<std::size_t> capacity = {4, 4, 4, 8, 8, 8, 16};
  for (std::size_t i = 0; i < expected.size(); ++i) {
    letters.insert(std::string(1, static_cast<char>('a' + i)));
    EXPECT_EQ(letters.keys(), expected[i]) << i;
    EXPECT_EQ(letters.capacity(), capacity[i]) << i;
  }
  letters.clear();
  EXPECT_EQ(letters.capacity(), 0U);
  EXPECT_TRUE(letters.empty());
}

TEST(MetricIdSet, UnionKeepsTheLargerSet) {
  auto set = [](std::vector<std::string> keys) {
    MetricIdSet ids;
    for (const auto& key : keys) ids.insert(key);
    return ids;
  };
  // perf's test_ids_union sizes.
  auto u = MetricIdSet::unite(set({}), set({}));
  EXPECT_EQ(u->size(), 0U);
  u = MetricIdSet::unite(set({"foo", "bar"}), set({}));
  EXPECT_EQ(u->size(), 2U);
  u = MetricIdSet::unite(std::move(u), set({"foo"}));
  EXPECT_EQ(u->size(), 2U);
  u = MetricIdSet::unite(std::move(u), set({"bar", "baz"}));
  EXPECT_EQ(u->size(), 3U);
  // Nothing (perf's NULL) returns the other set unchanged.
  EXPECT_FALSE(MetricIdSet::unite(std::nullopt, std::nullopt));
  EXPECT_EQ(MetricIdSet::unite(std::nullopt, set({"x"}))->keys(), std::vector<std::string>{"x"});
  // The smaller set's keys are inserted into the larger one; on a tie the first is kept: so a
  // kept set's capacity (4) decides the layout, not the other's (8).
  MetricIdSet big = set({"a", "b", "c", "d"});
  MetricIdSet small = set({"e"});
  auto merged = MetricIdSet::unite(std::move(small), std::move(big));
  EXPECT_EQ(merged->capacity(), 8U);
  EXPECT_EQ(merged->keys(), (std::vector<std::string>{"c", "e", "b", "d", "a"}));
  MetricIdSet tie1 = set({"d", "c"});
  MetricIdSet tie2 = set({"a", "b"});
  EXPECT_EQ(MetricIdSet::unite(tie1, tie2)->keys(), (std::vector<std::string>{"c", "b", "d", "a"}));
}

TEST(MetricExpr, LexerCornerCases) {
  auto single_id = [](std::string_view text) -> std::string {
    auto expr = parse(text);
    if (!expr || expr->root_node().kind != NodeKind::id) return "<not an id>";
    return expr->root_node().name;
  };
  EXPECT_EQ(single_id("0x10"), "0x10");  // no hex numbers: the longer symbol match wins
  EXPECT_EQ(single_id("1E5"), "1E5");    // only a lower-case e is an exponent
  EXPECT_EQ(single_id("1e"), "1e");
  EXPECT_EQ(single_id("minimum"), "minimum");
  EXPECT_EQ(single_id("ifx"), "ifx");
  EXPECT_EQ(single_id("cpu@INST_RETIRED.ANY@"), "cpu@INST_RETIRED.ANY@");
  EXPECT_EQ(single_id("a\\-b\\,c\\=d"), "a-b,c=d");
  EXPECT_EQ(single_id("EV:u"), "EV:u");
  EXPECT_EQ(single_id("  \t\nFOO \n"), "FOO");
  EXPECT_EQ(single_id("F!O$O"), "<not an id>");  // ignored bytes split a name: F O O
  EXPECT_EQ(single_id(std::string_view("FOO\0BAR", 7)), "FOO");  // perf reads a C string
  EXPECT_EQ(std::string(to_string(*find_literal("#Smt_On"))), "#smt_on");
  EXPECT_FALSE(find_literal("#Num_Cpus"));
  // `1e+5` is the id `1e`, then + 5.
  Context context = make_context({{"1e", 10}});
  EXPECT_EQ(eval("1e+5", context).value, 15);
  EXPECT_EQ(substitute_runtime("a?b?", 12), "a12b12");
  Context runtime = make_context({{"EV_7", 5}});
  runtime.runtime = 7;
  EXPECT_EQ(eval("EV_? * 2", runtime).value, 10);
}

struct ErrorCase {
  const char* text;
  DiagId id;
  std::uint32_t line;
  std::uint32_t column;
};

TEST(MetricExpr, LocatedErrors) {
  const ErrorCase cases[] = {
      {"", DiagId::metric_expr_syntax, 1, 1},
      {"   ", DiagId::metric_expr_syntax, 1, 1},
      {"a +", DiagId::metric_expr_syntax, 1, 4},
      {"a b", DiagId::metric_expr_syntax, 1, 3},
      {"2 == 2", DiagId::metric_expr_syntax, 1, 6},
      {"(a + b", DiagId::metric_expr_unbalanced_paren, 1, 7},
      {"a + b)", DiagId::metric_expr_unbalanced_paren, 1, 6},
      {"min(a, b", DiagId::metric_expr_unbalanced_paren, 1, 9},
      {"min(a)", DiagId::metric_expr_syntax, 1, 6},
      {"min(a, b, c)", DiagId::metric_expr_syntax, 1, 9},
      {"min(a if b else c, d)", DiagId::metric_expr_syntax, 1, 7},
      {"a if b", DiagId::metric_expr_syntax, 1, 7},
      {"a if b if c else d else e", DiagId::metric_expr_syntax, 1, 8},
      {"a else b", DiagId::metric_expr_syntax, 1, 3},
      {"source_count(1)", DiagId::metric_expr_syntax, 1, 14},
      {"source_count(a + b)", DiagId::metric_expr_unbalanced_paren, 1, 16},
      {"+a", DiagId::metric_expr_syntax, 1, 1},
      {"a +\n  * b", DiagId::metric_expr_syntax, 2, 3},
      {"#smt_onn", DiagId::metric_expr_unknown_literal, 1, 1},
      {"a * #num_cpus-1", DiagId::metric_expr_unknown_literal, 1, 5},
      {"1e400", DiagId::metric_expr_bad_number, 1, 1},
      {"x + 1e-400", DiagId::metric_expr_bad_number, 1, 5},
      {"()", DiagId::metric_expr_syntax, 1, 2},
  };
  for (const ErrorCase& c : cases) {
    auto expr = parse(c.text, "m.json");
    ASSERT_FALSE(expr.has_value()) << c.text;
    const Diagnostic& d = expr.error();
    EXPECT_EQ(d.id, to_string(c.id)) << c.text << "\n" << render(d);
    EXPECT_EQ(d.range.file, "m.json");
    EXPECT_EQ(d.range.line, c.line) << c.text << "\n" << render(d);
    EXPECT_EQ(d.range.column, c.column) << c.text << "\n" << render(d);
  }
  auto open = parse("(a + b");
  ASSERT_FALSE(open);
  ASSERT_TRUE(open.error().fixit);
  EXPECT_EQ(open.error().fixit->replacement, ")");
  ASSERT_EQ(open.error().notes.size(), 1U);
  EXPECT_EQ(open.error().notes[0].range.column, 1U);
  auto typo = parse("2 * #smt_onn");
  ASSERT_FALSE(typo);
  EXPECT_EQ(typo.error().hint, "did you mean '#smt_on'?");
  ASSERT_TRUE(typo.error().fixit);
  EXPECT_EQ(typo.error().fixit->replacement, "#smt_on");
  auto stray = parse("a)");
  ASSERT_FALSE(stray);
  ASSERT_TRUE(stray.error().fixit);
  EXPECT_EQ(stray.error().fixit->replacement, "");
  std::string deep(1000, '(');
  deep += "1";
  deep += std::string(1000, ')');
  EXPECT_FALSE(parse(deep));
  std::string shallow(100, '(');
  shallow += "1";
  shallow += std::string(100, ')');
  EXPECT_TRUE(parse(shallow));
}

TEST(MetricExpr, EvaluationReasons) {
  Result missing = eval("FOO + NOPE * 2");
  EXPECT_EQ(missing.status, Status::missing_id);
  EXPECT_EQ(missing.name, "NOPE");
  EXPECT_EQ(missing.offset, 6U);
  // Only the taken branch must be known.
  EXPECT_EQ(eval("NOPE if 0 else FOO").value, 1);
  EXPECT_EQ(eval("FOO if #smt_on else NOPE").value, 1);
  EXPECT_EQ(eval("FOO if BAR > 1 else NOPE").status, Status::value);
  EXPECT_EQ(eval("NOPE if BAR > 1 else FOO").status, Status::missing_id);
  EXPECT_EQ(eval("FOO if NOPE else BAR").name, "NOPE");
  EXPECT_EQ(eval("1 if NOPE > 100 else 1").value, 1);
  EXPECT_EQ(eval("min(NOPE, 1)").status, Status::missing_id);
  EXPECT_EQ(eval("d_ratio(NOPE, 0)").value, 0);
  EXPECT_EQ(eval("d_ratio(FOO, NOPE)").status, Status::missing_id);
  // Division by zero aborts the whole expression, even in the branch not taken (perf reduces
  // every branch).
  EXPECT_EQ(eval("FOO / (BAR - 2)").status, Status::division_by_zero);
  EXPECT_EQ(eval("1 if 1 else FOO / 0").status, Status::division_by_zero);
  EXPECT_EQ(eval("FOO % 0.5").status, Status::division_by_zero);
  Context no_literals = make_context();
  no_literals.literals = {};
  Result literal = eval("FOO * #num_cpus", no_literals);
  EXPECT_EQ(literal.status, Status::missing_literal);
  EXPECT_EQ(literal.name, "#num_cpus");
  // NaN and infinities are values, as perf computes them.
  Context big = make_context({{"X", 1e308}, {"Z", 0}});
  EXPECT_TRUE(std::isinf(eval("X * 10", big).value));
  EXPECT_TRUE(std::isnan(eval("X * 10 - X * 10", big).value));
  // (long)NaN and out-of-range values are LONG_MIN on x86-64.
  EXPECT_EQ(eval("(X * 10) | 0", big).value, -9223372036854775808.0);
  EXPECT_EQ(to_string(Status::missing_id), "missing-id");
}

TEST(MetricExpr, PrintsCanonically) {
  const std::pair<const char*, const char*> cases[] = {
      {"a+b*c", "a + b * c"},
      {"(a+b)*c", "(a + b) * c"},
      {"a-(b-c)", "a - (b - c)"},
      {"(a-b)-c", "a - b - c"},
      {"-(a+b)", "-(a + b)"},
      {"- -a", "--a"},
      {"1 | (2 ^ 3)", "1 | 2 ^ 3"},
      {"(1 | 2) ^ 3", "(1 | 2) ^ 3"},
      {"a if b else c if d else e", "a if b else c if d else e"},
      {"(a if b else c) if d else e", "(a if b else c) if d else e"},
      {"min((a if b else c),d)", "min((a if b else c), d)"},
      {"d_ratio(x,y)*100", "d_ratio(x, y) * 100"},
      {"source_count( x )", "source_count(x)"},
      {"#SMT_ON*2", "#smt_on * 2"},
      {"a\\-b\\,c\\=d@x@", "a\\-b\\,c\\=d@x@"},
      {"1e20 + .5 + 2. + 1e-7", "1e20 + 0.5 + 2 + 1e-07"},
      {"cpu@INST_RETIRED.ANY@ / (cpu@CPU_CLK_UNHALTED.THREAD@ if #smt_on else 1)",
       "cpu@INST_RETIRED.ANY@ / (cpu@CPU_CLK_UNHALTED.THREAD@ if #smt_on else 1)"},
  };
  for (const auto& [text, printed] : cases) {
    auto expr = parse(text);
    ASSERT_TRUE(expr) << text;
    EXPECT_EQ(to_string(*expr), printed) << text;
    auto again = parse(to_string(*expr));
    ASSERT_TRUE(again) << printed;
    EXPECT_EQ(to_string(*again), printed);
  }
}

TEST(MetricExpr, NodesAreLocated) {
  auto expr = parse("FOO + min(BAR, 2)");
  ASSERT_TRUE(expr);
  const Node& root = expr->root_node();
  EXPECT_EQ(root.kind, NodeKind::binary);
  EXPECT_EQ(root.offset, 0U);
  EXPECT_EQ(root.length, 17U);
  const Node& call = expr->node(root.b);
  EXPECT_EQ(call.op, Op::min);
  EXPECT_EQ(call.offset, 6U);
  EXPECT_EQ(call.length, 11U);
  Expr copy = *expr;
  EXPECT_EQ(copy, *expr);
}

}  // namespace
}  // namespace metric_expr
PMUCAT_END_NAMESPACE

PMUCAT_BEGIN_NAMESPACE
namespace metric_expr {
namespace {

// perf 6.1's metricgroup.c adds a metric by find_ids of its expression into the root's ids and
// then resolves: it deletes the ids that name other metrics (collected in iteration order) and
// adds each of them the same way, depth first; a metric already referenced is not added again.
// The event lists below are what `PERF_CPUID=GenuineIntel-6-55-4 perf stat -vv -M NAME true`
// (perf 6.1) printed as "Parsing metric events '...'"; the expressions are the ones it printed as
// "metric expr ... for NAME".
class Resolver {
 public:
  Resolver(const std::map<std::string, std::string>& metrics, const Literals& literals)
      : metrics_(metrics), literals_(literals) {}
  std::vector<std::string> run(const std::string& root) {
    add(root, true);
    return ids_.keys();
  }

 private:
  void add(const std::string& name, bool is_root) {
    if (!is_root) {
      for (const auto& seen : refs_) {
        if (seen == name) return;
      }
      refs_.push_back(name);
    }
    EXPECT_TRUE(find_ids(*parse(metrics_.at(name)), literals_, ids_));
    std::vector<std::string> pending;
    for (const auto& key : ids_.keys()) {
      if (metrics_.count(key) != 0) pending.push_back(key);
    }
    for (const auto& key : pending) ids_.erase(key);
    for (const auto& key : pending) add(key, false);
  }
  const std::map<std::string, std::string>& metrics_;
  const Literals& literals_;
  MetricIdSet ids_;
  std::vector<std::string> refs_;
};

std::vector<std::string> resolve(const std::string& root,
                                 const std::map<std::string, std::string>& metrics,
                                 const Literals& literals) {
  return Resolver(metrics, literals).run(root);
}

TEST(MetricIdSet, MatchesPerfParsingMetricEvents) {
  const std::map<std::string, std::string> metrics = {
      {"IPC", "INST_RETIRED.ANY / CLKS"},
      {"CLKS", "CPU_CLK_UNHALTED.THREAD"},
      {"tma_frontend_bound", "IDQ_UOPS_NOT_DELIVERED.CORE / SLOTS"},
      {"tma_backend_bound",
       "1 - tma_frontend_bound - (UOPS_ISSUED.ANY + 4 * ((INT_MISC.RECOVERY_CYCLES_ANY / 2) if "
       "#SMT_on else INT_MISC.RECOVERY_CYCLES)) / SLOTS"},
      {"tma_retiring", "UOPS_RETIRED.RETIRE_SLOTS / SLOTS"},
      {"SLOTS", "4 * CORE_CLKS"},
      {"tma_memory_bound",
       "((CYCLE_ACTIVITY.STALLS_MEM_ANY + EXE_ACTIVITY.BOUND_ON_STORES) / "
       "(CYCLE_ACTIVITY.STALLS_TOTAL + (EXE_ACTIVITY.1_PORTS_UTIL + tma_retiring * "
       "EXE_ACTIVITY.2_PORTS_UTIL) + EXE_ACTIVITY.BOUND_ON_STORES)) * tma_backend_bound"},
      {"tma_dram_bound",
       "(CYCLE_ACTIVITY.STALLS_L3_MISS / CLKS + ((CYCLE_ACTIVITY.STALLS_L1D_MISS - "
       "CYCLE_ACTIVITY.STALLS_L2_MISS) / CLKS) - tma_l2_bound)"},
      {"tma_l2_bound",
       "((MEM_LOAD_RETIRED.L2_HIT * (1 + (MEM_LOAD_RETIRED.FB_HIT / MEM_LOAD_RETIRED.L1_MISS))) / "
       "((MEM_LOAD_RETIRED.L2_HIT * (1 + (MEM_LOAD_RETIRED.FB_HIT / MEM_LOAD_RETIRED.L1_MISS))) + "
       "cpu@L1D_PEND_MISS.FB_FULL\\,cmask\\=1@)) * ((CYCLE_ACTIVITY.STALLS_L1D_MISS - "
       "CYCLE_ACTIVITY.STALLS_L2_MISS) / CLKS)"},
      {"CORE_CLKS",
       "((CPU_CLK_UNHALTED.THREAD / 2) * (1 + CPU_CLK_UNHALTED.ONE_THREAD_ACTIVE / "
       "CPU_CLK_UNHALTED.REF_XCLK)) if #core_wide < 1 else (CPU_CLK_UNHALTED.THREAD_ANY / 2) if "
       "#SMT_on else CLKS"},
  };
  Literals literals;
  literals[Literal::core_wide] = 0;
  literals[Literal::smt_on] = 0;
  using V = std::vector<std::string>;
  EXPECT_EQ(resolve("IPC", metrics, literals), (V{"INST_RETIRED.ANY", "CPU_CLK_UNHALTED.THREAD"}));
  EXPECT_EQ(resolve("tma_frontend_bound", metrics, literals),
            (V{"CPU_CLK_UNHALTED.REF_XCLK", "IDQ_UOPS_NOT_DELIVERED.CORE",
               "CPU_CLK_UNHALTED.ONE_THREAD_ACTIVE", "CPU_CLK_UNHALTED.THREAD"}));
  EXPECT_EQ(
      resolve("tma_backend_bound", metrics, literals),
      (V{"CPU_CLK_UNHALTED.REF_XCLK", "INT_MISC.RECOVERY_CYCLES", "IDQ_UOPS_NOT_DELIVERED.CORE",
         "CPU_CLK_UNHALTED.ONE_THREAD_ACTIVE", "CPU_CLK_UNHALTED.THREAD", "UOPS_ISSUED.ANY"}));
  EXPECT_EQ(resolve("tma_retiring", metrics, literals),
            (V{"CPU_CLK_UNHALTED.REF_XCLK", "CPU_CLK_UNHALTED.ONE_THREAD_ACTIVE",
               "CPU_CLK_UNHALTED.THREAD", "UOPS_RETIRED.RETIRE_SLOTS"}));
  // 12 ids: the set grows to 16 buckets.
  EXPECT_EQ(
      resolve("tma_memory_bound", metrics, literals),
      (V{"CPU_CLK_UNHALTED.REF_XCLK", "IDQ_UOPS_NOT_DELIVERED.CORE", "EXE_ACTIVITY.BOUND_ON_STORES",
         "INT_MISC.RECOVERY_CYCLES", "EXE_ACTIVITY.1_PORTS_UTIL",
         "CPU_CLK_UNHALTED.ONE_THREAD_ACTIVE", "CPU_CLK_UNHALTED.THREAD",
         "UOPS_RETIRED.RETIRE_SLOTS", "CYCLE_ACTIVITY.STALLS_MEM_ANY", "EXE_ACTIVITY.2_PORTS_UTIL",
         "CYCLE_ACTIVITY.STALLS_TOTAL", "UOPS_ISSUED.ANY"}));
  EXPECT_EQ(resolve("tma_dram_bound", metrics, literals),
            (V{"CYCLE_ACTIVITY.STALLS_L2_MISS", "CYCLE_ACTIVITY.STALLS_L1D_MISS",
               "MEM_LOAD_RETIRED.FB_HIT", "cpu@L1D_PEND_MISS.FB_FULL,cmask=1@",
               "CYCLE_ACTIVITY.STALLS_L3_MISS", "CPU_CLK_UNHALTED.THREAD",
               "MEM_LOAD_RETIRED.L1_MISS", "MEM_LOAD_RETIRED.L2_HIT"}));
}

}  // namespace
}  // namespace metric_expr
PMUCAT_END_NAMESPACE
