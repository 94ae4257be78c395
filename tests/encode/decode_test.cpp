// decode(): config words -> format terms, residue, matching events, re-encodable terms.
#include "pmucat/decode.h"

#include <gtest/gtest.h>

#include "pmucat/encode.h"
#include "sample_tree.h"

PMUCAT_BEGIN_NAMESPACE
namespace {

const Pmu& fakepmu() {
  static const Catalog catalog = testing::sample_catalog();
  return *catalog.find_pmu("fakepmu");
}

const Pmu& fakehv() {
  static const Catalog catalog = testing::sample_catalog();
  return *catalog.find_pmu("fakehv");
}

TEST(Decode, FieldsInFormatOrder) {
  const Decoded decoded = decode(fakepmu(), {0x3840201, 0x13, 0, 0});
  const std::vector<DecodedTerm> expected = {{"event", 0x1}, {"umask", 0x2}, {"edge", 0x1},
                                             {"inv", 0x1},   {"cmask", 0x3}, {"ldlat", 0x13}};
  EXPECT_EQ(decoded.terms, expected);
  EXPECT_EQ(decoded.residue, (ConfigWords{}));
  EXPECT_EQ(decoded.terms_string, "event=0x1,umask=0x2,edge=0x1,inv=0x1,cmask=0x3,ldlat=0x13");
}

TEST(Decode, NonContiguousFieldsGather) {
  Decoded decoded = decode(fakepmu(), {0x50a000000000, 0, 0x110, 0});
  std::vector<DecodedTerm> expected = {{"split", 0x5a}, {"c2", 0x110}};
  EXPECT_EQ(decoded.terms, expected);
  // c2 (config2:0-63) claims every config2 bit before c2lo (4,6,8) can.
  decoded = decode(fakepmu(), {0, 0x10f0000000000, 0, 0});
  expected = {{"spaced", 0x1f}};
  EXPECT_EQ(decoded.terms, expected);
}

TEST(Decode, OverlappingFormatsClaimBitsOnce) {
  // event (config:0-7) comes before evext (config:0-7,21): evext keeps only bit 21 (its bit 8).
  const Decoded decoded = decode(fakepmu(), {0x20001e, 0, 0, 0});
  const std::vector<DecodedTerm> expected = {{"event", 0x1e}, {"evext", 0x100}};
  EXPECT_EQ(decoded.terms, expected);
  EXPECT_EQ(decoded.terms_string, "event=0x1e,evext=0x100");
}

TEST(Decode, ResidueForUncoveredBits) {
  const Decoded decoded = decode(fakepmu(), {0x8000000000000001, 0x10000, 0, 0});
  EXPECT_EQ(decoded.residue[0], 0x8000000000000000u);
  EXPECT_EQ(decoded.residue[1], 0x10000u);
  EXPECT_EQ(decoded.terms_string, "event=0x1,config=0x8000000000000000,config1=0x10000");
}

TEST(Decode, EventsMatchExactly) {
  EXPECT_EQ(decode(fakepmu(), {0x13c, 0, 0, 0}).events, std::vector<std::string>{"foo"});
  EXPECT_TRUE(decode(fakepmu(), {0x23c, 0, 0, 0}).events.empty());
  EXPECT_EQ(decode(fakepmu(), {0x1cd, 0x3, 0, 0}).events, std::vector<std::string>{"ld"});
  EXPECT_TRUE(decode(fakepmu(), {0x1cd, 0x13, 0, 0}).events.empty());
  // Several events with one encoding: all of them, in name order.
  const std::vector<std::string> same = {"ext1"};
  EXPECT_EQ(decode(fakepmu(), {0x20001e, 0, 0, 0}).events, same);
  EXPECT_EQ(decode(fakepmu(), {0x1234, 0, 0, 0}).events, std::vector<std::string>{"rawcfg"});
  EXPECT_EQ(decode(fakepmu(), {0x1, 0x55, 0, 0}).events, std::vector<std::string>{"cfg1"});
}

TEST(Decode, ParameterEventsMatchOnTheOtherBits) {
  EXPECT_EQ(decode(fakepmu(), {0x5000020, 0, 0, 0}).events, std::vector<std::string>{"param"});
  EXPECT_EQ(decode(fakepmu(), {0x20, 0, 0, 0}).events, std::vector<std::string>{"param"});
  EXPECT_EQ(decode(fakehv(), {0x300080002, 0, 0, 0}).events, std::vector<std::string>{"PM_X"});
  EXPECT_EQ(decode(fakehv(), {0x100100001, 0x7, 0, 0}).events, std::vector<std::string>{"PM_Y"});
  EXPECT_TRUE(decode(fakehv(), {0x300080002, 0x1, 0, 0}).events.empty());  // PM_X has lpar=0
}

TEST(Decode, TermsStringReEncodesToTheSameWords) {
  const ConfigWords words = {0xfff0ffff00ffffff, 0x1ffffffffffff, 0x123, 0};
  const Decoded decoded = decode(fakepmu(), words);
  for (const Profile semantics : {Profile::perf(PerfRelease::v6_1), Profile::pmucat()}) {
    auto terms = parse_terms(decoded.terms_string, "<spec>", TermSyntax::command_line);
    ASSERT_TRUE(terms.has_value());
    EncodeOptions options;
    options.semantics = semantics;
    auto encoded = encode_terms(fakepmu(), *terms, Modifiers{}, decoded.terms_string, options);
    ASSERT_TRUE(encoded.has_value()) << render(encoded.error());
    EXPECT_EQ(encoded->attr.config, words);
  }
}

TEST(Decode, ZeroWordsDecodeToNothing) {
  const Decoded decoded = decode(fakepmu(), {0, 0, 0, 0});
  EXPECT_TRUE(decoded.terms.empty());
  EXPECT_EQ(decoded.terms_string, "");
}

}  // namespace
PMUCAT_END_NAMESPACE
