// PMU default configs (intel_pt) and perf 6.1's decimal-only PMU instance rule. Every number is
// perf 6.1's, measured with perf-oracle.sh on copies of fixtures/sysfs/intel-spr's intel_pt
// (type 10) with caps/format files changed as the row says, and on a tree of instance PMUs.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <functional>
#include <set>
#include <string>
#include <system_error>

#include "pmucat/decode.h"
#include "pmucat/encode.h"
#include "pmucat/spec.h"
#include "sample_tree.h"
#include "support/temp_tree.h"

PMUCAT_BEGIN_NAMESPACE
namespace {

namespace fs = std::filesystem;

// A private copy of intel-spr's intel_pt directory that a row may edit, removed afterwards.
class IntelPtTree {
 public:
  IntelPtTree() {
    tree_.copy(fs::path(PMUCAT_SOURCE_DIR) / "fixtures/sysfs/intel-spr/devices/intel_pt",
               "intel_pt");
  }

  void write(const std::string& relative, const std::string& text) const {
    tree_.write("intel_pt/" + relative, text);
  }
  void remove(const std::string& relative) const { tree_.remove("intel_pt/" + relative); }
  Catalog catalog() const {
    auto catalog = Catalog::open(tree_.root());
    EXPECT_TRUE(catalog.has_value());
    return std::move(*catalog);
  }

 private:
  testing::TempTree tree_{"intel-pt"};
};

Expected<std::vector<EncodedEvent>> encode_as(const Catalog& catalog, const std::string& spec,
                                              Profile semantics) {
  EncodeOptions options;
  options.semantics = semantics;
  return encode(catalog, spec, options);
}

std::uint64_t config_of(const Catalog& catalog, const std::string& spec, Profile semantics) {
  auto encoded = encode_as(catalog, spec, semantics);
  EXPECT_TRUE(encoded.has_value()) << spec << ": " << encoded.error().message;
  if (!encoded || encoded->size() != 1) return ~std::uint64_t{0};
  EXPECT_EQ(encoded->front().attr.type, 10u) << spec;
  return encoded->front().attr.config[0];
}

struct SpecRow {
  std::string spec;
  std::uint64_t config;  // perf 6.1 on the unmodified intel-spr intel_pt
};

TEST(IntelPtDefaultConfig, UserTermsReplaceDefaultFieldsInBothSemantics) {
  const SpecRow rows[] = {
      {"intel_pt//", 0x300e601},
      {"intel_pt/cyc_thresh=15/", 0x378e601},
      {"intel_pt/pt=1/", 0x300e601},
      {"intel_pt/cyc=0x1/", 0x300e603},
      {"intel_pt/cyc/", 0x300e603},
      {"intel_pt/tsc=0/", 0x300e201},
      {"intel_pt/psb_period=0/", 0xe601},
      {"intel_pt/config=0x5,tsc=0/", 0x5},
      {"intel_pt/config=0x800,pt=0/", 0x800},
      {"intel_pt/branch=0,mtc=0,mtc_period=0,psb_period=0,pt=0,tsc=0/", 0x0},
  };
  IntelPtTree tree;
  const Catalog catalog = tree.catalog();
  for (const SpecRow& row : rows) {
    EXPECT_EQ(config_of(catalog, row.spec, Profile::perf(PerfRelease::v6_1)), row.config)
        << row.spec;
    EXPECT_EQ(config_of(catalog, row.spec, Profile::pmucat()), row.config) << row.spec;
  }
}

TEST(IntelPtDefaultConfig, PerfSemanticsReplacesPerTerm) {
  // perf applies each term in turn; pmucat semantics rejects a field given twice.
  const SpecRow rows[] = {
      {"intel_pt/cyc=0x0,cyc=0/", 0x300e601},
      {"intel_pt/cyc=1,cyc=0/", 0x300e601},
      {"intel_pt/mtc_period/", 0x3006601},  // 6.1's bare multi-bit field is 1, replacing 3
  };
  IntelPtTree tree;
  const Catalog catalog = tree.catalog();
  for (const SpecRow& row : rows) {
    EXPECT_EQ(config_of(catalog, row.spec, Profile::perf(PerfRelease::v6_1)), row.config)
        << row.spec;
    EXPECT_FALSE(encode_as(catalog, row.spec, Profile::pmucat()).has_value()) << row.spec;
  }
}

struct TreeRow {
  std::string what;
  std::function<void(const IntelPtTree&)> edit;
  std::uint64_t config;  // perf 6.1's `intel_pt//`
};

TEST(IntelPtDefaultConfig, DefaultTermsFollowFormatsAndCaps) {
  const TreeRow rows[] = {
      {"unmodified", [](const IntelPtTree&) {}, 0x300e601},
      {"no caps", [](const IntelPtTree& t) { t.remove("caps"); }, 0x2401},
      {"caps/mtc 0", [](const IntelPtTree& t) { t.write("caps/mtc", "0\n"); }, 0x2401},
      {"no caps/mtc_periods", [](const IntelPtTree& t) { t.remove("caps/mtc_periods"); }, 0x2401},
      {"caps/psb_cyc 0", [](const IntelPtTree& t) { t.write("caps/psb_cyc", "0\n"); }, 0xe601},
      {"no caps/psb_periods", [](const IntelPtTree& t) { t.remove("caps/psb_periods"); }, 0xe601},
      {"no caps/mtc nor caps/psb_cyc (both count as 1)",
       [](const IntelPtTree& t) {
         t.remove("caps/mtc");
         t.remove("caps/psb_cyc");
       },
       0x300e601},
      {"caps/mtc junk counts as 1", [](const IntelPtTree& t) { t.write("caps/mtc", "x\n"); },
       0x300e601},
      {"caps/mtc_periods with 0x and blanks",
       [](const IntelPtTree& t) { t.write("caps/mtc_periods", " 0x249 \n"); }, 0x300e601},
      {"caps/psb_periods '0x' reads as 0",
       [](const IntelPtTree& t) { t.write("caps/psb_periods", "0x\n"); }, 0xe601},
      {"periods nearest 3 from below (1), else lowest above (4)",
       [](const IntelPtTree& t) {
         t.write("caps/mtc_periods", "3\n");
         t.write("caps/psb_periods", "30\n");
       },
       0x4006601},
      {"periods 2 and 4",
       [](const IntelPtTree& t) {
         t.write("caps/mtc_periods", "4\n");
         t.write("caps/psb_periods", "110\n");
       },
       0x400a601},
      {"a period too wide for its field is truncated",
       [](const IntelPtTree& t) {
         t.write("format/mtc_period", "config:14-15\n");
         t.write("caps/mtc_periods", "10\n");
       },
       0x3002601},
      {"no format/branch drops pt,branch", [](const IntelPtTree& t) { t.remove("format/branch"); },
       0x300c600},
      {"no format/tsc: the whole default is 0",
       [](const IntelPtTree& t) { t.remove("format/tsc"); }, 0x0},
      {"no format/mtc_period: the whole default is 0",
       [](const IntelPtTree& t) { t.remove("format/mtc_period"); }, 0x0},
  };
  for (const TreeRow& row : rows) {
    IntelPtTree tree;
    row.edit(tree);
    const Catalog catalog = tree.catalog();
    EXPECT_EQ(config_of(catalog, "intel_pt//", Profile::perf(PerfRelease::v6_1)), row.config)
        << row.what;
    EXPECT_EQ(config_of(catalog, "intel_pt//", Profile::pmucat()), row.config) << row.what;
  }
}

TEST(IntelPtDefaultConfig, ZeroDefaultStillReplaces) {
  // Without format/tsc the default is 0, but fields are still replaced (perf: `cyc=1,cyc=0` -> 0,
  // `cyc` -> 0x2, `mtc_period` -> 0x4000).
  IntelPtTree tree;
  tree.remove("format/tsc");
  const Catalog catalog = tree.catalog();
  EXPECT_EQ(config_of(catalog, "intel_pt/cyc=1,cyc=0/", Profile::perf(PerfRelease::v6_1)), 0x0u);
  EXPECT_EQ(config_of(catalog, "intel_pt/cyc/", Profile::perf(PerfRelease::v6_1)), 0x2u);
  EXPECT_EQ(config_of(catalog, "intel_pt/mtc_period/", Profile::perf(PerfRelease::v6_1)), 0x4000u);
}

TEST(IntelPtDefaultConfig, PerfStringAndDecodeReEncodeToTheSameConfig) {
  IntelPtTree tree;
  const Catalog catalog = tree.catalog();
  const Pmu* pt = catalog.find_pmu("intel_pt");
  ASSERT_NE(pt, nullptr);
  for (const char* spec : {"intel_pt//", "intel_pt/tsc=0/", "intel_pt/psb_period=0,cyc/",
                           "intel_pt/branch=0,mtc=0,mtc_period=0,psb_period=0,pt=0,tsc=0/"}) {
    for (Profile semantics : {Profile::perf(PerfRelease::v6_1), Profile::pmucat()}) {
      auto encoded = encode_as(catalog, spec, semantics);
      ASSERT_TRUE(encoded.has_value()) << spec;
      const std::uint64_t config = encoded->front().attr.config[0];
      const std::string printed = encoded->front().perf_string;
      EXPECT_EQ(config_of(catalog, printed, Profile::perf(PerfRelease::v6_1)), config)
          << spec << " -> " << printed;
      EXPECT_EQ(config_of(catalog, printed, Profile::pmucat()), config)
          << spec << " -> " << printed;
      const Decoded decoded = decode(*pt, encoded->front().attr.config);
      const std::string respelled = "intel_pt/" + decoded.terms_string + "/";
      EXPECT_EQ(config_of(catalog, respelled, Profile::perf(PerfRelease::v6_1)), config)
          << respelled;
    }
  }
  // Fields the default sets are spelled out even when zero.
  EXPECT_EQ(decode(*pt, {0x300e201, 0, 0, 0}).terms_string,
            "pt=0x1,mtc=0x1,tsc=0x0,branch=0x1,mtc_period=0x3,psb_period=0x3");
}

TEST(IntelPtDefaultConfig, OnlyThePmuNamedIntelPt) {
  // intel_bts and every other PMU keep perf's OR semantics and start from zero.
  const Catalog sample = testing::sample_catalog();
  EncodeOptions options;
  options.semantics = Profile::perf(PerfRelease::v6_1);
  auto encoded = encode(sample, "fakepmu/event=1,event=2/", options);
  ASSERT_TRUE(encoded.has_value());
  EXPECT_EQ(encoded->front().attr.config[0], 0x3u);
}

// PMUs named to probe the instance rules, with `event` at config:0-7; type = 21, 22, ...
Catalog instance_catalog() {
  std::vector<Pmu> pmus;
  int type = 20;
  for (const char* name :
       {"foo_0", "foo_10", "foo_1a", "ham_1ab", "bar_ff88840", "baz_1ff88", "qux10", "uncore_cha_2",
        "uncore_cha_ab3", "zed_0_1", "zed_x0", "mix_0", "mix_abc1"}) {
    pmus.push_back(testing::make_pmu(name, std::to_string(++type), {{"event", "config:0-7"}}, {}));
  }
  return Catalog::from_pmus(std::move(pmus));
}

std::set<std::uint32_t> types_of(const Catalog& catalog, const std::string& pmu,
                                 Profile semantics) {
  std::set<std::uint32_t> types;
  auto encoded = encode_as(catalog, pmu + "/event=1/", semantics);
  if (!encoded) return types;
  for (const EncodedEvent& event : *encoded) types.insert(event.attr.type);
  return types;
}

struct InstanceRow {
  std::string pattern;
  std::set<std::uint32_t> perf61;  // perf 6.1's attrs (empty: Cannot find PMU)
  std::set<std::uint32_t> pmucat;  // newer perf's rule
};

TEST(PmuInstances, PerfSemanticsTakesOnlyDecimalSuffixesPmucatAlsoLongHex) {
  const InstanceRow rows[] = {
      {"foo", {21, 22}, {21, 22}},  // foo_1a: a two-character hex suffix is part of a name
      {"foo_1", {22}, {22}},       {"ham", {}, {24}},   {"bar", {}, {25}},
      {"baz", {}, {26}},           {"qux", {27}, {27}}, {"uncore_cha", {28}, {28, 29}},
      {"cha", {28}, {28, 29}},     {"zed", {}, {}},     {"mix", {32}, {32, 33}},
      {"foo*", {}, {21, 22, 23}},  // 6.1 has no PMU globs
  };
  const Catalog catalog = instance_catalog();
  for (const InstanceRow& row : rows) {
    EXPECT_EQ(types_of(catalog, row.pattern, Profile::perf(PerfRelease::v6_1)), row.perf61)
        << row.pattern;
    EXPECT_EQ(types_of(catalog, row.pattern, Profile::pmucat()), row.pmucat) << row.pattern;
  }
  auto error = encode_as(catalog, "bar/event=1/", Profile::perf(PerfRelease::v6_1));
  ASSERT_FALSE(error.has_value());
  EXPECT_NE(error.error().message.find("unknown PMU 'bar'"), std::string::npos)
      << error.error().message;
}

TEST(PmuInstances, SmmuHexInstancesOnTheArmFixture) {
  auto catalog = Catalog::open(fs::path(PMUCAT_SOURCE_DIR) / "fixtures/sysfs/arm-neoverse");
  ASSERT_TRUE(catalog.has_value());
  EXPECT_FALSE(
      encode_as(*catalog, "smmuv3_pmcg/event=1/", Profile::perf(PerfRelease::v6_1)).has_value());
  auto newer = encode_as(*catalog, "smmuv3_pmcg/event=1/", Profile::pmucat());
  ASSERT_TRUE(newer.has_value()) << newer.error().message;
  EXPECT_GE(newer->size(), 2u);
}

// A format file of two terms: perf 6.1 (and pmucat) encode with the first, perf 6.12 with the
// last (measured with perf-oracle.sh on intel-spr's cpu with format/zz = "config1:0-3
// config2:4-7": `cpu/zz=5/` is config1 0x5 under perf 6.1.192, config2 0x50 under 6.12.118).
TEST(FormatTerms, Perf612UsesTheLastTermOfAFormatFile) {
  testing::TempTree tree{"multi-term"};
  tree.write("fakepmu/type", "42\n");
  tree.write("fakepmu/format/zz", "config1:0-3 config2:4-7\n");
  auto catalog = Catalog::open(tree.root());
  ASSERT_TRUE(catalog.has_value());
  for (const Profile semantics : {Profile::perf(PerfRelease::v6_1), Profile::pmucat()}) {
    auto first = encode_as(*catalog, "fakepmu/zz=5/", semantics);
    ASSERT_TRUE(first.has_value());
    EXPECT_EQ(first->front().attr.config[1], 0x5u);
    EXPECT_EQ(first->front().attr.config[2], 0u);
  }
  auto last = encode_as(*catalog, "fakepmu/zz=5/", Profile::perf(PerfRelease::v6_12));
  ASSERT_TRUE(last.has_value());
  EXPECT_EQ(last->front().attr.config[1], 0u);
  EXPECT_EQ(last->front().attr.config[2], 0x50u);
  // The field's width is the last term's too: 4 bits.
  EXPECT_FALSE(
      encode_as(*catalog, "fakepmu/zz=0x10/", Profile::perf(PerfRelease::v6_12)).has_value());
}

}  // namespace
PMUCAT_END_NAMESPACE
