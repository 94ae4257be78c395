// Internal unit test of perf 7.3's built-in names (Behaviour::builtin_names_any_case): the legacy
// hardware, software and cache names are table events, matched in any case, and the cache names are
// the table linux 7.3's build generates (make_legacy_cache.py): TYPE[-OP][-RESULT], not 6.12's
// lexer compositions. The expected attrs are what perf 7.3.4 opened on fixtures/sysfs/intel-spr
// (perf-oracle.sh); LegacyNamesDiff compares 6,071 generated names with perf 7.3 itself
// (PMUCAT_DIFF_PERF_VERSION=7.3 PMUCAT_VENDOR_DIFF_ALL=1).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "encode/legacy_events.h"
#include "pmucat/catalog.h"
#include "pmucat/encode.h"

PMUCAT_BEGIN_NAMESPACE
namespace {

using encode_detail::find_legacy_event_73;
using encode_detail::legacy_cache_names_73;

constexpr auto kCache = static_cast<std::uint32_t>(PerfType::hw_cache);

// The generated table of the build's default (linux 7.3) table set; empty when the build has
// none (no linux-source-7.3).
std::filesystem::path generated_cache_table() {
  const std::filesystem::path dir = PMUCAT_TEST_EVENTS_DIR_7_3;
  if (dir.empty()) return {};
  return dir / "common" / "common" / "legacy-cache.json";
}

TEST(BuiltinNames73, CacheTableIsLinux73sGeneratedOne) {
  const std::filesystem::path table = generated_cache_table();
  if (table.empty() || !std::filesystem::exists(table)) {
    GTEST_SKIP() << "no linux 7.3 table set in this build";
  }
  std::ifstream in(table);
  const nlohmann::json events = nlohmann::json::parse(in);
  std::set<std::string> theirs;
  for (const auto& event : events) {
    const std::string name = event.at("EventName").get<std::string>();
    theirs.insert(name);
    const auto code = std::stoull(event.at("LegacyCacheCode").get<std::string>(), nullptr, 16);
    const auto ours = find_legacy_event_73(name);
    ASSERT_TRUE(ours.has_value()) << name;
    EXPECT_EQ(ours->type, PerfType::hw_cache) << name;
    EXPECT_EQ(ours->config, code) << name;
  }
  const auto generated = legacy_cache_names_73();
  const std::set<std::string> ours(generated.begin(), generated.end());
  EXPECT_EQ(ours.size(), generated.size()) << "a name generated twice";
  EXPECT_EQ(ours, theirs);
}

TEST(BuiltinNames73, NamesMatchInAnyCaseAndOnlyInTableOrder) {
  EXPECT_EQ(find_legacy_event_73("CYCLES")->config, 0u);
  EXPECT_EQ(find_legacy_event_73("Cpu-Clock")->type, PerfType::software);
  EXPECT_EQ(find_legacy_event_73("L1-DCACHE-LOADS")->config, 0u);
  EXPECT_EQ(find_legacy_event_73("dtlb-load-MISSES")->config, 0x10003u);
  EXPECT_EQ(find_legacy_event_73("l1d-miss")->config, 0x10000u);  // read by default
  EXPECT_EQ(find_legacy_event_73("node-speculative-load-refs")->config, 0x206u);
  // An operation after the result, a second operation, one the type lacks: not in the table.
  EXPECT_FALSE(find_legacy_event_73("l1d-refs-load"));
  EXPECT_FALSE(find_legacy_event_73("L1-dcache-load-loads"));
  EXPECT_FALSE(find_legacy_event_73("L1-icache-stores"));
  EXPECT_FALSE(find_legacy_event_73("iTLB-prefetches"));
  // `branches` and `branch-misses` are the hardware events.
  EXPECT_EQ(find_legacy_event_73("branches")->type, PerfType::hardware);
  EXPECT_EQ(find_legacy_event_73("Branch-Misses")->type, PerfType::hardware);
  // Tool events are the tool PMU's own table.
  EXPECT_FALSE(find_legacy_event_73("duration_time"));
}

Catalog sapphire_rapids() {
  auto catalog = Catalog::open(std::string(PMUCAT_SOURCE_DIR) + "/fixtures/sysfs/intel-spr");
  EXPECT_TRUE(catalog.has_value());
  return std::move(*catalog);
}

EncodeOptions perf73() {
  EncodeOptions options;
  options.semantics = Profile::perf(PerfRelease::v7_3);
  return options;
}

// perf 7.3.4 on intel-spr: `L1-DCACHE-LOADS` type 3 config 0, `l1d-refs-load` "Bad event name",
// `bpu` "Unrecognized input" (modifier letters) while `cpu/bpu/` is type 3 config 5,
// `cpu/L1-DCACHE-LOAD-MISSES/` type 3 config 0x10000, `software/PAGE-FAULTS/` type 1 config 2.
TEST(BuiltinNames73, SpecsAsPerf73ReadsThem) {
  const Catalog catalog = sapphire_rapids();
  auto one = [&](const char* spec) {
    auto encoded = encode(catalog, spec, perf73());
    EXPECT_TRUE(encoded.has_value()) << spec;
    EXPECT_EQ(encoded ? encoded->size() : 0u, 1u) << spec;
    return encoded && !encoded->empty() ? (*encoded)[0].attr : Attr{};
  };
  EXPECT_EQ(one("L1-DCACHE-LOADS").type, kCache);
  EXPECT_EQ(one("cpu/bpu/").config[0], 5u);
  EXPECT_EQ(one("cpu/L1-DCACHE-LOAD-MISSES/").config[0], 0x10000u);
  const Attr faults = one("software/PAGE-FAULTS/");
  EXPECT_EQ(faults.type, static_cast<std::uint32_t>(PerfType::software));
  EXPECT_EQ(faults.config[0], 2u);
  EXPECT_FALSE(encode(catalog, "l1d-refs-load", perf73()).has_value());
  EXPECT_FALSE(encode(catalog, "bpu", perf73()).has_value());
  // perf 6.12's lexer took both compositions, and no upper case.
  Profile v612 = Profile::perf(PerfRelease::v6_12);
  EncodeOptions old;
  old.semantics = v612;
  EXPECT_TRUE(encode(catalog, "l1d-refs-load", old).has_value());
  EXPECT_FALSE(encode(catalog, "L1-DCACHE-LOADS", old).has_value());
}

// perf 7.3's software names are events of the `software` PMU: a tree without one has none
// (LegacyNamesDiff's generated tree: perf 7.3 "Bad event name" for `cpu-clock`).
TEST(BuiltinNames73, SoftwareNamesNeedTheSoftwarePmu) {
  const std::string spr = std::string(PMUCAT_SOURCE_DIR) + "/fixtures/sysfs/intel-spr/devices";
  auto with = Catalog::open(spr);
  ASSERT_TRUE(with.has_value());
  ASSERT_NE(with->find_pmu("software"), nullptr);
  EXPECT_TRUE(encode(*with, "cpu-clock", perf73()).has_value());
  // The same tree's `cpu` PMU alone.
  std::vector<Pmu> pmus;
  pmus.push_back(Pmu::from_directory("cpu", spr + "/cpu"));
  const Catalog without = Catalog::from_pmus(std::move(pmus));
  ASSERT_EQ(without.find_pmu("software"), nullptr);
  EXPECT_FALSE(encode(without, "cpu-clock", perf73()).has_value());
  EXPECT_TRUE(encode(without, "L1-dcache-loads", perf73()).has_value());
  EXPECT_FALSE(encode(without, "cpu-clock").has_value());  // pmucat's semantics follow 7.3
  EncodeOptions perf612;
  perf612.semantics = Profile::perf(PerfRelease::v6_12);
  EXPECT_TRUE(encode(without, "cpu-clock", perf612).has_value());
}

}  // namespace
PMUCAT_END_NAMESPACE
