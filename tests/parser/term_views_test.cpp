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
