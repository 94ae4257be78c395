// The grammar's forms beyond one PMU's terms, without the perf oracle: hybrid machines, built-in
// and raw events with hard-coded terms, and perf 6.1's fallback from a PMU that rejects the terms
// (the same cases run against perf 6.1 in tests/differential/grammar_differential_test.cpp).
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "pmucat/encode.h"
#include "sample_tree.h"

PMUCAT_BEGIN_NAMESPACE
namespace {

using testing::make_pmu;

// A core PMU of a hybrid machine: formats and events as make_pmu builds them, plus `cpus`.
Pmu core_pmu(const std::string& name, const std::string& type, const std::string& cpus,
             const std::vector<testing::NamedText>& events = {}) {
  const Pmu parsed =
      make_pmu(name, type, {{"event", "config:0-7"}, {"umask", "config:8-15"}}, events);
  PmuInfo info;
  info.name = name;
  info.attributes.type = static_cast<std::uint32_t>(std::stoul(type));
  info.attributes.type_text = type;
  info.attributes.cpus = CpuList{cpus, {0}};
  info.formats.assign(parsed.formats().begin(), parsed.formats().end());
  info.events.assign(parsed.events().begin(), parsed.events().end());
  return Pmu::from_info(std::move(info));
}

Catalog hybrid_catalog() {
  std::vector<Pmu> pmus;
  pmus.push_back(core_pmu("cpu_atom", "10", "16-23", {{"instructions", "event=0xc0"}}));
  pmus.push_back(core_pmu("cpu_core", "4", "0-15"));
  pmus.push_back(
      make_pmu("uncore_imc", "20", {{"event", "config:0-7"}}, {{"cycles", "event=0x1"}}));
  return Catalog::from_pmus(std::move(pmus));
}

EncodeOptions options_for(Profile semantics) {
  EncodeOptions options;
  options.semantics = semantics;
  return options;
}

std::vector<EncodedEvent> encode_ok(const Catalog& catalog, const std::string& spec,
                                    Profile semantics) {
  auto encoded = encode(catalog, spec, options_for(semantics));
  EXPECT_TRUE(encoded) << spec << ": " << (encoded ? "" : encoded.error().message);
  return encoded ? *encoded : std::vector<EncodedEvent>{};
}

// pmucat's own semantics build on perf 7.3 (PMUCAT_OWN_BASE): where a test pins what an older perf
// does, they accept or refuse what perf 7.3 does and open the same events.
void expect_pmucat_as_perf73(const Catalog& catalog, std::string_view spec,
                             EncodeOptions options = {}) {
  options.semantics = Profile::pmucat();
  auto ours = encode(catalog, spec, options);
  options.semantics = Profile::perf(PerfRelease::v7_3);
  auto perf = encode(catalog, spec, options);
  ASSERT_EQ(ours.has_value(), perf.has_value())
      << spec << ": " << (ours ? perf.error().message : ours.error().message);
  if (!ours) {
    EXPECT_EQ(ours.error().id, perf.error().id) << spec;
    return;
  }
  ASSERT_EQ(ours->size(), perf->size()) << spec;
  for (std::size_t i = 0; i < ours->size(); ++i) {
    EXPECT_EQ((*ours)[i].attr.type, (*perf)[i].attr.type) << spec;
    EXPECT_EQ((*ours)[i].attr.config, (*perf)[i].attr.config) << spec;
    EXPECT_EQ((*ours)[i].perf_string, (*perf)[i].perf_string) << spec;
  }
}

TEST(Hybrid, BuiltInEventsOncePerCorePmuWithTheExtendedType) {
  const Catalog catalog = hybrid_catalog();
  for (const char* spec : {"cycles:u", "L1-dcache-load-misses", "cs", "cpu_core/cycles/k", "r3c",
                           "cpu_atom/cs/", "cpu_core/cycles,period=1/", "instructions"}) {
    expect_pmucat_as_perf73(catalog, spec);
  }
  for (const Profile semantics : {Profile::perf(PerfRelease::v6_1)}) {
    const auto cycles = encode_ok(catalog, "cycles:u", semantics);
    ASSERT_EQ(cycles.size(), 2u);
    EXPECT_EQ(cycles[0].attr.type, 0u);
    EXPECT_EQ(cycles[0].attr.config[0], 0xa00000000u);
    EXPECT_EQ(cycles[0].perf_string, "cpu_atom/cycles/u");
    EXPECT_EQ(cycles[1].attr.config[0], 0x400000000u);
    EXPECT_TRUE(cycles[1].attr.exclude_kernel);
    const auto cache = encode_ok(catalog, "L1-dcache-load-misses", semantics);
    ASSERT_EQ(cache.size(), 2u);
    EXPECT_EQ(cache[1].attr.type, 3u);
    EXPECT_EQ(cache[1].attr.config[0], 0x400010000u);
    EXPECT_EQ(encode_ok(catalog, "cs", semantics).size(), 1u);
    const auto one = encode_ok(catalog, "cpu_core/cycles/k", semantics);
    ASSERT_EQ(one.size(), 1u);
    EXPECT_EQ(one[0].attr.config[0], 0x400000000u);
    EXPECT_EQ(one[0].perf_string, "cpu_core/cycles/k");
  }
  // perf 6.1: a raw event once per core PMU with its type, and a software name in a core PMU's
  // terms read as that event; perf 6.12: the raw event once, of the raw type (4), and `cs` no
  // term of cpu_atom.
  const auto raw = encode_ok(catalog, "r3c", Profile::perf(PerfRelease::v6_1));
  ASSERT_EQ(raw.size(), 2u);
  EXPECT_EQ(raw[0].attr.type, 10u);
  EXPECT_EQ(raw[1].attr.type, 4u);
  EXPECT_EQ(raw[1].attr.config[0], 0x3cu);
  const auto software = encode_ok(catalog, "cpu_atom/cs/", Profile::perf(PerfRelease::v6_1));
  ASSERT_EQ(software.size(), 1u);
  EXPECT_EQ(software[0].attr.type, 1u);
  for (const Profile semantics : {Profile::perf(PerfRelease::v6_12)}) {
    const auto once = encode_ok(catalog, "r3c", semantics);
    ASSERT_EQ(once.size(), 1u);
    EXPECT_EQ(once[0].attr.type, 4u);
    EXPECT_EQ(once[0].attr.config[0], 0x3cu);
    EXPECT_FALSE(encode(catalog, "cpu_atom/cs/", options_for(semantics)).has_value());
  }
  // A second term: an unknown term in perf 6.1; perf 6.12 reads `cycles` in the terms as the
  // legacy event of that PMU.
  EXPECT_FALSE(
      encode(catalog, "cpu_core/cycles,period=1/", options_for(Profile::perf(PerfRelease::v6_1)))
          .has_value());
  const auto with_period =
      encode_ok(catalog, "cpu_core/cycles,period=1/", Profile::perf(PerfRelease::v6_12));
  ASSERT_EQ(with_period.size(), 1u);
  EXPECT_EQ(with_period[0].attr.type, 0u);
  EXPECT_EQ(with_period[0].attr.config[0], 0x400000000u);
  // The legacy name stays in the perf string: `cpu_core/period=0x1/` would be another event.
  EXPECT_EQ(with_period[0].perf_string, "cpu_core/cycles,period=0x1/");
  // perf 6.1 takes the built-in `instructions` on both; pmucat (as perf 7.3) the sysfs event
  // cpu_atom has.
  const auto perf = encode_ok(catalog, "instructions", Profile::perf(PerfRelease::v6_1));
  ASSERT_EQ(perf.size(), 2u);
  EXPECT_EQ(perf[0].attr.config[0], 0xa00000001u);
  const auto ours = encode_ok(catalog, "instructions", Profile::pmucat());
  ASSERT_EQ(ours.size(), 2u);
  EXPECT_EQ(ours[0].attr.type, 10u);
  EXPECT_EQ(ours[0].attr.config[0], 0xc0u);
  EXPECT_EQ(ours[1].attr.config[0], 0x400000001u);
}

// perf 6.12 asks the kernel whether it takes extended types (EncodeOptions::extended_type);
// measured on a kernel without them (HybridDiff.* against perf 6.12 on this project's VM): a
// hardware event once without a PMU type, a cache event once per core PMU without one, a legacy
// term of a core PMU without one. perf 6.1 never asks.
TEST(Hybrid, WithoutExtendedTypesLegacyEventsCarryNoPmuType) {
  const Catalog catalog = hybrid_catalog();
  EncodeOptions unsupported;
  unsupported.extended_type = ExtendedType::unsupported;
  for (const char* spec : {"cycles:u", "L1-dcache-load-misses", "cpu_core/cycles/"}) {
    expect_pmucat_as_perf73(catalog, spec, unsupported);
  }
  for (const Profile semantics : {Profile::perf(PerfRelease::v6_12)}) {
    EncodeOptions options = options_for(semantics);
    options.extended_type = ExtendedType::unsupported;
    auto encoded = [&](std::string_view spec) {
      auto events = encode(catalog, spec, options);
      EXPECT_TRUE(events.has_value()) << spec;
      return events ? *events : std::vector<EncodedEvent>{};
    };
    const auto cycles = encoded("cycles:u");
    ASSERT_EQ(cycles.size(), 1u);
    EXPECT_EQ(cycles[0].attr.type, 0u);
    EXPECT_EQ(cycles[0].attr.config[0], 0u);
    const auto cache = encoded("L1-dcache-load-misses");
    ASSERT_EQ(cache.size(), 2u);
    EXPECT_EQ(cache[0].attr.config[0], 0x10000u);
    EXPECT_EQ(cache[1].attr.config[0], 0x10000u);
    EXPECT_EQ(cache[0].perf_string, "cpu_atom/L1-dcache-load-misses/");
    const auto term = encoded("cpu_core/cycles/");
    ASSERT_EQ(term.size(), 1u);
    EXPECT_EQ(term[0].attr.config[0], 0u);
  }
  EncodeOptions perf61 = options_for(Profile::perf(PerfRelease::v6_1));
  perf61.extended_type = ExtendedType::unsupported;
  EXPECT_EQ(encode(catalog, "cycles", perf61)->size(), 2u);
  // A tree with one core PMU needs no question.
  EXPECT_EQ(probe_extended_type(Catalog::from_pmus({})), ExtendedType::unsupported);
}

// perf 7.3 (measured on this project's VM, a kernel without extended types): a bare hardware name
// is the core PMU's own event of that name where it has one, else the legacy event, once per core
// PMU; perf 6.12 took the legacy event once.
TEST(Hybrid, Perf73LegacyNamesPreferEachCorePmusOwnEvent) {
  const Catalog catalog = hybrid_catalog();
  EncodeOptions options = options_for(Profile::perf(PerfRelease::v7_3));
  options.extended_type = ExtendedType::unsupported;
  auto instructions = encode(catalog, "instructions", options);
  ASSERT_TRUE(instructions.has_value());
  ASSERT_EQ(instructions->size(), 2u);
  EXPECT_EQ((*instructions)[0].attr.type, 10u);
  EXPECT_EQ((*instructions)[0].attr.config[0], 0xc0u);
  EXPECT_EQ((*instructions)[1].attr.type, 0u);
  EXPECT_EQ((*instructions)[1].attr.config[0], 1u);
  auto cycles = encode(catalog, "cycles:u", options);
  ASSERT_TRUE(cycles.has_value());
  ASSERT_EQ(cycles->size(), 2u);
  for (const EncodedEvent& event : *cycles) {
    EXPECT_EQ(event.attr.type, 0u);
    EXPECT_EQ(event.attr.config[0], 0u);
    EXPECT_FALSE(event.attr.exclude_guest);
  }
  options.semantics = Profile::perf(PerfRelease::v6_12);
  auto old = encode(catalog, "instructions", options);
  ASSERT_TRUE(old.has_value());
  ASSERT_EQ(old->size(), 1u);
  EXPECT_EQ((*old)[0].attr.type, 0u);
  EXPECT_EQ((*old)[0].attr.config[0], 1u);
}

// Cache names in lower case, measured with perf 6.1 and 6.12 on intel-adl-hybrid and intel-spr
// (HybridDiff.*, LegacyTermsDiff.*): `l1-dcache-load-misses` is no event of either (6.1: the
// lexer reads the cache type `l1-d`, then `cache` is a parser error; 6.12: "Bad event name"),
// also as a PMU's term; `l1-d` and `l1d-loads` are 6.1's spellings of L1D read accesses.
TEST(Hybrid, LowerCaseCacheNamesAsPerfReadsThem) {
  const Catalog catalog = hybrid_catalog();
  for (const Profile semantics :
       {Profile::perf(PerfRelease::v6_1), Profile::perf(PerfRelease::v6_12)}) {
    for (const char* spec : {"l1-dcache-load-misses", "l1-dcache-load-misses:u", "l1-dcache-loads",
                             "cpu_core/l1-dcache-load-misses/", "cpu_atom/l1-dcache-loads/"}) {
      EXPECT_FALSE(encode(catalog, spec, options_for(semantics)).has_value()) << spec;
    }
  }
  // perf 7.3's cache names are any case (builtin_names_any_case), and pmucat's with it.
  for (const char* spec : {"l1-dcache-load-misses", "l1-dcache-load-misses:u", "l1-dcache-loads",
                           "cpu_core/l1-dcache-load-misses/", "cpu_atom/l1-dcache-loads/", "l1-d",
                           "l1d-loads", "L1-dcache-load-misses"}) {
    expect_pmucat_as_perf73(catalog, spec);
  }
  for (const Profile semantics : {Profile::perf(PerfRelease::v6_1)}) {
    for (const char* spec : {"l1-d", "l1d-loads"}) {
      const auto events = encode_ok(catalog, spec, semantics);
      ASSERT_EQ(events.size(), 2u) << spec;
      EXPECT_EQ(events[0].attr.type, 3u);
      EXPECT_EQ(events[0].attr.config[0], 0xa00000000u) << spec;
      EXPECT_EQ(events[1].attr.config[0], 0x400000000u) << spec;
    }
    const auto misses = encode_ok(catalog, "L1-dcache-load-misses", semantics);
    ASSERT_EQ(misses.size(), 2u);
    EXPECT_EQ(misses[0].attr.config[0], 0xa00010000u);
  }
}

// perf 6.1 warns when a group's events count on different hybrid core PMUs.
TEST(Hybrid, GroupAcrossCorePmusWarnsOnTheLeader) {
  const Catalog catalog = hybrid_catalog();
  const auto mixed = encode_ok(catalog, "{cycles,cs}", Profile::perf(PerfRelease::v6_1));
  ASSERT_EQ(mixed.size(), 3u);
  ASSERT_EQ(mixed[0].warnings.size(), 1u);
  EXPECT_EQ(mixed[0].warnings[0].id, "group-hybrid-pmus");
  const auto one = encode_ok(catalog, "{cpu_core/cycles/,cpu_core/event=0xc0/}",
                             Profile::perf(PerfRelease::v6_1));
  ASSERT_EQ(one.size(), 2u);
  EXPECT_TRUE(one[0].warnings.empty());
}

TEST(BuiltInTerms, ConfigTermReplacesAndSpecialTermsApply) {
  const Catalog catalog = testing::extended_catalog();
  EncodeOptions stat;
  stat.tool = Tool::stat;
  for (const char* spec : {"instructions/config=2,period=1000/u", "L1-dcache-loads/name=loads/",
                           "cycles//", "cycles/umask=1/", "duration_time/period=1/"}) {
    expect_pmucat_as_perf73(catalog, spec, stat);
  }
  for (const Profile semantics : {Profile::perf(PerfRelease::v6_1)}) {
    auto events = encode_ok(catalog, "instructions/config=2,period=1000/u", semantics);
    ASSERT_EQ(events.size(), 1u);
    EXPECT_EQ(events[0].attr.type, 0u);
    EXPECT_EQ(events[0].attr.config[0], 2u);
    EXPECT_EQ(events[0].attr.sample_period, 1000u);
    EXPECT_EQ(events[0].perf_string, "instructions/config=0x2,period=0x3e8/u");
    events = encode_ok(catalog, "L1-dcache-loads/name=loads/", semantics);
    ASSERT_EQ(events.size(), 1u);
    EXPECT_EQ(events[0].attr.type, 3u);
    EXPECT_EQ(events[0].settings.name, "loads");
    events = encode_ok(catalog, "cycles//", semantics);
    ASSERT_EQ(events.size(), 1u);
    EXPECT_EQ(events[0].perf_string, "cycles");
    auto unknown = encode(catalog, "cycles/umask=1/", options_for(semantics));
    ASSERT_FALSE(unknown.has_value());
    EXPECT_EQ(unknown.error().message, "unknown term 'umask' for event 'cycles'");
    auto tool = encode(catalog, "duration_time/period=1/", options_for(semantics));
    ASSERT_FALSE(tool.has_value());
    EXPECT_EQ(tool.error().id, "event-tool-terms");
  }
}

// A built-in name is no term of a built-in event: perf 6.12 rejects `bpu/bus-cycles/` ("valid
// terms: config,..."), and perf 7.3 has no such event. (pmucat once took it as `bus-cycles` and
// printed `bpu`, another event: the spec fuzzer's perf-string check caught it.)
TEST(BuiltInTerms, BuiltInNameIsNoTermOfABuiltInEvent) {
  const Catalog catalog = testing::extended_catalog();
  for (const Profile semantics : {Profile::perf(PerfRelease::v6_12)}) {
    for (const char* spec : {"bpu/bus-cycles/ppp", "L1-dcache/cycles/", "branch/bus-cycles/"}) {
      auto encoded = encode(catalog, spec, options_for(semantics));
      ASSERT_FALSE(encoded.has_value()) << spec;
      EXPECT_EQ(encoded.error().id, "term-unknown") << spec;
    }
  }
  for (const char* spec : {"bpu/bus-cycles/ppp", "L1-dcache/cycles/", "branch/bus-cycles/"}) {
    expect_pmucat_as_perf73(catalog, spec);
  }
}

// perf assigns a PMU's terms in order: `cpu/config=2,cycles/` counts cycles (config 0) and
// `cpu/cycles,config=2/` config 2 (perf 6.12 and 7.3 on fixtures/sysfs/intel-spr). The replaced
// term changes nothing, so it gets a warning.
TEST(BuiltInTerms, LegacyTermAfterConfigReplacesIt) {
  const Catalog catalog = testing::extended_catalog();
  for (const Profile semantics :
       {Profile::perf(PerfRelease::v6_12), Profile::perf(PerfRelease::v7_3), Profile::pmucat()}) {
    auto later = encode_ok(catalog, "cpu/config=2,cycles/", semantics);
    ASSERT_EQ(later.size(), 1u);
    EXPECT_EQ(later[0].attr.type, 0u);
    EXPECT_EQ(later[0].attr.config[0], 0u);
    ASSERT_EQ(later[0].warnings.size(), 1u);
    EXPECT_EQ(later[0].warnings[0].id, "term-overridden");
    EXPECT_EQ(later[0].perf_string, "cpu/cycles/");
    auto earlier = encode_ok(catalog, "cpu/cycles,config=2/", semantics);
    ASSERT_EQ(earlier.size(), 1u);
    EXPECT_EQ(earlier[0].attr.config[0], 2u);
    EXPECT_TRUE(earlier[0].warnings.empty());
  }
}

// perf 7.3 keeps a built-in event's config over a `config=` term (`cycles/config=2/` counts
// cycles, `L1-dcache/config=2/` L1-dcache loads, `cpu-clock/config=2/` cpu-clock), where 6.12
// took the term; the other terms still apply. Under 7.3 the ignored term gets a warning.
TEST(BuiltInTerms, Perf73KeepsTheBuiltInEventsConfig) {
  const Catalog catalog = testing::extended_catalog();
  struct Case {
    const char* spec;
    std::uint32_t type;
    std::uint64_t config;
  };
  for (const Case& c :
       {Case{"cycles/config=2/", 0, 0}, Case{"L1-dcache/config=2/", 3, 0},
        Case{"L1-dcache-load-misses/config=2/", 3, 0x10000}, Case{"cpu-clock/config=2/", 1, 0}}) {
    auto kept = encode_ok(catalog, c.spec, Profile::perf(PerfRelease::v7_3));
    ASSERT_EQ(kept.size(), 1u) << c.spec;
    EXPECT_EQ(kept[0].attr.type, c.type) << c.spec;
    EXPECT_EQ(kept[0].attr.config[0], c.config) << c.spec;
    ASSERT_EQ(kept[0].warnings.size(), 1u) << c.spec;
    EXPECT_EQ(kept[0].warnings[0].id, "term-overridden") << c.spec;
    auto taken = encode_ok(catalog, c.spec, Profile::perf(PerfRelease::v6_12));
    ASSERT_EQ(taken.size(), 1u) << c.spec;
    EXPECT_EQ(taken[0].attr.config[0], 2u) << c.spec;
    EXPECT_TRUE(taken[0].warnings.empty()) << c.spec;
  }
  auto config1 = encode_ok(catalog, "cycles/config1=2/", Profile::perf(PerfRelease::v7_3));
  ASSERT_EQ(config1.size(), 1u);
  EXPECT_EQ(config1[0].attr.config[1], 2u);
  EXPECT_TRUE(config1[0].warnings.empty());
  // A raw event's config is the term's, as in 6.12.
  auto raw = encode_ok(catalog, "r3c/config=5/", Profile::perf(PerfRelease::v7_3));
  ASSERT_EQ(raw.size(), 1u);
  EXPECT_EQ(raw[0].attr.config[0], 5u);
  EXPECT_TRUE(raw[0].warnings.empty());
}

// perf 7.3 reads a hardware or cache name with terms as the core PMU's `terms,NAME` (one core
// PMU): its format fields apply (`cycles/event=0x3c/` is `type=0 config=0x3c`,
// `L1-dcache-load-misses/event=0x3c/` `type=3 config=0x1003c`), which perf 6.12 rejects; and a
// tool event takes the hard-coded terms (`duration_time/period=1/`: the tool PMU's attr).
TEST(BuiltInTerms, Perf73TakesTheCorePmusFieldsAndToolEventTerms) {
  const Catalog catalog = testing::extended_catalog();
  const Profile perf73 = Profile::perf(PerfRelease::v7_3);
  struct Case {
    const char* spec;
    std::uint32_t type;
    std::uint64_t config;
  };
  EncodeOptions stat = options_for(perf73);
  stat.tool = Tool::stat;
  for (const Case& c :
       {Case{"cycles/event=0x3c/", 0, 0x3c}, Case{"L1-dcache-load-misses/event=0x3c/", 3, 0x1003c},
        Case{"cycles/umask=1,period=5/", 0, 0x100},
        Case{"duration_time/period=1/", 0xfffffffe, 1}}) {
    auto encoded = encode(catalog, c.spec, stat);
    ASSERT_TRUE(encoded.has_value()) << c.spec << ": " << encoded.error().message;
    ASSERT_EQ(encoded->size(), 1u) << c.spec;
    EXPECT_EQ(encoded->front().attr.type, c.type) << c.spec;
    EXPECT_EQ(encoded->front().attr.config[0], c.config) << c.spec;
    auto again = encode(catalog, encoded->front().perf_string, stat);
    ASSERT_TRUE(again.has_value()) << encoded->front().perf_string;
    EXPECT_EQ(again->front().attr, encoded->front().attr) << encoded->front().perf_string;
  }
  const EncodeOptions perf612 = options_for(Profile::perf(PerfRelease::v6_12));
  auto fields = encode(catalog, "cycles/event=0x3c/", perf612);
  ASSERT_FALSE(fields.has_value());
  EXPECT_EQ(fields.error().id, "term-unknown");
  auto tool = encode(catalog, "duration_time/period=1/", perf612);
  ASSERT_FALSE(tool.has_value());
  EXPECT_EQ(tool.error().id, "event-tool-terms");
}

// config4 (perf 7.2.13 and 7.3.4 with ../shared/tools/peo.c on intel-spr plus formats
// x3 = config3:0-7 and x4 = config4:0-7): `cpu/event=0xc0,x3=5,x4=7/` sends size 144, config3 0x5,
// config4 0x7; `config4=0x123` sets the whole word. perf 6.12 has no config4: "unknown term".
TEST(NewTerms, Config4FromPerf72) {
  std::vector<Pmu> pmus;
  pmus.push_back(testing::make_pmu(
      "c4pmu", "45\n",
      {{"event", "config:0-7\n"}, {"x3", "config3:0-7\n"}, {"x4", "config4:0-7\n"}}, {}));
  const Catalog catalog = Catalog::from_pmus(std::move(pmus));
  for (PerfRelease release : {PerfRelease::v7_2, PerfRelease::v7_3}) {
    const EncodeOptions options = options_for(Profile::perf(release));
    auto fields = encode(catalog, "c4pmu/event=0xc0,x3=5,x4=7/", options);
    ASSERT_TRUE(fields.has_value()) << fields.error().message;
    EXPECT_EQ(fields->front().attr.size, kAttrSizeVer9);
    EXPECT_EQ(fields->front().attr.config, (ConfigWords{0xc0, 0, 0, 5, 7}));
    auto word = encode(catalog, "c4pmu/event=0xc0,config4=0x123,config3=9/", options);
    ASSERT_TRUE(word.has_value()) << word.error().message;
    EXPECT_EQ(word->front().attr.config, (ConfigWords{0xc0, 0, 0, 9, 0x123}));
    // The perf string names config4 and encodes to the same attr.
    auto again = encode(catalog, word->front().perf_string, options);
    ASSERT_TRUE(again.has_value()) << word->front().perf_string;
    EXPECT_EQ(again->front().attr, word->front().attr);
  }
  for (const char* spec : {"c4pmu/event=0xc0,x3=5,x4=7/", "c4pmu/event=0xc0,config4=1/"}) {
    expect_pmucat_as_perf73(catalog, spec);
  }
  for (const Profile older : {Profile::perf(PerfRelease::v6_12)}) {
    auto term = encode(catalog, "c4pmu/event=0xc0,config4=1/", options_for(older));
    ASSERT_FALSE(term.has_value());
    EXPECT_EQ(term.error().id, "term-unknown");
    auto field = encode(catalog, "c4pmu/x4=1/", options_for(older));
    ASSERT_FALSE(field.has_value());
    EXPECT_EQ(field.error().id, "term-unsupported-word");
  }
}

// Values lexed as names (perf 6.1.x, 6.12.118 and 7.3.4 on fixtures/sysfs/intel-spr): from 6.12
// a value that starts with a digit and goes on with name bytes is a name (`name=0-1`, perf 7.3's
// unquoted CPU list `cpu=0-1`); 7.3 also takes ':' in it; a bracket starts a name in every release;
// a number where a name is expected, or a name where a number is, is still refused.
TEST(NewTerms, DigitLedValuesAreNamesFromPerf612) {
  const Catalog catalog = testing::extended_catalog();
  struct Case {
    const char* spec;
    bool perf61, perf612, perf73;
  };
  for (const Case& c : {
           Case{"cpu/event=0x3c,name=0-1/", false, true, true},
           Case{"cpu/event=0x3c,name=[a]/", true, true, true},
           Case{"cpu/event=0x3c,name=1a:b!c/", false, false, true},
           Case{"cpu/event=0x3c,name=0X3c/", false, true, true},
           Case{"cpu/event=0x3c,cpu=0-1/", false, false, true},
           Case{"cpu/event=12abc/", false, false, false},
           Case{"cpu/event=0x3cg/", false, false, false},
           Case{"cpu/event=0x3c,umask=0-1/", false, false, false},
           Case{"cpu/event=0x3c,period=0-1/", false, false, false},
           Case{"cpu/event=0x3c,name=12/", false, false, false},
       }) {
    for (const auto& [release, accepted] :
         {std::pair{PerfRelease::v6_1, c.perf61}, std::pair{PerfRelease::v6_12, c.perf612},
          std::pair{PerfRelease::v7_3, c.perf73}}) {
      EncodeOptions options = options_for(Profile::perf(release));
      options.tool = Tool::stat;
      auto encoded = encode(catalog, c.spec, options);
      ASSERT_EQ(encoded.has_value(), accepted) << c.spec << " " << to_string(release);
      if (!encoded) continue;
      EXPECT_EQ(encoded->front().attr.config[0], 0x3cu) << c.spec;
      auto again = encode(catalog, encoded->front().perf_string, options);
      ASSERT_TRUE(again.has_value()) << encoded->front().perf_string;
      EXPECT_EQ(again->front().attr, encoded->front().attr);
      EXPECT_EQ(again->front().perf_string, encoded->front().perf_string);
    }
  }
  auto cpus =
      encode(catalog, "cpu/event=0x3c,cpu=0-1/", options_for(Profile::perf(PerfRelease::v7_3)));
  ASSERT_TRUE(cpus.has_value());
  ASSERT_EQ(cpus->front().settings.special_terms.size(), 1u);
  EXPECT_EQ(cpus->front().settings.special_terms[0].text, "0-1");
  // `0X3c` is a name to perf 6.12's lexer and a number to no perf: the error offers the
  // lowercase prefix.
  auto upper = encode(catalog, "cpu/event=0X3c/", options_for(Profile::pmucat()));
  ASSERT_FALSE(upper.has_value());
  ASSERT_TRUE(upper.error().fixit.has_value());
  EXPECT_EQ(upper.error().fixit->replacement, "0x3c");
  // The same wherever a number belongs: a field, a numeric special term.
  for (const auto& [spec, fix] : {std::pair{"cpu/event=0x3c,umask=0X1/", "0x1"},
                                  std::pair{"cpu/event=0x3c,period=0X10/", "0x10"}}) {
    auto refused = encode(catalog, spec, options_for(Profile::pmucat()));
    ASSERT_FALSE(refused.has_value()) << spec;
    EXPECT_EQ(refused.error().id, "term-type") << spec;
    ASSERT_TRUE(refused.error().fixit.has_value()) << spec;
    EXPECT_EQ(refused.error().fixit->replacement, fix) << spec;
  }
}

// perf 7.3's new terms (perf 7.3.4 on fixtures/sysfs/intel-spr): `cpu=` (a number, a quoted CPU
// list, a PMU's name) leaves the attr alone and is usable in perf stat; `ratio-to-prev` takes a
// string, a positive number (`=2`: "expected string value", `=x`: "zero or negative"), and
// `aux-action` one of three actions, both refused by perf stat. perf 6.12 knows none of them.
TEST(NewTerms, Perf73CpuRatioToPrevAndAuxAction) {
  const Catalog catalog = testing::extended_catalog();
  const Profile perf73 = Profile::perf(PerfRelease::v7_3);
  auto stat = [&](Profile semantics) {
    EncodeOptions options = options_for(semantics);
    options.tool = Tool::stat;
    return options;
  };
  for (const char* spec : {"cpu/event=0x3c,cpu=0/", "cpu/event=0x3c,cpu=cpu/",
                           "cpu/event=0x3c,cpu='0-1'/", "cpu/event=0x3c,cpu/"}) {
    auto with_cpu = encode(catalog, spec, stat(perf73));
    ASSERT_TRUE(with_cpu.has_value()) << spec << ": " << with_cpu.error().message;
    ASSERT_EQ(with_cpu->size(), 1u);
    EXPECT_EQ(with_cpu->front().attr.type, 4u) << spec;
    EXPECT_EQ(with_cpu->front().attr.config[0], 0x3cu) << spec;
    ASSERT_EQ(with_cpu->front().settings.special_terms.size(), 1u) << spec;
    EXPECT_EQ(with_cpu->front().settings.special_terms[0].name, "cpu") << spec;
    // The perf string keeps the restriction and encodes to the same attr.
    auto again = encode(catalog, with_cpu->front().perf_string, stat(perf73));
    ASSERT_TRUE(again.has_value()) << with_cpu->front().perf_string;
    EXPECT_EQ(again->front().attr, with_cpu->front().attr);
    expect_pmucat_as_perf73(catalog, spec, stat(Profile::pmucat()));
    for (const Profile older : {Profile::perf(PerfRelease::v6_12)}) {
      auto unknown = encode(catalog, spec, stat(older));
      ASSERT_FALSE(unknown.has_value()) << spec;
      EXPECT_EQ(unknown.error().id, "term-unknown") << spec;
    }
  }
  struct Refusal {
    const char* spec;
    Tool tool;
    const char* id;
    const char* message;
  };
  for (const Refusal& r : {
           Refusal{"cpu/event=0x3c,cpu='a+b'/", Tool::stat, "term-type",
                   "not a valid PMU or CPU number"},
           Refusal{"cpu/event=0x3c,ratio-to-prev=2/", Tool::stat, "term-type",
                   "expected string value"},
           Refusal{"cpu/event=0x3c,ratio-to-prev=x/", Tool::record, "term-type",
                   "zero or negative"},
           Refusal{"cpu/event=0x3c,ratio-to-prev='2'/", Tool::stat, "term-not-in-stat",
                   "'ratio-to-prev' is not usable in 'perf stat'"},
           Refusal{"cpu/event=0x3c,aux-action=pause/", Tool::stat, "term-not-in-stat",
                   "'aux-action' is not usable in 'perf stat'"},
           Refusal{"cpu/event=0x3c,aux-action=bogus/", Tool::record, "term-type",
                   "bad aux-action 'bogus' (expected start-paused, pause or resume)"},
           Refusal{"cpu/event=0x3c,aux-action=bogus/", Tool::stat, "term-not-in-stat",
                   "'aux-action' is not usable in 'perf stat'"},
           // Accepted by perf record, which then changes other attrs of the group.
           Refusal{"cpu/event=0x3c,ratio-to-prev='2'/", Tool::record, "term-not-modelled", ""},
           Refusal{"cpu/event=0x3c,aux-action=pause/", Tool::record, "term-not-modelled", ""},
       }) {
    EncodeOptions options = options_for(perf73);
    options.tool = r.tool;
    auto refused = encode(catalog, r.spec, options);
    ASSERT_FALSE(refused.has_value()) << r.spec;
    EXPECT_EQ(refused.error().id, r.id) << r.spec;
    if (*r.message != '\0') {
      EXPECT_EQ(refused.error().message, r.message) << r.spec;
    }
  }
}

Catalog fallback_catalog() {
  std::vector<Pmu> pmus;
  pmus.push_back(make_pmu("fake", "42", {{"event", "config:0-7"}}, {}));
  pmus.push_back(
      make_pmu("fake10", "43", {{"event", "config:0-15"}, {"umask", "config:16-23"}}, {}));
  pmus.push_back(make_pmu("fake_2", "44", {{"event", "config:0-7"}}, {}));
  pmus.push_back(make_pmu("fakeq", "45", {{"event", "config:0-7"}, {"umask", "config:8-15"}}, {}));
  return Catalog::from_pmus(std::move(pmus));
}

TEST(PerfFallback, RejectingPmuRetriesOnNumberedNamesakes) {
  const Catalog catalog = fallback_catalog();
  const auto perf = encode_ok(catalog, "fake/event=1,umask=2/", Profile::perf(PerfRelease::v6_1));
  ASSERT_EQ(perf.size(), 1u);
  EXPECT_EQ(perf[0].pmu, "fake10");
  EXPECT_EQ(perf[0].attr.config[0], 0x20001u);
  const auto wide = encode_ok(catalog, "fake/event=0x1ff/", Profile::perf(PerfRelease::v6_1));
  ASSERT_EQ(wide.size(), 1u);
  EXPECT_EQ(wide[0].pmu, "fake10");
  // Accepted by the PMU itself: no fallback.
  EXPECT_EQ(encode_ok(catalog, "fake/event=1/", Profile::perf(PerfRelease::v6_1)).size(), 1u);
  // pmucat semantics: the error, with a note naming the PMU perf would have used.
  auto ours = encode(catalog, "fake/event=1,umask=2/");
  ASSERT_FALSE(ours.has_value());
  EXPECT_EQ(ours.error().id, "term-unknown");
  ASSERT_EQ(ours.error().notes.size(), 1u);
  EXPECT_NE(ours.error().notes[0].message.find("fake10"), std::string::npos);
  EXPECT_EQ(ours.error().notes[0].message.find("fakeq"), std::string::npos);
  // Nothing accepts it: perf's error for the PMU named, in both semantics, without a note.
  auto none = encode(catalog, "fake/bogus=1/", options_for(Profile::perf(PerfRelease::v6_1)));
  ASSERT_FALSE(none.has_value());
  EXPECT_TRUE(none.error().notes.empty());
}

// `TYPE:CONFIG` events as perf 6.1 reads them; pmucat semantics refuse a type above 32 bits,
// which perf truncates.
TEST(NumericEvents, TypeAndConfigAsNumbers) {
  const Catalog catalog = testing::extended_catalog();
  for (const Profile semantics : {Profile::perf(PerfRelease::v6_1), Profile::pmucat()}) {
    auto events = encode_ok(catalog, "4:0x3c:u", semantics);
    ASSERT_EQ(events.size(), 1u);
    EXPECT_EQ(events[0].attr.type, 4u);
    EXPECT_EQ(events[0].attr.config[0], 0x3cu);
    EXPECT_TRUE(events[0].attr.exclude_kernel);
    EXPECT_EQ(events[0].perf_string, "4:0x3c:u");
    events = encode_ok(catalog, "1:3/period=1000/", semantics);
    ASSERT_EQ(events.size(), 1u);
    EXPECT_EQ(events[0].attr.sample_period, 1000u);
    EXPECT_EQ(events[0].attr.config[0], 3u);
    auto bad = encode(catalog, "4:", options_for(semantics));
    ASSERT_FALSE(bad.has_value());
    EXPECT_EQ(bad.error().id, "spec-numeric-event");
  }
  const auto perf = encode_ok(catalog, "99999999999:1", Profile::perf(PerfRelease::v6_1));
  ASSERT_EQ(perf.size(), 1u);
  EXPECT_EQ(perf[0].attr.type, 1215752191u);
  auto ours = encode(catalog, "99999999999:1");
  ASSERT_FALSE(ours.has_value());
  EXPECT_EQ(ours.error().id, "numeric-type-range");
}

// The Encoder's single-pass scanner reuses the last parse's event: nothing of a group, a
// breakpoint or a numeric event may leak into the next spec.
TEST(EncoderReuse, NothingOfTheLastSpecLeaksIntoTheNext) {
  const Catalog catalog = testing::extended_catalog();
  Encoder encoder(catalog);
  Attr attr;
  ASSERT_TRUE(encoder.encode_one("{cpu/event=0x1/}:u", attr).has_value());
  EXPECT_TRUE(attr.exclude_kernel);
  ASSERT_TRUE(encoder.encode_one("cpu/event=0x2/", attr).has_value());
  EXPECT_FALSE(attr.exclude_kernel);
  EXPECT_EQ(attr.config[0], 2u);
  ASSERT_TRUE(encoder.encode_one("4:0x3c", attr).has_value());
  ASSERT_TRUE(encoder.encode_one("cpu/event=0x3/", attr).has_value());
  EXPECT_EQ(attr.type, 4u);
  EXPECT_EQ(attr.config[0], 3u);
}

// Every cache type spelling of perf 6.1's lexer is found (find_legacy_event rejects a name by its
// first byte before reading the cache tables).
TEST(CacheEvents, EveryTypeSpellingIsFound) {
  const Catalog catalog = testing::extended_catalog();
  const char* spellings[] = {
      "L1-dcache", "l1-d", "l1d",  "L1-data", "L1-icache", "l1-i", "l1i",   "L1-instruction",
      "LLC",       "L2",   "dTLB", "d-tlb",   "Data-TLB",  "iTLB", "i-tlb", "Instruction-TLB",
      "branch",    "bpu",  "btb",  "bpc",     "node"};
  for (const char* spelling : spellings) {
    const auto events =
        encode_ok(catalog, std::string(spelling) + "-loads", Profile::perf(PerfRelease::v6_1));
    ASSERT_EQ(events.size(), 1u) << spelling;
    EXPECT_EQ(events[0].attr.type, 3u) << spelling;
  }
}

// `EVENT/terms/` (what `perf stat -M` writes on TopDown machines), the same cases as
// EventTermsDiff.EventNamesWithTermsMatchPerf without perf.
Catalog event_terms_catalog() {
  std::vector<Pmu> pmus;
  pmus.push_back(make_pmu(
      "cpu", "4", {{"event", "config:0-7"}, {"umask", "config:8-15"}, {"ldlat", "config1:0-15"}},
      {{"slots", "event=0x00,umask=0x4"},
       {"topdown-retiring", "event=0x00,umask=0x80"},
       {"mem-loads", "event=0xcd,umask=0x1,ldlat=3"}}));
  pmus.push_back(
      make_pmu("cstate_core", "6", {{"event", "config:0-63"}}, {{"c6-residency", "event=0x02"}}));
  return Catalog::from_pmus(std::move(pmus));
}

TEST(EventTerms, EventNameBeforeTermsInBothSemantics) {
  const Catalog catalog = event_terms_catalog();
  for (const char* spec : {"slots/metric-id=x/", "SLOTS//", "slots/umask=0x4/",
                           "topdown-retiring/metric-id=topdown!1retiring/u"}) {
    expect_pmucat_as_perf73(catalog, spec);
  }
  for (const Profile semantics : {Profile::perf(PerfRelease::v6_1)}) {
    for (const char* spec : {"slots/metric-id=x/", "SLOTS//", "slots/umask=0x4/"}) {
      const auto slots = encode_ok(catalog, spec, semantics);
      ASSERT_EQ(slots.size(), 1u) << spec;
      EXPECT_EQ(slots[0].attr.type, 4u);
      EXPECT_EQ(slots[0].attr.config[0], 0x400u) << spec;
    }
    const auto retiring =
        encode_ok(catalog, "topdown-retiring/metric-id=topdown!1retiring/u", semantics);
    ASSERT_EQ(retiring.size(), 1u);
    EXPECT_EQ(retiring[0].attr.config[0], 0x8000u);
    EXPECT_TRUE(retiring[0].attr.exclude_kernel);
  }
  // The user's terms come first, so perf ORs them into the alias's (difference 1).
  EXPECT_EQ(
      encode_ok(catalog, "slots/umask=0x1/", Profile::perf(PerfRelease::v6_1))[0].attr.config[0],
      0x500u);
  EXPECT_EQ(encode_ok(catalog, "slots/umask=0x1/", Profile::pmucat())[0].attr.config[0], 0x100u);
  EXPECT_EQ(
      encode_ok(catalog, "mem-loads/ldlat=30/", Profile::perf(PerfRelease::v6_1))[0].attr.config[1],
      0x1fu);
  EXPECT_EQ(encode_ok(catalog, "mem-loads/ldlat=30/", Profile::pmucat())[0].attr.config[1], 0x1eu);
}

TEST(EventTerms, HyphenatedNamesPerf61DoesNotLexAsEvents) {
  const Catalog catalog = event_terms_catalog();
  auto perf =
      encode(catalog, "c6-residency/metric-id=x/", options_for(Profile::perf(PerfRelease::v6_1)));
  ASSERT_FALSE(perf);
  EXPECT_EQ(perf.error().id, "pmu-name-hyphen");
  const auto ours = encode_ok(catalog, "c6-residency/metric-id=x/", Profile::pmucat());
  ASSERT_EQ(ours.size(), 1u);
  EXPECT_EQ(ours[0].attr.type, 6u);
  EXPECT_EQ(ours[0].attr.config[0], 0x2u);
  // An unknown topdown-* name and a bad term still fail, naming what is wrong.
  for (const Profile semantics : {Profile::perf(PerfRelease::v6_1), Profile::pmucat()}) {
    auto unknown = encode(catalog, "topdown-nonexistent/period=1/", options_for(semantics));
    ASSERT_FALSE(unknown);
    EXPECT_EQ(unknown.error().id, "pmu-unknown");
    auto bad_term = encode(catalog, "slots/foo=1/", options_for(semantics));
    ASSERT_FALSE(bad_term);
    EXPECT_EQ(bad_term.error().id, "term-unknown");
  }
}

// perf 7.3.4 on fixtures/sysfs/intel-spr: `cpu/topdown-retiring/` opens slots (0x400) as the
// leader of {slots, topdown-retiring (0x8000)}; perf 6.12 opens the topdown event alone.
TEST(Topdown, Perf73AddsASlotsLeaderBeforeALoneTopdownEvent) {
  auto catalog = Catalog::open(std::string(PMUCAT_SOURCE_DIR) + "/fixtures/sysfs/intel-spr");
  ASSERT_TRUE(catalog.has_value());
  const auto perf73 =
      encode_ok(*catalog, "cpu/topdown-retiring/", Profile::perf(PerfRelease::v7_3));
  ASSERT_EQ(perf73.size(), 2u);
  EXPECT_EQ(perf73[0].attr.config[0], 0x400u);
  EXPECT_EQ(perf73[0].group_leader, 0u);
  EXPECT_EQ(perf73[1].attr.config[0], 0x8000u);
  EXPECT_EQ(perf73[1].group_leader, 0u);
  // Written with slots, or as another event, nothing is added.
  EXPECT_EQ(
      encode_ok(*catalog, "{slots,topdown-retiring}", Profile::perf(PerfRelease::v7_3)).size(), 2u);
  EXPECT_EQ(encode_ok(*catalog, "cpu/slots/", Profile::perf(PerfRelease::v7_3)).size(), 1u);
  const auto perf612 =
      encode_ok(*catalog, "cpu/topdown-retiring/", Profile::perf(PerfRelease::v6_12));
  ASSERT_EQ(perf612.size(), 1u);
  EXPECT_EQ(perf612[0].attr.config[0], 0x8000u);
}

// perf 7.3's lexer has no built-in event tokens: perf 7.3.4 accepts `cycles{instructions}`,
// `L1-dcache{cycles}`, `cs{cycles}` (group names), which perf 6.12 reads as events and rejects.
TEST(GroupNames, Perf73TakesBuiltInNamesAsGroupNames) {
  const Catalog catalog = hybrid_catalog();
  for (const char* spec :
       {"cycles{instructions}", "L1-dcache{cycles}", "node{cycles}", "cs{cycles}"}) {
    EXPECT_TRUE(encode(catalog, spec, options_for(Profile::perf(PerfRelease::v7_3))).has_value())
        << spec;
    auto old = encode(catalog, spec, options_for(Profile::perf(PerfRelease::v6_12)));
    ASSERT_FALSE(old.has_value()) << spec;
    EXPECT_EQ(old.error().id, "spec-group-name") << spec;
  }
  // Numbers and modifier strings are still tokens.
  EXPECT_FALSE(encode(catalog, "12{cycles}", options_for(Profile::perf(PerfRelease::v7_3))));
  EXPECT_FALSE(encode(catalog, "uk{cycles}", options_for(Profile::perf(PerfRelease::v7_3))));
}

// perf 7.3's tool PMU, measured with perf 7.3.4 on intel-spr (perf-oracle.sh): `duration_time`
// type 0xfffffffe config 1, `num_cpus` 6, `target_cpu` 14, `system_tsc_freq` 12, any case
// (`DURATION_TIME`); `slots` is the core PMU's sysfs event (0x400), the tool PMU's being arm64's.
// perf 6.12 and pmucat's semantics keep their tool events.
TEST(ToolPmu, Perf73ToolEventsAreToolPmuAttrs) {
  auto catalog = Catalog::open(std::string(PMUCAT_SOURCE_DIR) + "/fixtures/sysfs/intel-spr");
  ASSERT_TRUE(catalog.has_value());
  const Profile perf73 = Profile::perf(PerfRelease::v7_3);
  const struct {
    const char* spec;
    std::uint64_t config;
  } cases[] = {{"duration_time", 1},    {"user_time", 2},   {"system_time", 3},   {"num_cpus", 6},
               {"system_tsc_freq", 12}, {"target_cpu", 14}, {"DURATION_TIME", 1}, {"Num_Cores", 5}};
  for (const auto& c : cases) {
    const auto events = encode_ok(*catalog, c.spec, perf73);
    ASSERT_EQ(events.size(), 1u) << c.spec;
    EXPECT_EQ(events[0].attr.type, 0xfffffffeU) << c.spec;
    EXPECT_EQ(events[0].attr.config[0], c.config) << c.spec;
  }
  const auto slots = encode_ok(*catalog, "slots", perf73);
  ASSERT_EQ(slots.size(), 1u);
  EXPECT_EQ(slots[0].attr.type, 4u);
  EXPECT_EQ(slots[0].attr.config[0], 0x400u);
  for (const auto& c : cases) expect_pmucat_as_perf73(*catalog, c.spec);
  for (const Profile older : {Profile::perf(PerfRelease::v6_12)}) {
    const auto duration = encode_ok(*catalog, "duration_time", older);
    ASSERT_EQ(duration.size(), 1u);
    EXPECT_NE(duration[0].attr.type, 0xfffffffeU);
    EXPECT_FALSE(encode(*catalog, "num_cpus", options_for(older)).has_value());
  }
}

// `software/NAME/`: perf 7.3 reads the software PMU's events from its software table
// (`software/page-faults/` type 1 config 2, `software/cs/` 3, `software/duration_time/` an
// error: a tool event), as the common metrics' `software@task\-clock\,name\=task\-clock@`
// needs; pmucat's semantics adopt it, perf 6.12 has no such event.
TEST(SoftwarePmu, SoftwareEventsAsTermsOfTheSoftwarePmu) {
  auto catalog = Catalog::open(std::string(PMUCAT_SOURCE_DIR) + "/fixtures/sysfs/intel-spr");
  ASSERT_TRUE(catalog.has_value());
  for (const Profile profile : {Profile::perf(PerfRelease::v7_3), Profile::pmucat()}) {
    const auto faults = encode_ok(*catalog, "software/page-faults/", profile);
    ASSERT_EQ(faults.size(), 1u);
    EXPECT_EQ(faults[0].attr.type, 1u);
    EXPECT_EQ(faults[0].attr.config[0], 2u);
    EXPECT_EQ(encode_ok(*catalog, "software/cs/", profile)[0].attr.config[0], 3u);
    const auto clock = encode_ok(
        *catalog, "software/task-clock,name=task-clock,metric-id=software!3task!1clock!3/",
        profile);
    ASSERT_EQ(clock.size(), 1u);
    EXPECT_EQ(clock[0].attr.type, 1u);
    EXPECT_EQ(clock[0].attr.config[0], 1u);
    EXPECT_FALSE(encode(*catalog, "software/duration_time/", options_for(profile)).has_value());
  }
  EXPECT_FALSE(
      encode(*catalog, "software/page-faults/", options_for(Profile::perf(PerfRelease::v6_12)))
          .has_value());
}

// perf 7.3's term names take `!` with `:`: perf 7.3.4 encodes `cpu/event=0x3c,metric-id=a!1b:c/`
// and the generated metrics' `cpu-cycles/metric-id=cpu!1cycles:kHh/kHh` (config 0x3c on
// intel-spr, exclude_user), where perf 6.12 reports "Unrecognized input"; pmucat's semantics
// adopt it.
TEST(TermNames, Perf73TakesBangWithColon) {
  auto catalog = Catalog::open(std::string(PMUCAT_SOURCE_DIR) + "/fixtures/sysfs/intel-spr");
  ASSERT_TRUE(catalog.has_value());
  for (const Profile profile : {Profile::perf(PerfRelease::v7_3), Profile::pmucat()}) {
    const auto plain = encode_ok(*catalog, "cpu/event=0x3c,metric-id=a!1b:c/", profile);
    ASSERT_EQ(plain.size(), 1u);
    EXPECT_EQ(plain[0].attr.config[0], 0x3cu);
    const auto kernel = encode_ok(*catalog, "cpu-cycles/metric-id=cpu!1cycles:kHh/kHh", profile);
    ASSERT_EQ(kernel.size(), 1u);
    EXPECT_TRUE(kernel[0].attr.exclude_user);
  }
  // perf 7.3 takes the core PMU's own cpu-cycles event there, and pmucat's semantics with it.
  const auto kernel = encode_ok(*catalog, "cpu-cycles/metric-id=cpu!1cycles:kHh/kHh",
                                Profile::perf(PerfRelease::v7_3));
  ASSERT_EQ(kernel.size(), 1u);
  EXPECT_EQ(kernel[0].attr.type, 4u);
  EXPECT_EQ(kernel[0].attr.config[0], 0x3cu);
  auto old = encode(*catalog, "cpu/event=0x3c,metric-id=a!1b:c/",
                    options_for(Profile::perf(PerfRelease::v6_12)));
  ASSERT_FALSE(old.has_value());
  EXPECT_EQ(old.error().id, "terms-syntax");
}

// A built-in name with terms on a hybrid tree is one event per core PMU; each one's perf string
// names its PMU (`cpu_atom/branches,metric-id=b/`, which perf 6.12 and 7.3 read as that PMU's
// event: perf-oracle.sh on intel-adl-hybrid), so it encodes back to its own attr alone. Not
// where the PMU has an event of the name (`cpu_atom/cpu-cycles/` is its sysfs event), and not
// for perf 6.1, which has no built-in names among a PMU's terms ("unknown term 'branches' for
// pmu 'cpu_atom'").
TEST(PerfStrings, HybridBuiltInWithTermsNamesItsCorePmu) {
  auto catalog = Catalog::open(std::string(PMUCAT_SOURCE_DIR) + "/fixtures/sysfs/intel-adl-hybrid");
  ASSERT_TRUE(catalog.has_value());
  for (const Profile semantics :
       {Profile{}, Profile::perf(PerfRelease::v6_12), Profile::perf(PerfRelease::v7_3)}) {
    for (const char* spec : {"branches/metric-id=b/", "cycles/metric-id=c/u",
                             "stalled-cycles-frontend/period=1000/"}) {
      const auto events = encode_ok(*catalog, spec, semantics);
      ASSERT_EQ(events.size(), 2u) << spec;
      for (const EncodedEvent& e : events) {
        EXPECT_TRUE(e.perf_string.starts_with(e.pmu + "/")) << spec << ": " << e.perf_string;
        const auto again = encode_ok(*catalog, e.perf_string, semantics);
        ASSERT_EQ(again.size(), 1u) << e.perf_string;
        EXPECT_EQ(again[0].attr, e.attr) << e.perf_string;
      }
    }
  }
  const auto perf61 =
      encode_ok(*catalog, "branches/metric-id=b/", Profile::perf(PerfRelease::v6_1));
  ASSERT_EQ(perf61.size(), 2u);
  EXPECT_EQ(perf61[0].perf_string, "branches/metric-id=b/");
  ASSERT_NE(catalog->find_pmu("cpu_atom")->find_event("cpu-cycles"), nullptr);
  // pmucat's semantics, as perf 7.3, take cpu_atom's own event there.
  const auto own = encode_ok(*catalog, "cpu-cycles/metric-id=c/", Profile{});
  ASSERT_EQ(own.size(), 2u);
  EXPECT_EQ(own[0].perf_string, "cpu_atom/event=0x3c,metric-id=c/");
  expect_pmucat_as_perf73(*catalog, "cpu-cycles/metric-id=c/");
}

// The modifiers newer perfs added, measured with perf-oracle.sh on intel-spr: `R` (retirement
// latency) is a parser error in perf 6.1, taken by 6.12 and 7.3 (whose stat then opens no counter
// for the event); `X` (do not regroup) is "Unrecognized input" in 6.12 and taken by 7.3
// (`instructions:X` is instructions' attr). Neither sets an attr bit; as any modifier string
// they replace the default exclusions (perf 7.3 has none to replace).
TEST(Modifiers, RetireLatencyAndNoRegroupByRelease) {
  auto catalog = Catalog::open(std::string(PMUCAT_SOURCE_DIR) + "/fixtures/sysfs/intel-spr");
  ASSERT_TRUE(catalog.has_value());
  const auto v61 = Profile::perf(PerfRelease::v6_1);
  const auto v612 = Profile::perf(PerfRelease::v6_12);
  const auto v73 = Profile::perf(PerfRelease::v7_3);

  auto old = encode(*catalog, "cpu/event=0x3c/R", options_for(v61));
  ASSERT_FALSE(old.has_value());
  EXPECT_EQ(old.error().id, "modifier-unknown");
  EXPECT_EQ(old.error().range.column, 16u);  // under the R
  for (const Profile semantics : {v612, v73, Profile{}}) {
    const auto with_r = encode_ok(*catalog, "cpu/event=0x3c/R", semantics);
    const auto without = encode_ok(*catalog, "cpu/event=0x3c/", semantics);
    ASSERT_EQ(with_r.size(), 1u);
    EXPECT_TRUE(with_r[0].settings.retire_latency);
    EXPECT_EQ(with_r[0].attr.type, without[0].attr.type);
    EXPECT_EQ(with_r[0].attr.config, without[0].attr.config);
    EXPECT_EQ(with_r[0].perf_string, "cpu/event=0x3c/R");
  }
  const auto group = encode_ok(*catalog, "{cycles,instructions}:R", v612);
  ASSERT_EQ(group.size(), 2u);
  EXPECT_TRUE(group[0].settings.retire_latency && group[1].settings.retire_latency);

  expect_pmucat_as_perf73(*catalog, "instructions:X");
  for (const Profile semantics : {v612}) {
    auto x = encode(*catalog, "instructions:X", options_for(semantics));
    ASSERT_FALSE(x.has_value());
    EXPECT_EQ(x.error().id, "modifier-unknown");
    EXPECT_EQ(x.error().range.column, 14u);
  }
  auto grouped_x = encode(*catalog, "{cycles,instructions}:uX", options_for(v612));
  ASSERT_FALSE(grouped_x.has_value());
  EXPECT_EQ(grouped_x.error().range.column, 24u);
  const auto x73 = encode_ok(*catalog, "instructions:X", v73);
  ASSERT_EQ(x73.size(), 1u);
  EXPECT_TRUE(x73[0].settings.no_regroup);
  EXPECT_EQ(x73[0].attr, encode_ok(*catalog, "instructions", v73)[0].attr);
}

}  // namespace
PMUCAT_END_NAMESPACE
