// parse_format: perf 6.1's format grammar, its oracle results, lints and errors.
#include "pmucat/format.h"

#include <gtest/gtest.h>

#include <algorithm>

PMUCAT_BEGIN_NAMESPACE
namespace {

FormatSpec spec_of(unsigned word, std::uint64_t mask) {
  FormatSpec spec;
  spec.word = word;
  spec.mask = mask;
  return spec;
}

FormatSpec parse_ok(std::string_view text) {
  auto result = parse_format(text, "format/f");
  EXPECT_TRUE(result.has_value()) << (result ? "" : render(result.error()));
  return result ? *result : FormatSpec{};
}

Diagnostic parse_error(std::string_view text) {
  auto result = parse_format(text, "format/f");
  EXPECT_FALSE(result.has_value()) << "parsed: " << text;
  return result ? Diagnostic{} : result.error();
}

std::vector<std::string> lint_ids(const FormatSpec& spec) {
  std::vector<std::string> ids;
  for (const auto& lint : spec.lints) ids.push_back(lint.id);
  return ids;
}

using Ids = std::vector<std::string>;

// --- grammar rules ------------------------------------------------------------------------------

TEST(FormatGrammar, SingleRange) {
  const FormatSpec spec = parse_ok("config:0-7\n");
  EXPECT_EQ(spec.word, 0u);
  EXPECT_EQ(spec.mask, 0xffu);
  ASSERT_EQ(spec.ranges.size(), 1u);
  EXPECT_EQ(spec.ranges[0], (BitRange{0, 7, true, 7, 3}));
  EXPECT_TRUE(spec.lints.empty());
  EXPECT_EQ(spec.width(), 8u);
  EXPECT_EQ(spec.max_value(), 255u);
  EXPECT_TRUE(spec.word_supported());
}

TEST(FormatGrammar, SingleBitsAndRangesMixed) {
  const FormatSpec spec = parse_ok("config1:0,2,4-6\n");
  EXPECT_EQ(spec.word, 1u);
  EXPECT_EQ(spec.mask, 0b1110101u);
  ASSERT_EQ(spec.ranges.size(), 3u);
  EXPECT_EQ(spec.ranges[0], (BitRange{0, 0, false, 8, 1}));
  EXPECT_EQ(spec.ranges[1], (BitRange{2, 2, false, 10, 1}));
  EXPECT_EQ(spec.ranges[2], (BitRange{4, 6, true, 12, 3}));
  EXPECT_TRUE(spec.lints.empty());
}

TEST(FormatGrammar, ConfigWords) {
  EXPECT_EQ(parse_ok("config2:0-63\n").word, 2u);
  EXPECT_EQ(parse_ok("config2:0-63\n").mask, ~0ULL);
  EXPECT_EQ(parse_ok("config2:0-63\n").max_value(), ~0ULL);
  const FormatSpec c3 = parse_ok("config3:0-7");
  EXPECT_EQ(c3.word, 3u);
  EXPECT_TRUE(c3.word_supported());
  EXPECT_TRUE(c3.lints.empty());
  const FormatSpec c4 = parse_ok("config4:0-63");
  EXPECT_EQ(c4.word, 4u);
  EXPECT_TRUE(c4.word_supported());
  EXPECT_TRUE(c4.lints.empty());
}

TEST(FormatGrammar, NoTrailingNewlineIsNormal) {
  EXPECT_TRUE(parse_ok("config:5").lints.empty());
  EXPECT_EQ(parse_ok("config:5").mask, 0x20u);
}

TEST(FormatGrammar, ZeroToZeroIsBitZeroWithoutLint) {
  const FormatSpec spec = parse_ok("config:0-0\n");
  EXPECT_EQ(spec.mask, 1u);
  EXPECT_TRUE(spec.lints.empty());
}

TEST(FormatGrammar, BitSixtyThreeIsTheLast) {
  EXPECT_EQ(parse_ok("config1:63\n").mask, 0x8000000000000000ULL);
  EXPECT_TRUE(parse_ok("config1:63\n").lints.empty());
}

TEST(FormatGrammar, LargestNumberStillLexes) {
  const FormatSpec spec = parse_ok("config:18446744073709551615");
  EXPECT_EQ(spec.mask, 0u);
  EXPECT_EQ(spec.ranges[0].first, 0xffffffffu);  // saturated
  EXPECT_EQ(lint_ids(spec), (Ids{"format-bit-out-of-range"}));
}

// --- perf 6.1 semantics and the oracle rows of perf-pmu.md section 4 ----------------------------

TEST(FormatOracle, SpacedTermParses) {
  const FormatSpec spec = parse_ok("config1 : 40 - 43 , 48\n");
  EXPECT_EQ(spec.word, 1u);
  EXPECT_EQ(spec.mask, 0x10f0000000000ULL);
  // fakepmu/spaced=0x1f/ -> config1 0x10f0000000000
  EXPECT_EQ(scatter_bits(0x1f, spec.mask), 0x10f0000000000ULL);
  EXPECT_EQ(lint_ids(spec), (Ids{"format-whitespace"}));
  EXPECT_EQ(spec.lints[0].range.column, 8u);
}

TEST(FormatOracle, ReversedWithZeroEndIsSingleBit) {
  const FormatSpec spec = parse_ok("config:7-0\n");
  EXPECT_EQ(spec.mask, 0x80u);  // oddfmt/rev=1/ -> 0x80
  EXPECT_EQ(scatter_bits(1, spec.mask), 0x80u);
  ASSERT_EQ(spec.lints.size(), 1u);
  EXPECT_EQ(spec.lints[0].id, "format-zero-end-range");
  EXPECT_EQ(spec.lints[0].severity, Severity::warning);
  EXPECT_EQ(spec.lints[0].message,
            "'7-0' means bit 7 only: perf reads an end of 0 as a single bit");
  EXPECT_EQ(spec.lints[0].range.column, 8u);
  EXPECT_EQ(spec.lints[0].range.length, 3u);
}

TEST(FormatOracle, TwoTermsFirstWins) {
  const FormatSpec spec = parse_ok("config:0-3 config1:0-3\n");
  EXPECT_EQ(spec.word, 0u);
  EXPECT_EQ(spec.mask, 0xfu);  // oddfmt/twoterm=0xf/ -> config 0xf
  EXPECT_EQ(lint_ids(spec), (Ids{"format-multiple-terms"}));
  EXPECT_EQ(spec.lints[0].range.column, 12u);
}

// perf 6.12 encodes with the last term (measured: `cpu/zz=5/` with `config1:0-3 config2:4-7`
// is config2 0x50 under perf 6.12.118, config1 0x5 under perf 6.1).
TEST(FormatOracle, LastTermOnRequest) {
  auto spec = parse_format("config1:0-3 config2:4-7\n", "f", FormatTerm::last);
  ASSERT_TRUE(spec.has_value());
  EXPECT_EQ(spec->word, 2u);
  EXPECT_EQ(spec->mask, 0xf0u);
  EXPECT_EQ(lint_ids(*spec), (Ids{"format-multiple-terms"}));
  auto one = parse_format("config:0-7", "f", FormatTerm::last);
  ASSERT_TRUE(one.has_value());
  EXPECT_EQ(one->mask, 0xffu);
}

TEST(FormatOracle, TwoLinesFirstLineWins) {
  const FormatSpec spec = parse_ok("config:0-7\nconfig:8-15\n");
  EXPECT_EQ(spec.mask, 0xffu);
  EXPECT_EQ(spec.max_value(), 255u);
  EXPECT_EQ(lint_ids(spec), (Ids{"format-multiple-terms"}));
  EXPECT_EQ(spec.lints[0].range.line, 2u);
}

TEST(FormatOracle, JunkAroundTheTermIsSkipped) {
  const FormatSpec spec = parse_ok("xyz config:4-7 garbage");
  EXPECT_EQ(spec.mask, 0xf0u);  // oddfmt/junk=0xf/ -> 0xf0
  EXPECT_EQ(lint_ids(spec), (Ids{"format-stray-text", "format-stray-text"}));
  EXPECT_EQ(spec.lints[0].range.column, 1u);
  EXPECT_EQ(spec.lints[0].range.length, 3u);
  EXPECT_EQ(spec.lints[1].range.column, 16u);
  EXPECT_EQ(spec.lints[1].range.length, 7u);
  EXPECT_EQ(spec.lints[1].message,
            "perf skips 'garbage' here; it is not part of the format grammar");
}

TEST(FormatOracle, BitsPastSixtyThreeAreDropped) {
  const FormatSpec spec = parse_ok("config:60-70\n");
  EXPECT_EQ(spec.mask, 0xf000000000000000ULL);
  EXPECT_EQ(spec.max_value(), 15u);
  EXPECT_EQ(lint_ids(spec), (Ids{"format-bit-out-of-range"}));
  EXPECT_EQ(spec.lints[0].message, "bits 64-70 are beyond the 64-bit word; perf ignores them");
}

TEST(FormatOracle, BitSixtyFourIsAnEmptyField) {
  const FormatSpec spec = parse_ok("config:64\n");
  EXPECT_EQ(spec.mask, 0u);
  EXPECT_EQ(spec.max_value(), 0u);
  EXPECT_EQ(spec.width(), 0u);
  EXPECT_EQ(lint_ids(spec), (Ids{"format-bit-out-of-range"}));
  EXPECT_EQ(spec.lints[0].message, "bit 64 is beyond the 64-bit word; perf ignores it");
}

TEST(FormatOracle, ReversedRangeIsEmpty) {
  const FormatSpec spec = parse_ok("config:5-3\n");
  EXPECT_EQ(spec.mask, 0u);
  EXPECT_EQ(spec.max_value(), 0u);
  ASSERT_EQ(lint_ids(spec), (Ids{"format-reversed-range"}));
  EXPECT_EQ(spec.lints[0].message, "range '5-3' is reversed; perf reads it as no bits at all");
  ASSERT_TRUE(spec.lints[0].fixit.has_value());
  EXPECT_EQ(spec.lints[0].fixit->replacement, "3-5");
}

TEST(FormatOracle, CarriageReturnAndBlanksAreSkipped) {
  EXPECT_EQ(parse_ok("config:0-7\r\n").mask, 0xffu);
  EXPECT_TRUE(parse_ok("config:0-7\r\n").lints.empty());
  EXPECT_EQ(parse_ok("config: 0 - 7").mask, 0xffu);
  EXPECT_EQ(lint_ids(parse_ok("config: 0 - 7")), (Ids{"format-whitespace"}));
  EXPECT_EQ(parse_ok("config :0-7").mask, 0xffu);
  EXPECT_EQ(parse_ok("  config:0-7  ").mask, 0xffu);
  EXPECT_TRUE(parse_ok("  config:0-7  \n").lints.empty());
}

TEST(FormatOracle, LettersBeforeOrAfterAreSkipped) {
  EXPECT_EQ(parse_ok("xconfig:0-3").mask, 0xfu);
  EXPECT_EQ(lint_ids(parse_ok("xconfig:0-3")), (Ids{"format-stray-text"}));
  EXPECT_EQ(parse_ok("config:0-3x").mask, 0xfu);
  EXPECT_EQ(parse_ok("config:0xa").mask, 1u);  // `x` and `a` skipped, bit 0 stays
}

TEST(FormatOracle, StrayBytesAreEscapedInMessages) {
  const FormatSpec spec = parse_ok(std::string_view("config:0-7\0\xff", 12));
  ASSERT_EQ(lint_ids(spec), (Ids{"format-stray-text"}));
  EXPECT_EQ(spec.lints[0].message,
            "perf skips '\\x00\\xff' here; it is not part of the format grammar");
}

TEST(FormatOracle, ConfigZeroIsConfig) {
  const FormatSpec spec = parse_ok("config0:0-7");
  EXPECT_EQ(spec.word, 0u);
  EXPECT_EQ(spec.mask, 0xffu);
  ASSERT_EQ(lint_ids(spec), (Ids{"format-noncanonical-word"}));
  EXPECT_EQ(spec.lints[0].message, "'config0' is read as 'config'");
  EXPECT_EQ(spec.lints[0].fixit->replacement, "config");
  EXPECT_EQ(lint_ids(parse_ok("config01:0")), (Ids{"format-noncanonical-word"}));
  EXPECT_EQ(parse_ok("config01:0").word, 1u);
}

TEST(FormatOracle, ConfigTenIsKeptButUnsupported) {
  const FormatSpec spec = parse_ok("config10:0-7\n");
  EXPECT_EQ(spec.word, 10u);
  EXPECT_FALSE(spec.word_supported());
  EXPECT_EQ(lint_ids(spec), (Ids{"format-unsupported-word"}));
  EXPECT_EQ(spec.lints[0].message,
            "perf_event_attr has no 'config10'; perf warns and cannot use this field");
  EXPECT_EQ(lint_ids(parse_ok("config5:0")), (Ids{"format-unsupported-word"}));
}

TEST(FormatOracle, ConfigAndIndexMaySeparate) {
  // perf's lexer returns `config` and a number; blanks between them are skipped.
  const FormatSpec spec = parse_ok("config 1:0-7");
  EXPECT_EQ(spec.word, 1u);
  EXPECT_EQ(lint_ids(spec), (Ids{"format-whitespace"}));
}

TEST(FormatSemantics, OverlapsAreOred) {
  const FormatSpec spec = parse_ok("config:0-3,2-5\n");
  EXPECT_EQ(spec.mask, 0x3fu);
  ASSERT_EQ(lint_ids(spec), (Ids{"format-overlap"}));
  EXPECT_EQ(spec.lints[0].message, "'2-5' overlaps bits listed earlier in this term");
  EXPECT_EQ(spec.lints[0].range.column, 12u);
  EXPECT_EQ(lint_ids(parse_ok("config:3,3")), (Ids{"format-overlap"}));
}

TEST(FormatSemantics, NewlinesInsideATermAreBlanks) {
  const FormatSpec spec = parse_ok("config:0-3\n,5\n");
  EXPECT_EQ(spec.mask, 0x2fu);
}

TEST(FormatSemantics, LaterTermsAreStillChecked) {
  const FormatSpec spec = parse_ok("config:0-3 config1:5-3");
  EXPECT_EQ(spec.mask, 0xfu);
  EXPECT_EQ(lint_ids(spec), (Ids{"format-reversed-range", "format-multiple-terms"}));
}

// --- errors -------------------------------------------------------------------------------------

TEST(FormatErrors, EmptyFile) {
  for (std::string_view text : {"", "\n", "  \t\n"}) {
    const Diagnostic d = parse_error(text);
    EXPECT_EQ(d.id, "format-empty");
    EXPECT_EQ(d.message, "format file is empty; expected 'config[N]:bits'");
    EXPECT_EQ(d.range.line, 1u);
    EXPECT_EQ(d.range.column, 1u);
    EXPECT_EQ(d.severity, Severity::error);
  }
}

TEST(FormatErrors, OnlyJunk) {
  const Diagnostic d = parse_error("garbage\n");
  EXPECT_EQ(d.id, "format-syntax");
  EXPECT_EQ(d.message, "no 'config' term found; expected 'config[N]:bits'");
}

TEST(FormatErrors, MissingBitList) {
  const Diagnostic d = parse_error("config:");
  EXPECT_EQ(d.id, "format-syntax");
  EXPECT_EQ(d.message, "expected a bit number after ':', found end of file");
  EXPECT_EQ(d.range.column, 8u);
  EXPECT_EQ(render(d),
            "format/f:1:8: error: expected a bit number after ':', found end of file "
            "[format-syntax]\nconfig:\n       ^\n");
  // With a trailing newline the caret still points just after ':'.
  EXPECT_EQ(parse_error("config:\n").range.column, 8u);
}

TEST(FormatErrors, TrailingComma) {
  const Diagnostic d = parse_error("config1:0-7,\n");
  EXPECT_EQ(d.id, "format-syntax");
  EXPECT_EQ(d.message, "expected a bit number after ','");
  EXPECT_EQ(d.range.column, 12u);
  ASSERT_TRUE(d.fixit.has_value());
  EXPECT_EQ(d.fixit->replacement, "");
  EXPECT_EQ(render(d),
            "format/f:1:12: error: expected a bit number after ',' [format-syntax]\n"
            "config1:0-7,\n           ^\nfix-it: remove ','\nconfig1:0-7\n           ^\n");
}

TEST(FormatErrors, UppercaseKeyword) {
  const Diagnostic d = parse_error("CONFIG:0-7\n");
  EXPECT_EQ(d.id, "format-syntax");
  EXPECT_EQ(d.message, "the keyword 'config' must be lowercase");
  EXPECT_EQ(d.range.column, 1u);
  EXPECT_EQ(d.range.length, 6u);
  EXPECT_EQ(d.fixit->replacement, "config");
}

TEST(FormatErrors, HexBitNumber) {
  const Diagnostic d = parse_error("config:0x10\n");
  EXPECT_EQ(d.id, "format-hex-number");
  EXPECT_EQ(d.message, "bit numbers in format files are decimal");
  EXPECT_EQ(d.range.column, 8u);
  EXPECT_EQ(d.range.length, 4u);
  ASSERT_TRUE(d.fixit.has_value());
  EXPECT_EQ(d.fixit->replacement, "16");
  EXPECT_EQ(parse_error("config:0-0X3f").id, "format-hex-number");
  EXPECT_EQ(parse_error("config:0-0X3f").fixit->replacement, "63");
}

TEST(FormatErrors, NegativeBit) {
  const Diagnostic d = parse_error("config:-3");
  EXPECT_EQ(d.id, "format-syntax");
  EXPECT_EQ(d.message, "expected a bit number after ':', found '-'");
  EXPECT_EQ(d.range.column, 8u);
}

TEST(FormatErrors, NumberOverflow) {
  const Diagnostic d = parse_error("config:99999999999999999999");
  EXPECT_EQ(d.id, "format-number-overflow");
  EXPECT_EQ(d.message, "number does not fit in 64 bits");
  EXPECT_EQ(d.range.column, 8u);
  EXPECT_EQ(d.range.length, 20u);
  EXPECT_EQ(parse_error("config18446744073709551616:0").id, "format-number-overflow");
}

TEST(FormatErrors, MissingColon) {
  const Diagnostic d = parse_error("config1 0-7");
  EXPECT_EQ(d.message, "expected ':' after 'config1', found a number");
  EXPECT_EQ(d.range.column, 9u);
  EXPECT_EQ(d.fixit->replacement, ":");
  EXPECT_EQ(parse_error("config").message, "expected ':' after 'config', found end of file");
}

TEST(FormatErrors, DanglingDash) {
  const Diagnostic d = parse_error("config:3-");
  EXPECT_EQ(d.message, "expected a bit number after '-', found end of file");
  EXPECT_EQ(d.range.column, 10u);
  EXPECT_EQ(parse_error("config:3-,4").message, "expected a bit number after '-', found ','");
}

TEST(FormatErrors, TwoNumbersWithoutComma) {
  const Diagnostic d = parse_error("config:1 2");
  EXPECT_EQ(d.message, "expected ',' or '-' between bit numbers");
  EXPECT_EQ(d.range.column, 10u);
  EXPECT_EQ(d.fixit->replacement, ",");
  EXPECT_EQ(d.fixit->range.column, 9u);
  EXPECT_EQ(parse_error("config:1.5").message, "expected ',' or '-' between bit numbers");
}

TEST(FormatErrors, ExtraPunctuation) {
  EXPECT_EQ(parse_error("config:0-7-9").message, "unexpected '-' after the bit list");
  EXPECT_EQ(parse_error("config:0-7:").message, "unexpected ':' after the bit list");
  EXPECT_EQ(parse_error("config::0").message, "expected a bit number after ':', found ':'");
  EXPECT_EQ(parse_error(":0-7").message, "expected 'config' before ':'");
  EXPECT_EQ(parse_error("0-7").message, "expected 'config' before a number");
}

TEST(FormatErrors, ErrorInALaterTermFailsTheFile) {
  const Diagnostic d = parse_error("config:0-7\nconfig");
  EXPECT_EQ(d.range.line, 2u);
  EXPECT_EQ(d.range.column, 7u);
}

// --- helpers ------------------------------------------------------------------------------------

TEST(FormatHelpers, ConfigWordNames) {
  EXPECT_EQ(config_word_name(0), "config");
  EXPECT_EQ(config_word_name(1), "config1");
  EXPECT_EQ(config_word_name(3), "config3");
  EXPECT_EQ(config_word_name(12), "config12");
}

TEST(FormatHelpers, CanonicalText) {
  EXPECT_EQ(to_string(parse_ok("config1:21,0-7")), "config1:0-7,21");
  EXPECT_EQ(to_string(parse_ok("config:0-3,2-5,9,10,11")), "config:0-5,9-11");
  EXPECT_EQ(to_string(parse_ok("config2:0-63")), "config2:0-63");
  EXPECT_EQ(to_string(parse_ok("config:63")), "config:63");
  EXPECT_EQ(to_string(parse_ok("config:7-0")), "config:7");
  EXPECT_EQ(to_string(spec_of(2, 0)), "config2:64");
  EXPECT_EQ(to_string(spec_of(0, 0x5555555555555555ULL)).substr(0, 14), "config:0,2,4,6");
}

TEST(FormatHelpers, WidthAndMaxValue) {
  EXPECT_EQ((spec_of(0, 0)).max_value(), 0u);
  EXPECT_EQ((spec_of(0, 1ULL << 40)).max_value(), 1u);
  EXPECT_EQ((spec_of(0, 0x7fffffffffffffffULL)).max_value(), 0x7fffffffffffffffULL);
  EXPECT_EQ((spec_of(0, 0x2000ff)).width(), 9u);
  EXPECT_EQ((spec_of(0, 0x2000ff)).max_value(), 511u);  // evext: maximum is 511
}

// --- scatter/gather: perf's tests/pmu.c "format" vectors (perf-pmu.md 3.1) ----------------------

struct KravaField {
  const char* format;
  std::uint64_t value;
  std::uint64_t expected;
};

TEST(FormatScatter, KravaVectors) {
  const KravaField fields[] = {
      {"config:0-1,62-63\n", 15, 0xc000000000000003ULL},
      {"config:10-17\n", 170, 0x2a800},
      {"config:5\n", 1, 0x20},
      {"config1:0,2,4,6,8,20-28\n", 27, 0x145},
      {"config1:63\n", 1, 0x8000000000000000ULL},
      {"config1:45-47\n", 2, 0x400000000000ULL},
      {"config2:0-3,10-13,20-23,30-33,40-43,50-53,60-63\n", 119, 0x1c07},
      {"config2:8,18,48,58\n", 11, 0x0400000000040100ULL},
      {"config2:28-29,38\n", 2, 0x20000000},
  };
  std::uint64_t words[3] = {0, 0, 0};
  for (const auto& field : fields) {
    const FormatSpec spec = parse_ok(field.format);
    EXPECT_TRUE(spec.lints.empty()) << field.format;
    const std::uint64_t bits = scatter_bits(field.value, spec.mask);
    EXPECT_EQ(bits, field.expected) << field.format;
    EXPECT_EQ(gather_bits(bits, spec.mask), field.value) << field.format;
    words[spec.word] |= bits;
  }
  EXPECT_EQ(words[0], 0xc00000000002a823ULL);
  EXPECT_EQ(words[1], 0x8000400000000145ULL);
  EXPECT_EQ(words[2], 0x0400000020041d07ULL);
}

TEST(FormatScatter, OracleFields) {
  const std::uint64_t split = parse_ok("config:36-39,44-47\n").mask;
  EXPECT_EQ(scatter_bits(0xff, split), 0xf0f000000000ULL);
  EXPECT_EQ(scatter_bits(0x5a, split), 0x50a000000000ULL);
  const std::uint64_t evext = parse_ok("config:0-7,21\n").mask;
  EXPECT_EQ(scatter_bits(0x11e, evext), 0x20001eULL);
  EXPECT_EQ(scatter_bits(5, parse_ok("config2:4,6,8\n").mask), 0x110u);
  EXPECT_EQ(scatter_bits(~0ULL, ~0ULL), ~0ULL);
}

TEST(FormatScatter, ExcessValueBitsAreDropped) {
  EXPECT_EQ(scatter_bits(0x1ff, 0xff), 0xffu);
  EXPECT_EQ(scatter_bits(0x100, 0xff), 0u);
  EXPECT_EQ(scatter_bits(123, 0), 0u);
  EXPECT_EQ(gather_bits(~0ULL, 0), 0u);
}

TEST(FormatScatter, GatherIgnoresBitsOutsideTheMask) {
  EXPECT_EQ(gather_bits(0xffffffffffffffffULL, 0xf0), 0xfu);
  EXPECT_EQ(gather_bits(0x50a000000000ULL | 0x3, 0xf0f000000000ULL), 0x5au);
}

}  // namespace
PMUCAT_END_NAMESPACE
