// make_diagnostic, render and rebase_diagnostic.
#include "pmucat/diagnostic.h"

#include <gtest/gtest.h>

PMUCAT_BEGIN_NAMESPACE
namespace {

TEST(Severity, Names) {
  EXPECT_EQ(to_string(Severity::note), "note");
  EXPECT_EQ(to_string(Severity::warning), "warning");
  EXPECT_EQ(to_string(Severity::error), "error");
}

TEST(MakeDiagnostic, ComputesLineColumnAndSourceLine) {
  const std::string_view text = "first line\nsecond line\nthird";
  const Diagnostic d = make_diagnostic(Severity::error, "some-id", "f", text, 18, 4, "msg");
  EXPECT_EQ(d.range.file, "f");
  EXPECT_EQ(d.range.line, 2u);
  EXPECT_EQ(d.range.column, 8u);
  EXPECT_EQ(d.range.length, 4u);
  EXPECT_EQ(d.range.offset, 18u);
  EXPECT_EQ(d.source_line, "second line");
  EXPECT_EQ(d.id, "some-id");
  EXPECT_EQ(d.message, "msg");
  EXPECT_EQ(d.severity, Severity::error);
}

TEST(MakeDiagnostic, OffsetOnNewlineBelongsToTheLineItEnds) {
  const Diagnostic d = make_diagnostic(Severity::error, "", "f", "abc\ndef", 3, 0, "m");
  EXPECT_EQ(d.range.line, 1u);
  EXPECT_EQ(d.range.column, 4u);
  EXPECT_EQ(d.source_line, "abc");
}

TEST(MakeDiagnostic, ClampsOffsetAndLengthPastTheEnd) {
  const Diagnostic d = make_diagnostic(Severity::error, "", "f", "abc", 10, 5, "m");
  EXPECT_EQ(d.range.offset, 3u);
  EXPECT_EQ(d.range.column, 4u);
  EXPECT_EQ(d.range.length, 0u);
  const Diagnostic e = make_diagnostic(Severity::error, "", "f", "abcdef", 4, 100, "m");
  EXPECT_EQ(e.range.length, 2u);
}

TEST(MakeDiagnostic, EmptyText) {
  const Diagnostic d = make_diagnostic(Severity::warning, "", "f", "", 0, 3, "m");
  EXPECT_EQ(d.range.line, 1u);
  EXPECT_EQ(d.range.column, 1u);
  EXPECT_EQ(d.range.length, 0u);
  EXPECT_EQ(d.source_line, "");
}

TEST(Render, ClangStyleWithCaretAndTildes) {
  const Diagnostic d =
      make_diagnostic(Severity::error, "terms-x", "events/foo", "event=0XAB\n", 6, 2, "bad");
  EXPECT_EQ(render(d), "events/foo:1:7: error: bad [terms-x]\nevent=0XAB\n      ^~\n");
}

TEST(Render, IdCanBeHiddenAndEmptyIdIsNotShown) {
  Diagnostic d = make_diagnostic(Severity::warning, "x-y", "f", "abc", 1, 1, "m");
  EXPECT_EQ(render(d, {.color = false, .show_id = false}), "f:1:2: warning: m\nabc\n ^\n");
  d.id.clear();
  EXPECT_EQ(render(d), "f:1:2: warning: m\nabc\n ^\n");
}

TEST(Render, HintFollowsTheCaretLine) {
  Diagnostic d = make_diagnostic(Severity::note, "", "f", "abc", 0, 3, "m");
  d.hint = "valid terms: a,b";
  EXPECT_EQ(render(d), "f:1:1: note: m\nabc\n^~~\nvalid terms: a,b\n");
}

TEST(Render, FixItShowsTheCorrectedLine) {
  Diagnostic d = make_diagnostic(Severity::error, "e", "f", "event=0XAB", 6, 2, "m");
  d.fixit = FixIt{d.range, "0x"};
  EXPECT_EQ(render(d),
            "f:1:7: error: m [e]\nevent=0XAB\n      ^~\n"
            "fix-it: replace '0X' with '0x'\nevent=0xAB\n      ^~\n");
}

TEST(Render, FixItInsertAndRemove) {
  Diagnostic insert = make_diagnostic(Severity::error, "", "f", "a b", 2, 1, "m");
  insert.fixit = FixIt{make_diagnostic(Severity::note, "", "f", "a b", 1, 0, "").range, ","};
  EXPECT_EQ(render(insert), "f:1:3: error: m\na b\n  ^\nfix-it: insert ','\na, b\n ^\n");
  Diagnostic remove = make_diagnostic(Severity::error, "", "f", "a,,b", 2, 1, "m");
  remove.fixit = FixIt{remove.range, ""};
  EXPECT_EQ(render(remove), "f:1:3: error: m\na,,b\n  ^\nfix-it: remove ','\na,b\n  ^\n");
}

TEST(Render, FixItOnAnotherLineIsDescribedOnly) {
  const std::string_view text = "a\nb";
  Diagnostic d = make_diagnostic(Severity::error, "", "f", text, 2, 1, "m");
  d.fixit = FixIt{make_diagnostic(Severity::note, "", "f", text, 1, 0, "").range, ","};
  EXPECT_EQ(render(d), "f:2:1: error: m\nb\n^\nfix-it: insert ','\n");
}

TEST(Render, NonPrintableBytesAreEscapedAndCaretsStayAligned) {
  const std::string text(
      "a\x01"
      "b\x7f"
      "cd",
      6);
  const Diagnostic d = make_diagnostic(Severity::error, "", "f", text, 4, 2, "m");
  // "a\x01b\x7fcd": 'c' is displayed at column 1 + 4 + 1 + 4 = 10.
  EXPECT_EQ(render(d), "f:1:5: error: m\na\\x01b\\x7fcd\n          ^~\n");
  const Diagnostic on_escape = make_diagnostic(Severity::error, "", "f", text, 1, 1, "m");
  EXPECT_EQ(render(on_escape), "f:1:2: error: m\na\\x01b\\x7fcd\n ^~~~\n");
}

TEST(Render, NulAndHighBytesAreEscaped) {
  const std::string text("x\0\xff", 3);
  const Diagnostic d = make_diagnostic(Severity::error, "", "f", text, 2, 1, "m");
  EXPECT_EQ(render(d), "f:1:3: error: m\nx\\x00\\xff\n     ^~~~\n");
}

// A UTF-8 character is one unit: shown as itself, one caret column wide.
TEST(Render, Utf8CharactersAreOneColumn) {
  const std::string text = "cpu/\xc3\xa9vent=1/";  // cpu/évent=1/
  const Diagnostic on_e = make_diagnostic(Severity::error, "", "f", text, 4, 2, "m");
  EXPECT_EQ(render(on_e), "f:1:5: error: m\ncpu/\xc3\xa9vent=1/\n    ^\n");
  const Diagnostic after = make_diagnostic(Severity::error, "", "f", text, 6, 4, "m");
  EXPECT_EQ(render(after), "f:1:7: error: m\ncpu/\xc3\xa9vent=1/\n     ^~~~\n");
  // A range ending inside a character covers all of it.
  const Diagnostic half = make_diagnostic(Severity::error, "", "f", text, 3, 2, "m");
  EXPECT_EQ(render(half), "f:1:4: error: m\ncpu/\xc3\xa9vent=1/\n   ^~\n");
  // Malformed sequences stay escaped byte by byte.
  const Diagnostic bad = make_diagnostic(Severity::error, "", "f", "a\xc3(b", 3, 1, "m");
  EXPECT_EQ(render(bad), "f:1:4: error: m\na\\xc3(b\n      ^\n");
}

TEST(Render, FixItOverAUtf8WordKeepsTheLineValid) {
  const std::string text = "cpu/\xc3\xa9vent=1/";
  Diagnostic d = make_diagnostic(Severity::error, "", "f", text, 4, 6, "m");
  d.fixit = FixIt{d.range, "event"};
  EXPECT_EQ(render(d),
            "f:1:5: error: m\ncpu/\xc3\xa9vent=1/\n    ^~~~~\n"
            "fix-it: replace '\xc3\xa9vent' with 'event'\ncpu/event=1/\n    ^~~~~\n");
}

// A 10 kB spec is not echoed whole: the line is cut around the caret, with "...".
TEST(Render, LongLinesAreCutAroundTheCaret) {
  std::string text;
  for (int i = 0; i < 2000; ++i) text += "e=1,";
  text += "bad";
  for (int i = 0; i < 500; ++i) text += ",e=1";
  const std::size_t at = text.find("bad");
  const Diagnostic d = make_diagnostic(Severity::error, "", "f", text, at, 3, "m");
  const std::string out = render(d);
  const std::size_t line_start = out.find('\n') + 1;
  const std::size_t line_end = out.find('\n', line_start);
  const std::string shown = out.substr(line_start, line_end - line_start);
  const std::string carets = out.substr(line_end + 1, out.find('\n', line_end + 1) - line_end - 1);
  EXPECT_LE(shown.size(), 100u) << shown;
  EXPECT_EQ(shown.substr(0, 3), "...");
  EXPECT_EQ(shown.substr(shown.size() - 3), "...");
  EXPECT_EQ(shown.substr(carets.find('^'), 3), "bad") << shown << "\n" << carets;
  EXPECT_EQ(carets.substr(carets.find('^')), "^~~");

  // The caret at the very end: the cut is on the left only.
  const Diagnostic end = make_diagnostic(Severity::error, "", "f", text, text.size(), 0, "m");
  const std::string end_out = render(end);
  const std::size_t end_first = end_out.find('\n') + 1;
  const std::size_t end_last = end_out.find('\n', end_first);
  const std::string end_line = end_out.substr(end_first, end_last - end_first);
  EXPECT_EQ(end_line.substr(0, 3), "...");
  EXPECT_EQ(end_line.substr(end_line.size() - 4), ",e=1");
  EXPECT_EQ(end_out.substr(end_last + 1), std::string(end_line.size(), ' ') + "^\n");

  // Cut points never split a UTF-8 character.
  std::string wide;
  for (int i = 0; i < 300; ++i) wide += "\xc3\xa9";
  const Diagnostic utf8 = make_diagnostic(Severity::error, "", "f", wide, 300, 2, "m");
  const std::string utf8_out = render(utf8);
  const std::size_t first = utf8_out.find('\n') + 1;
  const std::string utf8_line = utf8_out.substr(first, utf8_out.find('\n', first) - first);
  EXPECT_EQ(utf8_line.substr(0, 3), "...");
  EXPECT_EQ((utf8_line.size() - 6) % 2, 0u) << utf8_line;
  EXPECT_EQ(utf8_line.substr(3, 2), "\xc3\xa9");
}

TEST(Render, TabsExpandToTabStops) {
  const Diagnostic d = make_diagnostic(Severity::error, "", "f", "a\tb", 2, 1, "m");
  EXPECT_EQ(render(d), "f:1:3: error: m\na       b\n        ^\n");
}

TEST(Render, CaretAtEndOfLine) {
  const Diagnostic d = make_diagnostic(Severity::error, "", "f", "config:", 7, 0, "m");
  EXPECT_EQ(render(d), "f:1:8: error: m\nconfig:\n       ^\n");
}

TEST(Render, RangeSpanningLinesIsCutAtTheLineEnd) {
  const Diagnostic d = make_diagnostic(Severity::error, "", "f", "ab\ncd", 1, 4, "m");
  EXPECT_EQ(render(d), "f:1:2: error: m\nab\n ^\n");
}

TEST(Render, ColorsOnlyWhenAsked) {
  const Diagnostic d = make_diagnostic(Severity::error, "", "f", "abc", 0, 1, "m");
  EXPECT_EQ(render(d).find('\x1b'), std::string::npos);
  const std::string colored = render(d, {.color = true, .show_id = true});
  EXPECT_NE(colored.find("\x1b[1;31merror:"), std::string::npos);
  EXPECT_NE(colored.find("\x1b[1;32m^"), std::string::npos);
  const Diagnostic w = make_diagnostic(Severity::warning, "", "f", "abc", 0, 1, "m");
  EXPECT_NE(render(w, {.color = true, .show_id = true}).find("\x1b[1;35mwarning:"),
            std::string::npos);
}

TEST(Render, NotesFollowTheDiagnostic) {
  Diagnostic d = make_diagnostic(Severity::error, "e", "events/foo", "event=0x1ff", 6, 5, "m");
  d.notes.push_back(make_diagnostic(Severity::note, "", "<spec>", "cpu/foo/", 4, 3, "used here"));
  EXPECT_EQ(render(d),
            "events/foo:1:7: error: m [e]\nevent=0x1ff\n      ^~~~~\n"
            "<spec>:1:5: note: used here\ncpu/foo/\n    ^~~\n");
  const Diagnostic rebased = rebase_diagnostic(d, "event=0x1ff");
  EXPECT_EQ(rebased.notes, d.notes);
}

TEST(FileDiagnostic, RendersWithoutLineAndColumn) {
  const Diagnostic d = make_file_diagnostic(Severity::error, "io-error", "/sys/x/type",
                                            "cannot read: Permission denied");
  EXPECT_EQ(d.range.line, 0u);
  EXPECT_EQ(render(d), "/sys/x/type: error: cannot read: Permission denied [io-error]\n");
}

TEST(RebaseDiagnostic, RecomputesLocationFromTheWholeText) {
  const std::string_view whole = "cpu/event=0XAB/u";
  const std::string_view slice = whole.substr(4, 10);
  Diagnostic d = make_diagnostic(Severity::error, "e", "<spec>", slice, 6, 2, "m");
  d.range.offset += 4;
  d.fixit = FixIt{d.range, "0x"};
  const Diagnostic rebased = rebase_diagnostic(d, whole);
  EXPECT_EQ(rebased.range.column, 11u);
  EXPECT_EQ(rebased.range.offset, 10u);
  EXPECT_EQ(rebased.source_line, whole);
  ASSERT_TRUE(rebased.fixit.has_value());
  EXPECT_EQ(rebased.fixit->range.column, 11u);
  EXPECT_EQ(render(rebased),
            "<spec>:1:11: error: m [e]\ncpu/event=0XAB/u\n          ^~\n"
            "fix-it: replace '0X' with '0x'\ncpu/event=0xAB/u\n          ^~\n");
}

}  // namespace
PMUCAT_END_NAMESPACE
