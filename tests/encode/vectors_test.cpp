// perf's own test vectors: tests/pmu.c (krava formats) and tests/parse-events.c.
#include <gtest/gtest.h>

#include "pmucat/encode.h"
#include "sample_tree.h"

PMUCAT_BEGIN_NAMESPACE
namespace {

constexpr ConfigWords kKravaWords = {0xc00000000002a823, 0x8000400000000145, 0x0400000020041d07, 0};

const Catalog& catalog() {
  static const Catalog instance = testing::extended_catalog();
  return instance;
}

EncodedEvent encode_single(std::string_view spec, Profile semantics, Tool tool = Tool::stat) {
  EncodeOptions options;
  options.semantics = semantics;
  options.tool = tool;
  auto encoded = encode(catalog(), spec, options);
  EXPECT_TRUE(encoded.has_value()) << spec << ": " << (encoded ? "" : render(encoded.error()));
  if (!encoded || encoded->empty()) return {};
  EXPECT_EQ(encoded->size(), 1u);
  return encoded->front();
}

TEST(KravaVectors, PerField) {
  const std::pair<const char*, ConfigWords> fields[] = {
      {"krava01=15", {0xc000000000000003, 0, 0, 0}},
      {"krava02=170", {0x2a800, 0, 0, 0}},
      {"krava03=1", {0x20, 0, 0, 0}},
      {"krava11=27", {0, 0x145, 0, 0}},
      {"krava12=1", {0, 0x8000000000000000, 0, 0}},
      {"krava13=2", {0, 0x400000000000, 0, 0}},
      {"krava21=119", {0, 0, 0x1c07, 0}},
      {"krava22=11", {0, 0, 0x0400000000040100, 0}},
      {"krava23=2", {0, 0, 0x20000000, 0}},
  };
  for (const auto& [terms, words] : fields) {
    for (const Profile semantics : {Profile::perf(PerfRelease::v6_1), Profile::pmucat()}) {
      const std::string spec = std::string("pmutest/") + terms + "/";
      EXPECT_EQ(encode_single(spec, semantics).attr.config, words) << spec;
    }
  }
}

TEST(KravaVectors, AllTermsAtOnce) {
  for (const Profile semantics : {Profile::perf(PerfRelease::v6_1), Profile::pmucat()}) {
    const EncodedEvent event =
        encode_single(std::string("pmutest/") + testing::kKravaTerms + "/", semantics);
    EXPECT_EQ(event.attr.type, 9999u);
    EXPECT_EQ(event.attr.config, kKravaWords);
  }
}

TEST(KravaVectors, ViaEventFile) {
  for (const Profile semantics : {Profile::perf(PerfRelease::v6_1), Profile::pmucat()}) {
    const EncodedEvent event = encode_single("pmutest/test-event/", semantics);
    EXPECT_EQ(event.attr.type, 9999u);
    EXPECT_EQ(event.attr.config, kKravaWords);
    EXPECT_EQ(event.event, "test-event");
  }
  // perf 6.1 cannot lex the hyphenated name newer perf's test uses; pmucat can.
  EXPECT_EQ(encode_single("perf-pmu-test/test-event/", Profile::pmucat()).attr.config, kKravaWords);
  EncodeOptions perf;
  perf.semantics = Profile::perf(PerfRelease::v6_1);
  EXPECT_FALSE(encode(catalog(), "perf-pmu-test/test-event/", perf).has_value());
}

TEST(ParseEventsVectors, ConfigTermsOnCpu) {
  for (const Profile semantics : {Profile::perf(PerfRelease::v6_1), Profile::pmucat()}) {
    EncodedEvent event = encode_single("cpu/config=10,config1,config2=3,period=1000/u", semantics);
    EXPECT_EQ(event.attr.type, static_cast<std::uint32_t>(PerfType::raw));
    EXPECT_EQ(event.attr.config, (ConfigWords{10, 1, 3, 0}));
    EXPECT_EQ(event.attr.sample_period, 0u);  // perf stat: not in the attr
    EXPECT_TRUE(event.attr.exclude_kernel);
    event = encode_single("cpu/config=10,config1,config2=3,period=1000/u", semantics, Tool::record);
    EXPECT_EQ(event.attr.sample_period, 1000u);
  }
}

TEST(ParseEventsVectors, TwoEventsWithName) {
  auto encoded = encode(catalog(), "cpu/config=1,name=krava/u,cpu/config=2/u");
  ASSERT_TRUE(encoded.has_value());
  ASSERT_EQ(encoded->size(), 2u);
  EXPECT_EQ((*encoded)[0].attr.config[0], 1u);
  EXPECT_EQ((*encoded)[0].settings.name, "krava");
  EXPECT_EQ((*encoded)[1].attr.config[0], 2u);
  EXPECT_FALSE((*encoded)[1].settings.name.has_value());
  EXPECT_EQ((*encoded)[1].spec, "cpu/config=2/u");
}

TEST(ParseEventsVectors, CallGraphTimePeriodTerms) {
  EncodeOptions options;
  options.tool = Tool::record;
  auto encoded = encode(catalog(),
                        "cpu/config=1,call-graph=fp,time,period=100000/,"
                        "cpu/config=2,call-graph=no,time=0,period=2000/",
                        options);
  ASSERT_TRUE(encoded.has_value()) << render(encoded.error());
  ASSERT_EQ(encoded->size(), 2u);
  EXPECT_EQ((*encoded)[0].attr.config[0], 1u);
  EXPECT_EQ((*encoded)[0].attr.sample_period, 100000u);
  EXPECT_EQ((*encoded)[0].attr.sample_type, sample::callchain | sample::time);
  EXPECT_EQ((*encoded)[1].attr.config[0], 2u);
  EXPECT_EQ((*encoded)[1].attr.sample_period, 2000u);
  EXPECT_EQ((*encoded)[1].attr.sample_type, 0u);
}

TEST(ParseEventsVectors, QuotedName) {
  const EncodedEvent event = encode_single(
      "cpu/name='COMPLEX_CYCLES_NAME:orig=cycles,desc=chip-clock-ticks',period=0x1,event=0x2/ukp",
      Profile::pmucat());
  EXPECT_EQ(event.settings.name, "COMPLEX_CYCLES_NAME:orig=cycles,desc=chip-clock-ticks");
  EXPECT_EQ(event.attr.config[0], 0x2u);
  EXPECT_EQ(event.attr.precise_ip, 1u);
}

TEST(ParseEventsVectors, SoftwareRaw) {
  for (const char* spec : {"software/r1a/", "software/r0x1a/"}) {
    const EncodedEvent event = encode_single(spec, Profile::perf(PerfRelease::v6_1));
    EXPECT_EQ(event.attr.type, static_cast<std::uint32_t>(PerfType::software)) << spec;
    EXPECT_EQ(event.attr.config[0], 0x1au) << spec;
  }
}

// perf 6.1's lexer: r<hex> is a raw event outside a PMU, r0x<hex> only a term inside one (the
// issue's `r0x3c`, which perf 6.1 rejects as an unknown event); both semantics follow it.
TEST(ParseEventsVectors, TopLevelRawHasNo0x) {
  for (const Profile semantics : {Profile::perf(PerfRelease::v6_1), Profile::pmucat()}) {
    EncodeOptions options;
    options.semantics = semantics;
    EXPECT_TRUE(encode(catalog(), "r1a3", options).has_value());
    EXPECT_TRUE(encode(catalog(), "cpu/r0x1a3/", options).has_value());
    auto rejected = encode(catalog(), "r0x1a3:u", options);
    ASSERT_FALSE(rejected.has_value());
    EXPECT_EQ(rejected.error().id, "event-unknown");
    EXPECT_NE(rejected.error().hint.find("(r1a3)"), std::string::npos) << rejected.error().hint;
  }
}

TEST(ParseEventsVectors, TermsOnlyListOnTheCorePmu) {
  // perf assigns config three times (config=10, read -> r0xead, r0xead), the last wins, then
  // ORs umask=1; pmucat refuses to assign a config word twice.
  const EncodedEvent event = encode_single("config=10,config1,config2=3,umask=1,read,r0xead",
                                           Profile::perf(PerfRelease::v6_1));
  EXPECT_EQ(event.attr.config, (ConfigWords{0xfad, 1, 3, 0}));
  EXPECT_FALSE(encode(catalog(), "config=10,config1,config2=3,umask=1,read,r0xead").has_value());
}

TEST(LegacyNames, Perf61PrefersBuiltInNames) {
  EncodedEvent event = encode_single("cache-misses:u", Profile::perf(PerfRelease::v6_1));
  EXPECT_EQ(event.attr.type, static_cast<std::uint32_t>(PerfType::hardware));
  EXPECT_EQ(event.attr.config[0], 3u);
  EXPECT_EQ(event.perf_string, "cache-misses:u");
  // pmucat (like perf >= 6.10) prefers the sysfs event of the same name.
  event = encode_single("cache-misses:u", Profile::pmucat());
  EXPECT_EQ(event.pmu, "cpu");
  EXPECT_EQ(event.attr.config[0], 0x412eu);
  event = encode_single("cpu-clock", Profile::pmucat());
  EXPECT_EQ(event.attr.type, static_cast<std::uint32_t>(PerfType::software));
}

// perf 6.1's newer software events and its tool events (which perf counts itself; the attr it
// builds is the software dummy event), as perf 6.1 printed them.
TEST(LegacyNames, SoftwareAndToolEvents) {
  const struct {
    const char* spec;
    std::uint64_t config;
  } cases[] = {{"bpf-output", 10}, {"cgroup-switches", 11}, {"duration_time", 9},
               {"user_time", 9},   {"system_time", 9},      {"duration_time:u", 9}};
  for (const auto& c : cases) {
    const EncodedEvent event = encode_single(c.spec, Profile::perf(PerfRelease::v6_1));
    EXPECT_EQ(event.attr.type, static_cast<std::uint32_t>(PerfType::software)) << c.spec;
    EXPECT_EQ(event.attr.config[0], c.config) << c.spec;
    // pmucat's semantics follow perf 7.3: its tool events are the tool PMU's.
    const EncodedEvent ours = encode_single(c.spec, Profile::pmucat());
    const EncodedEvent perf73 = encode_single(c.spec, Profile::perf(PerfRelease::v7_3));
    EXPECT_EQ(ours.attr.type, perf73.attr.type) << c.spec;
    EXPECT_EQ(ours.attr.config, perf73.attr.config) << c.spec;
  }
}

// Hardware cache events as perf 6.1 reads them (verified name by name against perf:
// LegacyNamesDiff.BuiltInAndCacheNamesMatchPerf): config = type | op << 8 | result << 16, the
// operation defaulting to read and the result to access; the lexer's spellings are case-sensitive.
TEST(LegacyNames, HardwareCacheEvents) {
  const struct {
    const char* spec;
    std::uint64_t config;
  } accepted[] = {
      {"L1-dcache-load-misses", 0x10000},
      {"L1-dcache-loads", 0x0},
      {"l1d-store-miss", 0x10100},
      {"L1-icache-prefetches", 0x201},
      {"LLC-prefetch-misses", 0x10202},
      {"L2", 0x2},
      {"dTLB-load-misses:u", 0x10003},
      {"Data-TLB-write-access", 0x103},
      {"iTLB-loads", 0x4},
      {"branch-loads", 0x5},
      {"bpu-miss", 0x10005},
      {"node-stores", 0x106},
      {"node-misses-stores", 0x10106},     // the first word naming an operation sets it
      {"LLC-refs-load", 0x2},              // a result before the operation
      {"L1-data-misses-misses", 0x10000},  // a second result is ignored
  };
  for (const auto& c : accepted) {
    const EncodedEvent event = encode_single(c.spec, Profile::perf(PerfRelease::v6_1));
    EXPECT_EQ(event.attr.type, static_cast<std::uint32_t>(PerfType::hw_cache)) << c.spec;
    EXPECT_EQ(event.attr.config[0], c.config) << c.spec;
  }
  EXPECT_TRUE(
      encode_single("dTLB-load-misses:u", Profile::perf(PerfRelease::v6_1)).attr.exclude_kernel);
  // A misspelt cache name gets perf's name for the event it resembles.
  auto misspelt = encode(catalog(), "L1-dcache-load-mises");
  ASSERT_FALSE(misspelt.has_value());
  EXPECT_EQ(misspelt.error().hint, "did you mean 'L1-dcache-load-misses'?");
  misspelt = encode(catalog(), "iTLB-lods");
  ASSERT_FALSE(misspelt.has_value());
  EXPECT_EQ(misspelt.error().hint, "did you mean 'iTLB-loads'?");
  for (const char* rejected :
       {"iTLB-stores", "L1-icache-stores", "branch-prefetches",  // operations the type lacks
        "l1-dcache-loads", "LLC-Load-misses",                    // case: not the lexer's
        "l1-dcache-load-misses",  // `l1-d` then `cache`: perf 6.1's parser error (6.12 too)
        "branches-loads",         // `branches` is the built-in branch-instructions: no cache type
        "L1-dcache-load-load-misses", "L1-dcache-", "LLC-load_misses", "L1-dcachex"}) {
    EncodeOptions perf;
    perf.semantics = Profile::perf(PerfRelease::v6_1);
    EXPECT_FALSE(encode(catalog(), rejected, perf).has_value()) << rejected;
  }
}

TEST(PmuMatching, InstancePrefixGivesOneAttrPerInstance) {
  auto encoded = encode(catalog(), "uncore_cha/event=0x1/");
  ASSERT_TRUE(encoded.has_value());
  ASSERT_EQ(encoded->size(), 2u);
  EXPECT_EQ((*encoded)[0].pmu, "uncore_cha_0");
  EXPECT_EQ((*encoded)[0].attr.type, 20u);
  EXPECT_EQ((*encoded)[1].pmu, "uncore_cha_1");
  EXPECT_EQ((*encoded)[1].attr.type, 21u);
  EXPECT_EQ((*encoded)[1].perf_string, "uncore_cha_1/event=0x1/");
}

TEST(PerfString, ResolvedAndCanonical) {
  EXPECT_EQ(encode_single("cpu/mem-loads,ldlat=30/", Profile::pmucat()).perf_string,
            "cpu/event=0xcd,umask=0x1,ldlat=0x1e/");
  EXPECT_EQ(encode_single("cpu/mem-loads,ldlat=30/", Profile::perf(PerfRelease::v6_1)).perf_string,
            "cpu/event=0xcd,umask=0x1,ldlat=0x1f/");
  EXPECT_EQ(encode_single("foo:pu", Profile::pmucat()).perf_string,
            "fakepmu/event=0x3c,umask=0x1/up");
  // Verified with perf 6.1: it accepts the quoted comma.
  EXPECT_EQ(encode_single("fakepmu/per,name='a,b'/", Profile::pmucat()).perf_string,
            "fakepmu/event=0x3,period=0x3e8,name='a,b'/");
  EXPECT_EQ(encode_single("r1a3", Profile::pmucat()).perf_string, "cpu/event=0xa3,umask=0x1/");
  EXPECT_EQ(encode_single("fakepmu/config=0x8000000000000001/", Profile::pmucat()).perf_string,
            "fakepmu/event=0x1,config=0x8000000000000000/");
}

}  // namespace
PMUCAT_END_NAMESPACE

PMUCAT_BEGIN_NAMESPACE
namespace {

TEST(RawEvents, TopLevelRawTypeIsRawInPerfAndTheCorePmuTypeInPmucat) {
  std::vector<Pmu> pmus;
  pmus.push_back(testing::make_pmu("cpu", "8\n", {{"event", "config:0-7\n"}}, {}));
  const Catalog catalog = Catalog::from_pmus(std::move(pmus));
  EncodeOptions perf;
  perf.semantics = Profile::perf(PerfRelease::v6_1);
  auto encoded = encode(catalog, "r1a3:u", perf);
  ASSERT_TRUE(encoded.has_value());
  EXPECT_EQ(encoded->front().attr.type, static_cast<std::uint32_t>(PerfType::raw));
  EXPECT_EQ(encoded->front().attr.config[0], 0x1a3u);
  encoded = encode(catalog, "r1a3:u");
  ASSERT_TRUE(encoded.has_value());
  EXPECT_EQ(encoded->front().attr.type, 8u);
  EXPECT_EQ(encoded->front().attr.config[0], 0x1a3u);
  EXPECT_TRUE(encoded->front().attr.exclude_kernel);
}

TEST(RawEvents, DefaultPmuOption) {
  const Catalog catalog = testing::sample_catalog();  // has no core PMU
  EXPECT_FALSE(encode(catalog, "r10").has_value());
  EncodeOptions options;
  options.default_pmu = "fakepmu";
  auto encoded = encode(catalog, "event=0x3c,umask=0x1", options);
  ASSERT_TRUE(encoded.has_value());
  EXPECT_EQ(encoded->front().attr.config[0], 0x13cu);
  EXPECT_EQ(encoded->front().pmu, "fakepmu");
  options.default_pmu = "nosuch";
  EXPECT_FALSE(encode(catalog, "r10", options).has_value());
}

}  // namespace
PMUCAT_END_NAMESPACE
