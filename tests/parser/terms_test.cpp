// parse_terms / print_terms: the event-term grammar in both syntaxes.
#include "pmucat/terms.h"

#include <gtest/gtest.h>

PMUCAT_BEGIN_NAMESPACE
namespace {

using Ids = std::vector<std::string>;

TermList parse_ok(std::string_view text, TermSyntax syntax = TermSyntax::event_file,
                  std::uint32_t base = 0) {
  auto result = parse_terms(text, "events/e", syntax, base);
  EXPECT_TRUE(result.has_value()) << (result ? "" : render(result.error()));
  return result ? *result : TermList{};
}

Diagnostic parse_error(std::string_view text, TermSyntax syntax = TermSyntax::event_file) {
  auto result = parse_terms(text, "events/e", syntax);
  EXPECT_FALSE(result.has_value()) << "parsed: " << text;
  return result ? Diagnostic{} : result.error();
}

Ids lint_ids(const TermList& list) {
  Ids ids;
  for (const auto& lint : list.lints) ids.push_back(lint.id);
  return ids;
}

std::string canonical(std::string_view text, TermSyntax syntax = TermSyntax::event_file) {
  return print_terms(parse_ok(text, syntax).terms);
}

// --- grammar rules ------------------------------------------------------------------------------

// perf escapes '-' in a metric-id as "!1" (`perf stat -M`): its second name rule takes '!' and
// the longer match wins, so the value is one name, printed back without quotes.
TEST(TermsGrammar, BangEscapedMetricIdIsOneName) {
  const TermList list = parse_ok("metric-id=topdown!1retiring,x=a!2b.c", TermSyntax::command_line);
  ASSERT_EQ(list.terms.size(), 2u);
  EXPECT_EQ(list.terms[0].kind, TermValueKind::string);
  EXPECT_EQ(list.terms[0].text, "topdown!1retiring");
  EXPECT_EQ(list.terms[1].text, "a!2b.c");
  EXPECT_EQ(canonical("metric-id=topdown!1retiring", TermSyntax::command_line),
            "metric-id=topdown!1retiring");
  // Not both rules at once: '-' and '!' in one value is two tokens to perf, so it is quoted.
  EXPECT_EQ(canonical("name='a-b!c'", TermSyntax::command_line), "name='a-b!c'");
  EXPECT_EQ(canonical("name=a-b:c", TermSyntax::command_line), "name=a-b:c");
}

TEST(TermsGrammar, NumberTermsWithPositions) {
  const TermList list = parse_ok("event=0x3c,umask=0x1\n");
  ASSERT_EQ(list.terms.size(), 2u);
  const Term& event = list.terms[0];
  EXPECT_EQ(event.name, "event");
  EXPECT_EQ(event.kind, TermValueKind::number);
  EXPECT_EQ(event.value, 0x3cu);
  EXPECT_EQ(event.style, NumberStyle::hex);
  EXPECT_EQ(event.offset, 0u);
  EXPECT_EQ(event.length, 10u);
  EXPECT_EQ(event.value_offset, 6u);
  EXPECT_EQ(event.value_length, 4u);
  const Term& umask = list.terms[1];
  EXPECT_EQ(umask.name, "umask");
  EXPECT_EQ(umask.value, 1u);
  EXPECT_EQ(umask.offset, 11u);
  EXPECT_EQ(umask.length, 9u);
  EXPECT_TRUE(list.lints.empty());
}

TEST(TermsGrammar, DecimalNumbers) {
  const TermList list = parse_ok("cmask=3,event=16");
  EXPECT_EQ(list.terms[0].value, 3u);
  EXPECT_EQ(list.terms[0].style, NumberStyle::decimal);
  EXPECT_EQ(list.terms[1].value, 16u);
  EXPECT_TRUE(list.lints.empty());
}

TEST(TermsGrammar, LeadingZeroIsDecimalWithLint) {
  const TermList list = parse_ok("event=010");  // oracle: octal -> 0xa
  EXPECT_EQ(list.terms[0].value, 10u);
  EXPECT_EQ(list.terms[0].style, NumberStyle::decimal);
  ASSERT_EQ(lint_ids(list), (Ids{"terms-leading-zero"}));
  EXPECT_EQ(list.lints[0].message, "'010' is read as decimal 10, not octal");
  EXPECT_TRUE(parse_ok("event=0").lints.empty());
}

TEST(TermsGrammar, BareTermMeansOne) {
  const TermList list = parse_ok("event=0x22,edge\n");
  const Term& edge = list.terms[1];
  EXPECT_EQ(edge.name, "edge");
  EXPECT_EQ(edge.kind, TermValueKind::none);
  EXPECT_EQ(edge.value, 1u);
  EXPECT_EQ(edge.offset, 11u);
  EXPECT_EQ(edge.length, 4u);
  EXPECT_EQ(edge.value_offset, 11u);
  EXPECT_EQ(edge.value_length, 0u);
}

TEST(TermsGrammar, ParameterValue) {
  const TermList list = parse_ok("domain=2,offset=8,core=?,lpar=0x0\n");
  ASSERT_EQ(list.terms.size(), 4u);
  EXPECT_EQ(list.terms[2].kind, TermValueKind::param);
  EXPECT_EQ(list.terms[2].text, "?");
  EXPECT_EQ(list.terms[2].value, 0u);
  EXPECT_EQ(list.terms[3].value, 0u);
  EXPECT_EQ(list.terms[3].kind, TermValueKind::number);
}

TEST(TermsGrammar, NameValuesAreStrings) {
  const TermList list = parse_ok("event=foo,call-graph=fp,x=??");
  EXPECT_EQ(list.terms[0].kind, TermValueKind::string);
  EXPECT_EQ(list.terms[0].text, "foo");
  EXPECT_EQ(list.terms[0].value, 0u);
  EXPECT_EQ(list.terms[1].name, "call-graph");
  EXPECT_EQ(list.terms[1].text, "fp");
  EXPECT_EQ(list.terms[2].kind, TermValueKind::string);  // only a lone '?' is a parameter
}

TEST(TermsGrammar, NameCharacterClass) {
  const TermList list = parse_ok("metric-id=a.b:c,no-inherit,unc.dot,_x*?,aux-sample-size=4");
  ASSERT_EQ(list.terms.size(), 5u);
  EXPECT_EQ(list.terms[0].name, "metric-id");
  EXPECT_EQ(list.terms[0].text, "a.b:c");
  EXPECT_EQ(list.terms[1].name, "no-inherit");
  EXPECT_EQ(list.terms[2].name, "unc.dot");
  EXPECT_EQ(list.terms[3].name, "_x*?");
  EXPECT_EQ(list.terms[4].value, 4u);
}

TEST(TermsGrammar, NamesAreCaseSensitive) {
  EXPECT_EQ(parse_ok("EVENT=1").terms[0].name, "EVENT");
}

TEST(TermsGrammar, HexDigitsAnyCase) {
  const TermList list = parse_ok("event=0xAB\n");  // oracle: hexup -> 0xab
  EXPECT_EQ(list.terms[0].value, 0xabu);
  EXPECT_EQ(list.terms[0].style, NumberStyle::hex_upper_digits);
  ASSERT_EQ(lint_ids(list), (Ids{"terms-uppercase-hex"}));
  EXPECT_EQ(list.lints[0].message, "'0xAB' has uppercase hex digits; the ABI uses lowercase");
  EXPECT_EQ(list.lints[0].fixit->replacement, "0xab");
  // On the command line uppercase digits are the user's business.
  EXPECT_TRUE(parse_ok("event=0xAB", TermSyntax::command_line).lints.empty());
  EXPECT_EQ(parse_ok("event=0xAb", TermSyntax::command_line).terms[0].style,
            NumberStyle::hex_upper_digits);
}

TEST(TermsGrammar, SixtyFourBitValues) {
  const TermList list = parse_ok("c2=0xffffffffffffffff,x=18446744073709551615");
  EXPECT_EQ(list.terms[0].value, ~0ULL);
  EXPECT_EQ(list.terms[1].value, ~0ULL);
  EXPECT_EQ(parse_ok("e=0x00000000000000001").terms[0].value, 1u);  // leading zeros are fine
}

TEST(TermsGrammar, EmptyAndBlankTextGiveAnEmptyList) {
  EXPECT_TRUE(parse_ok("").terms.empty());
  EXPECT_TRUE(parse_ok("\n").terms.empty());
  EXPECT_TRUE(parse_ok("", TermSyntax::command_line).terms.empty());
  EXPECT_TRUE(parse_ok("  ", TermSyntax::command_line).terms.empty());
}

TEST(TermsGrammar, WhitespaceAroundTokens) {
  const TermList list = parse_ok("  event = 0x21 ,  umask=0x2  \n\n");  // oracle: withspace
  ASSERT_EQ(list.terms.size(), 2u);
  EXPECT_EQ(list.terms[0].value, 0x21u);
  EXPECT_EQ(list.terms[0].offset, 2u);
  EXPECT_EQ(list.terms[0].length, 12u);
  EXPECT_EQ(list.terms[1].value, 2u);
  ASSERT_EQ(lint_ids(list), (Ids{"terms-whitespace"}));
  EXPECT_EQ(list.lints[0].range.column, 1u);
  EXPECT_EQ(list.lints[0].range.length, 2u);
  const TermList tabs = parse_ok("event=1\t,\r\numask=2", TermSyntax::command_line);
  EXPECT_EQ(tabs.terms.size(), 2u);
  EXPECT_TRUE(tabs.lints.empty());  // blanks are no lint on the command line
  EXPECT_EQ(canonical(" event = 0x5 , umask = 1 ", TermSyntax::command_line),
            "event=0x5,umask=0x1");
}

TEST(TermsGrammar, OneTrailingNewlineIsNotWhitespace) {
  EXPECT_TRUE(parse_ok("event=0x1\n").lints.empty());
  EXPECT_EQ(lint_ids(parse_ok("event=0x1\n\n")), (Ids{"terms-whitespace"}));
  EXPECT_EQ(lint_ids(parse_ok("event=0x1\r\n")), (Ids{"terms-whitespace"}));
}

TEST(TermsGrammar, UnknownBytesAreDroppedWithLint) {
  const TermList list = parse_ok("event=+1");  // oracle: 0x1
  EXPECT_EQ(list.terms[0].value, 1u);
  ASSERT_EQ(lint_ids(list), (Ids{"terms-stray-byte"}));
  EXPECT_EQ(list.lints[0].message, "perf skips '+' here; it is not part of the term grammar");
  EXPECT_EQ(list.lints[0].range.column, 7u);
  for (std::string_view text : {"event=.1", "event=1.", "event=!1", "event=1$", "event=1\\"}) {
    const TermList dropped = parse_ok(text, TermSyntax::command_line);
    EXPECT_EQ(dropped.terms[0].value, 1u) << text;
    EXPECT_EQ(lint_ids(dropped), (Ids{"terms-stray-byte"})) << text;
  }
  const TermList nul = parse_ok(std::string_view("e=1\0", 4));
  EXPECT_EQ(nul.lints[0].message, "perf skips '\\x00' here; it is not part of the term grammar");
}

TEST(TermsGrammar, LintsAreSortedByOffset) {
  const TermList list = parse_ok("a=0xAB,+b=010");
  EXPECT_EQ(lint_ids(list), (Ids{"terms-uppercase-hex", "terms-stray-byte", "terms-leading-zero"}));
}

TEST(TermsGrammar, BaseOffsetShiftsEveryOffset) {
  const std::string_view spec = "cpu/event=0x3c,inv/u";
  const TermList list = parse_ok(spec.substr(4, 14), TermSyntax::command_line, 4);
  ASSERT_EQ(list.terms.size(), 2u);
  EXPECT_EQ(list.terms[0].offset, 4u);
  EXPECT_EQ(list.terms[0].value_offset, 10u);
  EXPECT_EQ(list.terms[1].offset, 15u);
  EXPECT_EQ(list.terms[1].value_offset, 15u);
  const std::string_view bad_spec = "cpu/event=0XAB/u";
  const auto failed = parse_terms(bad_spec.substr(4, 10), "<spec>", TermSyntax::command_line, 4);
  ASSERT_FALSE(failed.has_value());
  EXPECT_EQ(failed.error().range.offset, 10u);
  EXPECT_EQ(failed.error().fixit->range.offset, 10u);
  const Diagnostic rebased = rebase_diagnostic(failed.error(), bad_spec);
  EXPECT_EQ(rebased.range.column, 11u);
  EXPECT_EQ(rebased.source_line, bad_spec);
  const auto linted = parse_terms("e=+1", "<spec>", TermSyntax::command_line, 100);
  ASSERT_TRUE(linted.has_value());
  EXPECT_EQ(linted->lints[0].range.offset, 102u);
}

// --- command-line extras ------------------------------------------------------------------------

TEST(TermsCommandLine, QuotedStrings) {
  const TermList list =
      parse_ok("name='COMPLEX_CYCLES_NAME:orig=cycles,desc=chip-clock-ticks',period=0x1,event=0x2",
               TermSyntax::command_line);
  ASSERT_EQ(list.terms.size(), 3u);
  EXPECT_EQ(list.terms[0].kind, TermValueKind::string);
  EXPECT_EQ(list.terms[0].text, "COMPLEX_CYCLES_NAME:orig=cycles,desc=chip-clock-ticks");
  EXPECT_EQ(list.terms[0].value_offset, 5u);
  EXPECT_EQ(list.terms[0].value_length, 55u);
  EXPECT_EQ(list.terms[1].value, 1u);
  EXPECT_EQ(list.terms[2].value, 2u);
  const TermList dq = parse_ok("name=\"a/b,c\"", TermSyntax::command_line);
  EXPECT_EQ(dq.terms[0].text, "a/b,c");
  EXPECT_EQ(parse_ok("name=''", TermSyntax::command_line).terms[0].text, "");
}

TEST(TermsCommandLine, DriverConfigTerms) {
  const TermList list = parse_ok("event=1,@cfg,@cfg.x=a:b*?", TermSyntax::command_line);
  ASSERT_EQ(list.terms.size(), 3u);
  EXPECT_EQ(list.terms[1].name, "@cfg");
  EXPECT_EQ(list.terms[1].kind, TermValueKind::none);
  EXPECT_EQ(list.terms[2].name, "@cfg.x");
  EXPECT_EQ(list.terms[2].kind, TermValueKind::string);
  EXPECT_EQ(list.terms[2].text, "a:b*?");
  EXPECT_EQ(list.terms[2].value_offset, 20u);
  EXPECT_EQ(list.terms[2].length, 12u);
}

TEST(TermsCommandLine, RawTermsStayNames) {
  const TermList list = parse_ok("r1a3,r0x1a3,rabc", TermSyntax::command_line);
  ASSERT_EQ(list.terms.size(), 3u);
  EXPECT_EQ(list.terms[0].name, "r1a3");
  EXPECT_EQ(list.terms[1].name, "r0x1a3");
  EXPECT_EQ(list.terms[1].kind, TermValueKind::none);
}

TEST(TermsCommandLine, PerfParseEventsVectors) {
  const TermList list =
      parse_ok("config=10,config1,config2=3,umask=1,read,r0xead", TermSyntax::command_line);
  ASSERT_EQ(list.terms.size(), 6u);
  EXPECT_EQ(list.terms[0].value, 10u);
  EXPECT_EQ(list.terms[1].name, "config1");
  EXPECT_EQ(list.terms[1].value, 1u);
  EXPECT_EQ(list.terms[2].value, 3u);
  EXPECT_EQ(list.terms[5].name, "r0xead");
  EXPECT_EQ(canonical("config=1,call-graph=fp,time,period=100000", TermSyntax::command_line),
            "config=0x1,call-graph=fp,time,period=0x186a0");
  EXPECT_EQ(canonical("config=2,call-graph=no,time=0,period=2000", TermSyntax::command_line),
            "config=0x2,call-graph=no,time=0x0,period=0x7d0");
}

TEST(TermsCommandLine, QuotesAndDriverConfigAreLintsInEventFiles) {
  // perf 6.1 loads an event file `a=1,name='x'` or `a=1,@cfg` (oracle); the ABI has neither.
  const TermList quoted = parse_ok("event=0x1,name='x'\n");
  ASSERT_EQ(quoted.terms.size(), 2u);
  EXPECT_EQ(quoted.terms[1].text, "x");
  ASSERT_EQ(lint_ids(quoted), (Ids{"terms-command-line-syntax"}));
  EXPECT_EQ(quoted.lints[0].message,
            "a quoted value in an event file; perf accepts it but the sysfs ABI has none");
  EXPECT_EQ(quoted.lints[0].range.column, 16u);
  EXPECT_EQ(quoted.lints[0].range.length, 3u);
  const TermList driver = parse_ok("event=0x1,@cfg\n");
  ASSERT_EQ(driver.terms.size(), 2u);
  ASSERT_EQ(lint_ids(driver), (Ids{"terms-command-line-syntax"}));
  EXPECT_EQ(driver.lints[0].message,
            "a driver config term in an event file; perf accepts it but the sysfs ABI has none");
  EXPECT_TRUE(parse_ok("event=0x1,name='x',@cfg", TermSyntax::command_line).lints.empty());
}

TEST(TermsGrammar, ColonAfterAValueIsAnError) {
  // Event file `a=1:b`: perf reports `Cannot parse alias` (oracle).
  const Diagnostic d = parse_error("a=1:b\n");
  EXPECT_EQ(d.id, "terms-syntax");
  EXPECT_EQ(d.message, "unexpected ':' in a term list");
  EXPECT_EQ(d.range.column, 4u);
}

// --- errors -------------------------------------------------------------------------------------

TEST(TermsErrors, UppercaseHexPrefix) {
  const Diagnostic d = parse_error("event=0XAB\n");
  EXPECT_EQ(d.id, "terms-uppercase-hex-prefix");
  EXPECT_EQ(d.message, "hexadecimal prefix must be lowercase '0x'");
  EXPECT_EQ(d.range.line, 1u);
  EXPECT_EQ(d.range.column, 7u);
  EXPECT_EQ(d.range.length, 2u);
  ASSERT_TRUE(d.fixit.has_value());
  EXPECT_EQ(d.fixit->replacement, "0x");
  EXPECT_EQ(render(d),
            "events/e:1:7: error: hexadecimal prefix must be lowercase '0x' "
            "[terms-uppercase-hex-prefix]\nevent=0XAB\n      ^~\n"
            "perf reads '0X' as the number 0 followed by a name and fails\n"
            "fix-it: replace '0X' with '0x'\nevent=0xAB\n      ^~\n");
  EXPECT_EQ(parse_error("event=0X", TermSyntax::command_line).id, "terms-uppercase-hex-prefix");
}

TEST(TermsErrors, HexWithoutDigits) {
  const Diagnostic d = parse_error("event=0x");
  EXPECT_EQ(d.id, "terms-syntax");
  EXPECT_EQ(d.message, "expected hexadecimal digits after '0x'");
  EXPECT_EQ(d.range.column, 7u);
  EXPECT_EQ(parse_error("event=0xg").message, "expected hexadecimal digits after '0x'");
}

TEST(TermsErrors, JunkAfterNumber) {
  const Diagnostic d = parse_error("event=12g");
  EXPECT_EQ(d.message, "unexpected 'g' after a number");
  EXPECT_EQ(d.range.column, 9u);
  EXPECT_EQ(parse_error("event=0x3cgh.i").message, "unexpected 'gh.i' after a number");
}

TEST(TermsErrors, Overflow) {
  const Diagnostic d = parse_error("c2=0x10000000000000000");  // oracle: parser error
  EXPECT_EQ(d.id, "terms-number-overflow");
  EXPECT_EQ(d.message, "number does not fit in 64 bits");
  EXPECT_EQ(d.range.column, 4u);
  EXPECT_EQ(d.range.length, 19u);
  EXPECT_EQ(parse_error("e=18446744073709551616").id, "terms-number-overflow");
}

TEST(TermsErrors, NegativeValue) {
  const Diagnostic d = parse_error("event=-1");  // oracle: parser error
  EXPECT_EQ(d.id, "terms-missing-value");
  EXPECT_EQ(d.message, "expected a value after '=', found '-'");
  EXPECT_EQ(d.hint, "values are unsigned: decimal or 0x-prefixed hexadecimal");
  EXPECT_EQ(d.range.column, 7u);
}

TEST(TermsErrors, TokensPerfRejects) {
  for (std::string_view text : {"event=:1", "event={1", "event=}1"}) {
    const Diagnostic d = parse_error(text, TermSyntax::command_line);
    EXPECT_EQ(d.id, "terms-missing-value") << text;
    EXPECT_EQ(d.range.column, 7u) << text;
  }
  // A bracket starts perf's name rule (perf 6.1.x takes `cpu/event=0x3c,name=[1/`): a value.
  for (std::string_view text : {"name=[1", "name=]1"}) {
    auto parsed = parse_terms(text, "events/e", TermSyntax::command_line);
    ASSERT_TRUE(parsed.has_value()) << text;
    EXPECT_EQ(parsed->terms.at(0).text, text.substr(5));
  }
  const Diagnostic slash = parse_error("event=1/", TermSyntax::command_line);
  EXPECT_EQ(slash.message, "unexpected '/' in a term list");
  EXPECT_EQ(slash.range.column, 8u);
}

TEST(TermsErrors, EmptyItem) {
  const Diagnostic d = parse_error("event=0x1,,umask=1");
  EXPECT_EQ(d.id, "terms-empty-item");
  EXPECT_EQ(d.message, "empty term before ','");
  EXPECT_EQ(d.range.column, 11u);
  EXPECT_EQ(d.fixit->replacement, "");
  EXPECT_EQ(parse_error(",event=1").range.column, 1u);
  EXPECT_EQ(parse_error("event=0x1,,").id, "terms-empty-item");
}

TEST(TermsErrors, TrailingComma) {
  const Diagnostic d = parse_error("event=1,", TermSyntax::command_line);  // oracle: parser error
  EXPECT_EQ(d.id, "terms-trailing-comma");
  EXPECT_EQ(d.message, "trailing ',' after the last term");
  EXPECT_EQ(d.range.column, 8u);
  EXPECT_EQ(render(d),
            "events/e:1:8: error: trailing ',' after the last term [terms-trailing-comma]\n"
            "event=1,\n       ^\nfix-it: remove ','\nevent=1\n       ^\n");
  EXPECT_EQ(parse_error("event=1,\n").id, "terms-trailing-comma");
}

TEST(TermsErrors, MissingComma) {
  const Diagnostic d = parse_error("event=0x3c umask=0x3");
  EXPECT_EQ(d.id, "terms-missing-comma");
  EXPECT_EQ(d.message, "expected ',' before 'umask'");
  EXPECT_EQ(d.range.column, 12u);
  EXPECT_EQ(d.range.length, 5u);
  ASSERT_TRUE(d.fixit.has_value());
  EXPECT_EQ(d.fixit->range.column, 11u);
  EXPECT_EQ(d.fixit->range.length, 0u);
  EXPECT_EQ(d.fixit->replacement, ",");
  // A dropped byte between the items is replaced by the comma.
  const Diagnostic semicolon = parse_error("event=0x3c;umask=0x3");
  EXPECT_EQ(semicolon.id, "terms-missing-comma");
  EXPECT_EQ(semicolon.fixit->range.length, 1u);
  EXPECT_EQ(render(semicolon),
            "events/e:1:12: error: expected ',' before 'umask' [terms-missing-comma]\n"
            "event=0x3c;umask=0x3\n           ^~~~~\n"
            "fix-it: replace ';' with ','\nevent=0x3c,umask=0x3\n          ^\n");
}

TEST(TermsErrors, SecondLine) {
  const Diagnostic d = parse_error("event=0x1\nextra line\n");
  EXPECT_EQ(d.id, "terms-missing-comma");
  EXPECT_EQ(d.range.line, 2u);
  EXPECT_EQ(d.range.column, 1u);
  EXPECT_EQ(d.source_line, "extra line");
  EXPECT_EQ(parse_error("a b").message, "expected ',' before 'b'");
  EXPECT_EQ(parse_error("a=1 2").message, "expected ',' before the number '2'");
}

TEST(TermsErrors, MissingValue) {
  const Diagnostic d = parse_error("event=");
  EXPECT_EQ(d.id, "terms-missing-value");
  EXPECT_EQ(d.message, "expected a value after '=', found end of input");
  EXPECT_EQ(d.range.column, 7u);
  EXPECT_EQ(parse_error("event=,umask=1").message, "expected a value after '=', found ','");
  EXPECT_EQ(parse_error("event==1").message, "expected a value after '=', found '='");
}

TEST(TermsErrors, MissingName) {
  const Diagnostic d = parse_error("=3");
  EXPECT_EQ(d.id, "terms-syntax");
  EXPECT_EQ(d.message, "expected a term name, found '='");
  EXPECT_EQ(parse_error("event=1,=3").range.column, 9u);
  EXPECT_EQ(parse_error("0x1").message, "expected a term name, found the number '0x1'");
  EXPECT_EQ(parse_error("'x'=1", TermSyntax::command_line).message,
            "expected a term name, found a quoted string");
}

TEST(TermsErrors, ValueFollowedByEquals) {
  const Diagnostic d = parse_error("event=1=2");
  EXPECT_EQ(d.message, "unexpected '=' after a value");
  EXPECT_EQ(d.range.column, 8u);
}

TEST(TermsErrors, UnterminatedQuote) {
  const Diagnostic d = parse_error("name='abc", TermSyntax::command_line);
  EXPECT_EQ(d.id, "terms-unterminated-quote");
  EXPECT_EQ(d.message, "missing closing quote");
  EXPECT_EQ(d.range.column, 6u);
  EXPECT_EQ(d.fixit->replacement, "'");
  EXPECT_EQ(d.fixit->range.column, 10u);
}

TEST(TermsErrors, EmptyDriverConfig) {
  const Diagnostic d = parse_error("event=1,@", TermSyntax::command_line);  // oracle: parser error
  EXPECT_EQ(d.message, "expected a driver config name after '@'");
  EXPECT_EQ(d.range.column, 9u);
}

// --- perf 6.1 limits ----------------------------------------------------------------------------

std::string event_file_of_size(std::size_t size) {
  std::string text = "event=0x1,umask=0x";
  text.append(size - text.size() - 1, '0');
  text += '\n';
  return text;
}

TEST(TermsLimits, EventFileOver255Bytes) {
  EXPECT_TRUE(parse_ok(event_file_of_size(255)).lints.empty());
  const TermList big = parse_ok(event_file_of_size(256));
  ASSERT_EQ(lint_ids(big), (Ids{"terms-event-file-too-long"}));
  EXPECT_EQ(big.lints[0].message, "event file is 256 bytes; perf 6.1 handles at most 255");
  EXPECT_EQ(big.lints[0].range.offset, 255u);
  EXPECT_TRUE(parse_ok(event_file_of_size(300), TermSyntax::command_line).lints.empty());
}

// --- printing -----------------------------------------------------------------------------------

TEST(TermsPrint, CanonicalForms) {
  EXPECT_EQ(canonical("event=0x6,period=200000,umask=0x80"), "event=0x6,period=0x30d40,umask=0x80");
  EXPECT_EQ(canonical("event=0xe0,umask=0x00"), "event=0xe0,umask=0x0");
  EXPECT_EQ(canonical("event=0x22,edge,cmask=?,event=foo"), "event=0x22,edge,cmask=?,event=foo");
  EXPECT_EQ(canonical("name='a,b',x='?',y=\"it's\",z=''", TermSyntax::command_line),
            "name='a,b',x='?',y=\"it's\",z=''");
  EXPECT_EQ(canonical("@cfg,@c=v", TermSyntax::command_line), "@cfg,@c=v");
  EXPECT_EQ(print_terms({}), "");
}

TEST(TermsPrint, OneValue) {
  Term term;
  EXPECT_EQ(print_term_value(term), "");
  term.kind = TermValueKind::number;
  term.value = 0x3c;
  EXPECT_EQ(print_term_value(term), "0x3c");
  term.kind = TermValueKind::param;
  EXPECT_EQ(print_term_value(term), "?");
  term.kind = TermValueKind::string;
  term.text = "fp";
  EXPECT_EQ(print_term_value(term), "fp");
  term.text = "a,b";
  EXPECT_EQ(print_term_value(term), "'a,b'");
  term.text = "9lives";
  EXPECT_EQ(print_term_value(term), "'9lives'");
}

// --- the event files of perf-pmu.md's oracle sample tree ----------------------------------------

struct SampleEvent {
  const char* content;
  const char* canonical;
  std::vector<std::string> lints;
};

TEST(TermsOracle, SampleTreeEventFilesLoad) {
  const SampleEvent events[] = {
      {"event=0x3c,umask=0x1\n", "event=0x3c,umask=0x1", {}},
      {"event=0x10\n", "event=0x10", {}},
      {"event=0xcd,umask=0x1,ldlat=3\n", "event=0xcd,umask=0x1,ldlat=0x3", {}},
      {"event=0x20,cmask=?\n", "event=0x20,cmask=?", {}},
      {"event=0xAB\n", "event=0xab", {"terms-uppercase-hex"}},
      {"  event = 0x21 ,  umask=0x2  \n\n", "event=0x21,umask=0x2", {"terms-whitespace"}},
      {"event=0x22,edge\n", "event=0x22,edge", {}},
      {"config=0x1234\n", "config=0x1234", {}},
      {"event=0x1,config1=0x55\n", "event=0x1,config1=0x55", {}},
      {"event=16\n", "event=0x10", {}},
      {"event=010\n", "event=0xa", {"terms-leading-zero"}},
      {"event=0x3,period=1000\n", "event=0x3,period=0x3e8", {}},
      {"evext=0x11e\n", "evext=0x11e", {}},
      {"event=0x7,event=0x8\n", "event=0x7,event=0x8", {}},
      {"domain=2,offset=8,core=?,lpar=0x0\n", "domain=0x2,offset=0x8,core=?,lpar=0x0", {}},
      {"domain=1,offset=0x10,core=?,lpar=?\n", "domain=0x1,offset=0x10,core=?,lpar=?", {}},
      {"krava01=15,krava02=170,krava03=1,krava11=27,krava12=1,krava13=2,krava21=119,krava22=11,"
       "krava23=2\n",
       "krava01=0xf,krava02=0xaa,krava03=0x1,krava11=0x1b,krava12=0x1,krava13=0x2,krava21=0x77,"
       "krava22=0xb,krava23=0x2",
       {}},
  };
  for (const auto& event : events) {
    const TermList list = parse_ok(event.content);
    EXPECT_EQ(print_terms(list.terms), event.canonical) << event.content;
    EXPECT_EQ(lint_ids(list), event.lints) << event.content;
  }
}

TEST(TermsOracle, SampleTreeEventFilesThatFail) {
  // perf 6.1: `Cannot parse alias ...: 1`, alias dropped.
  EXPECT_EQ(parse_error("event=0x1,,\n").id, "terms-empty-item");
  EXPECT_EQ(parse_error("event=0XAB\n").id, "terms-uppercase-hex-prefix");
  EXPECT_EQ(parse_error("event=0x1;umask=0x2\n").id, "terms-missing-comma");
  EXPECT_EQ(parse_error("event=0x1 umask=0x2\n").id, "terms-missing-comma");
  EXPECT_EQ(parse_error("event=0x1\numask=0x2\n").id, "terms-missing-comma");
}

TEST(TermsLimits, EventFileSizesFromTheOracle) {
  for (std::size_t size : {257u, 300u}) {
    const TermList list = parse_ok(event_file_of_size(size));
    EXPECT_EQ(lint_ids(list), (Ids{"terms-event-file-too-long"})) << size;
  }
}

// --- finding the end of `pmu/terms/` -------------------------------------------------------------

TEST(FindTermsEnd, SkipsSlashesInQuotes) {
  EXPECT_EQ(find_terms_end("cpu/event=0x3c/u", 4), 14u);
  EXPECT_EQ(find_terms_end("cpu/name='a/b',event=1/u", 4), 22u);
  EXPECT_EQ(find_terms_end("cpu/name=\"a/b'\"/", 4), 15u);
  EXPECT_EQ(find_terms_end("cpu//", 4), 4u);
  EXPECT_EQ(find_terms_end("cpu/event=1", 4), std::string_view::npos);
  EXPECT_EQ(find_terms_end("cpu/name='a/b", 4), std::string_view::npos);
  EXPECT_EQ(find_terms_end("a/b", 0), 1u);
  EXPECT_EQ(find_terms_end("", 0), std::string_view::npos);
  EXPECT_EQ(find_terms_end("x", 5), std::string_view::npos);
}

}  // namespace
PMUCAT_END_NAMESPACE
