// Tests of the differential test's own parts: perf output parsing, the tree model, the spec
// generator, and one end-to-end perf run on a tiny tree (skipped without root/perf).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "perf_oracle.h"
#include "pmucat/version.h"
#include "reference_encoder.h"
#include "spec_generator.h"
#include "support/files.h"
#include "support/scratch_dir.h"
#include "tree_model.h"

PMUCAT_BEGIN_NAMESPACE
namespace differential {
namespace {
namespace fs = std::filesystem;

constexpr const char* kTwoAttrs = R"(Using CPUID AuthenticAMD-25-1-1
Attempting to add event pmu 'fakepmu' with 'ld,' that may result in non-fatal errors
Control descriptor is not initialized
------------------------------------------------------------
perf_event_attr:
  type                             42
  size                             128
  config                           0x1cd
  sample_type                      IDENTIFIER
  disabled                         1
  { bp_addr, config1 }             0x3
  { bp_len, config2 }              0xffffffffffffffff
------------------------------------------------------------
sys_perf_event_open: pid 7608  cpu -1  group_fd -1  flags 0x8
sys_perf_event_open failed, error -2
------------------------------------------------------------
perf_event_attr:
  type                             7
  size                             128
  config                           0x10
------------------------------------------------------------
WARNING: 'c3pmu' format 'x3' requires 'perf_event_attr::config3'which is not supported
------------------------------------------------------------
perf_event_attr:
  type                             42
  size                             128
  config                           0x1cd
  { bp_addr, config1 }             0x3
  { bp_len, config2 }              0xffffffffffffffff
------------------------------------------------------------
)";

TEST(PerfOutput, ReadsDistinctSortedAttrBlocks) {
  const PerfResult result = parse_perf_output(kTwoAttrs);
  ASSERT_EQ(result.attrs.size(), 2U);
  EXPECT_EQ(result.attrs[0], (AttrWords{7, {0x10, 0, 0, 0}}));
  EXPECT_EQ(result.attrs[1], (AttrWords{42, {0x1cd, 0x3, ~std::uint64_t{0}, 0}}));
  ASSERT_EQ(result.warnings.size(), 1U);
  EXPECT_TRUE(result.accepted());
  EXPECT_TRUE(result.error.empty());
}

TEST(PerfOutput, KeepsTheFirstErrorReportOnly) {
  const PerfResult result = parse_perf_output(
      "Using CPUID AuthenticAMD-25-1-1\n"
      "event syntax error: '..epmu/event=0x100/'\n"
      "                                  \\___ value too big for format, maximum is 255\n"
      "\n"
      "Initial error:\n"
      "event syntax error: 'fakepmu/event=0x100/'\n"
      "Run 'perf list' for a list of valid events\n");
  EXPECT_FALSE(result.accepted());
  EXPECT_NE(result.error.find("value too big for format, maximum is 255"), std::string::npos);
  EXPECT_EQ(result.error.find("Initial error"), std::string::npos);
}

// perf 6.1 on a hybrid tree opens a cache event on each core PMU while parsing (a probe) and
// prints those attrs. What perf printed for `l1-dcache-load-misses` there (the lexer reads the
// cache event `l1-d`, then fails at `cache`): a rejection. For `L1-dcache-load-misses` the
// probes fail on a host without those PMUs ("found nothing"): their attrs are the answer.
TEST(PerfOutput, ProbesBeforeASyntaxErrorAreARejection) {
  const std::string probe =
      "------------------------------------------------------------\n"
      "perf_event_attr:\n"
      "  type                             3\n"
      "  config                           0x400000000\n"
      "  disabled                         1\n"
      "------------------------------------------------------------\n"
      "sys_perf_event_open: pid 0  cpu -1  group_fd -1  flags 0x8\n"
      "sys_perf_event_open failed, error -2\n";
  const PerfResult rejected = parse_perf_output("Using CPUID AuthenticAMD-25-11-1\n" + probe +
                                                "event syntax error: 'l1-dcache-load-misses'\n"
                                                "                     \\___ parser error\n"
                                                "Run 'perf list' for a list of valid events\n");
  EXPECT_FALSE(rejected.accepted());
  EXPECT_TRUE(rejected.printed.empty());
  EXPECT_EQ(
      rejected.error,
      "event syntax error: 'l1-dcache-load-misses' |                      \\___ parser error");
  const PerfResult probed = parse_perf_output(probe +
                                              "WARNING: event parser found nothing\n"
                                              "Run 'perf list' for a list of valid events\n");
  ASSERT_TRUE(probed.accepted());
  EXPECT_EQ(probed.attrs[0], (AttrWords{3, {0x400000000, 0, 0, 0}}));
}

// perf 7.3 on a hybrid tree runs the extended-type probe while it prints the event's attr: the
// event's block stops after `size`, the three probes follow, and the event's fields resume after
// them (what perf 7.3.4 printed for `cpu_core/event=0x3c/` on intel-adl-hybrid).
TEST(PerfOutput, Perf73ProbesInsideAnAttrBlockAreDroppedAndTheBlockResumes) {
  const PerfResult result = parse_perf_output(
      "Using CPUID PmucatNone-0-0-0\n"
      "Attempt to add: cpu_core/event=0x3c/\n"
      "..after resolving event: cpu_core/event=0x3c/\n"
      "Control descriptor is not initialized\n"
      "------------------------------------------------------------\n"
      "perf_event_attr:\n"
      "  type                             4 (cpu_core)\n"
      "  size                             144\n"
      "------------------------------------------------------------\n"
      "perf_event_attr:\n"
      "  type                             0 (PERF_TYPE_HARDWARE)\n"
      "  config                           0xa00000000 (cpu_atom/PERF_COUNT_HW_CPU_CYCLES/)\n"
      "  disabled                         1\n"
      "------------------------------------------------------------\n"
      "sys_perf_event_open: pid 0  cpu -1  group_fd -1  flags 0x8\n"
      "sys_perf_event_open failed, error -2\n"
      "------------------------------------------------------------\n"
      "perf_event_attr:\n"
      "  type                             0 (PERF_TYPE_HARDWARE)\n"
      "  config                           0xa00000000 (cpu_atom/PERF_COUNT_HW_CPU_CYCLES/)\n"
      "  disabled                         1\n"
      "  exclude_kernel                   1\n"
      "------------------------------------------------------------\n"
      "sys_perf_event_open: pid 0  cpu -1  group_fd -1  flags 0x8\n"
      "sys_perf_event_open failed, error -2\n"
      "------------------------------------------------------------\n"
      "perf_event_attr:\n"
      "  type                             0 (PERF_TYPE_HARDWARE)\n"
      "  config                           0xa00000000 (cpu_atom/PERF_COUNT_HW_CPU_CYCLES/)\n"
      "  disabled                         1\n"
      "  exclude_kernel                   1\n"
      "  exclude_guest                    1\n"
      "------------------------------------------------------------\n"
      "sys_perf_event_open: pid 0  cpu -1  group_fd -1  flags 0x8\n"
      "sys_perf_event_open failed, error -2\n"
      "  config                           0x3c (cpu-cycles)\n"
      "  sample_type                      IDENTIFIER\n"
      "  read_format                      TOTAL_TIME_ENABLED|TOTAL_TIME_RUNNING\n"
      "  disabled                         1\n"
      "  inherit                          1\n"
      "  enable_on_exec                   1\n"
      "------------------------------------------------------------\n"
      "sys_perf_event_open: pid 4242  cpu -1  group_fd -1  flags 0x8\n"
      "sys_perf_event_open failed, error -2\n"
      "Warning:\n"
      "cpu_core/event=0x3c/ event is not supported by the kernel.\n"
      "The cpu_core/event=0x3c/ event is not supported.\n"
      "Error:\n"
      "No supported events found.\n"
      "The cpu_core/event=0x3c/ event is not supported.\n");
  ASSERT_TRUE(result.accepted());
  ASSERT_EQ(result.attrs.size(), 1U);
  EXPECT_EQ(result.attrs[0], (AttrWords{4, {0x3c, 0, 0, 0}}));
  ASSERT_EQ(result.printed.size(), 1U);
  ASSERT_EQ(result.blocks.size(), 1U);
  EXPECT_EQ(result.blocks[0].front(), "type 4");
  EXPECT_EQ(result.blocks[0].back(), "enable_on_exec 1");
}

TEST(TreeModel, ParsesPlainFormatFiles) {
  const auto split = parse_field("config1:0,2,4-6\n");
  ASSERT_TRUE(split.has_value());
  EXPECT_EQ(split->word, 1U);
  EXPECT_EQ(split->mask, 0x75U);
  EXPECT_EQ(split->width(), 5U);
  EXPECT_EQ(split->max_value(), 31U);
  const auto full = parse_field("config2:0-63");
  ASSERT_TRUE(full.has_value());
  EXPECT_EQ(full->max_value(), ~std::uint64_t{0});
  EXPECT_FALSE(parse_field("config:").has_value());
  EXPECT_FALSE(parse_field("config:7-0").has_value());  // perf's odd cases are not generated
}

TEST(TreeModel, SplitsEventTerms) {
  const auto terms = split_event_terms(" domain=1,offset=0x80, chip=?,inv ");
  ASSERT_EQ(terms.size(), 4U);
  EXPECT_EQ(terms[2].name, "chip");
  EXPECT_EQ(terms[2].value, "?");
  EXPECT_EQ(terms[3].value, "");
}

TEST(TreeModel, WriteThenReadGivesTheSameModel) {
  Rng rng(7);
  const TreeModel tree = random_tree(rng, 5, true);
  const testing::ScratchDir scratch("model");
  write_tree(tree, scratch.path() / "devices");
  const TreeModel again = read_tree(scratch.path() / "devices");
  ASSERT_EQ(again.pmus.size(), tree.pmus.size());
  for (std::size_t i = 0; i < tree.pmus.size(); ++i) {
    EXPECT_EQ(again.pmus[i].name, tree.pmus[i].name);
    EXPECT_EQ(again.pmus[i].type_text, tree.pmus[i].type_text);
    ASSERT_EQ(again.pmus[i].fields.size(), tree.pmus[i].fields.size());
    for (const auto& [name, field] : tree.pmus[i].fields) {
      EXPECT_EQ(again.pmus[i].fields.at(name).mask, field.mask) << field.text;
      EXPECT_EQ(again.pmus[i].fields.at(name).word, field.word) << field.text;
    }
    ASSERT_EQ(again.pmus[i].events.size(), tree.pmus[i].events.size());
    for (const auto& [name, event] : tree.pmus[i].events) {
      EXPECT_EQ(again.pmus[i].events.at(name).text, event.text);
      EXPECT_EQ(again.pmus[i].events.at(name).scale, event.scale);
    }
  }
}

TEST(SpecGenerator, IsDeterministicForASeed) {
  Rng first(42);
  Rng second(42);
  const TreeModel a = random_tree(first, 6, false);
  const TreeModel b = random_tree(second, 6, false);
  const auto cases_a = random_cases(a, first, 30);
  const auto cases_b = random_cases(b, second, 30);
  ASSERT_EQ(cases_a.size(), cases_b.size());
  for (std::size_t i = 0; i < cases_a.size(); ++i) EXPECT_EQ(cases_a[i].spec, cases_b[i].spec);
}

TEST(SpecGenerator, RandomTreesHaveUniqueTypesAndNoConfig3UnlessAsked) {
  Rng rng(3);
  const TreeModel tree = random_tree(rng, 12, false);
  std::set<std::string> types;
  for (const auto& pmu : tree.pmus) {
    ASSERT_TRUE(pmu.type_text.has_value());
    EXPECT_TRUE(types.insert(*pmu.type_text).second) << "duplicate type " << *pmu.type_text;
    for (const auto& [name, field] : pmu.fields) EXPECT_LT(field.word, 3U) << field.text;
  }
}

TEST(SpecGenerator, EventCasesSupplyEveryParameterAndThenDropOne) {
  TreeModel tree;
  PmuModel pmu;
  pmu.name = "hv";
  pmu.type_text = "43";
  pmu.fields["core"] = *parse_field("config:32-47");
  pmu.fields["domain"] = *parse_field("config:0-3");
  pmu.events["PM_X"] = EventModel{"domain=2,core=?", split_event_terms("domain=2,core=?"), {}, {}};
  tree.pmus.push_back(pmu);
  Rng rng(1);
  const auto cases = event_cases(tree, rng);
  ASSERT_EQ(cases.size(), 2U);
  EXPECT_EQ(cases[0].kind, CaseKind::event);
  EXPECT_TRUE(cases[0].spec.starts_with("hv/PM_X,core=")) << cases[0].spec;
  EXPECT_EQ(cases[1].spec, "hv/PM_X/");
  EXPECT_EQ(cases[1].kind, CaseKind::missing_param);
}

TEST(SpecGenerator, OverrideEquivalentReplacesTheAliasField) {
  TreeModel tree;
  PmuModel pmu;
  pmu.name = "cpu";
  pmu.fields["ldlat"] = *parse_field("config1:0-15");
  pmu.events["mem-loads"] =
      EventModel{"", split_event_terms("event=0xcd,umask=0x1,ldlat=3"), {}, {}};
  tree.pmus.push_back(pmu);
  SpecCase spec_case{"cpu/mem-loads,ldlat=30/",
                     CaseKind::alias_same_field,
                     "cpu",
                     "mem-loads",
                     {"ldlat=30"},
                     "ldlat"};
  EXPECT_EQ(override_equivalent(spec_case, tree), "cpu/event=0xcd,umask=0x1,ldlat=30/");
}

// perf's own "Parsing with PMU format directory" vectors (tools/perf/tests/pmu.c, via the
// reference notes §3.1).
TEST(ReferenceEncoder, EncodesPerfsKravaVectors) {
  TreeModel tree;
  PmuModel pmu;
  pmu.name = "pmutest";
  pmu.type_text = "9999";
  const std::vector<std::pair<std::string, std::string>> formats{
      {"krava01", "config:0-1,62-63"},
      {"krava02", "config:10-17"},
      {"krava03", "config:5"},
      {"krava11", "config1:0,2,4,6,8,20-28"},
      {"krava12", "config1:63"},
      {"krava13", "config1:45-47"},
      {"krava21", "config2:0-3,10-13,20-23,30-33,40-43,50-53,60-63"},
      {"krava22", "config2:8,18,48,58"},
      {"krava23", "config2:28-29,38"}};
  for (const auto& [name, text] : formats) pmu.fields[name] = *parse_field(text);
  tree.pmus.push_back(pmu);
  SpecCase spec_case;
  spec_case.pmu = "pmutest";
  spec_case.user_terms = {"krava01=15", "krava02=170", "krava03=1",  "krava11=27", "krava12=1",
                          "krava13=2",  "krava21=119", "krava22=11", "krava23=2"};
  const auto attrs = reference_encode(spec_case, tree);
  ASSERT_TRUE(attrs.has_value());
  ASSERT_EQ(attrs->size(), 1U);
  EXPECT_EQ((*attrs)[0],
            (AttrWords{9999, {0xc00000000002a823, 0x8000400000000145, 0x0400000020041d07, 0}}));
}

TEST(ReferenceEncoder, OverridesAliasValuesAndRejectsWhatPmucatRejects) {
  TreeModel tree;
  PmuModel pmu;
  pmu.name = "uncore_x_0";
  pmu.type_text = "20";
  pmu.fields["event"] = *parse_field("config:0-7");
  pmu.fields["ldlat"] = *parse_field("config1:0-15");
  pmu.fields["core"] = *parse_field("config:32-47");
  pmu.events["ld"] = EventModel{"", split_event_terms("event=0xcd,ldlat=3"), {}, {}};
  pmu.events["px"] = EventModel{"", split_event_terms("event=0x1,core=?"), {}, {}};
  tree.pmus.push_back(pmu);
  pmu.name = "uncore_x_1";
  pmu.type_text = "21";
  tree.pmus.push_back(pmu);
  auto encode = [&](std::string pmu_name, std::string alias, std::vector<std::string> terms) {
    SpecCase spec_case;
    spec_case.pmu = std::move(pmu_name);
    spec_case.alias = std::move(alias);
    spec_case.user_terms = std::move(terms);
    return reference_encode(spec_case, tree);
  };
  const auto overridden = encode("uncore_x_0", "LD", {"ldlat=0x10"});
  ASSERT_TRUE(overridden.has_value());
  EXPECT_EQ((*overridden)[0], (AttrWords{20, {0xcd, 0x10, 0, 0}}));
  const auto both = encode("uncore_x", "px", {"core=3"});
  ASSERT_TRUE(both.has_value());
  ASSERT_EQ(both->size(), 2U);
  EXPECT_EQ((*both)[1], (AttrWords{21, {0x300000001, 0, 0, 0}}));
  EXPECT_FALSE(encode("uncore_x_0", "px", {}).has_value());                    // missing ?
  EXPECT_FALSE(encode("uncore_x_0", "", {"event=1", "event=2"}).has_value());  // repeated
  EXPECT_FALSE(encode("uncore_x_0", "", {"event=0x100"}).has_value());         // too big
  EXPECT_FALSE(encode("uncore_x_0", "", {"nosuch=1"}).has_value());            // unknown
  EXPECT_FALSE(encode("uncore_y", "", {"event=1"}).has_value());               // no PMU
}

// End to end against the installed perf, on a two-PMU tree with known perf 6.1 answers.
TEST(PerfOracle, RunsPerfInAPrivateMountNamespace) {
  const OracleOptions options = OracleOptions::from_environment();
  if (auto why = oracle_unavailable(options)) GTEST_SKIP() << "perf oracle unavailable: " << *why;
  TreeModel tree;
  PmuModel pmu;
  pmu.name = "fakepmu";
  pmu.type_text = "42";
  pmu.fields["event"] = *parse_field("config:0-7");
  pmu.fields["umask"] = *parse_field("config:8-15");
  pmu.fields["split"] = *parse_field("config:36-39,44-47");
  pmu.events["foo"] = EventModel{"event=0x3c,umask=0x1", {}, {}, {}};
  tree.pmus.push_back(pmu);
  const testing::ScratchDir scratch("oracle");
  write_tree(tree, scratch.path() / "devices");
  const OracleRun run = run_perf(scratch.path() / "devices",
                                 {"fakepmu/foo,umask=0x4/", "fakepmu/split=0x5a/",
                                  "fakepmu/event=0x100/", "fakepmu/nosuch=1/"},
                                 options);
  ASSERT_TRUE(run.failure.empty()) << run.failure;
  ASSERT_EQ(run.results.size(), 4U);
  ASSERT_EQ(run.results[0].attrs.size(), 1U) << run.results[0].output;
  EXPECT_EQ(run.results[0].attrs[0], (AttrWords{42, {0x53c, 0, 0, 0}}));  // OR, not override
  ASSERT_EQ(run.results[1].attrs.size(), 1U) << run.results[1].output;
  EXPECT_EQ(run.results[1].attrs[0].config[0], 0x50a000000000U);
  EXPECT_FALSE(run.results[2].accepted());
  EXPECT_NE(run.results[2].error.find("maximum is 255"), std::string::npos) << run.results[2].error;
  EXPECT_FALSE(run.results[3].accepted());
  EXPECT_NE(run.results[3].error.find("unknown term 'nosuch'"), std::string::npos)
      << run.results[3].error;
}

TEST(MaterialisedTree, MovesDynamicTypesAwayFromTheHostsAndBack) {
  const testing::ScratchDir scratch("typeshift");
  const fs::path devices = scratch.path() / "devices";
  const std::vector<std::pair<std::string, std::string>> types = {{"cpu", "4\n"},
                                                                  {"msrlike", "9\n"},
                                                                  {"junk", "12 junk\n"},
                                                                  {"hex", "0x2e\n"},
                                                                  {"huge", "99999999999\n"}};
  for (const auto& [pmu, text] : types) {
    fs::create_directories(devices / pmu);
    std::ofstream(devices / pmu / "type", std::ios::binary) << text;
  }
  {
    const auto copy = MaterialisedTree::copy_of(devices);
    ASSERT_TRUE(copy.has_value());
    EXPECT_EQ(testing::read_text(copy->devices_dir() / "cpu" / "type"), "4\n");
    EXPECT_EQ(testing::read_text(copy->devices_dir() / "msrlike" / "type"), "10009\n");
    EXPECT_EQ(testing::read_text(copy->devices_dir() / "junk" / "type"), "10012 junk\n");
    EXPECT_EQ(testing::read_text(copy->devices_dir() / "hex" / "type"), "0x2e\n");
    EXPECT_EQ(testing::read_text(copy->devices_dir() / "huge" / "type"), "99999999999\n");
  }
  PerfResult result;
  result.attrs = {AttrWords{10012, {1, 0, 0, 0}}, AttrWords{4, {2, 0, 0, 0}},
                  AttrWords{10009, {3, 0, 0, 0}}, AttrWords{1000, {4, 0, 0, 0}}};
  restore_materialised_types(result);
  const std::vector<AttrWords> expected = {AttrWords{4, {2, 0, 0, 0}}, AttrWords{9, {3, 0, 0, 0}},
                                           AttrWords{12, {1, 0, 0, 0}},
                                           AttrWords{1000, {4, 0, 0, 0}}};
  EXPECT_EQ(result.attrs, expected);
}

}  // namespace
}  // namespace differential
PMUCAT_END_NAMESPACE
