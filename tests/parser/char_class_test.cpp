// Internal unit test of src/parser/char_class.h: the one byte-class table of the event grammar,
// against the classes written out byte by byte as perf's lexer states them.
#include "parser/char_class.h"

#include <gtest/gtest.h>

#include <string_view>

#include "pmucat/version.h"

PMUCAT_BEGIN_NAMESPACE
namespace char_class {
namespace {

bool among(char c, std::string_view bytes) {
  return bytes.find(c) != std::string_view::npos;
}
bool digit(char c) {
  return c >= '0' && c <= '9';
}
bool alpha(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

TEST(CharClass, EveryByteIsInTheClassesTheGrammarNames) {
  for (int byte = 0; byte < 256; ++byte) {
    const char c = static_cast<char>(byte);
    SCOPED_TRACE(byte);
    EXPECT_EQ(is_blank(c), among(c, std::string_view(" \t\n\r\v\f")));
    EXPECT_EQ(is_digit(c), digit(c));
    EXPECT_EQ(is_hex_digit(c), digit(c) || among(c, "abcdefABCDEF"));
    EXPECT_EQ(is_alpha(c), alpha(c));
    EXPECT_EQ(is_name_start(c), alpha(c) || among(c, "_*?"));
    EXPECT_EQ(is_name_char(c), alpha(c) || digit(c) || among(c, "_*?.:-"));
    EXPECT_EQ(is_pmu_name_char(c), alpha(c) || digit(c) || among(c, "_-.*?[]!"));
    EXPECT_EQ(is_event_name_char(c), alpha(c) || digit(c) || among(c, "_-.*?"));
    EXPECT_EQ(is_driver_cfg_char(c), alpha(c) || digit(c) || among(c, "_."));
    EXPECT_EQ(is_driver_value_char(c), alpha(c) || digit(c) || among(c, "_*?.:"));
  }
}

TEST(CharClass, InTestsAnyOfSeveralClasses) {
  EXPECT_TRUE(in('7', kDigit | kBlank));
  EXPECT_TRUE(in(' ', kDigit | kBlank));
  EXPECT_FALSE(in('x', kDigit | kBlank));
  EXPECT_FALSE(in('\0', ~0U));
  EXPECT_FALSE(in(static_cast<char>(0xe9), ~0U));
}

TEST(CharClass, PlainNames) {
  EXPECT_TRUE(is_plain_name("event"));
  EXPECT_TRUE(is_plain_name("_a.b:c-d*?"));
  EXPECT_FALSE(is_plain_name(""));
  EXPECT_FALSE(is_plain_name("0x1"));
  EXPECT_FALSE(is_plain_name("a b"));
  EXPECT_FALSE(is_plain_name("-a"));
}

}  // namespace
}  // namespace char_class
PMUCAT_END_NAMESPACE
