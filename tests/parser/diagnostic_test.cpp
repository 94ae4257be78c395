// make_diagnostic, render and rebase_diagnostic.
#include "pmucat/diagnostic.h"

#include <gtest/gtest.h>

namespace pmucat {
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
}  // namespace pmucat
