// Event groups: `{a,b}:mods` / `name{a,b}` parsed (with located errors) and encoded with perf
// 6.1's group-modifier rules (each letter against the member's own modifiers).
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <string>
#include <vector>

#include "pmucat/diagnostic.h"
#include "pmucat/encode.h"
#include "pmucat/spec.h"
#include "sample_tree.h"

PMUCAT_BEGIN_NAMESPACE
namespace {

SpecList parse_ok(std::string_view text) {
  auto list = parse_spec_groups(text);
  EXPECT_TRUE(list.has_value()) << (list ? "" : render(list.error()));
  return list ? *list : SpecList{};
}

std::string error_text(std::string_view text) {
  auto list = parse_spec_groups(text);
  EXPECT_FALSE(list.has_value()) << text;
  return list ? std::string() : render(list.error());
}

TEST(SpecGroups, MembersPointAtTheirGroup) {
  const SpecList list = parse_ok("{cycles,cpu/event=0x3c/u}:uS,faults,g2{instructions}");
  ASSERT_EQ(list.events.size(), 4u);
  ASSERT_EQ(list.groups.size(), 2u);
  EXPECT_EQ(list.events[0].group, 0u);
  EXPECT_EQ(list.events[1].group, 0u);
  EXPECT_FALSE(list.events[2].group.has_value());
  EXPECT_EQ(list.events[3].group, 1u);
  EXPECT_EQ(list.events[0].text, "cycles");
  EXPECT_EQ(list.events[0].offset, 1u);
  EXPECT_EQ(list.events[1].text, "cpu/event=0x3c/u");
  EXPECT_TRUE(list.events[1].modifiers.user);
  EXPECT_TRUE(list.groups[0].has_modifiers);
  EXPECT_TRUE(list.groups[0].modifiers.user);
  EXPECT_TRUE(list.groups[0].modifiers.sample_read);
  EXPECT_EQ(list.groups[0].offset, 0u);
  EXPECT_EQ(list.groups[0].length, 28u);  // `{cycles,cpu/event=0x3c/u}:uS`
  EXPECT_EQ(list.groups[1].name, "g2");
  EXPECT_FALSE(list.groups[1].has_modifiers);
  EXPECT_EQ(list.events[3].text, "instructions");
}

TEST(SpecGroups, BracesInsideTermsOrQuotesAreNotGroups) {
  const SpecList list = parse_ok("cpu/event=0x3c,name='{x}'/");
  EXPECT_TRUE(list.groups.empty());
  EXPECT_FALSE(list.events[0].group.has_value());
}

TEST(SpecGroups, ListWithoutBracesIsUnchanged) {
  auto plain = parse_spec_list("cycles,cpu/event=1/k");
  ASSERT_TRUE(plain.has_value());
  for (const EventSpec& spec : *plain) EXPECT_FALSE(spec.group.has_value());
}

TEST(SpecGroupErrors, EveryErrorIsLocated) {
  EXPECT_EQ(error_text("{cycles,{instructions}}"),
            "<spec>:1:9: error: nested event group: perf's groups do not nest "
            "[spec-group-nested]\n{cycles,{instructions}}\n        ^\n"
            "the enclosing group opens at column 1; close it with '}' first\n");
  EXPECT_EQ(error_text("{}"),
            "<spec>:1:1: error: empty event group: a group needs at least one event "
            "[spec-group-empty]\n{}\n^~\n");
  EXPECT_EQ(error_text("{cycles"),
            "<spec>:1:8: error: missing '}' to close the group opened at column 1 "
            "[spec-group-unclosed]\n{cycles\n       ^\nfix-it: insert '}'\n{cycles}\n       ^\n");
  EXPECT_EQ(error_text("cycles}"),
            "<spec>:1:7: error: '}' without a '{' opening its group [spec-group-unopened]\n"
            "cycles}\n      ^\nfix-it: remove '}'\ncycles\n      ^\n");
  EXPECT_EQ(error_text("{cycles}u"),
            "<spec>:1:9: error: unexpected text after '}': a group's modifiers follow ':' "
            "[spec-group-trailing]\n{cycles}u\n        ^\nfix-it: insert ':'\n{cycles}:u\n"
            "        ^\n");
  EXPECT_EQ(error_text("cpu/event=1/{x}"),
            "<spec>:1:13: error: unexpected '{': a group opens at the start of an event, "
            "optionally after its name (name{...}) [spec-group-brace]\ncpu/event=1/{x}\n"
            "            ^\n");
}

Diagnostic parse_error(std::string_view text) {
  auto list = parse_spec_groups(text);
  EXPECT_FALSE(list.has_value()) << text;
  return list ? Diagnostic{} : list.error();
}

TEST(SpecGroupErrors, IdsAndColumns) {
  EXPECT_EQ(parse_error("{a}}").id, "spec-group-unopened");
  EXPECT_EQ(parse_error("{a}}").range.column, 4u);
  EXPECT_EQ(parse_error("{a},b}").range.column, 6u);
  EXPECT_EQ(parse_error("{a,}").id, "spec-empty-event");
  EXPECT_EQ(parse_error("{,a}").id, "spec-empty-event");
  EXPECT_EQ(parse_error("{a,{b},c}").id, "spec-group-nested");
  EXPECT_EQ(parse_error("{a}:x").id, "modifier-unknown");
  EXPECT_EQ(parse_error("{a,b}:uu").id, "modifier-repeated");
  EXPECT_EQ(parse_error("{a},{b").id, "spec-group-unclosed");
  EXPECT_EQ(parse_error("{a},{b").range.column, 7u);
  EXPECT_EQ(parse_error("{a}{b}").id, "spec-group-nested");
  EXPECT_EQ(parse_error("{a}:").id, "spec-group-trailing");
  EXPECT_EQ(parse_error("g+1{a}").id, "spec-group-name");
  EXPECT_EQ(parse_error("g+1{a}").range.column, 2u);
  EXPECT_EQ(parse_error("-g{a}").id, "spec-group-name");
  // perf 6.12's name token: the parser takes it; the encoder narrows it to perf 6.1's.
  EXPECT_TRUE(parse_spec_groups("g_1.x!{a}").has_value());
  EXPECT_TRUE(parse_spec_groups("g-1{a}").has_value());
  EXPECT_TRUE(parse_spec_groups("1g{a}").has_value());
}

// ---- encoding ----

std::vector<EncodedEvent> encode_ok(const Catalog& catalog, std::string_view spec,
                                    EncodeOptions options = {}) {
  auto events = encode(catalog, spec, options);
  EXPECT_TRUE(events.has_value()) << spec << ": " << (events ? "" : render(events.error()));
  return events ? *events : std::vector<EncodedEvent>{};
}

const Catalog& catalog() {
  static const Catalog instance = testing::extended_catalog();
  return instance;
}

TEST(GroupEncode, LeaderAndNameAndModifiersText) {
  const auto events = encode_ok(catalog(), "cpu/event=1/,top{cpu/event=2/,cpu/event=3/}:u");
  ASSERT_EQ(events.size(), 3u);
  EXPECT_FALSE(events[0].group_leader.has_value());
  EXPECT_EQ(events[1].group_leader, 1u);
  EXPECT_EQ(events[2].group_leader, 1u);
  EXPECT_EQ(events[1].group_name, "top");
  EXPECT_EQ(events[2].group_name, "top");
  EXPECT_EQ(events[2].group_modifiers, "u");
  EXPECT_EQ(events[2].perf_string, "cpu/event=0x3/");  // the member's own modifiers only
}

// Each case: the group's member as `{MEMBER,cpu/event=9/}:MODS` against perf 6.1's rules.
struct LetterCase {
  const char* spec;
  bool leader;  // which attr to check: the leader (first) or the second member
  bool eu, ek, eh, eG, eH;
  unsigned precise;
  bool pinned, exclusive, sample_read, exclude_idle;
};

TEST(GroupEncode, GroupModifierLettersAgainstMemberModifiers) {
  const LetterCase cases[] = {
      // u/k/h: a member with no level excluded gets only the group's levels.
      {"{cpu/event=1/,cpu/event=9/}:u", true, false, true, true, true, false, 0, false, false,
       false, false},
      // ... a member that already chose `k` keeps it and gains `u`.
      {"{cpu/event=1/k,cpu/event=9/}:u", true, false, false, true, true, false, 0, false, false,
       false, false},
      // `k` alone keeps the init-time exclude_guest of a member without modifiers.
      {"{cpu/event=1/,cpu/event=9/}:k", true, true, false, true, true, false, 0, false, false,
       false, false},
      // ... but a member whose own modifiers recomputed exclude_guest (`k`) keeps it clear.
      {"{cpu/event=1/k,cpu/event=9/}:k", true, true, false, true, false, false, 0, false, false,
       false, false},
      // p adds to the member's own precise level.
      {"{cpu/event=1/p,cpu/event=9/}:p", true, false, false, false, true, false, 2, false, false,
       false, false},
      // G/H: the group's choice, unless the member chose already.
      {"{cpu/event=1/,cpu/event=9/}:G", true, false, false, false, false, true, 0, false, false,
       false, false},
      {"{cpu/event=1/H,cpu/event=9/}:G", true, false, false, false, false, false, 0, false, false,
       false, false},
      // D and e: the leader only.
      {"{cpu/event=1/,cpu/event=9/}:De", true, false, false, false, true, false, 0, true, true,
       false, false},
      {"{cpu/event=1/,cpu/event=9/}:De", false, false, false, false, true, false, 0, false, false,
       false, false},
      // S: every member samples reads (Tool::record); the group's S replaces the member's own.
      {"{cpu/event=1/,cpu/event=9/}:S", false, false, false, false, true, false, 0, false, false,
       true, false},
      {"{cpu/event=1/S,cpu/event=9/}:u", true, false, true, true, true, false, 0, false, false,
       false, false},
      {"{cpu/event=1/,cpu/event=9/}:I", false, false, false, false, true, false, 0, false, false,
       false, true},
      // W (weak group) changes no attr bit.
      {"{cpu/event=1/,cpu/event=9/}:W", true, false, false, false, true, false, 0, false, false,
       false, false},
  };
  for (const LetterCase& c : cases) {
    const auto events = encode_ok(catalog(), c.spec);
    ASSERT_EQ(events.size(), 2u) << c.spec;
    const Attr& a = events[c.leader ? 0 : 1].attr;
    EXPECT_EQ(a.exclude_user, c.eu) << c.spec;
    EXPECT_EQ(a.exclude_kernel, c.ek) << c.spec;
    EXPECT_EQ(a.exclude_hv, c.eh) << c.spec;
    EXPECT_EQ(a.exclude_guest, c.eG) << c.spec;
    EXPECT_EQ(a.exclude_host, c.eH) << c.spec;
    EXPECT_EQ(a.precise_ip, c.precise) << c.spec;
    EXPECT_EQ(a.pinned, c.pinned) << c.spec;
    EXPECT_EQ(a.exclusive, c.exclusive) << c.spec;
    EXPECT_EQ((a.sample_type & sample::read) != 0, c.sample_read) << c.spec;
    EXPECT_EQ(a.exclude_idle, c.exclude_idle) << c.spec;
  }
}

// A group name must be one name token of perf's lexer: perf 6.12's takes '-' and a leading
// digit, 6.1's does not; a name another lexer rule takes whole is refused by both.
TEST(GroupEncode, GroupNamesAreNameTokensOfTheSemanticsPerf) {
  EncodeOptions perf61;
  perf61.semantics = Profile::perf(PerfRelease::v6_1);
  EncodeOptions perf612;
  perf612.semantics = Profile::perf(PerfRelease::v6_12);
  for (const EncodeOptions& options : {EncodeOptions{}, perf612}) {
    EXPECT_EQ(encode_ok(catalog(), "g-1{cpu/event=1/}", options).at(0).group_name, "g-1");
    EXPECT_EQ(encode_ok(catalog(), "1g{cpu/event=1/}", options).at(0).group_name, "1g");
    EXPECT_EQ(encode_ok(catalog(), "L1-dcache-x{cpu/event=1/}", options).size(), 1u);
  }
  auto refused = [&](std::string_view spec, const EncodeOptions& options) {
    auto events = encode(catalog(), spec, options);
    EXPECT_FALSE(events.has_value()) << spec;
    return events.has_value() ? Diagnostic{} : events.error();
  };
  EXPECT_EQ(refused("g-1{cpu/event=1/}", perf61).id, "spec-group-name");
  EXPECT_EQ(refused("g-1{cpu/event=1/}", perf61).range.column, 2u);
  EXPECT_EQ(refused("1g{cpu/event=1/}", perf61).range.column, 1u);
  // perf 7.3 (and pmucat's semantics, which follow it) reads built-in names as JSON events, not
  // lexer tokens: they name groups.
  EncodeOptions perf73;
  perf73.semantics = Profile::perf(PerfRelease::v7_3);
  for (const EncodeOptions& options : {EncodeOptions{}, perf73}) {
    EXPECT_EQ(encode_ok(catalog(), "cycles{cpu/event=1/}", options).at(0).group_name, "cycles");
  }
  for (const EncodeOptions& options : {perf61, perf612}) {
    for (std::string_view spec :
         {"cycles{cpu/event=1/}", "u{cpu/event=1/}", "rab{cpu/event=1/}", "node{cpu/event=1/}"}) {
      const Diagnostic d = refused(spec, options);
      EXPECT_EQ(d.id, "spec-group-name") << spec;
      EXPECT_EQ(d.range.column, 1u) << spec;
    }
  }
  // Numbers and whole cache names only tie with 6.12's wider name rule.
  EXPECT_NE(refused("12{cpu/event=1/}", perf612).message.find("number"), std::string::npos);
  EXPECT_NE(refused("L1-dcache{cpu/event=1/}", perf612).message.find("cache"), std::string::npos);
  EXPECT_EQ(refused("loads{cpu/event=1/}", perf61).id, "spec-group-name");
  EXPECT_EQ(encode_ok(catalog(), "loads{cpu/event=1/}", perf612).size(), 1u);
  // Longer than the lexer's bounded rules: a name again.
  EXPECT_EQ(encode_ok(catalog(), "uuuuuuuuuuuuuuuuu{cpu/event=1/}", perf612).size(), 1u);
}

// perf 6.12 excludes the guest for a group's `p` even when the member chose `G`; 6.1 kept the
// member's choice. A group's own G still counts the guest in both.
TEST(GroupEncode, GroupPreciseExcludesTheGuestSince612) {
  EncodeOptions perf61;
  perf61.semantics = Profile::perf(PerfRelease::v6_1);
  EncodeOptions perf612;
  perf612.semantics = Profile::perf(PerfRelease::v6_12);
  auto leader = [&](std::string_view spec, const EncodeOptions& options) {
    return encode_ok(catalog(), spec, options).at(0).attr;
  };
  EXPECT_FALSE(leader("{cpu/event=1/G}:p", perf61).exclude_guest);
  EXPECT_TRUE(leader("{cpu/event=1/G}:p", perf61).exclude_host);
  for (const EncodeOptions& options : {EncodeOptions{}, perf612}) {
    EXPECT_TRUE(leader("{cpu/event=1/G}:p", options).exclude_guest);
    EXPECT_TRUE(leader("{cpu/event=1/G}:p", options).exclude_host);
    EXPECT_FALSE(leader("{cpu/event=1/}:pG", options).exclude_guest);
    EXPECT_FALSE(leader("{cpu/event=1/H}:pG", options).exclude_guest);
  }
}

TEST(GroupEncode, MemberPinnedStaysGroupPinnedOnlyOnLeader) {
  const auto events = encode_ok(catalog(), "{cpu/event=1/,cpu/event=2/D}:u");
  ASSERT_EQ(events.size(), 2u);
  EXPECT_FALSE(events[0].attr.pinned);
  EXPECT_TRUE(events[1].attr.pinned);  // its own D, as perf 6.1 leaves it
}

TEST(GroupEncode, StatDropsSampleRead) {
  EncodeOptions stat;
  stat.tool = Tool::stat;
  const auto events = encode_ok(catalog(), "{cpu/event=1/,cpu/event=9/}:S", stat);
  ASSERT_EQ(events.size(), 2u);
  EXPECT_EQ(events[1].attr.sample_type & sample::read, 0u);
}

TEST(GroupEncode, PreciseOverflowIsLocatedOnTheGroupModifiers) {
  auto events = encode(catalog(), "{cpu/event=1/ppp}:p");
  ASSERT_FALSE(events.has_value());
  EXPECT_EQ(events.error().id, "modifier-group-precise");
  EXPECT_EQ(events.error().range.column, 19u);
}

TEST(GroupEncode, MembersOnDifferentPmusShareOneLeader) {
  // perf 6.1 groups events of different PMUs as written (the kernel refuses to open them).
  EncodeOptions perf61;
  perf61.semantics = Profile::perf(PerfRelease::v6_1);
  const auto events = encode_ok(catalog(), "{cpu/event=1/,pmutest/krava01=1/}", perf61);
  ASSERT_EQ(events.size(), 2u);
  EXPECT_EQ(events[1].group_leader, 0u);
}

// perf 6.12 and later (and pmucat) split such a group: one group per PMU in PMU name order, a
// group of one left ungrouped, with perf's warning ("events were regrouped to match PMUs").
TEST(GroupEncode, PerfSince612SplitsAGroupByPmu) {
  const auto events = encode_ok(catalog(), "{pmutest/krava01=1/,cpu/event=1/,pmutest/krava01=2/}");
  ASSERT_EQ(events.size(), 3u);
  EXPECT_EQ(events[0].pmu, "cpu");
  EXPECT_FALSE(events[0].group_leader.has_value());
  EXPECT_EQ(events[1].pmu, "pmutest");
  EXPECT_EQ(events[1].group_leader, 1u);
  EXPECT_EQ(events[2].group_leader, 1u);
  EXPECT_EQ(events[2].attr.config[0], 2u);  // krava01 is config:0-1,62-63
  ASSERT_FALSE(events[0].warnings.empty());
  EXPECT_EQ(events[0].warnings.front().id, "events-regrouped");
}

// perf 6.1 splits a group of bare uncore event names of one block into one group per instance,
// members round-robin, `D` on every leader; with `pmu/alias/` (not a bare name) it does not.
TEST(GroupEncode, UncoreAliasGroupsSplitPerInstance) {
  const auto catalog =
      Catalog::open(std::string(PMUCAT_SOURCE_DIR) + "/fixtures/sysfs/intel-spr/devices");
  ASSERT_TRUE(catalog.has_value());
  EncodeOptions perf61;
  perf61.semantics = Profile::perf(PerfRelease::v6_1);
  const auto split = encode_ok(*catalog, "{cas_count_read,cas_count_write}:D", perf61);
  ASSERT_EQ(split.size(), 8u);  // uncore_imc_0..3, read then write
  for (std::size_t i = 0; i < 8; ++i) {
    EXPECT_EQ(split[i].group_leader, i % 4) << i;
    EXPECT_EQ(split[i].attr.pinned, i < 4) << i;
    EXPECT_EQ(split[i].pmu, split[i % 4].pmu);
  }
  const auto whole =
      encode_ok(*catalog, "{uncore_imc/cas_count_read/,uncore_imc/cas_count_write/}", perf61);
  ASSERT_EQ(whole.size(), 8u);
  for (const EncodedEvent& e : whole) EXPECT_EQ(e.group_leader, 0u);
  // One event alias alone: nothing to split, one group led by the first instance.
  const auto one = encode_ok(*catalog, "{cas_count_read}", perf61);
  ASSERT_EQ(one.size(), 4u);
  for (const EncodedEvent& e : one) EXPECT_EQ(e.group_leader, 0u);
  // perf 6.12 and 7.3 (and pmucat) sort the group by PMU and split it: uncore_imc_0's read and
  // write, then uncore_imc_1's, ...; `D` stays on the first leader only (perf 7.3.4: pinned=1 on
  // the first attr alone).
  // A group of one PMU pattern's events: each instance alone, ungrouped, and no warning (perf
  // 7.3.4 warns for no list that names PMUs by a pattern).
  for (const EncodedEvent& e : encode_ok(*catalog, "{uncore_imc/cas_count_read/}")) {
    EXPECT_FALSE(e.group_leader.has_value());
    EXPECT_TRUE(e.warnings.empty());
  }
  const auto sorted = encode_ok(*catalog, "{cas_count_read,cas_count_write}:D");
  ASSERT_EQ(sorted.size(), 8u);
  for (std::size_t i = 0; i < 8; ++i) {
    EXPECT_EQ(sorted[i].group_leader, i - i % 2) << i;
    EXPECT_EQ(sorted[i].pmu, "uncore_imc_" + std::to_string(i / 2)) << i;
    EXPECT_EQ(sorted[i].attr.config[0], i % 2 == 0 ? 0xcf05u : 0xf005u) << i;
    EXPECT_EQ(sorted[i].attr.pinned, i == 0) << i;
  }
}

TEST(GroupEncode, EncoderTakesOneMemberGroupsOnly) {
  Encoder encoder(catalog());
  Attr attr;
  ASSERT_TRUE(encoder.encode_one("{cpu/event=1/}:k", attr).has_value());
  const auto full = encode_ok(catalog(), "{cpu/event=1/}:k");
  ASSERT_EQ(full.size(), 1u);
  EXPECT_EQ(attr, full[0].attr);
  EXPECT_TRUE(attr.exclude_user);
  auto several = encoder.encode_one("{cpu/event=1/,cpu/event=2/}", attr);
  ASSERT_FALSE(several.has_value());
  EXPECT_EQ(several.error().id, "encode-several-attrs");
  // The simple shape after a group: no group left over from the last call.
  ASSERT_TRUE(encoder.encode_one("cpu/event=1/", attr).has_value());
  EXPECT_FALSE(attr.exclude_user);
}

// ---- property: a random list of groups and loose events round-trips through perf strings ----

std::string group_perf_string(const std::vector<EncodedEvent>& events, std::size_t leader) {
  std::string out = events[leader].group_name + "{";
  bool comma = false;
  for (const EncodedEvent& e : events) {
    if (e.group_leader != leader) continue;
    out += comma ? "," : "";
    out += e.perf_string;
    comma = true;
  }
  out += "}";
  if (!events[leader].group_modifiers.empty()) out += ":" + events[leader].group_modifiers;
  return out;
}

RC_GTEST_PROP(GroupProperty, GroupedListsRoundTripThroughPerfStrings, ()) {
  const char* const kMods[] = {"",  "u", "k", "uk", "p", "pp", "G",   "H",
                               "S", "D", "e", "W",  "I", "uD", "kpS", "uh"};
  // Per PMU: perf (since 6.12) splits a group that spans PMUs, and a split group's perf string
  // cannot say that only its first leader takes the group's modifiers, so a group's members are
  // of one PMU (GroupEncode.PerfSince612SplitsAGroupByPmu has the split).
  const std::vector<std::vector<const char*>> kEvents = {
      {"cpu/event=0x3c/", "cpu/event=0xc0,umask=1/", "cpu/cmask=2/"},
      {"pmutest/krava01=3/"},
      {"fakepmu/event=0x11/"}};
  std::size_t pmu = 0;
  auto event = [&] {
    const auto& of_pmu = kEvents[pmu];
    std::string text = of_pmu[*rc::gen::inRange<std::size_t>(0, of_pmu.size())];
    const std::string mod = kMods[*rc::gen::inRange<std::size_t>(0, 8)];  // member: no S/D/e
    if (!mod.empty()) text += mod;
    return text;
  };
  std::string spec;
  const int items = *rc::gen::inRange(1, 5);
  for (int i = 0; i < items; ++i) {
    if (!spec.empty()) spec += ',';
    pmu = *rc::gen::inRange<std::size_t>(0, kEvents.size());
    if (*rc::gen::arbitrary<bool>()) {
      if (*rc::gen::arbitrary<bool>()) spec += "g" + std::to_string(i);
      spec += '{';
      const int members = *rc::gen::inRange(1, 4);
      for (int m = 0; m < members; ++m) spec += (m ? "," : "") + event();
      spec += '}';
      const std::string mod = kMods[*rc::gen::inRange<std::size_t>(0, std::size(kMods))];
      if (!mod.empty()) spec += ":" + mod;
    } else {
      spec += event();
    }
  }
  auto events = encode(catalog(), spec);
  if (!events) {
    // Only the precise limit may fail (`p` in a member and `pp` on the group, ...).
    RC_ASSERT(events.error().id == std::string("modifier-group-precise"));
    return;
  }
  std::string canonical;
  for (std::size_t i = 0; i < events->size(); ++i) {
    const EncodedEvent& e = (*events)[i];
    if (e.group_leader && *e.group_leader != i) continue;
    if (!canonical.empty()) canonical += ',';
    canonical += e.group_leader ? group_perf_string(*events, i) : e.perf_string;
  }
  auto again = encode(catalog(), canonical);
  RC_ASSERT(again.has_value());
  RC_ASSERT(again->size() == events->size());
  for (std::size_t i = 0; i < events->size(); ++i) {
    RC_ASSERT((*again)[i].attr == (*events)[i].attr);
    RC_ASSERT((*again)[i].group_leader == (*events)[i].group_leader);
    RC_ASSERT((*again)[i].group_name == (*events)[i].group_name);
  }
}

}  // namespace
PMUCAT_END_NAMESPACE
