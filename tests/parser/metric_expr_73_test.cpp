// perf 7.3's metric expression language (metric_expr.h with MetricDialect::of_7_2): `#` literals
// are tool-PMU events (any case, `#target_cpu`), and `aggr_nr(ev)`, each against perf 6.12's.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "pmucat/metric_expr.h"

PMUCAT_BEGIN_NAMESPACE
namespace metric_expr {
namespace {

using Ids = std::vector<std::string>;

Expected<Ids> ids_of(std::string_view text, MetricDialect rules, const Literals& literals = {}) {
  auto parsed = parse(text, {}, rules);
  if (!parsed) return unexpected(std::move(parsed).error());
  MetricIdSet ids;
  auto ok = find_ids(*parsed, literals, ids, {}, 0, rules);
  if (!ok) return unexpected(std::move(ok).error());
  Ids out = ids.keys();
  std::sort(out.begin(), out.end());
  return out;
}

// The common table's CPUs_utilized (linux 7.3's arch/common/common/metrics.json).
constexpr std::string_view kCpusUtilized =
    R"((software@cpu\-clock\,name\=cpu\-clock@ if #target_cpu else )"
    R"(software@task\-clock\,name\=task\-clock@) / (duration_time * 1e9))";

TEST(MetricExpr73, TargetCpuPicksTheClock) {
  Literals literals;
  literals[Literal::target_cpu] = 0;  // perf stat of a command
  auto command = ids_of(kCpusUtilized, MetricDialect::of_7_2, literals);
  ASSERT_TRUE(command.has_value()) << command.error().message;
  EXPECT_EQ(*command, (Ids{"duration_time", "software@task-clock,name=task-clock@"}));
  literals[Literal::target_cpu] = 1;  // perf stat -a
  auto cpus = ids_of(kCpusUtilized, MetricDialect::of_7_2, literals);
  ASSERT_TRUE(cpus.has_value()) << cpus.error().message;
  EXPECT_EQ(*cpus, (Ids{"duration_time", "software@cpu-clock,name=cpu-clock@"}));
  // Not known: both clocks and the condition's nothing.
  auto unknown = ids_of(kCpusUtilized, MetricDialect::of_7_2);
  ASSERT_FALSE(unknown.has_value());
  EXPECT_EQ(unknown.error().id, "metric-expr-missing-literal");
  EXPECT_NE(unknown.error().message.find("#target_cpu"), std::string::npos);
}

TEST(MetricExpr73, TargetCpuIsUnknownToOlderPerf) {
  for (const MetricDialect old : {MetricDialect::of_6_1, MetricDialect::of_6_12}) {
    auto parsed = parse(kCpusUtilized, "metrics.json", old);
    ASSERT_FALSE(parsed.has_value());
    EXPECT_EQ(parsed.error().id, "metric-expr-unknown-literal");
    EXPECT_NE(parsed.error().message.find("'#target_cpu'"), std::string::npos);
    // The hint lists what that perf knows, never the newer literal.
    EXPECT_EQ(parsed.error().hint.find("#target_cpu"), std::string::npos) << parsed.error().hint;
  }
  // A tree parsed by 7.3's rules, its ids asked under 6.12's: refused there too.
  auto tree = parse("a if #target_cpu else b", {}, MetricDialect::of_7_2);
  ASSERT_TRUE(tree.has_value());
  Literals literals;
  literals[Literal::target_cpu] = 0;
  MetricIdSet ids;
  auto found = find_ids(*tree, literals, ids, {}, 0, MetricDialect::of_6_12);
  ASSERT_FALSE(found.has_value());
  EXPECT_EQ(found.error().id, "metric-expr-unknown-literal");
  EXPECT_EQ(literal_since(Literal::target_cpu), MetricDialect::of_7_2);
}

TEST(MetricExpr73, LiteralsAreToolEventsInAnyCase) {
  // perf 7.3 looks `#NAME` up among the tool PMU's events with strcasecmp; 6.12 only folded the
  // case of #smt_on and #system_tsc_freq.
  EXPECT_EQ(find_literal("#NUM_CPUS", MetricDialect::of_7_2), Literal::num_cpus);
  EXPECT_EQ(find_literal("#Target_CPU", MetricDialect::of_7_2), Literal::target_cpu);
  EXPECT_FALSE(find_literal("#NUM_CPUS", MetricDialect::of_6_12).has_value());
  EXPECT_EQ(find_literal("#SMT_on", MetricDialect::of_6_12), Literal::smt_on);
  Literals literals;
  literals[Literal::num_packages] = 2;
  auto any_case = ids_of("a / #Num_Packages", MetricDialect::of_7_2, literals);
  ASSERT_TRUE(any_case.has_value()) << any_case.error().message;
  EXPECT_EQ(*any_case, Ids{"a"});
  EXPECT_FALSE(ids_of("a / #Num_Packages", MetricDialect::of_6_12, literals).has_value());
  // Tool events that are counted, not read, are no literals.
  EXPECT_FALSE(parse("#duration_time", {}, MetricDialect::of_7_2).has_value());
}

TEST(MetricExpr73, AggrNrIsAFunctionOfAnEvent) {
  // linux 7.3's generated lpm_miss_lat_loc (sapphirerapids).
  constexpr std::string_view kExpr =
      "duration_time * 1e9 * UNC_CHA_TOR_OCCUPANCY.IA_MISS_DRD_LOCAL / (UNC_CHA_CLOCKTICKS / "
      "aggr_nr(UNC_CHA_TOR_INSERTS.IA_MISS_DRD_LOCAL) * UNC_CHA_TOR_INSERTS.IA_MISS_DRD_LOCAL)";
  auto ids = ids_of(kExpr, MetricDialect::of_7_2);
  ASSERT_TRUE(ids.has_value()) << ids.error().message;
  EXPECT_EQ(*ids, (Ids{"UNC_CHA_CLOCKTICKS", "UNC_CHA_TOR_INSERTS.IA_MISS_DRD_LOCAL",
                       "UNC_CHA_TOR_OCCUPANCY.IA_MISS_DRD_LOCAL", "duration_time"}));
  // perf 6.12 reads `aggr_nr` as an event name, then `(` is a syntax error.
  EXPECT_FALSE(parse(kExpr, {}, MetricDialect::of_6_12).has_value());

  auto tree = parse("a / aggr_nr(a)", {}, MetricDialect::of_7_2);
  ASSERT_TRUE(tree.has_value());
  EXPECT_EQ(to_string(*tree), "a / aggr_nr(a)");
  Context context;
  context.lookup = [](std::string_view name) -> std::optional<IdValue> {
    if (name == "a") return IdValue{.value = 120, .source_count = 1, .aggr_nr = 4};
    return std::nullopt;
  };
  const Result result = evaluate(*tree, context);
  ASSERT_TRUE(result.ok());
  EXPECT_DOUBLE_EQ(result.value, 30.0);
  // Unknown event: no value, never a made-up one.
  auto missing = parse("aggr_nr(b)", {}, MetricDialect::of_7_2);
  ASSERT_TRUE(missing.has_value());
  EXPECT_EQ(evaluate(*missing, context).status, Status::missing_id);
}

}  // namespace
}  // namespace metric_expr
PMUCAT_END_NAMESPACE
