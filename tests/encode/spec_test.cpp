// parse_spec_list / parse_modifiers: splitting, forms, offsets, and located errors.
#include "pmucat/spec.h"

#include <gtest/gtest.h>

#include "pmucat/diagnostic.h"

PMUCAT_BEGIN_NAMESPACE
namespace {

std::vector<EventSpec> parse_ok(std::string_view text) {
  auto specs = parse_spec_list(text);
  EXPECT_TRUE(specs.has_value()) << (specs ? "" : render(specs.error()));
  return specs ? *specs : std::vector<EventSpec>{};
}

Diagnostic parse_error(std::string_view text) {
  auto specs = parse_spec_list(text);
  EXPECT_FALSE(specs.has_value()) << text;
  return specs ? Diagnostic{} : specs.error();
}

TEST(SpecList, PmuTermsWithModifiers) {
  const auto specs = parse_ok("cpu/event=0x3c,umask=0x1,inv,cmask=3/u");
  ASSERT_EQ(specs.size(), 1u);
  const EventSpec& spec = specs[0];
  EXPECT_EQ(spec.form, SpecForm::pmu_terms);
  EXPECT_EQ(spec.pmu, "cpu");
  EXPECT_EQ(spec.pmu_offset, 0u);
  ASSERT_EQ(spec.terms.terms.size(), 4u);
  EXPECT_EQ(spec.terms.terms[0].name, "event");
  EXPECT_EQ(spec.terms.terms[0].value, 0x3cu);
  EXPECT_EQ(spec.terms.terms[2].name, "inv");
  EXPECT_EQ(spec.terms.terms[2].kind, TermValueKind::none);
  EXPECT_EQ(spec.terms.terms[3].value, 3u);
  EXPECT_EQ(spec.terms.terms[1].offset, 15u);  // offsets index the whole list
  EXPECT_TRUE(spec.modifiers.user);
  EXPECT_EQ(spec.modifiers.text, "u");
}

TEST(SpecList, CommasInsideSlashesAndQuotesDoNotSplit) {
  const auto specs = parse_ok("cpu/config=1,name='a,b'/u,cpu/config=2/k,cache-misses:u");
  ASSERT_EQ(specs.size(), 3u);
  EXPECT_EQ(specs[0].text, "cpu/config=1,name='a,b'/u");
  ASSERT_EQ(specs[0].terms.terms.size(), 2u);
  EXPECT_EQ(specs[0].terms.terms[1].text, "a,b");
  EXPECT_EQ(specs[1].text, "cpu/config=2/k");
  EXPECT_EQ(specs[1].offset, 26u);
  EXPECT_EQ(specs[1].pmu_offset, 26u);
  EXPECT_EQ(specs[1].terms.terms[0].offset, 30u);
  EXPECT_TRUE(specs[1].modifiers.kernel);
  EXPECT_EQ(specs[2].form, SpecForm::event_name);
  EXPECT_EQ(specs[2].name, "cache-misses");
  EXPECT_TRUE(specs[2].modifiers.user);
  EXPECT_EQ(specs[2].offset, 41u);
}

TEST(SpecList, BareEventNames) {
  const auto specs = parse_ok("cache-misses:u,unc.dot,PM_PB_CYC");
  ASSERT_EQ(specs.size(), 3u);
  EXPECT_EQ(specs[1].name, "unc.dot");
  EXPECT_EQ(specs[1].modifiers, Modifiers{});
  EXPECT_EQ(specs[2].name, "PM_PB_CYC");
}

TEST(SpecList, RawEvents) {
  const auto specs = parse_ok("r1a3,r0x1A3:u,rABCdef,r0xffffffffffffffff");
  ASSERT_EQ(specs.size(), 4u);
  for (const EventSpec& spec : specs) EXPECT_EQ(spec.form, SpecForm::raw) << spec.text;
  EXPECT_EQ(specs[0].raw_config, 0x1a3u);
  EXPECT_EQ(specs[1].raw_config, 0x1a3u);
  EXPECT_TRUE(specs[1].modifiers.user);
  EXPECT_EQ(specs[1].name, "r0x1A3");
  EXPECT_EQ(specs[2].raw_config, 0xabcdefu);
  EXPECT_EQ(specs[3].raw_config, 0xffffffffffffffffu);
  // Not hex: an event name.
  EXPECT_EQ(parse_ok("rxyz")[0].form, SpecForm::event_name);
}

TEST(SpecList, RawOverflowIsLocated) {
  const Diagnostic d = parse_error("cycles,r0x10000000000000000");
  EXPECT_EQ(d.range.column, 8u);
  EXPECT_NE(d.message.find("64 bits"), std::string::npos);
}

TEST(SpecList, BareTermListIsOneTermsOnlySpec) {
  const auto specs = parse_ok("event=0x423,inv,cmask=0x3");
  ASSERT_EQ(specs.size(), 1u);
  EXPECT_EQ(specs[0].form, SpecForm::terms_only);
  ASSERT_EQ(specs[0].terms.terms.size(), 3u);
  EXPECT_EQ(specs[0].terms.terms[1].name, "inv");
  EXPECT_EQ(specs[0].terms.terms[2].offset, 16u);
}

TEST(SpecList, ParseEventsTermsOnlyVector) {
  // perf tests/parse-events.c: config=10,config1,config2=3,umask=1,read,r0xead.
  const auto specs = parse_ok("config=10,config1,config2=3,umask=1,read,r0xead");
  ASSERT_EQ(specs.size(), 1u);
  const auto& terms = specs[0].terms.terms;
  ASSERT_EQ(terms.size(), 6u);
  EXPECT_EQ(terms[0].name, "config");
  EXPECT_EQ(terms[0].value, 10u);
  EXPECT_EQ(terms[1].name, "config1");
  EXPECT_EQ(terms[1].kind, TermValueKind::none);
  EXPECT_EQ(terms[2].value, 3u);
  EXPECT_EQ(terms[3].name, "umask");
  EXPECT_EQ(terms[4].name, "read");
  EXPECT_EQ(terms[5].name, "r0xead");
}

TEST(SpecList, SpacesInsideSlashes) {
  const auto specs = parse_ok("fakepmu/ event = 0x5 , umask = 1 /");
  ASSERT_EQ(specs.size(), 1u);
  ASSERT_EQ(specs[0].terms.terms.size(), 2u);
  EXPECT_EQ(specs[0].terms.terms[1].value, 1u);
}

TEST(SpecList, EmptyTermsAndHyphenatedPmu) {
  const auto specs = parse_ok("fakepmu//,perf-pmu-test/test-event/");
  ASSERT_EQ(specs.size(), 2u);
  EXPECT_TRUE(specs[0].terms.terms.empty());
  EXPECT_EQ(specs[1].pmu, "perf-pmu-test");
}

TEST(SpecListErrors, ColonBeforeModifiers) {
  const Diagnostic d = parse_error("cpu/event=1/:u");
  EXPECT_EQ(d.range.file, "<spec>");
  EXPECT_EQ(d.range.column, 13u);
  ASSERT_TRUE(d.fixit.has_value());
  EXPECT_EQ(d.fixit->replacement, "");
  EXPECT_TRUE(render(d, {.color = false, .show_id = false})
                  .starts_with("<spec>:1:13: error: unexpected ':' after '/': modifiers follow "
                               "the closing '/' directly\ncpu/event=1/:u\n            ^\n"))
      << render(d);
}

TEST(SpecListErrors, UnknownModifier) {
  const Diagnostic d = parse_error("fakepmu/foo/ux");
  EXPECT_EQ(d.message, "unknown modifier 'x'");
  EXPECT_EQ(d.range.column, 14u);
  EXPECT_EQ(d.range.length, 1u);
  EXPECT_NE(d.hint.find("valid modifiers"), std::string::npos);
}

TEST(SpecListErrors, RepeatedAndTooPreciseModifiers) {
  EXPECT_EQ(parse_error("foo:uu").message, "modifier 'u' given twice");
  const Diagnostic d = parse_error("foo:pppp");
  EXPECT_EQ(d.range.column, 8u);
  EXPECT_NE(d.message.find("precise"), std::string::npos);
}

TEST(SpecListErrors, MissingClosingSlash) {
  const Diagnostic d = parse_error("cycles,cpu/event=1");
  EXPECT_EQ(d.range.column, 19u);  // at the end, where the '/' belongs
  ASSERT_TRUE(d.fixit.has_value());
  EXPECT_EQ(d.fixit->replacement, "/");
}

TEST(SpecListErrors, EmptyEvents) {
  EXPECT_EQ(parse_error("").message, "empty event list");
  const Diagnostic middle = parse_error("foo,,bar");
  EXPECT_EQ(middle.range.column, 5u);
  const Diagnostic trailing = parse_error("foo,");
  EXPECT_EQ(trailing.range.column, 4u);
  EXPECT_TRUE(trailing.fixit.has_value());
}

TEST(SpecListErrors, MissingPmuNameStraySlashGroupsAndQuotes) {
  EXPECT_EQ(parse_error("/event=1/").id, "spec-missing-pmu");
  const Diagnostic stray = parse_error("cpu/event=1/u/");
  EXPECT_EQ(stray.range.column, 14u);
  EXPECT_EQ(parse_error("{cycles,{instructions}}").id, "spec-group-nested");
  EXPECT_EQ(parse_error("cpu/name='abc/").id, "spec-unterminated-quote");
  EXPECT_EQ(parse_error("cpu/event=99999999999999999999/").range.file, "<spec>");
  const Diagnostic bad_name = parse_error("cyc$les");
  EXPECT_EQ(bad_name.range.column, 4u);
}

TEST(SpecListErrors, TermErrorsPointIntoTheWholeList) {
  const Diagnostic d = parse_error("cycles,cpu/event=1,/");
  EXPECT_EQ(d.range.file, "<spec>");
  EXPECT_EQ(d.range.line, 1u);
  EXPECT_EQ(d.source_line, "cycles,cpu/event=1,/");
  EXPECT_EQ(d.range.column, 19u);
}

TEST(Modifiers, EveryLetter) {
  auto mods = parse_modifiers("ukhpPGHSDIWeb", "x", 0);
  ASSERT_TRUE(mods.has_value());
  EXPECT_TRUE(mods->user && mods->kernel && mods->hypervisor && mods->max_precise);
  EXPECT_TRUE(mods->guest_only && mods->host_only && mods->sample_read && mods->pinned);
  EXPECT_TRUE(mods->exclude_idle && mods->weak_group && mods->exclusive && mods->bpf_counter);
  EXPECT_EQ(mods->precise, 1u);
  EXPECT_EQ(canonical_modifiers(*mods), "ukhGHpPSDIWeb");
}

TEST(Modifiers, PreciseCountsAndCanonicalOrder) {
  auto mods = parse_modifiers("pkpu", "x", 0);
  ASSERT_TRUE(mods.has_value());
  EXPECT_EQ(mods->precise, 2u);
  EXPECT_EQ(mods->text, "pkpu");
  EXPECT_EQ(canonical_modifiers(*mods), "ukpp");
  EXPECT_EQ(canonical_modifiers(Modifiers{}), "");
}

}  // namespace
PMUCAT_END_NAMESPACE
