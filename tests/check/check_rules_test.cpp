// Rule logic on in-memory PMUs: each rule fires on its defect and stays quiet on the fixed text.
#include <fmt/core.h>
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "pmucat/version.h"
#include "test_support.h"

PMUCAT_BEGIN_NAMESPACE
namespace check {
namespace {

using testing::make_pmu;
using testing::rule_ids;

Report check_one(Pmu pmu, Options options = {}) {
  std::vector<Pmu> pmus;
  pmus.push_back(std::move(pmu));
  Catalog catalog = Catalog::from_pmus(std::move(pmus));
  return run(catalog, options);
}

std::vector<Finding> findings_of(const Report& report, std::string_view rule) {
  std::vector<Finding> out;
  for (const Finding& finding : report.all_findings()) {
    if (finding.rule == rule) out.push_back(finding);
  }
  return out;
}

TEST(CheckRules, RegistryIdsAreUniqueKebabCaseWithRationale) {
  std::set<std::string_view> seen;
  for (const Rule& rule : rules()) {
    EXPECT_TRUE(seen.insert(rule.id).second) << rule.id;
    EXPECT_EQ(find_rule(rule.id), &rule);
    EXPECT_FALSE(rule.rationale.empty()) << rule.id;
    for (char c : rule.id)
      EXPECT_TRUE((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-');
  }
  EXPECT_EQ(find_rule("no-such-rule"), nullptr);
}

TEST(CheckRules, ValueOverflowNamesTheOverflowBits) {
  auto report = check_one(make_pmu("uncore_cha_55", 70,
                                   {{"event", "config:0-7\n"}, {"umask", "config:8-15,32-55\n"}},
                                   {{"tor", "event=0x35,umask=0x10c0008101\n"}}));
  auto found = findings_of(report, "event-value-overflow");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_NE(found[0].diagnostic.message.find("value bit 36 overflows"), std::string::npos)
      << found[0].diagnostic.message;
  EXPECT_NE(found[0].diagnostic.hint.find("maximum is 0xffffffff"), std::string::npos);
  EXPECT_EQ(found[0].diagnostic.range.column, 18u);  // points at the value
  EXPECT_EQ(exit_status(report, false), 1);

  auto fixed = check_one(make_pmu("uncore_cha_55", 70,
                                  {{"event", "config:0-7\n"}, {"umask", "config:8-15,32-63\n"}},
                                  {{"tor", "event=0x35,umask=0x10c0008101\n"}}));
  EXPECT_TRUE(findings_of(fixed, "event-value-overflow").empty());
  EXPECT_EQ(exit_status(fixed, false), 0);
}

TEST(CheckRules, UnknownTermSuggestsTheNearestField) {
  auto report = check_one(make_pmu("p", 9, {{"event", "config:0-7\n"}, {"umask", "config:8-15\n"}},
                                   {{"a", "event=0x1,UMASK=0x2\n"},
                                    {"b", "event=0x1,zzz=0x2\n"},
                                    {"c", "config=0x1234,period=0x10\n"}}));
  auto found = findings_of(report, "event-unknown-term");
  ASSERT_EQ(found.size(), 2u);
  EXPECT_EQ(found[0].diagnostic.hint, "did you mean 'umask'?");
  EXPECT_NE(found[1].diagnostic.hint.find("valid terms: event,umask,config"), std::string::npos);
}

TEST(CheckRules, ParamMustNameAField) {
  auto report =
      check_one(make_pmu("hv", 9, {{"domain", "config:0-3\n"}, {"core", "config:16-31\n"}},
                         {{"ok", "domain=0x1,core=?\n"}, {"bad", "domain=0x1,chip=?\n"}}));
  auto found = findings_of(report, "event-param-unknown");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].file, "hv/events/bad");
}

TEST(CheckRules, RepeatedAndOverlappingTerms) {
  auto report = check_one(make_pmu(
      "p", 9,
      {{"event", "config:0-7\n"}, {"occ_sel", "config:14-15\n"}, {"occ_edge", "config:14-51\n"}},
      {{"dup", "event=0x7,event=0x8\n"},
       {"both", "event=0x1,occ_sel=0x1,occ_edge=0x1\n"},
       {"one", "event=0x1,occ_edge=0x1\n"}}));
  EXPECT_EQ(findings_of(report, "event-term-repeated").size(), 1u);
  auto overlapping = findings_of(report, "event-overlapping-terms");
  ASSERT_EQ(overlapping.size(), 1u);
  EXPECT_EQ(overlapping[0].file, "p/events/both");
  EXPECT_NE(overlapping[0].diagnostic.message.find("14-15"), std::string::npos);
}

TEST(CheckRules, FieldOverlapIsAWarningAliasesAndUmbrellasAreNotes) {
  auto report = check_one(make_pmu("p", 9,
                                   {{"eventid", "config:16-26\n"},
                                    {"wp_combine", "config:24-27\n"},
                                    {"chip", "config1:0-15\n"},
                                    {"core", "config1:0-15\n"},
                                    {"offcore_rsp", "config2:0-63\n"},
                                    {"ldlat", "config2:0-15\n"}},
                                   {}));
  auto overlap = findings_of(report, "format-field-overlap");
  ASSERT_EQ(overlap.size(), 1u);
  EXPECT_EQ(overlap[0].diagnostic.severity, Severity::warning);
  EXPECT_NE(overlap[0].diagnostic.message.find("bits 24-26"), std::string::npos)
      << overlap[0].diagnostic.message;
  EXPECT_EQ(findings_of(report, "format-alias").size(), 2u);
  EXPECT_EQ(exit_status(report, false), 0);
  EXPECT_EQ(exit_status(report, true), 1);  // --werror
}

TEST(CheckRules, FlagLikeFieldSpanningManyBits) {
  auto report = check_one(make_pmu("uncore_pcu", 9,
                                   {{"occ_edge", "config:14-51\n"},
                                    {"edge", "config:18\n"},
                                    {"occ_invert", "config:30\n"},
                                    {"thresh", "config:24-28\n"}},
                                   {}));
  auto found = findings_of(report, "format-flag-wide");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].file, "uncore_pcu/format/occ_edge");
  EXPECT_NE(found[0].diagnostic.message.find("38 bits"), std::string::npos);
}

TEST(CheckRules, WideRangeIsOffUntilEnabled) {
  auto pmu = [] { return make_pmu("p", 9, {{"occ", "config:10-50\n"}}, {}); };
  EXPECT_TRUE(findings_of(check_one(pmu()), "format-wide-range").empty());
  Options options;
  options.enabled = {"format-wide-range"};
  EXPECT_EQ(findings_of(check_one(pmu(), options), "format-wide-range").size(), 1u);
}

TEST(CheckRules, DecimalValuesWarnOnlyWhereHexReadsDifferently) {
  auto report =
      check_one(make_pmu("p", 9, {{"event", "config:0-7\n"}, {"cmask", "config:24-31\n"}},
                         {{"small", "event=0x1,cmask=1\n"}, {"big", "event=0x1,cmask=16\n"}}));
  auto found = findings_of(report, "event-decimal-value");
  ASSERT_EQ(found.size(), 1u);
  ASSERT_TRUE(found[0].diagnostic.fixit.has_value());
  EXPECT_EQ(found[0].diagnostic.fixit->replacement, "0x10");
}

TEST(CheckRules, BareMultiBitAndStringValues) {
  auto report =
      check_one(make_pmu("p", 9, {{"event", "config:0-7\n"}, {"edge", "config:18\n"}},
                         {{"a", "event=0x1,edge\n"}, {"b", "event\n"}, {"c", "event=foo\n"}}));
  EXPECT_EQ(findings_of(report, "event-bare-multibit").size(), 1u);
  EXPECT_EQ(findings_of(report, "event-value-not-number").size(), 1u);
}

TEST(CheckRules, EventNameCaseRules) {
  auto report = check_one(make_pmu("p", 9, {{"event", "config:0-7\n"}},
                                   {{"Mixed", "event=0x1\n"},
                                    {"L1-dcache-load-misses", "event=0x2\n"},
                                    {"INST", "event=0x3\n"},
                                    {"inst", "event=0x4\n"},
                                    {"PM_PB_CYC", "event=0x5\n"},
                                    {"cpu-cycles", "event=0x6\n"}}));
  EXPECT_EQ(findings_of(report, "event-name-mixed-case").size(), 1u);
  EXPECT_EQ(findings_of(report, "event-name-legacy-case").size(), 1u);
  auto collisions = findings_of(report, "event-name-case-collision");
  ASSERT_EQ(collisions.size(), 1u);
  EXPECT_NE(collisions[0].diagnostic.message.find("'inst'"), std::string::npos);
}

TEST(CheckRules, DuplicateTypesAndInstanceSuffixesCompareAcrossPmus) {
  std::vector<Pmu> pmus;
  pmus.push_back(make_pmu("uncore_x_1e", 20, {{"event", "config:0-7\n"}}, {}));
  pmus.push_back(make_pmu("uncore_x_1f", 20, {{"event", "config:0-7\n"}}, {}));
  pmus.push_back(make_pmu("amd_df", 21, {{"event", "config:0-7\n"}}, {}));
  Catalog catalog = Catalog::from_pmus(std::move(pmus));
  Report report = run(catalog, {});
  EXPECT_EQ(findings_of(report, "type-duplicate").size(), 2u);
  auto suffix = findings_of(report, "pmu-name-suffix");
  ASSERT_EQ(suffix.size(), 2u);  // amd_df has no siblings: just a name
  EXPECT_EQ(suffix[0].pmu, "uncore_x_1e");

  Options only_one;
  only_one.pmu_patterns = {"uncore_x_1f"};
  Report selected = run(catalog, only_one);
  ASSERT_EQ(selected.pmus.size(), 1u);
  EXPECT_EQ(findings_of(selected, "type-duplicate").size(), 1u);
}

TEST(CheckRules, DisableAndBaselineKeepTheRunGreen) {
  auto pmu = [] {
    return make_pmu("p", 9, {{"event", "config:0-7\n"}}, {{"bad", "event=0x100\n"}});
  };
  EXPECT_EQ(exit_status(check_one(pmu()), false), 1);
  Options disabled;
  disabled.disabled = {"event-value-overflow"};
  EXPECT_EQ(exit_status(check_one(pmu(), disabled), false), 0);

  auto baseline = parse_baseline("# known\nevent-value-overflow p p/events/*\n", "base");
  ASSERT_TRUE(baseline.has_value());
  Options with_baseline;
  with_baseline.baseline = *baseline;
  Report report = check_one(pmu(), with_baseline);
  auto found = findings_of(report, "event-value-overflow");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_TRUE(found[0].baselined);
  EXPECT_EQ(exit_status(report, true), 0);
  EXPECT_EQ(report.count(Severity::error), 0u);
}

TEST(CheckRules, BaselineRoundTripsAndRejectsGarbage) {
  auto report =
      check_one(make_pmu("p", 9, {{"event", "config:0-7\n"}}, {{"bad", "event=0x100\n"}}));
  std::string text = format_baseline(report.all_findings());
  auto baseline = parse_baseline(text, "b");
  ASSERT_TRUE(baseline.has_value());
  for (const Finding& finding : report.all_findings()) EXPECT_TRUE(baseline->covers(finding));
  auto bad = parse_baseline("event-value-overflow\n", "b");
  ASSERT_FALSE(bad.has_value());
  EXPECT_EQ(bad.error().range.line, 1u);
  EXPECT_FALSE(parse_baseline("rule pmu file extra\n", "b").has_value());
}

// Found by check_fuzz (fuzz/regressions/check/baseline-newline-in-event-name): an event file
// named "PM_X\n" split the written baseline line, which then failed to parse.
TEST(CheckRules, BaselineOfOddFileNamesParsesAndCoversExactlyThem) {
  auto finding = [](std::string pmu, std::string file) {
    Finding f;
    f.rule = "event-value-overflow";
    f.pmu = std::move(pmu);
    f.file = std::move(file);
    return f;
  };
  const std::vector<Finding> findings = {
      finding("p", "p/events/PM_X\n"),     finding("p q", "p q/events/a b"),
      finding("p", "p/events/#x"),         finding("p", "p/events/a*b"),
      finding("p[1]", "p[1]/events/x\\y"),
  };
  auto baseline = parse_baseline(format_baseline(findings), "b");
  ASSERT_TRUE(baseline.has_value()) << format_baseline(findings);
  for (const Finding& f : findings) EXPECT_TRUE(baseline->covers(f)) << f.file;
  // Glob characters in names are matched literally.
  EXPECT_FALSE(baseline->covers(finding("p", "p/events/aXXb")));
  EXPECT_FALSE(baseline->covers(finding("p1", "p1/events/x\\y")));
}

TEST(CheckRules, UnknownRuleIdsAreReported) {
  Options options;
  options.disabled = {"terms-syntax", "nope"};
  options.enabled = {"format-wide-range", "also-nope"};
  EXPECT_EQ(unknown_rule_ids(options), (std::vector<std::string>{"nope", "also-nope"}));
}

// Output must not depend on the number of threads.
RC_GTEST_PROP(CheckProperties, ReportIsIndependentOfJobs, (unsigned jobs)) {
  std::vector<Pmu> pmus;
  for (int i = 0; i < 12; ++i) {
    pmus.push_back(
        make_pmu(fmt::format("uncore_box_{}", i), static_cast<std::uint32_t>(30 + i % 5),
                 {{"event", "config:0-7\n"}, {"umask", i % 2 ? "config:8-15\n" : "config:8-11\n"}},
                 {{"ev", fmt::format("event=0x{:x},umask=0x{:x}", 0x10 + i, 0x10 * i)}}));
  }
  Catalog catalog = Catalog::from_pmus(std::move(pmus));
  Options serial;
  Options parallel;
  parallel.jobs = 1 + jobs % 8;
  RC_ASSERT(render_json(run(catalog, serial)) == render_json(run(catalog, parallel)));
  RC_ASSERT(render_ktap(run(catalog, serial)) == render_ktap(run(catalog, parallel)));
}

// event-value-overflow fires exactly when the value needs more bits than the field has.
RC_GTEST_PROP(CheckProperties, OverflowIffValueExceedsWidth,
              (std::uint8_t width_seed, std::uint64_t value)) {
  unsigned width = 1 + width_seed % 63;
  std::string format = fmt::format("config:0-{}\n", width - 1);
  std::string event = fmt::format("event=0x{:x}\n", value);
  Report report = check_one(make_pmu("p", 9, {{"event", format}}, {{"e", event}}));
  bool overflows = (value >> width) != 0;
  RC_ASSERT(findings_of(report, "event-value-overflow").size() == (overflows ? 1u : 0u));
}

}  // namespace
}  // namespace check
PMUCAT_END_NAMESPACE
