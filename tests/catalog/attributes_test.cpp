#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "pmucat/catalog.h"
#include "support/temp_tree.h"

PMUCAT_BEGIN_NAMESPACE
namespace {

using ::testing::ElementsAre;
using ::testing::Pair;
using testing::TempTree;

bool has_id(const std::vector<Diagnostic>& diagnostics, std::string_view id) {
  return std::any_of(diagnostics.begin(), diagnostics.end(),
                     [&](const Diagnostic& d) { return d.id == id; });
}

// A catalog with one PMU `p` whose `type` file holds `type_text`.
struct TypeFixture {
  explicit TypeFixture(std::string_view type_text) {
    tree.write("devices/p/type", type_text);
    catalog = std::make_unique<Catalog>(std::move(Catalog::open(tree.path("devices")).value()));
  }
  const PmuAttributes& attributes() const { return catalog->find_pmu("p")->attributes(); }
  TempTree tree;
  std::unique_ptr<Catalog> catalog;
};

TEST(PmuType, DecimalWithNewline) {
  TypeFixture f("42\n");
  EXPECT_EQ(f.attributes().type, 42u);
  EXPECT_EQ(f.attributes().type_text, "42");
  EXPECT_TRUE(f.attributes().diagnostics.empty());
}

TEST(PmuType, NoNewlineAndLeadingBlanksAreFine) {
  TypeFixture f(" \t 9999");
  EXPECT_EQ(f.attributes().type, 9999u);
  EXPECT_TRUE(f.attributes().diagnostics.empty());
}

TEST(PmuType, TrailingJunkIsIgnoredWithAWarning) {
  TypeFixture f("12abc\n");
  EXPECT_EQ(f.attributes().type, 12u);
  ASSERT_EQ(f.attributes().diagnostics.size(), 1u);
  const Diagnostic& d = f.attributes().diagnostics[0];
  EXPECT_EQ(d.id, "pmu-type-trailing");
  EXPECT_EQ(d.severity, Severity::warning);
  EXPECT_EQ(d.range.column, 3u);
  EXPECT_EQ(d.range.length, 3u);
}

TEST(PmuType, HexReadsAsZeroLikePerfAndIsAnError) {
  TypeFixture f("0x2e\n");
  EXPECT_EQ(f.attributes().type, 0u);
  ASSERT_EQ(f.attributes().diagnostics.size(), 1u);
  const Diagnostic& d = f.attributes().diagnostics[0];
  EXPECT_EQ(d.id, "pmu-type-hex");
  EXPECT_EQ(d.severity, Severity::error);
  EXPECT_EQ(d.range.column, 1u);
  EXPECT_EQ(d.range.length, 4u);
  EXPECT_FALSE(d.hint.empty());
}

TEST(PmuType, NoDigitsMeansNoType) {
  for (std::string_view text : {"", "\n", "abc", "-1", "  \n"}) {
    TypeFixture f(text);
    EXPECT_FALSE(f.attributes().type.has_value()) << text;
    EXPECT_TRUE(has_id(f.attributes().diagnostics, "pmu-type-invalid")) << text;
  }
}

TEST(PmuType, OverflowMeansNoType) {
  TypeFixture f("4294967296\n");
  EXPECT_FALSE(f.attributes().type.has_value());
  EXPECT_TRUE(has_id(f.attributes().diagnostics, "pmu-type-invalid"));
  TypeFixture g("4294967295\n");
  EXPECT_EQ(g.attributes().type, 4294967295u);
}

TEST(PmuType, MissingTypeIsAnErrorButThePmuStillLoads) {
  TempTree tree;
  tree.write("devices/cpu/format/event", "config:0-7\n");
  tree.write("devices/cpu/events/cycles", "event=0x3c\n");
  tree.write("devices/other/type", "8\n");
  auto catalog = Catalog::open(tree.path("devices"));
  ASSERT_TRUE(catalog);
  const Pmu* cpu = catalog->find_pmu("cpu");
  ASSERT_NE(cpu, nullptr);
  EXPECT_FALSE(cpu->type().has_value());
  EXPECT_TRUE(has_id(cpu->attributes().diagnostics, "pmu-type-missing"));
  EXPECT_EQ(cpu->formats().size(), 1u);
  EXPECT_NE(cpu->find_event("cycles"), nullptr);
  EXPECT_EQ(catalog->find_pmu("other")->type(), 8u);
}

TEST(PmuAttributes, AllScalarAttributes) {
  TempTree tree;
  tree.write("devices/uncore_cha_0/type", "35\n");
  tree.write("devices/uncore_cha_0/cpumask", "0,56\n");
  tree.write("devices/uncore_cha_0/alias", "uncore_type_0_0\n");
  tree.write("devices/uncore_cha_0/identifier", "0x00000123\n");
  tree.write("devices/uncore_cha_0/nr_addr_filters", "2\n");
  tree.write("devices/uncore_cha_0/perf_event_mux_interval_ms", "4\n");
  tree.write("devices/uncore_cha_0/caps/pmu_name", "sapphire_rapids\nsecond line\n");
  tree.write("devices/uncore_cha_0/caps/max_precise", "3");
  auto catalog = Catalog::open(tree.path("devices"));
  ASSERT_TRUE(catalog);
  const PmuAttributes& a = catalog->find_pmu("uncore_cha_0")->attributes();
  EXPECT_EQ(a.type, 35u);
  ASSERT_TRUE(a.cpumask);
  EXPECT_EQ(a.cpumask->text, "0,56");
  EXPECT_THAT(a.cpumask->cpus, ElementsAre(0u, 56u));
  EXPECT_FALSE(a.cpus);
  EXPECT_EQ(a.alias, "uncore_type_0_0");
  EXPECT_EQ(a.identifier, "0x00000123");
  EXPECT_EQ(a.nr_addr_filters, 2u);
  EXPECT_EQ(a.mux_interval_ms, 4u);
  EXPECT_THAT(a.caps, ElementsAre(Pair("max_precise", "3"), Pair("pmu_name", "sapphire_rapids")));
  EXPECT_TRUE(a.diagnostics.empty());
}

TEST(PmuAttributes, EmptyCapsDirectoryIsFine) {
  TempTree tree;
  tree.write("devices/ibs_op/type", "11\n");
  tree.mkdir("devices/ibs_op/caps");
  auto catalog = Catalog::open(tree.path("devices"));
  const PmuAttributes& a = catalog->find_pmu("ibs_op")->attributes();
  EXPECT_TRUE(a.caps.empty());
  EXPECT_TRUE(a.diagnostics.empty());
}

TEST(PmuAttributes, BadValuesBecomeLocatedDiagnostics) {
  TempTree tree;
  tree.write("devices/p/type", "7\n");
  tree.write("devices/p/cpumask", "0-x\n");
  tree.write("devices/p/nr_addr_filters", "two\n");
  tree.mkdir("devices/p/caps/odd_dir");
  auto catalog = Catalog::open(tree.path("devices"));
  const PmuAttributes& a = catalog->find_pmu("p")->attributes();
  EXPECT_EQ(a.type, 7u);
  EXPECT_FALSE(a.cpumask);
  EXPECT_FALSE(a.nr_addr_filters);
  EXPECT_TRUE(has_id(a.diagnostics, "cpulist-syntax"));
  EXPECT_TRUE(has_id(a.diagnostics, "pmu-attribute-invalid"));
  EXPECT_TRUE(has_id(a.diagnostics, "file-not-regular"));
  for (const Diagnostic& d : a.diagnostics) {
    if (d.id == "cpulist-syntax") {
      EXPECT_EQ(d.range.file, tree.path("devices/p/cpumask").string());
      EXPECT_EQ(d.range.column, 3u);
      EXPECT_EQ(d.source_line, "0-x");
    }
  }
}

TEST(PmuKind, FromNameTypeAndFiles) {
  TempTree tree;
  tree.write("devices/cpu/type", "4\n");
  tree.write("devices/cpu_atom/type", "10\n");
  tree.write("devices/cpu_atom/cpus", "16-23\n");
  tree.write("devices/software/type", "1\n");
  tree.write("devices/kprobe/type", "6\n");
  tree.write("devices/mysw/type", "2\n");
  tree.write("devices/uncore_imc_0/type", "17\n");
  tree.write("devices/uncore_imc_0/cpumask", "0\n");
  tree.write("devices/msr/type", "9\n");
  auto catalog = Catalog::open(tree.path("devices"));
  auto kind = [&](const char* name) { return catalog->find_pmu(name)->kind(); };
  EXPECT_EQ(kind("cpu"), PmuKind::core);
  EXPECT_EQ(kind("cpu_atom"), PmuKind::core);
  EXPECT_EQ(kind("software"), PmuKind::software);
  EXPECT_EQ(kind("kprobe"), PmuKind::software);
  EXPECT_EQ(kind("mysw"), PmuKind::software);
  EXPECT_EQ(kind("uncore_imc_0"), PmuKind::uncore);
  EXPECT_EQ(kind("msr"), PmuKind::other);
  EXPECT_EQ(to_string(PmuKind::uncore), "uncore");
  EXPECT_EQ(to_string(PmuKind::core), "core");
  EXPECT_EQ(to_string(PmuKind::software), "software");
  EXPECT_EQ(to_string(PmuKind::other), "other");
}

}  // namespace
PMUCAT_END_NAMESPACE
