// Internal unit test of cli/common/text_wrap.h: wrapping descriptions and the width perf list uses.
#include "common/text_wrap.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "pmucat/version.h"

PMUCAT_BEGIN_NAMESPACE
namespace cli {
namespace {

using Lines = std::vector<std::string>;

TEST(WrapWords, BreaksAtBlanksWithinTheWidth) {
  EXPECT_EQ(wrap_words("the quick brown fox jumps", 10),
            (Lines{"the quick", "brown fox", "jumps"}));
  EXPECT_EQ(wrap_words("exactly ten", 11), (Lines{"exactly ten"}));
  EXPECT_EQ(wrap_words("exactly ten", 10), (Lines{"exactly", "ten"}));
}

TEST(WrapWords, BlankRunsCollapseAndEdgesAreTrimmed) {
  EXPECT_EQ(wrap_words("  a \t  b   ", 80), (Lines{"a b"}));
}

TEST(WrapWords, ALongWordStandsAloneUnbroken) {
  EXPECT_EQ(wrap_words("a averyveryverylongword b", 8), (Lines{"a", "averyveryverylongword", "b"}));
}

TEST(WrapWords, LineBreaksInTheTextAreKept) {
  EXPECT_EQ(wrap_words("first\nsecond line", 80), (Lines{"first", "second line"}));
  EXPECT_EQ(wrap_words("a\n\nb", 80), (Lines{"a", "", "b"}));
}

TEST(WrapWords, EmptyTextHasNoLinesAndWidthZeroDoesNotWrap) {
  EXPECT_TRUE(wrap_words("", 10).empty());
  EXPECT_TRUE(wrap_words("   ", 10).empty());
  EXPECT_EQ(wrap_words("one two three four", 0), (Lines{"one two three four"}));
}

RC_GTEST_PROP(WrapWords, KeepsEveryWordInOrderAndOnlyLongWordsOverflow, ()) {
  const auto words = *rc::gen::container<std::vector<std::string>>(
      rc::gen::nonEmpty(rc::gen::container<std::string>(rc::gen::inRange('a', 'z'))));
  const std::size_t width = *rc::gen::inRange<std::size_t>(1, 40);
  std::string text;
  for (const std::string& word : words) text += word + (word.size() % 2 == 0 ? " " : "  \t");
  const Lines lines = wrap_words(text, width);
  std::string joined;
  for (const std::string& line : lines) {
    RC_ASSERT(!line.empty());
    // Only a single word may pass the width.
    if (line.size() > width) RC_ASSERT(line.find(' ') == std::string::npos);
    joined += (joined.empty() ? "" : " ") + line;
  }
  std::string expected;
  for (const std::string& word : words) expected += (expected.empty() ? "" : " ") + word;
  RC_ASSERT(joined == expected);
}

TEST(DescriptionColumns, ColumnsVariableWinsThenTerminalLessTwoThenSeventyEight) {
  EXPECT_EQ(description_columns("120", 200), 120u);
  EXPECT_EQ(description_columns(std::nullopt, 200), 198u);
  EXPECT_EQ(description_columns(std::nullopt, std::nullopt), 78u);
}

TEST(DescriptionColumns, ABadColumnsVariableIsIgnored) {
  EXPECT_EQ(description_columns("", 100), 98u);
  EXPECT_EQ(description_columns("0", 100), 98u);
  EXPECT_EQ(description_columns("wide", std::nullopt), 78u);
  EXPECT_EQ(description_columns("80x", std::nullopt), 78u);
}

}  // namespace
}  // namespace cli
PMUCAT_END_NAMESPACE
