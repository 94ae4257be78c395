// Modifier and special-term effects on the attr, as perf 6.1 sets them (oracle runs with
// `perf stat -vv` / `perf record -vv` against the sample tree; tool defaults such as disabled,
// inherit, enable_on_exec, read_format, mmap or sample_freq=4000 are not part of the encoding).
#include <gtest/gtest.h>

#include "pmucat/encode.h"
#include "sample_tree.h"

PMUCAT_BEGIN_NAMESPACE
namespace {

Attr encode_one(std::string_view spec, Tool tool = Tool::stat,
                Profile semantics = Profile::perf(PerfRelease::v6_1)) {
  static const Catalog catalog = testing::sample_catalog();
  EncodeOptions options;
  options.tool = tool;
  options.semantics = semantics;
  auto encoded = encode(catalog, spec, options);
  EXPECT_TRUE(encoded.has_value()) << spec << ": " << (encoded ? "" : render(encoded.error()));
  if (!encoded || encoded->size() != 1) return Attr{};
  return encoded->front().attr;
}

std::string encode_error(std::string_view spec, Tool tool) {
  static const Catalog catalog = testing::sample_catalog();
  EncodeOptions options;
  options.tool = tool;
  auto encoded = encode(catalog, spec, options);
  EXPECT_FALSE(encoded.has_value()) << spec;
  return encoded ? "" : encoded.error().message;
}

struct ModifierRow {
  const char* modifiers;
  bool exclude_user, exclude_kernel, exclude_hv, exclude_host, exclude_guest;
  std::uint8_t precise_ip;
  bool exclude_idle, pinned, exclusive;
};

// Each row is what perf 6.1 printed for `fakepmu/foo/<modifiers>`.
const ModifierRow kModifierRows[] = {
    {"", false, false, false, false, true, 0, false, false, false},
    {"u", false, true, true, false, true, 0, false, false, false},
    {"k", true, false, true, false, false, 0, false, false, false},
    {"h", true, true, false, false, false, 0, false, false, false},
    {"uk", false, false, true, false, true, 0, false, false, false},
    {"ukh", false, false, false, false, true, 0, false, false, false},
    {"p", false, false, false, false, true, 1, false, false, false},
    {"ppp", false, false, false, false, true, 3, false, false, false},
    {"P", false, false, false, false, false, 0, false, false, false},
    {"G", false, false, false, true, false, 0, false, false, false},
    {"H", false, false, false, false, true, 0, false, false, false},
    {"GH", false, false, false, false, false, 0, false, false, false},
    {"uG", false, true, true, true, false, 0, false, false, false},
    {"Gu", false, true, true, true, false, 0, false, false, false},
    {"S", false, false, false, false, false, 0, false, false, false},
    {"D", false, false, false, false, false, 0, false, true, false},
    {"I", false, false, false, false, false, 0, true, false, false},
    {"W", false, false, false, false, false, 0, false, false, false},
    {"e", false, false, false, false, false, 0, false, false, true},
    {"b", false, false, false, false, false, 0, false, false, false},
};

TEST(ModifierBits, MatchPerf61ForEveryModifier) {
  for (const ModifierRow& row : kModifierRows) {
    for (const Profile semantics : {Profile::perf(PerfRelease::v6_1), Profile::pmucat()}) {
      // `W` outside a group: perf 6.1 ignores it, newer perf and pmucat reject it
      // (WeakModifierOutsideAGroup).
      if (semantics == Profile::pmucat() && std::string_view(row.modifiers) == "W") continue;
      const std::string spec = std::string("fakepmu/foo/") + row.modifiers;
      SCOPED_TRACE(spec);
      const Attr attr = encode_one(spec, Tool::stat, semantics);
      EXPECT_EQ(attr.exclude_user, row.exclude_user);
      EXPECT_EQ(attr.exclude_kernel, row.exclude_kernel);
      EXPECT_EQ(attr.exclude_hv, row.exclude_hv);
      EXPECT_EQ(attr.exclude_host, row.exclude_host);
      EXPECT_EQ(attr.exclude_guest, row.exclude_guest);
      EXPECT_EQ(attr.precise_ip, row.precise_ip);
      EXPECT_EQ(attr.exclude_idle, row.exclude_idle);
      EXPECT_EQ(attr.pinned, row.pinned);
      EXPECT_EQ(attr.exclusive, row.exclusive);
      EXPECT_EQ(attr.config[0], 0x13cu);
    }
  }
}

// perf 7.3 sets no guest/host bit by default nor for `u`/`p`: only G and H do (perf 7.3 on the
// sample tree: `fakepmu/foo/u` has no exclude_guest, `fakepmu/foo/H` has it). Its attr is 144
// bytes.
TEST(ModifierBits, Perf73ExcludesTheGuestOnlyForGOrH) {
  const Profile perf73 = Profile::perf(PerfRelease::v7_3);
  for (const ModifierRow& row : kModifierRows) {
    const std::string_view modifiers = row.modifiers;
    if (modifiers == "W") continue;  // outside a group: rejected (WeakModifierOutsideAGroup)
    const std::string spec = std::string("fakepmu/foo/") + row.modifiers;
    SCOPED_TRACE(spec);
    const Attr attr = encode_one(spec, Tool::stat, perf73);
    const bool guest_host = modifiers.find_first_of("GH") != std::string_view::npos;
    EXPECT_EQ(attr.exclude_guest, guest_host && row.exclude_guest);
    EXPECT_EQ(attr.exclude_host, row.exclude_host);
    EXPECT_EQ(attr.exclude_user, row.exclude_user);
    EXPECT_EQ(attr.precise_ip, row.precise_ip);
    EXPECT_EQ(attr.size, 144u);
  }
  const Catalog catalog = testing::sample_catalog();
  for (const char* spec : {"{fakepmu/foo/,cycles}:u", "{fakepmu/foo/,cycles}:p"}) {
    auto group = encode(catalog, spec, {perf73, Tool::stat, "", ""});
    ASSERT_TRUE(group.has_value()) << spec;
    for (const auto& event : *group) EXPECT_FALSE(event.attr.exclude_guest) << spec;
    // What perf 6.12 did: the group's `u` or `p` excludes the guest.
    auto old = encode(catalog, spec, {Profile::perf(PerfRelease::v6_12), Tool::stat, "", ""});
    ASSERT_TRUE(old.has_value()) << spec;
    for (const auto& event : *old) EXPECT_TRUE(event.attr.exclude_guest) << spec;
  }
}

TEST(ModifierBits, WeakModifierOutsideAGroup) {
  const Catalog catalog = testing::sample_catalog();
  for (const Profile semantics : {Profile::pmucat(), Profile::perf(PerfRelease::v6_12)}) {
    auto alone = encode(catalog, "fakepmu/foo/W", {semantics, Tool::stat, "", ""});
    ASSERT_FALSE(alone.has_value());
    EXPECT_EQ(alone.error().id, "modifier-weak-outside-group");
    EXPECT_TRUE(encode(catalog, "{fakepmu/foo/W,cycles}", {semantics, Tool::stat, "", ""}));
    EXPECT_TRUE(encode(catalog, "{fakepmu/foo/,cycles}:W", {semantics, Tool::stat, "", ""}));
  }
  EXPECT_TRUE(
      encode(catalog, "fakepmu/foo/W", {Profile::perf(PerfRelease::v6_1), Tool::stat, "", ""}));
}

TEST(ModifierBits, BareNameColonModifiers) {
  const Attr attr = encode_one("foo:u");
  EXPECT_TRUE(attr.exclude_kernel && attr.exclude_hv && attr.exclude_guest);
  EXPECT_FALSE(attr.exclude_user);
}

TEST(ModifierBits, SampleReadAddsReadToSampleType) {
  EXPECT_EQ(encode_one("fakepmu/foo/S", Tool::record).sample_type & sample::read, sample::read);
  EXPECT_EQ(encode_one("fakepmu/foo/", Tool::record).sample_type & sample::read, 0u);
  EXPECT_EQ(encode_one("fakepmu/foo/S", Tool::stat).sample_type, 0u);
}

TEST(RecordTerms, PeriodAndFreq) {
  Attr attr = encode_one("fakepmu/foo,period=1000/", Tool::record);
  EXPECT_EQ(attr.sample_period, 1000u);
  EXPECT_FALSE(attr.freq);
  EXPECT_EQ(attr.sample_type & sample::period, 0u);
  EXPECT_EQ(encode_one("fakepmu/per/", Tool::record).sample_period, 1000u);
  EXPECT_EQ(encode_one("fakepmu/per,period=5/", Tool::record).sample_period, 5u);
  attr = encode_one("fakepmu/foo,freq=100/", Tool::record);
  EXPECT_EQ(attr.sample_freq, 100u);
  EXPECT_TRUE(attr.freq);
  EXPECT_EQ(attr.sample_type & sample::period, sample::period);
  // perf stat accepts period but counts: no sampling period in its attr.
  EXPECT_EQ(encode_one("fakepmu/foo,period=1000/", Tool::stat).sample_period, 0u);
}

TEST(RecordTerms, TimeBit) {
  EXPECT_EQ(encode_one("fakepmu/foo,time=1/", Tool::record).sample_type & sample::time,
            sample::time);
  EXPECT_EQ(encode_one("fakepmu/foo,time/", Tool::record).sample_type & sample::time, sample::time);
  EXPECT_EQ(encode_one("fakepmu/foo,time=1,time=0/", Tool::record).sample_type & sample::time, 0u);
}

TEST(RecordTerms, CallGraphModes) {
  Attr attr = encode_one("fakepmu/foo,call-graph=fp/", Tool::record);
  EXPECT_EQ(attr.sample_type, sample::callchain);
  attr = encode_one("fakepmu/foo,call-graph=dwarf/", Tool::record);
  EXPECT_EQ(attr.sample_type, sample::addr | sample::callchain | sample::regs_user |
                                  sample::stack_user | sample::data_src);
  EXPECT_TRUE(attr.exclude_callchain_user);
  EXPECT_TRUE(attr.mmap_data);
  EXPECT_EQ(attr.sample_regs_user, 0xff0fffu);
  EXPECT_EQ(attr.sample_stack_user, 8192u);
  EXPECT_EQ(
      encode_one("fakepmu/foo,call-graph=dwarf,stack-size=4096/", Tool::record).sample_stack_user,
      4096u);
  attr = encode_one("fakepmu/foo,call-graph=lbr/", Tool::record);
  EXPECT_EQ(attr.sample_type, sample::callchain | sample::branch_stack);
  EXPECT_EQ(attr.branch_sample_type, branch::user | branch::call_stack | branch::no_flags |
                                         branch::no_cycles | branch::hw_index);
  EXPECT_EQ(encode_one("fakepmu/foo,call-graph=no/", Tool::record).sample_type, 0u);
  attr = encode_one("fakepmu/foo,max-stack=3/", Tool::record);
  EXPECT_EQ(attr.sample_max_stack, 3u);
  EXPECT_EQ(attr.sample_type, sample::callchain);
}

TEST(RecordTerms, BranchType) {
  Attr attr = encode_one("fakepmu/foo,branch_type=any/", Tool::record);
  EXPECT_EQ(attr.branch_sample_type, branch::any);
  EXPECT_EQ(attr.sample_type, sample::branch_stack);
  EXPECT_EQ(encode_one("fakepmu/foo,branch_type=any_call/", Tool::record).branch_sample_type,
            branch::any_call);
  EXPECT_EQ(encode_one("fakepmu/foo,branch_type=u/", Tool::record).branch_sample_type,
            branch::user | branch::any);
  attr = encode_one("fakepmu/foo,branch_type=no/", Tool::record);
  EXPECT_EQ(attr.branch_sample_type, 0u);
  EXPECT_EQ(attr.sample_type, 0u);
  attr = encode_one("fakepmu/foo,branch_type=any,period=5/", Tool::record);
  EXPECT_EQ(attr.sample_period, 5u);
  EXPECT_EQ(attr.sample_type, sample::branch_stack);
}

TEST(RecordTerms, FlagTerms) {
  EXPECT_TRUE(encode_one("fakepmu/foo,inherit/", Tool::record).inherit);
  EXPECT_TRUE(encode_one("fakepmu/foo,inherit=5/", Tool::record).inherit);
  EXPECT_FALSE(encode_one("fakepmu/foo,inherit,no-inherit/", Tool::record).inherit);
  EXPECT_FALSE(encode_one("fakepmu/foo,inherit=0/", Tool::record).inherit);
  EXPECT_TRUE(encode_one("fakepmu/foo,overwrite/", Tool::record).write_backward);
  EXPECT_FALSE(encode_one("fakepmu/foo,overwrite=0/", Tool::record).write_backward);
  EXPECT_FALSE(encode_one("fakepmu/foo,overwrite,no-overwrite/", Tool::record).write_backward);
  EXPECT_TRUE(encode_one("fakepmu/foo,aux-output/", Tool::record).aux_output);
  EXPECT_FALSE(encode_one("fakepmu/foo,aux-output=0/", Tool::record).aux_output);
  EXPECT_EQ(encode_one("fakepmu/foo,aux-sample-size=4096/", Tool::record).aux_sample_size, 4096u);
}

TEST(RecordTerms, SettingsKeptOutsideTheAttr) {
  static const Catalog catalog = testing::sample_catalog();
  EncodeOptions options;
  options.tool = Tool::record;
  auto encoded = encode(
      catalog, "fakepmu/foo,nr=5,percore=1,name=abc,metric-id=m1,@cfg,call-graph=fp/", options);
  ASSERT_TRUE(encoded.has_value()) << render(encoded.error());
  const EventSettings& settings = encoded->front().settings;
  EXPECT_EQ(settings.nr, 5u);
  EXPECT_EQ(settings.percore, 1u);
  EXPECT_EQ(settings.name, "abc");
  EXPECT_EQ(settings.metric_id, "m1");
  EXPECT_EQ(settings.call_graph, "fp");
  ASSERT_EQ(settings.driver_config.size(), 1u);
  EXPECT_EQ(settings.driver_config[0], "cfg");
}

TEST(SpecialTermErrors, PerfTypeErrors) {
  EXPECT_EQ(encode_error("fakepmu/foo,time=2/", Tool::record), "expected 0 or 1");
  EXPECT_EQ(encode_error("fakepmu/foo,percore=2/", Tool::record), "expected 0 or 1");
  EXPECT_EQ(encode_error("fakepmu/foo,period=abc/", Tool::record), "expected numeric value");
  EXPECT_EQ(encode_error("fakepmu/foo,stack-size=abc/", Tool::record), "expected numeric value");
  EXPECT_EQ(encode_error("fakepmu/foo,name=1/", Tool::record), "expected string value");
  EXPECT_EQ(encode_error("fakepmu/foo,period=10,freq=5/", Tool::stat),
            "'freq' is not usable in 'perf stat'");
  EXPECT_EQ(encode_error("fakepmu/foo,time/", Tool::stat), "'time' is not usable in 'perf stat'");
  EXPECT_EQ(encode_error("fakepmu/foo,inherit/", Tool::stat),
            "'inherit' is not usable in 'perf stat'");
  EXPECT_NE(encode_error("fakepmu/foo,aux-sample-size=0x100000000/", Tool::record).find("too big"),
            std::string::npos);
  EXPECT_NE(encode_error("fakepmu/foo,call-graph=xx/", Tool::record).find("call-graph"),
            std::string::npos);
  EXPECT_NE(encode_error("fakepmu/foo,branch_type=bogus/", Tool::record).find("branch type"),
            std::string::npos);
}

}  // namespace
PMUCAT_END_NAMESPACE
