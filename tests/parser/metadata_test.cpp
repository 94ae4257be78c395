// The events/<name>.unit, .scale, .per-pkg and .snapshot parsers.
#include "pmucat/metadata.h"

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cmath>

PMUCAT_BEGIN_NAMESPACE
namespace {

std::vector<std::string> lint_ids(const std::vector<Diagnostic>& lints) {
  std::vector<std::string> ids;
  for (const auto& lint : lints) ids.push_back(lint.id);
  return ids;
}

using Ids = std::vector<std::string>;

TEST(MetadataSuffix, RecognisesTheFourSuffixes) {
  EXPECT_EQ(metadata_suffix("foo.unit"), MetadataSuffix::unit);
  EXPECT_EQ(metadata_suffix("foo.scale"), MetadataSuffix::scale);
  EXPECT_EQ(metadata_suffix("foo.per-pkg"), MetadataSuffix::per_pkg);
  EXPECT_EQ(metadata_suffix("foo.snapshot"), MetadataSuffix::snapshot);
  EXPECT_EQ(metadata_suffix("foo"), MetadataSuffix::none);
  EXPECT_EQ(metadata_suffix("unc.dot"), MetadataSuffix::none);
  EXPECT_EQ(metadata_suffix("foo-bar"), MetadataSuffix::none);
  EXPECT_EQ(metadata_suffix("foo.units"), MetadataSuffix::none);
  EXPECT_EQ(metadata_suffix("foo.UNIT"), MetadataSuffix::none);
}

TEST(MetadataSuffix, NameMustBeLongerThanTheSuffix) {
  EXPECT_EQ(metadata_suffix(".unit"), MetadataSuffix::none);
  EXPECT_EQ(metadata_suffix(".scale"), MetadataSuffix::none);
  EXPECT_EQ(metadata_suffix(".per-pkg"), MetadataSuffix::none);
  EXPECT_EQ(metadata_suffix(".snapshot"), MetadataSuffix::none);
  EXPECT_EQ(metadata_suffix("x.unit"), MetadataSuffix::unit);
  EXPECT_EQ(metadata_suffix(""), MetadataSuffix::none);
}

TEST(MetadataSuffix, BaseName) {
  EXPECT_EQ(metadata_base_name("foo.scale"), "foo");
  EXPECT_EQ(metadata_base_name("a.b.unit"), "a.b");
  EXPECT_EQ(metadata_base_name("foo"), "foo");
  EXPECT_EQ(metadata_base_name(".unit"), ".unit");
  EXPECT_EQ(metadata_base_name("x.snapshot"), "x");
}

TEST(Unit, OneTrailingNewlineIsRemoved) {
  const auto unit = parse_unit("MiB\n", "events/foo.unit");
  ASSERT_TRUE(unit.has_value());
  EXPECT_EQ(unit->text, "MiB");
  EXPECT_TRUE(unit->lints.empty());
  EXPECT_EQ(parse_unit("MiB", "u")->text, "MiB");
  EXPECT_EQ(parse_unit("with space\n", "u")->text, "with space");
}

TEST(Unit, EmptyIsAnError) {
  for (std::string_view text : {"", "\n"}) {
    const auto unit = parse_unit(text, "events/foo.unit");
    ASSERT_FALSE(unit.has_value());
    EXPECT_EQ(unit.error().id, "unit-empty");
    EXPECT_EQ(unit.error().message, "unit file is empty");
    EXPECT_EQ(unit.error().range.file, "events/foo.unit");
    EXPECT_EQ(unit.error().range.column, 1u);
  }
}

TEST(Unit, LongerThan31BytesGetsALint) {
  const std::string ok(31, 'u');
  EXPECT_TRUE(parse_unit(ok + "\n", "u")->lints.empty());
  const std::string forty(40, 'u');
  const auto unit = parse_unit(forty + "\n", "u");
  ASSERT_TRUE(unit.has_value());
  EXPECT_EQ(unit->text, forty);
  ASSERT_EQ(lint_ids(unit->lints), (Ids{"unit-too-long"}));
  EXPECT_EQ(unit->lints[0].message, "unit is 40 bytes; perf 6.1 keeps only the first 31");
  EXPECT_EQ(unit->lints[0].range.column, 32u);
  EXPECT_EQ(unit->lints[0].range.length, 9u);
}

TEST(Unit, ControlBytesGetALint) {
  const auto unit = parse_unit("Mi\tB\n\n", "u");
  ASSERT_TRUE(unit.has_value());
  EXPECT_EQ(unit->text, "Mi\tB\n");
  ASSERT_EQ(lint_ids(unit->lints), (Ids{"unit-nonprintable"}));
  EXPECT_EQ(unit->lints[0].message, "unit contains byte 0x09");
  EXPECT_EQ(unit->lints[0].range.column, 3u);
  EXPECT_TRUE(parse_unit("\xc2\xb5s\n", "u")->lints.empty());  // UTF-8 "µs"
}

TEST(Scale, DecimalAndScientific) {
  EXPECT_DOUBLE_EQ(parse_scale("6.103515625e-5\n", "s")->value, 6.103515625e-5);
  EXPECT_DOUBLE_EQ(parse_scale("0.5", "s")->value, 0.5);
  EXPECT_DOUBLE_EQ(parse_scale("64", "s")->value, 64.0);
  EXPECT_DOUBLE_EQ(parse_scale("1E3\n", "s")->value, 1000.0);
  EXPECT_DOUBLE_EQ(parse_scale(".25", "s")->value, 0.25);
  const auto scale = parse_scale("  2.5e-3 \t\n", "s");
  ASSERT_TRUE(scale.has_value());
  EXPECT_EQ(scale->text, "2.5e-3");
  EXPECT_TRUE(scale->lints.empty());
}

TEST(Scale, QuotedScaleIsAnErrorAtTheQuote) {
  // The DMR defect: the JSON string was written with its quotes.
  const auto scale = parse_scale("\"3.814697266e-6\"\n", "events/dmr.scale");
  ASSERT_FALSE(scale.has_value());
  const Diagnostic& d = scale.error();
  EXPECT_EQ(d.id, "scale-quoted");
  EXPECT_EQ(d.message, "scale must be a bare number, not quoted");
  EXPECT_EQ(d.range.line, 1u);
  EXPECT_EQ(d.range.column, 1u);
  ASSERT_TRUE(d.fixit.has_value());
  EXPECT_EQ(d.fixit->replacement, "3.814697266e-6");
  EXPECT_EQ(render(d),
            "events/dmr.scale:1:1: error: scale must be a bare number, not quoted [scale-quoted]\n"
            "\"3.814697266e-6\"\n^\n"
            "perf reads a scale it cannot parse as 0 and then uses 1.0\n"
            "fix-it: replace '\"3.814697266e-6\"' with '3.814697266e-6'\n"
            "3.814697266e-6\n^~~~~~~~~~~~~~\n");
  EXPECT_EQ(parse_scale(" '1'", "s").error().range.column, 2u);
  EXPECT_FALSE(parse_scale("\"1", "s").error().fixit.has_value());
}

TEST(Scale, GarbageIsAnErrorAtTheFirstBadByte) {
  const auto word = parse_scale("abc\n", "s");
  ASSERT_FALSE(word.has_value());
  EXPECT_EQ(word.error().id, "scale-syntax");
  EXPECT_EQ(word.error().message, "expected a number, found 'a'");
  EXPECT_EQ(word.error().range.column, 1u);
  const auto tail = parse_scale("1.5MiB\n", "s");
  ASSERT_FALSE(tail.has_value());
  EXPECT_EQ(tail.error().message, "unexpected 'M' after the number");
  EXPECT_EQ(tail.error().range.column, 4u);
  EXPECT_EQ(tail.error().range.length, 3u);
  EXPECT_EQ(parse_scale("1,5", "s").error().range.column, 2u);  // C locale: no decimal comma
  EXPECT_EQ(parse_scale("0x10", "s").error().range.column, 2u);
  EXPECT_EQ(parse_scale("1 2", "s").error().message, "unexpected ' ' after the number");
}

TEST(Scale, EmptyIsAnError) {
  for (std::string_view text : {"", "\n", "  \n"}) {
    const auto scale = parse_scale(text, "s");
    ASSERT_FALSE(scale.has_value());
    EXPECT_EQ(scale.error().id, "scale-empty");
  }
}

TEST(Scale, NonFiniteAndOutOfRange) {
  EXPECT_EQ(parse_scale("inf", "s").error().id, "scale-not-finite");
  EXPECT_EQ(parse_scale("nan\n", "s").error().id, "scale-not-finite");
  EXPECT_EQ(parse_scale("1e999", "s").error().id, "scale-out-of-range");
}

TEST(Scale, ZeroMeansUnsetAndReadsAsOne) {
  const auto scale = parse_scale("0\n", "s");
  ASSERT_TRUE(scale.has_value());
  EXPECT_DOUBLE_EQ(scale->value, 1.0);
  EXPECT_EQ(scale->text, "0");
  EXPECT_EQ(lint_ids(scale->lints), (Ids{"scale-zero"}));
}

TEST(Scale, SignsAndLength) {
  const auto negative = parse_scale("-2", "s");
  ASSERT_TRUE(negative.has_value());
  EXPECT_DOUBLE_EQ(negative->value, -2.0);
  EXPECT_EQ(lint_ids(negative->lints), (Ids{"scale-negative"}));
  const auto plus = parse_scale("+2", "s");
  ASSERT_TRUE(plus.has_value());
  EXPECT_DOUBLE_EQ(plus->value, 2.0);
  EXPECT_EQ(lint_ids(plus->lints), (Ids{"scale-plus-sign"}));
  const std::string padded = "1." + std::string(130, '0');
  const auto long_scale = parse_scale(padded, "s");
  ASSERT_TRUE(long_scale.has_value());
  EXPECT_EQ(lint_ids(long_scale->lints), (Ids{"scale-too-long"}));
}

TEST(Flag, OneIsClean) {
  const Flag flag = parse_flag("1\n", "events/x.per-pkg");
  EXPECT_TRUE(flag.value);
  EXPECT_TRUE(flag.lints.empty());
  EXPECT_TRUE(parse_flag("1", "f").lints.empty());
}

TEST(Flag, ExistenceIsTrueWhateverTheContent) {
  for (std::string_view text : {"0\n", "", "yes", "1\n\n"}) {
    const Flag flag = parse_flag(text, "events/x.snapshot");
    EXPECT_TRUE(flag.value) << text;
    ASSERT_EQ(lint_ids(flag.lints), (Ids{"flag-content"})) << text;
  }
  EXPECT_EQ(parse_flag("0\n", "f").lints[0].message, "flag file holds '0', not '1'");
  EXPECT_EQ(parse_flag("", "f").lints[0].message, "flag file is empty");
  EXPECT_EQ(parse_flag("\x01\n", "f").lints[0].message, "flag file holds '\\x01', not '1'");
}

RC_GTEST_PROP(MetadataProperty, RandomBytesNeverCrash, (const std::string& text)) {
  const auto unit = parse_unit(text, "u");
  if (!unit) RC_ASSERT(unit.error().range.offset <= text.size());
  const auto scale = parse_scale(text, "s");
  if (!scale) {
    RC_ASSERT(scale.error().range.offset + scale.error().range.length <= text.size());
  } else {
    RC_ASSERT(std::isfinite(scale->value));
  }
  RC_ASSERT(parse_flag(text, "f").value);
}

RC_GTEST_PROP(MetadataProperty, PrintedDoublesParseBack, (double value)) {
  RC_PRE(std::isfinite(value) && value != 0);
  const std::string text = fmt::format("{}\n", value);
  const auto scale = parse_scale(text, "s");
  RC_ASSERT(scale.has_value());
  RC_ASSERT(scale->value == value);
}

}  // namespace
PMUCAT_END_NAMESPACE
