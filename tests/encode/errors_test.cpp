// Diagnostics of encode(): message texts, carets, hints, fix-its and notes.
#include <gtest/gtest.h>

#include "pmucat/encode.h"
#include "sample_tree.h"

PMUCAT_BEGIN_NAMESPACE
namespace {

Diagnostic encode_error(std::string_view spec, Profile semantics = Profile::pmucat(),
                        Tool tool = Tool::record) {
  static const Catalog catalog = testing::extended_catalog();
  EncodeOptions options;
  options.semantics = semantics;
  options.tool = tool;
  auto encoded = encode(catalog, spec, options);
  EXPECT_FALSE(encoded.has_value()) << spec;
  return encoded ? Diagnostic{} : encoded.error();
}

std::string rendered(const Diagnostic& d) {
  return render(d, {.color = false, .show_id = false});
}

TEST(EncodeErrors, ValueTooBigOnIntelEventField) {
  const Diagnostic d = encode_error("cpu/event=0x423/");
  EXPECT_EQ(rendered(d),
            "<spec>:1:11: error: value 0x423 does not fit field 'event' (maximum 0xff = 255)\n"
            "cpu/event=0x423/\n"
            "          ^~~~~\n"
            "'event' is config:0-7 (8 bits)\n");
  EXPECT_EQ(d.id, "value-too-big");
}

TEST(EncodeErrors, ValueTooBigInsideTermsOnlyList) {
  static const Catalog catalog = testing::extended_catalog();
  auto encoded = encode(catalog, "event=0x423,inv,cmask=0x3");
  ASSERT_FALSE(encoded.has_value());
  EXPECT_EQ(encoded.error().range.column, 7u);
  EXPECT_EQ(encoded.error().range.length, 5u);
}

TEST(EncodeErrors, ValueFromEventFilePointsIntoTheFileWithANoteInTheSpec) {
  // ext1 is `evext=0x11e`: fine; an event whose own value is too big fails on use.
  std::vector<Pmu> pmus;
  pmus.push_back(
      testing::make_pmu("p", "7\n", {{"event", "config:0-7\n"}}, {{"big", "event=0x1ff\n"}}));
  const Catalog catalog = Catalog::from_pmus(std::move(pmus));
  auto encoded = encode(catalog, "cycles:u,p/big/");
  ASSERT_FALSE(encoded.has_value());
  const Diagnostic& d = encoded.error();
  EXPECT_EQ(d.range.file, "p/events/big");
  EXPECT_EQ(d.range.column, 7u);
  EXPECT_EQ(d.source_line, "event=0x1ff");
  EXPECT_EQ(d.message, "value 0x1ff does not fit field 'event' (maximum 0xff = 255)");
  ASSERT_EQ(d.notes.size(), 1u);
  EXPECT_EQ(d.notes[0].severity, Severity::note);
  EXPECT_EQ(d.notes[0].range.file, "<spec>");
  EXPECT_EQ(d.notes[0].range.column, 12u);
  EXPECT_EQ(d.notes[0].message, "in event 'big' used here");
}

TEST(EncodeErrors, UnknownTermListsValidTermsAndSuggests) {
  const Diagnostic d =
      encode_error("fakepmu/umsk=1/", Profile::perf(PerfRelease::v6_1), Tool::stat);
  EXPECT_EQ(d.message, "unknown term 'umsk' for PMU 'fakepmu'");
  EXPECT_EQ(d.range.column, 9u);
  EXPECT_EQ(d.hint,
            "did you mean 'umask'? valid terms: c2,c2lo,cmask,edge,event,evext,inv,ldlat,spaced,"
            "split,umask,config,config1,config2,name,period,percore,metric-id");
  ASSERT_TRUE(d.fixit.has_value());
  EXPECT_EQ(d.fixit->replacement, "umask");
  EXPECT_EQ(d.fixit->range.column, 9u);
  EXPECT_EQ(d.fixit->range.length, 4u);
}

// A non-ASCII byte sequence is part of the word: `évent` is marked and replaced whole (never the
// unknown term `vent`, with a fix-it that would leave `éevent`).
TEST(EncodeErrors, NonAsciiInATermIsOneUnitAndTheFixItIsValid) {
  const std::string spec = "fakepmu/\xc3\xa9vent=1/";
  const Diagnostic d = encode_error(spec);
  EXPECT_EQ(d.message,
            "unknown term '\xc3\xa9vent' for PMU 'fakepmu': perf drops the non-ASCII characters "
            "and reads 'vent'");
  EXPECT_EQ(d.range.column, 9u);
  ASSERT_TRUE(d.fixit.has_value());
  EXPECT_EQ(d.fixit->replacement, "event");
  EXPECT_EQ(d.fixit->range.column, 9u);
  EXPECT_EQ(d.fixit->range.length, 6u);
  std::string fixed = spec;
  fixed.replace(d.fixit->range.column - 1, d.fixit->range.length, d.fixit->replacement);
  EXPECT_EQ(fixed, "fakepmu/event=1/");
  static const Catalog catalog = testing::extended_catalog();
  EXPECT_TRUE(encode(catalog, fixed).has_value()) << fixed;
}

TEST(EncodeErrors, UnknownTermCaseIsSuggested) {
  const Diagnostic d = encode_error("fakepmu/EVENT=1/");
  EXPECT_EQ(d.hint.substr(0, 21), "did you mean 'event'?");
}

TEST(EncodeErrors, EventReferenceWithValue) {
  const Diagnostic d = encode_error("fakepmu/foo=1/");
  EXPECT_EQ(d.message, "unknown term 'foo' for PMU 'fakepmu'");
  EXPECT_NE(d.hint.find("refer to it without a value"), std::string::npos);
  ASSERT_TRUE(d.fixit.has_value());
  EXPECT_EQ(d.fixit->replacement, "foo");
}

TEST(EncodeErrors, BareMultiBitField) {
  const Diagnostic d = encode_error("fakepmu/event/");
  EXPECT_EQ(d.message, "no value assigned for term 'event'");
  EXPECT_EQ(d.hint, "'event' is a 8-bit field (config:0-7); write 'event=<value>'");
}

TEST(EncodeErrors, MissingParameter) {
  const Diagnostic d = encode_error("fakehv/PM_Y,core=1/");
  EXPECT_EQ(d.message, "required parameter 'lpar' of event 'PM_Y' not specified");
  EXPECT_EQ(d.range.column, 8u);
  ASSERT_EQ(d.notes.size(), 1u);
  EXPECT_EQ(d.notes[0].range.file, "fakehv/events/PM_Y");
  EXPECT_EQ(d.notes[0].range.column, 29u);
}

TEST(EncodeErrors, TwoEventsInOneSpec) {
  const Diagnostic d = encode_error("fakepmu/foo,upper/");
  EXPECT_EQ(d.message, "cannot combine events 'foo' and 'UPPER' in one spec");
  EXPECT_EQ(d.range.column, 13u);
  ASSERT_EQ(d.notes.size(), 1u);
  EXPECT_EQ(d.notes[0].range.column, 9u);
}

TEST(EncodeErrors, RepeatedFieldNotesTheFirst) {
  const Diagnostic d = encode_error("fakepmu/event=1,umask=2,event=2/");
  EXPECT_EQ(d.message, "field 'event' given twice");
  EXPECT_EQ(d.range.column, 25u);
  ASSERT_EQ(d.notes.size(), 1u);
  EXPECT_EQ(d.notes[0].range.column, 9u);
}

TEST(EncodeErrors, UnknownPmuAndEventSuggestions) {
  Diagnostic d = encode_error("fakepm/event=1/");
  EXPECT_EQ(d.message, "unknown PMU 'fakepm'");
  EXPECT_EQ(d.hint, "did you mean 'fakepmu'?");
  d = encode_error("cycles,unc.dott:u");
  EXPECT_EQ(d.message, "unknown event 'unc.dott'");
  EXPECT_EQ(d.range.column, 8u);
  EXPECT_EQ(d.range.length, 8u);
  EXPECT_EQ(d.hint, "did you mean 'unc.dot'?");
  d = encode_error("fakepmu/event=fooo/");
  EXPECT_EQ(d.message, "unknown event 'fooo' for PMU 'fakepmu'");
  EXPECT_EQ(d.range.column, 15u);
  EXPECT_EQ(d.hint, "did you mean 'foo'?");
}

TEST(EncodeErrors, UnusablePmuType) {
  Diagnostic d = encode_error("notype/event=1/");
  EXPECT_EQ(d.message, "PMU 'notype' has no 'type' file");
  EXPECT_EQ(d.range.column, 1u);
  EXPECT_EQ(d.range.length, 6u);
  d = encode_error("hextype/event=1/");
  EXPECT_EQ(d.message, "PMU 'hextype' has an unusable type '0x2e'");
}

TEST(EncodeErrors, FormatWordPerfDoesNotHave) {
  const Diagnostic d = encode_error("c3pmu/x3=1/", Profile::perf(PerfRelease::v6_1));
  EXPECT_EQ(d.message, "field 'x3' is in config3, which perf_event_attr does not have in perf 6.1");
}

TEST(EncodeWarnings, FormatWordPerfDoesNotHave) {
  static const Catalog catalog = testing::sample_catalog();
  EncodeOptions perf;
  perf.semantics = Profile::perf(PerfRelease::v6_1);
  auto encoded = encode(catalog, "c3pmu/event=1/", perf);
  ASSERT_TRUE(encoded.has_value());
  ASSERT_EQ(encoded->front().warnings.size(), 1u);
  EXPECT_EQ(encoded->front().warnings[0].severity, Severity::warning);
  EXPECT_EQ(encoded->front().warnings[0].message,
            "'c3pmu' format 'x3' requires 'perf_event_attr::config3', which perf 6.1 does not "
            "have");
  encoded = encode(catalog, "c3pmu/event=1/");
  ASSERT_TRUE(encoded.has_value());
  EXPECT_TRUE(encoded->front().warnings.empty());
}

// A config4 field fails where it is used, in every semantics. perf warns about it on any event
// of the PMU (it reads every format file when it loads one); pmucat semantics do not, so that
// an encode reads only the fields its spec names (docs/perf-compat.md, difference 8).
TEST(EncodeWarnings, Config4FieldIsUnusableBeforePerf72) {
  std::vector<Pmu> pmus;
  pmus.push_back(
      testing::make_pmu("c4pmu", "50\n", {{"event", "config:0-7\n"}, {"x4", "config4:0-7\n"}}, {}));
  const Catalog catalog = Catalog::from_pmus(std::move(pmus));
  auto encoded = encode(catalog, "c4pmu/event=1/");
  ASSERT_TRUE(encoded.has_value());
  EXPECT_TRUE(encoded->front().warnings.empty());
  EncodeOptions perf612;
  perf612.semantics = Profile::perf(PerfRelease::v6_12);
  encoded = encode(catalog, "c4pmu/event=1/", perf612);
  ASSERT_TRUE(encoded.has_value());
  ASSERT_EQ(encoded->front().warnings.size(), 1u);
  EXPECT_EQ(encoded->front().warnings[0].message,
            "'c4pmu' format 'x4' requires 'perf_event_attr::config4', which perf 6.12 does not "
            "have");
  for (const Profile semantics :
       {Profile::perf(PerfRelease::v6_1), Profile::perf(PerfRelease::v6_12)}) {
    EncodeOptions options;
    options.semantics = semantics;
    auto failed = encode(catalog, "c4pmu/x4=1/", options);
    ASSERT_FALSE(failed.has_value());
    EXPECT_TRUE(failed.error().message.starts_with(
        "field 'x4' is in config4, which perf_event_attr does not have"))
        << failed.error().message;
  }
  for (const Profile semantics : {Profile::perf(PerfRelease::v7_2), Profile::pmucat()}) {
    EncodeOptions options;
    options.semantics = semantics;
    auto usable = encode(catalog, "c4pmu/x4=1/", options);
    ASSERT_TRUE(usable.has_value()) << usable.error().message;
    EXPECT_EQ(usable->front().attr.config[4], 1u);
    EXPECT_TRUE(usable->front().warnings.empty());
  }
}

TEST(EncodeErrors, HyphenatedPmuInPerfSemantics) {
  const Diagnostic d = encode_error("perf-pmu-test/test-event/", Profile::perf(PerfRelease::v6_1));
  EXPECT_EQ(d.id, "pmu-name-hyphen");
}

}  // namespace
PMUCAT_END_NAMESPACE
