// encode_terms_attr (the attr alone) against encode_terms (the attr with everything around it):
// the same attr or the same error for every event of every fixture tree, broken ones included,
// in both semantics and with modifiers.
#include <gtest/gtest.h>

#include <string>

#include "pmucat/encode.h"

PMUCAT_BEGIN_NAMESPACE
namespace {

class TermsAttrOnTree : public ::testing::TestWithParam<const char*> {};

TEST_P(TermsAttrOnTree, SameAsEncodeTerms) {
  auto catalog = Catalog::open(std::string(PMUCAT_SOURCE_DIR) + "/fixtures/sysfs/" + GetParam());
  ASSERT_TRUE(catalog);
  Modifiers user_precise;
  user_precise.user = true;
  user_precise.precise = 2;
  user_precise.text = "upp";
  std::size_t encoded = 0;
  std::size_t rejected = 0;
  for (const Pmu& pmu : catalog->pmus()) {
    for (const Event& event : pmu.events()) {
      if (event.error) continue;
      for (Profile semantics : {Profile::pmucat(), Profile::perf(PerfRelease::v6_1)}) {
        for (const Modifiers& modifiers : {Modifiers{}, user_precise}) {
          EncodeOptions options;
          options.semantics = semantics;
          auto full = encode_terms(pmu, event.terms, modifiers, event.text, options);
          auto attr = encode_terms_attr(pmu, event.terms, modifiers, event.text, options);
          ASSERT_EQ(full.has_value(), attr.has_value()) << pmu.name() << "/" << event.name;
          if (full) {
            EXPECT_EQ(*attr, full->attr) << pmu.name() << "/" << event.name;
            ++encoded;
          } else {
            EXPECT_EQ(attr.error(), full.error()) << pmu.name() << "/" << event.name;
            ++rejected;
          }
        }
      }
    }
  }
  EXPECT_GT(encoded, 0u);
  // Events whose terms parse but do not encode (unknown fields, values too wide).
  if (std::string(GetParam()) == "broken/terms/devices") {
    EXPECT_GT(rejected, 0u);
  }
}

INSTANTIATE_TEST_SUITE_P(Trees, TermsAttrOnTree,
                         ::testing::Values("intel-spr", "amd-zen4", "arm-neoverse", "power9",
                                           "broken/terms/devices", "broken/files/devices"));

}  // namespace
PMUCAT_END_NAMESPACE
