// Internal unit test of src/encode/spec_views.h: the spec scanner against the full spec parser.
// The single-pass spec scanner against the full spec parser: whatever it accepts, it must
// describe exactly as parse_spec_views_full does (events, terms, no lints).
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <string>
#include <vector>

#include "parser/spec_views.h"
#include "pmucat/version.h"

PMUCAT_BEGIN_NAMESPACE
namespace spec_detail {
namespace {

bool same_event(const EventSpecView& a, const EventSpecView& b) {
  return a.form == b.form && a.text == b.text && a.offset == b.offset && a.pmu == b.pmu &&
         a.pmu_offset == b.pmu_offset && a.name == b.name && a.raw_config == b.raw_config &&
         a.terms_begin == b.terms_begin && a.terms_end == b.terms_end &&
         a.lints_begin == b.lints_begin && a.lints_end == b.lints_end && a.modifiers == b.modifiers;
}

// True when the scanner accepted `spec`; then it must equal the full parse.
bool scan_matches_full(const std::string& spec) {
  SpecViews scanned;
  if (!scan_simple_spec(spec, scanned)) return false;
  SpecViews full;
  const auto error = parse_spec_views_full(spec, full);
  RC_ASSERT(!error.has_value());
  RC_ASSERT(scanned.events.size() == full.events.size());
  for (std::size_t i = 0; i < full.events.size(); ++i) {
    RC_ASSERT(same_event(scanned.events[i], full.events[i]));
  }
  RC_ASSERT(scanned.terms == full.terms);
  RC_ASSERT(scanned.lints.empty());
  RC_ASSERT(full.lints.empty());
  return true;
}

TEST(SpecScan, AcceptsTheCommonShapeAsTheFullParserReadsIt) {
  for (const char* spec :
       {"cpu/event=0x3c,umask=0x1,inv,cmask=3/u", "cpu/mem-loads,ldlat=30/",
        "uncore_imc_0/cas_count_read/", "cpu/cpu-cycles/", "power/energy-pkg/", "cpu//",
        "cpu/event=0xAB,x=?,y=foo,a:b.c-d/ukppp", "cpu/config=9999999999999999999/",
        "cpu/config=0xffffffffffffffff/", "uncore_*/event=1/", "cpu/event=0/"}) {
    SCOPED_TRACE(spec);
    EXPECT_TRUE(scan_matches_full(spec));
  }
}

TEST(SpecScan, LeavesEverythingUnusualToTheFullParser) {
  for (const char* spec : {"cycles",
                           "cycles:u",
                           "r1a3",
                           "event=0x3c",
                           "cpu/event=0x3c/,cpu/umask=1/",
                           "cpu/event=010/",
                           "cpu/event=0X3c/",
                           "cpu/event=0x/",
                           "cpu/event=3g/",
                           "cpu/event=99999999999999999999/",
                           "cpu/event=0x00000000000000001/",
                           "cpu/event=-1/",
                           "cpu/name='a,b'/",
                           "cpu/@cfg/",
                           "cpu/a;b/",
                           "cpu/a ,b/",
                           "cpu/a,/",
                           "cpu/,a/",
                           "cpu/a,,b/",
                           "cpu/a=/",
                           "cpu/a",
                           "/a/",
                           " cpu/a/",
                           "cpu/a/ ",
                           "cpu/a/:u",
                           "cpu/a/uu",
                           "cpu/a/pppp",
                           "cpu/a/x",
                           "cpu/a/u/",
                           "cpu/config=18446744073709551615/",
                           "cp u/a/",
                           "cpu/a=b=c/",
                           ""}) {
    SCOPED_TRACE(spec);
    SpecViews scanned;
    EXPECT_FALSE(scan_simple_spec(spec, scanned));
  }
}

std::string pick(const std::vector<std::string>& pieces) {
  return pieces[*rc::gen::inRange<std::size_t>(0, pieces.size())];
}

// Specs near the scanner's boundary: mostly well formed, with the oddities the full grammar
// lints or rejects mixed in.
std::string random_spec() {
  static const std::vector<std::string> pmus = {"cpu",  "uncore_imc_0", "cpu-x", "a.b", "",
                                                "c[1]", "uncore_*",     "p!q",   "x y", "e=1"};
  static const std::vector<std::string> names = {"event", "umask", "inv", "mem-loads", "a:b",
                                                 "x.y",   "?",     "_k",  "9a",        "@d",
                                                 "'q'",   "-m",    "",    "A*B"};
  static const std::vector<std::string> values = {"0x3c",
                                                  "0X3c",
                                                  "0x",
                                                  "0xAB",
                                                  "010",
                                                  "0",
                                                  "3",
                                                  "18446744073709551615",
                                                  "18446744073709551616",
                                                  "99999999999999999999",
                                                  "0x1ffffffffffffffff",
                                                  "0x00000000000000001",
                                                  "0xffffffffffffffff",
                                                  "?",
                                                  "foo",
                                                  "'q'",
                                                  "3g",
                                                  "-1",
                                                  "",
                                                  "a=b"};
  static const std::vector<std::string> separators = {",", ",", ",", ",,", " ,", ";", "/"};
  static const std::vector<std::string> modifiers = {
      "", "", "u", "uk", "ppp", "pppp", "uu", ":u", "G", "u/", "u,cpu/x/", " ", "kh", "upp", "x"};
  std::string spec = pick(pmus) + "/";
  const auto count = *rc::gen::inRange<std::size_t>(0, 5);
  for (std::size_t i = 0; i < count; ++i) {
    if (i > 0) spec += pick(separators);
    spec += pick(names);
    if (*rc::gen::inRange(0, 3) != 0) spec += "=" + pick(values);
  }
  return spec + "/" + pick(modifiers);
}

RC_GTEST_PROP(SpecScan, AgreesWithTheFullParser, ()) {
  const std::string spec = random_spec();
  RC_CLASSIFY(scan_matches_full(spec), "scanned");
}

}  // namespace
}  // namespace spec_detail
PMUCAT_END_NAMESPACE
