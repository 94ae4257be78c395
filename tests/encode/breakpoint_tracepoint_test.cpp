// Breakpoints (`mem:...`) and tracepoints (`sys:event`): parsing as perf 6.1's lexer does, the
// attrs they encode to, and their located errors.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include "pmucat/encode.h"
#include "pmucat/spec.h"
#include "support/temp_tree.h"

PMUCAT_BEGIN_NAMESPACE
namespace {

using testing::TempTree;

constexpr std::uint8_t R = breakpoint_access::read, W = breakpoint_access::write,
                       X = breakpoint_access::execute;

EventSpec parse_one(std::string_view text) {
  auto specs = parse_spec_list(text);
  EXPECT_TRUE(specs.has_value()) << text << ": " << (specs ? "" : render(specs.error()));
  if (!specs || specs->size() != 1) return {};
  return specs->front();
}

Diagnostic parse_error(std::string_view text) {
  auto specs = parse_spec_list(text);
  EXPECT_FALSE(specs.has_value()) << text;
  return specs ? Diagnostic{} : specs.error();
}

struct BreakpointCase {
  const char* spec;
  std::uint64_t addr, len;
  std::uint8_t type;
  const char* mods;
};

// Checked against perf 6.1 (tools/perf-oracle.sh): the default length is 4 except for `x`
// alone (sizeof(long)); /0 is the default; access letters in any order; modifiers after a
// second ':', directly after the access, or directly after the number.
TEST(Breakpoint, ParsesLikePerf61) {
  const BreakpointCase cases[] = {
      {"mem:0x1000", 0x1000, 4, R | W, ""},
      {"mem:0x1000:rw", 0x1000, 4, R | W, ""},
      {"mem:4096/8:x", 0x1000, 8, X, ""},
      {"mem:0x1000:x", 0x1000, 8, X, ""},
      {"mem:0x1000:xwr", 0x1000, 4, R | W | X, ""},
      {"mem:0x1000/0", 0x1000, 4, R | W, ""},
      {"mem:0x1000/3:w", 0x1000, 3, W, ""},
      {"mem:0x1000:rwu", 0x1000, 4, R | W, "u"},
      {"mem:0x1000:rw:u", 0x1000, 4, R | W, "u"},
      {"mem:0x1000:u", 0x1000, 4, R | W, "u"},
      {"mem:0x1000:", 0x1000, 4, R | W, ""},
      {"mem:0x1000:rw:", 0x1000, 4, R | W, ""},
      {"mem:0x1000k", 0x1000, 4, R | W, "k"},
      {"mem:0x1000/8k", 0x1000, 8, R | W, "k"},
      {"mem:0x1000/0x8:r", 0x1000, 8, R, ""},
      {"mem:010", 10, 4, R | W, ""},
      {"mem:0xABCD", 0xabcd, 4, R | W, ""},
      {"mem:0x1000:rwxuk", 0x1000, 4, R | W | X, "uk"},
      {"mem:18446744073709551615", ~0ull, 4, R | W, ""},
      {"mem:0x1000/8:rw:pp", 0x1000, 8, R | W, "pp"},
  };
  for (const BreakpointCase& c : cases) {
    const EventSpec spec = parse_one(c.spec);
    EXPECT_EQ(spec.form, SpecForm::breakpoint) << c.spec;
    EXPECT_EQ(spec.bp_addr, c.addr) << c.spec;
    EXPECT_EQ(spec.bp_len, c.len) << c.spec;
    EXPECT_EQ(spec.bp_type, c.type) << c.spec;
    EXPECT_EQ(spec.modifiers.text, c.mods) << c.spec;
  }
}

TEST(Breakpoint, RejectsWhatPerf61Rejects) {
  const std::pair<const char*, const char*> cases[] = {
      {"mem:0x1000:rr", "spec-breakpoint-access"},
      {"mem:0x1000:xx", "spec-breakpoint-access"},
      {"mem:0x1000:rwxr", "spec-breakpoint-access"},
      {"mem:0x1000rw", "spec-breakpoint-access"},
      {"mem:0x1000/x", "spec-breakpoint-number"},
      {"mem:0x1000::u", "spec-breakpoint-access"},
      {"mem:0x1000/8/2", "spec-breakpoint-access"},
      {"mem:0x1000:ru:k", "modifier-unknown"},
      {"mem:0x1000:q", "modifier-unknown"},
      {"mem:0X10", "modifier-unknown"},
      {"mem:", "spec-breakpoint-number"},
      {"mem:18446744073709551616", "spec-breakpoint-number"},
      {"mem:0x10000000000000000", "spec-breakpoint-number"},
  };
  for (const auto& [text, id] : cases) EXPECT_EQ(parse_error(text).id, id) << text;
  // Located: the repeated letter.
  const Diagnostic d = parse_error("cycles,mem:0x1000:rr");
  EXPECT_EQ(d.range.column, 20u);
}

TEST(Breakpoint, SlashDoesNotOpenTermsSoTheListSplits) {
  auto specs = parse_spec_list("mem:0x1000/8,cycles,mem:0x2000/2:w");
  ASSERT_TRUE(specs) << render(specs.error());
  ASSERT_EQ(specs->size(), 3u);
  EXPECT_EQ((*specs)[0].bp_len, 8u);
  EXPECT_EQ((*specs)[1].form, SpecForm::event_name);
  EXPECT_EQ((*specs)[2].bp_addr, 0x2000u);
  EXPECT_EQ((*specs)[2].bp_type, W);
}

Attr encode_attr(std::string_view text, EncodeOptions options = {}) {
  const Catalog catalog = Catalog::from_pmus({});
  auto encoded = encode(catalog, text, options);
  EXPECT_TRUE(encoded) << text << ": " << (encoded ? "" : render(encoded.error()));
  if (!encoded || encoded->size() != 1) return {};
  return encoded->front().attr;
}

TEST(Breakpoint, EncodesTypeAddrLenAndAccess) {
  for (const char* access : {"r", "w", "x", "rw", "rx", "wx", "rwx"}) {
    for (unsigned len : {0u, 1u, 2u, 4u, 8u}) {
      const std::string text = fmt::format("mem:0x1234/{}:{}", len, access);
      const Attr attr = encode_attr(text);
      EXPECT_EQ(attr.type, 5u) << text;
      EXPECT_EQ(attr.config[1], 0x1234u) << text;
      const std::string_view a(access);
      const unsigned expected_len = len != 0 ? len : (a == "x" ? sizeof(long) : 4);
      EXPECT_EQ(attr.config[2], expected_len) << text;
      unsigned bits = 0;
      for (char c : a) bits |= c == 'r' ? 1 : c == 'w' ? 2 : 4;
      EXPECT_EQ(attr.bp_type, bits) << text;
      EXPECT_EQ(attr.sample_period, 1u) << text;  // perf record's breakpoint default
    }
  }
  EncodeOptions stat;
  stat.tool = Tool::stat;
  EXPECT_EQ(encode_attr("mem:0x1000", stat).sample_period, 0u);
  const Attr user = encode_attr("mem:0x1000:w:u");
  EXPECT_TRUE(user.exclude_kernel);
  EXPECT_TRUE(user.exclude_hv);
  EXPECT_FALSE(user.exclude_user);
}

TEST(Breakpoint, EncoderEncodeOneMatchesEncode) {
  const Catalog catalog = Catalog::from_pmus({});
  Encoder encoder(catalog);
  Attr attr;
  ASSERT_TRUE(encoder.encode_one("mem:0x40/2:r:k", attr));
  EXPECT_EQ(attr, encode_attr("mem:0x40/2:r:k"));
}

// The canonical perf string parses back to the same attr (and is a fixed point).
RC_GTEST_PROP(Breakpoint, PerfStringRoundTrips, ()) {
  const auto addr = *rc::gen::arbitrary<std::uint64_t>();
  const auto len = *rc::gen::inRange<unsigned>(0, 9);
  const auto access = *rc::gen::inRange<unsigned>(0, 8);
  const auto user = *rc::gen::arbitrary<bool>();
  std::string letters;
  if (access & 1) letters += 'r';
  if (access & 2) letters += 'w';
  if (access & 4) letters += 'x';
  std::string text =
      *rc::gen::arbitrary<bool>() ? fmt::format("mem:{}", addr) : fmt::format("mem:{:#x}", addr);
  if (len != 0 || *rc::gen::arbitrary<bool>()) text += fmt::format("/{}", len);
  if (!letters.empty()) text += ":" + letters;
  if (user) text += letters.empty() ? ":u" : ":u";
  const Catalog catalog = Catalog::from_pmus({});
  auto first = encode(catalog, text);
  RC_ASSERT(first.has_value());
  auto second = encode(catalog, first->front().perf_string);
  RC_ASSERT(second.has_value());
  RC_ASSERT(second->front().attr == first->front().attr);
  RC_ASSERT(second->front().perf_string == first->front().perf_string);
}

TEST(Tracepoint, TellsTracepointsFromModifiersAsPerfDoes) {
  EventSpec tp = parse_one("sched:sched_switch");
  EXPECT_EQ(tp.form, SpecForm::tracepoint);
  EXPECT_EQ(tp.tp_system, "sched");
  EXPECT_EQ(tp.tp_event, "sched_switch");
  // All modifier letters: modifiers (perf's modifier rule wins at equal length).
  EXPECT_EQ(parse_one("cycles:u").form, SpecForm::event_name);
  EXPECT_EQ(parse_one("sched:ukh").form, SpecForm::event_name);
  // One letter that is not a modifier: a tracepoint.
  EXPECT_EQ(parse_one("sched:ukx").form, SpecForm::tracepoint);
  tp = parse_one("probe-libc:malloc_entry");
  EXPECT_EQ(tp.tp_system, "probe-libc");
  tp = parse_one("sched:sched_*:u");
  EXPECT_EQ(tp.tp_event, "sched_*");
  EXPECT_TRUE(tp.modifiers.user);
  tp = parse_one("sched:sched_switch/call-graph=dwarf/:k");
  ASSERT_EQ(tp.terms.terms.size(), 1u);
  EXPECT_EQ(tp.terms.terms[0].name, "call-graph");
  EXPECT_TRUE(tp.modifiers.kernel);
  EXPECT_EQ(parse_one("*:sys_enter*").tp_system, "*");
}

TEST(Tracepoint, RejectsKeywordsAndStrayBytes) {
  EXPECT_EQ(parse_error("sched:read").id, "spec-tracepoint-name");
  // A keyword system is no tracepoint: the word after ':' is then a modifier error.
  EXPECT_EQ(parse_error("cycles:sched_switch").id, "modifier-unknown");
  EXPECT_EQ(parse_error("mem-loads:q").id, "modifier-unknown");
  EXPECT_EQ(parse_error("sched:r1a").id, "spec-tracepoint-name");
  EXPECT_EQ(parse_error("sched:sched_switch:foo").id, "modifier-unknown");
  EXPECT_EQ(parse_error("sched:sched_switch/call-graph=no").id, "spec-missing-slash");
  EXPECT_EQ(parse_error("sched:sched-switch").id, "spec-tracepoint-name");
}

class TracepointEncode : public ::testing::Test {
 protected:
  void SetUp() override {
    tree.write("events/sched/sched_switch/id", "316\n");
    tree.write("events/sched/sched_wakeup/id", "318\n");
    tree.write("events/sched/enable", "0\n");
    tree.write("events/irq/irq_handler_entry/id", "120\n");
    tree.write("events/header_page", "x\n");
    options.tracefs = tree.root().string();
  }
  Expected<std::vector<EncodedEvent>> run(std::string_view text) {
    return encode(catalog, text, options);
  }
  TempTree tree;
  Catalog catalog = Catalog::from_pmus({});
  EncodeOptions options;
};

TEST_F(TracepointEncode, OneAttrPerMatchWithItsId) {
  auto one = run("sched:sched_switch:u");
  ASSERT_TRUE(one) << render(one.error());
  ASSERT_EQ(one->size(), 1u);
  const Attr& attr = one->front().attr;
  EXPECT_EQ(attr.type, 2u);
  EXPECT_EQ(attr.config[0], 316u);
  EXPECT_EQ(attr.sample_period, 1u);
  EXPECT_EQ(attr.sample_type, sample::raw | sample::time | sample::cpu | sample::period);
  EXPECT_TRUE(attr.exclude_kernel);
  EXPECT_EQ(one->front().perf_string, "sched:sched_switch:u");
  auto glob = run("sched:*");
  ASSERT_TRUE(glob);
  ASSERT_EQ(glob->size(), 2u);  // `enable` is a file, not an event
  EXPECT_EQ((*glob)[0].attr.config[0], 316u);
  EXPECT_EQ((*glob)[1].attr.config[0], 318u);
  auto all = run("*:*");
  ASSERT_TRUE(all);
  EXPECT_EQ(all->size(), 3u);
  options.tool = Tool::stat;
  auto stat = run("sched:sched_switch");
  ASSERT_TRUE(stat);
  EXPECT_EQ(stat->front().attr.sample_type, 0u);
  EXPECT_EQ(run("sched:sched_switch/call-graph=no/").error().id, "term-not-in-stat");
}

TEST_F(TracepointEncode, LocatedErrorsWithSuggestions) {
  auto unknown = run("cycles,sched:sched_swich");
  ASSERT_FALSE(unknown);
  EXPECT_EQ(unknown.error().id, "tracepoint-unknown");
  EXPECT_EQ(unknown.error().range.column, 8u);
  EXPECT_NE(unknown.error().hint.find("sched:sched_switch"), std::string::npos);
  EXPECT_EQ(run("schd:sched_switch").error().hint.find("'sched'") != std::string::npos, true);
  EXPECT_EQ(run("sched:sched_switch/period=1/").error().id, "term-unknown");
  // perf 6.1 needs a match in every system a system glob matches; pmucat takes those with one.
  EXPECT_TRUE(run("*:sched_switch"));
  options.semantics = Profile::perf(PerfRelease::v6_1);
  EXPECT_EQ(run("*:sched_switch").error().id, "tracepoint-unknown");
  options.tracefs = tree.path("nowhere").string();
  EXPECT_EQ(run("sched:sched_switch").error().id, "tracepoint-no-tracefs");
}

TEST_F(TracepointEncode, BadIdFilesAreLocatedErrors) {
  tree.write("events/bad/text/id", "twelve\n");
  tree.write("events/bad/huge/id", std::string(100000, '1'));
  tree.fifo("events/bad/pipe/id");
  tree.mkdir("events/bad/noid");
  for (const char* name : {"bad:text", "bad:huge", "bad:pipe", "bad:noid"}) {
    auto result = run(name);
    ASSERT_FALSE(result) << name;
    EXPECT_EQ(result.error().id, "tracepoint-bad-id") << name;
    EXPECT_NE(result.error().range.file.find("/events/bad/"), std::string::npos) << name;
  }
}

}  // namespace
PMUCAT_END_NAMESPACE
