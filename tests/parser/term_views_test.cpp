// parse_term_views is parse_terms without owning strings: same terms, lints and errors.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <string>
#include <vector>

#include "pmucat/terms.h"

PMUCAT_BEGIN_NAMESPACE
namespace {

// Term-list-like text: mostly valid pieces, sometimes stray bytes, quotes and driver terms.
rc::Gen<std::string> term_text() {
  return rc::gen::map(
      rc::gen::container<std::vector<std::string>>(rc::gen::element<std::string>(
          "event", "=", "0x3c", ",", "umask", "1", "inv", "ldlat=?", "name='a,b'", "@cfg=x", "@cfg",
          " ", "\n", "0X1", "0xAB", "010", ";", "-", "'open", "config1=0xffffffffffffffff",
          "18446744073709551616", "a_long_term_name_over_sso", "=value")),
      [](const std::vector<std::string>& pieces) {
        std::string text;
        for (const std::string& piece : pieces) text += piece;
        return text;
      });
}

void check_same(const std::string& text, TermSyntax syntax, std::uint32_t base) {
  auto owning = parse_terms(text, "f", syntax, base);
  std::vector<TermView> views{TermView{}};  // appended to, not replaced
  std::vector<Diagnostic> lints;
  auto parsed = parse_term_views(text, "f", syntax, base, views, lints);
  RC_ASSERT(owning.has_value() == parsed.has_value());
  if (!owning) {
    RC_ASSERT(owning.error() == parsed.error());
    return;
  }
  RC_ASSERT(*parsed == owning->terms.size());
  RC_ASSERT(views.size() == owning->terms.size() + 1);
  for (std::size_t i = 0; i < owning->terms.size(); ++i) {
    RC_ASSERT(views[i + 1].to_term() == owning->terms[i]);
    RC_ASSERT(TermView::of(owning->terms[i]) == views[i + 1]);
  }
  RC_ASSERT(lints == owning->lints);
}

RC_GTEST_PROP(TermViews, SameAsParseTerms, ()) {
  const std::string text = *term_text();
  const auto base = *rc::gen::inRange<std::uint32_t>(0, 100);
  check_same(text, TermSyntax::event_file, base);
  check_same(text, TermSyntax::command_line, base);
}

// perf 6.12's name rule takes a leading digit and '-', and flex keeps the longer match: `0-1`,
// `12abc` and `0X3c` are names there, `12` and `0x3c` stay numbers; perf 7.3's term_name also
// holds ':' after a digit. Brackets start a name in every release. perf 6.1 lexes `0-1` as 0
// and junk.
TEST(TermViews, DigitLedNamesFollowTheReleasesLexer) {
  const std::string text = "name=0-1,cpu=12abc,x=0X3c,y=12,event=0x3c,z=[a]";
  std::vector<TermView> views;
  std::vector<Diagnostic> lints;
  const TermLexing perf612{.digit_led_names = true};
  ASSERT_TRUE(parse_term_views(text, "<spec>", TermSyntax::command_line, 0, views, lints, perf612));
  ASSERT_EQ(views.size(), 6u);
  for (std::size_t i : {0u, 1u, 2u, 5u}) EXPECT_EQ(views[i].kind, TermValueKind::string) << i;
  EXPECT_EQ(views[0].text, "0-1");
  EXPECT_EQ(views[1].text, "12abc");
  EXPECT_EQ(views[2].text, "0X3c");
  EXPECT_EQ(views[5].text, "[a]");
  EXPECT_EQ(views[3].kind, TermValueKind::number);
  EXPECT_EQ(views[3].value, 12u);
  EXPECT_EQ(views[4].value, 0x3cu);

  views.clear();
  auto colon =
      parse_term_views("name=1a:b", "<spec>", TermSyntax::command_line, 0, views, lints, perf612);
  EXPECT_FALSE(colon.has_value());
  views.clear();
  const TermLexing perf73{.digit_led_names = true, .bang_in_term_names = true};
  ASSERT_TRUE(
      parse_term_views("name=1a:b!c", "<spec>", TermSyntax::command_line, 0, views, lints, perf73));
  EXPECT_EQ(views.at(0).text, "1a:b!c");

  views.clear();
  EXPECT_FALSE(parse_term_views("name=0-1", "<spec>", TermSyntax::command_line, 0, views, lints));
  views.clear();
  ASSERT_TRUE(parse_term_views("name=[a]", "<spec>", TermSyntax::command_line, 0, views, lints));
  EXPECT_EQ(views.at(0).text, "[a]");
}

TEST(TermViews, ViewIntoTheText) {
  const std::string text = "event=0x3c,name='x y',@cfg=abc";
  std::vector<TermView> views;
  std::vector<Diagnostic> lints;
  auto parsed = parse_term_views(text, "<spec>", TermSyntax::command_line, 0, views, lints);
  ASSERT_TRUE(parsed.has_value());
  ASSERT_EQ(views.size(), 3u);
  EXPECT_EQ(views[0].name.data(), text.data());
  EXPECT_EQ(views[1].text, "x y");
  EXPECT_EQ(views[2].name, "@cfg");
  EXPECT_EQ(views[2].text, "abc");
  EXPECT_TRUE(lints.empty());
}

}  // namespace
PMUCAT_END_NAMESPACE
