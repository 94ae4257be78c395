// encode_on_pmus(): a spec on the PMUs a --pmu pattern selected. Bare terms and raw events go to
// each PMU, group leaders index the combined result, and a bare event name keeps only the
// selected PMUs' attrs or falls back to each selected PMU's own event of that name.
#include "pmucat/encode_on_pmus.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "pmucat/catalog.h"
#include "pmucat/diagnostic_ids.h"
#include "support/temp_tree.h"

PMUCAT_BEGIN_NAMESPACE
namespace {

using testing::TempTree;

// Two uncore instances with one format; `ev` only on pa_0, `cycles` only on pa_1.
class TwoPmus : public ::testing::Test {
 protected:
  void SetUp() override {
    for (const char* pmu : {"pa_0", "pa_1"}) {
      const std::string dir = std::string(pmu) + "/";
      tree_.write(dir + "type", pmu == std::string("pa_0") ? "30\n" : "31\n");
      tree_.write(dir + "cpumask", "0\n");
      tree_.write(dir + "format/event", "config:0-7\n");
    }
    tree_.write("pa_0/events/ev", "event=0x5\n");
    tree_.write("pa_1/events/cycles", "event=0x7\n");
    auto catalog = Catalog::open(tree_.root());
    ASSERT_TRUE(catalog.has_value()) << render(catalog.error());
    catalog_.emplace(std::move(*catalog));
  }

  Expected<std::vector<EncodedEvent>> encode(std::string_view spec, std::string_view pattern) {
    pmus_ = catalog_->match_pmus(pattern);
    return encode_on_pmus(*catalog_, spec, pmus_, pattern, {});
  }

  TempTree tree_{"on-pmus"};
  std::optional<Catalog> catalog_;
  std::vector<const Pmu*> pmus_;
};

TEST_F(TwoPmus, BareTermsGoToEachSelectedPmu) {
  const auto events = encode("event=0x3", "pa_*");
  ASSERT_TRUE(events.has_value()) << render(events.error());
  ASSERT_EQ(events->size(), 2u);
  EXPECT_EQ((*events)[0].pmu, "pa_0");
  EXPECT_EQ((*events)[1].pmu, "pa_1");
  EXPECT_EQ((*events)[0].attr.type, 30u);
  EXPECT_EQ((*events)[1].attr.type, 31u);
  EXPECT_EQ((*events)[1].attr.config[0], 0x3u);
}

TEST_F(TwoPmus, GroupLeadersIndexTheCombinedResult) {
  const auto events = encode("{r1,r2}", "pa_*");
  ASSERT_TRUE(events.has_value()) << render(events.error());
  ASSERT_EQ(events->size(), 4u);
  const std::vector<std::optional<std::size_t>> leaders = {
      (*events)[0].group_leader, (*events)[1].group_leader, (*events)[2].group_leader,
      (*events)[3].group_leader};
  EXPECT_EQ(leaders, (std::vector<std::optional<std::size_t>>{0, 0, 2, 2}));
  EXPECT_EQ((*events)[2].pmu, "pa_1");
}

TEST_F(TwoPmus, ASpecNamingItsPmuIsLeftAlone) {
  const auto events = encode("pa_0/event=0x4/,r6", "pa_1");
  ASSERT_TRUE(events.has_value()) << render(events.error());
  ASSERT_EQ(events->size(), 2u);
  EXPECT_EQ((*events)[0].pmu, "pa_0");
  EXPECT_EQ((*events)[1].pmu, "pa_1");
  EXPECT_EQ((*events)[1].attr.config[0], 0x6u);
}

TEST_F(TwoPmus, AnEventNameKeepsTheSelectedPmusOnly) {
  const auto kept = encode("ev", "pa_0");
  ASSERT_TRUE(kept.has_value()) << render(kept.error());
  ASSERT_EQ(kept->size(), 1u);
  EXPECT_EQ((*kept)[0].pmu, "pa_0");
  EXPECT_EQ((*kept)[0].attr.config[0], 0x5u);

  const auto refused = encode("ev", "pa_1");
  ASSERT_FALSE(refused.has_value());
  EXPECT_EQ(refused.error().code, DiagId::event_not_on_pmu);
  EXPECT_NE(refused.error().message.find("'pa_1'"), std::string::npos) << refused.error().message;
}

// `cycles` alone is perf's built-in event; on a selection, the selected PMU's own `cycles`.
TEST_F(TwoPmus, ABuiltInNameIsTheSelectedPmusEvent) {
  const auto events = encode("cycles:u", "pa_1");
  ASSERT_TRUE(events.has_value()) << render(events.error());
  ASSERT_EQ(events->size(), 1u);
  EXPECT_EQ((*events)[0].pmu, "pa_1");
  EXPECT_EQ((*events)[0].spec, "cycles:u");
  EXPECT_EQ((*events)[0].attr.config[0], 0x7u);
  EXPECT_TRUE((*events)[0].attr.exclude_kernel);
}

// The selected PMU's event is encoded from the spec as given, not from a spec text rebuilt for
// it: what its event file gets wrong points back into the spec the user wrote.
TEST(EncodeOnPmus, TheSelectedPmusEventIsLocatedInTheSpecAsGiven) {
  TempTree tree("on-pmus-broken");
  tree.write("pa_1/type", "31\n");
  tree.write("pa_1/cpumask", "0\n");
  tree.write("pa_1/format/event", "config:0-7\n");
  tree.write("pa_1/events/cycles", "event=0x7,nosuch=1\n");
  auto catalog = Catalog::open(tree.root());
  ASSERT_TRUE(catalog.has_value()) << render(catalog.error());
  const std::vector<const Pmu*> pmus = catalog->match_pmus("pa_1");
  const std::string spec = "cycles:u";
  const auto encoded = encode_on_pmus(*catalog, spec, pmus, "pa_1", {});
  ASSERT_FALSE(encoded.has_value());
  const Diagnostic& error = encoded.error();
  EXPECT_NE(error.range.file.find("events/cycles"), std::string::npos) << render(error);
  bool points_into_spec = false;
  for (const Diagnostic& note : error.notes) {
    if (note.range.file != "<spec>") continue;
    points_into_spec = true;
    EXPECT_EQ(note.source_line, spec) << render(error);
    EXPECT_EQ(note.range.offset, spec.find("cycles")) << render(error);
  }
  EXPECT_TRUE(points_into_spec) << render(error);
}

}  // namespace
PMUCAT_END_NAMESPACE
