// perf 6.1 against pmucat on the event grammar beyond one PMU's terms: built-in and
// raw events with perf's hard-coded terms (`cycles/period=1000/`), hybrid machines (one attr
// per core PMU with the extended type in config bits 32-63), and perf's fallback from a PMU that
// rejects the terms to its numbered namesakes. Every case runs in CI (a few seconds);
// docs/robustness.md has the figures.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "comparison.h"
#include "diff_env.h"
#include "perf_oracle.h"
#include "pmucat/builtin_events.h"
#include "pmucat/catalog.h"
#include "pmucat/encode.h"
#include "support/files.h"
#include "support/scratch_dir.h"

PMUCAT_BEGIN_NAMESPACE
namespace differential {
namespace {

namespace fs = std::filesystem;

struct Tally {
  std::size_t specs = 0;
  std::size_t perf_accepted = 0;
  std::size_t equal = 0;
};

// Runs `specs` through the oracle's perf and pmucat on `devices`. With that perf's semantics
// every spec must give perf's attrs (or be rejected by both); when the oracle is the perf
// pmucat's semantics build on, with pmucat semantics too, except the specs in `default_differs`
// (documented in docs/perf-compat.md), which must differ.
Tally compare_on_tree(const fs::path& devices, const std::vector<std::string>& specs,
                      const std::set<std::string>& default_differs) {
  Tally tally;
  OracleOptions options = OracleOptions::from_environment();
  const OracleRun run = run_perf(devices, specs, options);
  EXPECT_TRUE(run.failure.empty()) << run.failure;
  if (run.results.size() != specs.size()) {
    ADD_FAILURE() << "perf ran " << run.results.size() << " of " << specs.size() << " specs";
    return tally;
  }
  auto catalog = Catalog::open(devices);
  if (!catalog) {
    ADD_FAILURE() << catalog.error().message;
    return tally;
  }
  for (std::size_t i = 0; i < specs.size(); ++i) {
    const PerfResult& perf = run.results[i];
    ++tally.specs;
    tally.perf_accepted += perf.accepted() ? 1 : 0;
    const OurResult ours = encode_words(*catalog, specs[i], oracle_semantics());
    bool equal = ours.accepted() == perf.accepted() && as_perf_prints(ours).attrs == perf.attrs;
    if (counted_without_attr(perf)) {
      // A tool event, which perf 6.12 counts without opening: ours is its software dummy attr.
      equal = only_tool_event_attrs(ours);
    }
    EXPECT_TRUE(equal) << specs[i] << ": pmucat "
                       << (ours.accepted() ? describe(ours.attrs) : "rejected: " + ours.error)
                       << "\nperf: " << perf.output;
    tally.equal += equal ? 1 : 0;
    // pmucat's semantics follow their base perf: checked (with their documented differences)
    // against it, not against perf 6.1, whose grammar they left where the newer perf did.
    if (oracle_perf_version() != kPmucatBaseRelease) continue;
    const OurResult ours_default = encode_words(*catalog, specs[i], Profile::pmucat());
    const bool same_as_perf =
        ours_default.accepted() == ours.accepted() && ours_default.attrs == ours.attrs;
    EXPECT_EQ(same_as_perf, default_differs.count(specs[i]) == 0)
        << specs[i] << ": pmucat semantics "
        << (ours_default.accepted() ? describe(ours_default.attrs)
                                    : "rejected: " + ours_default.error)
        << ", perf semantics " << (ours.accepted() ? describe(ours.attrs) : ours.error);
  }
  return tally;
}

// perf 6.1 on a hybrid machine (fixtures/sysfs/intel-adl-hybrid: cpu_core type 4, cpu_atom
// type 10, both with `cpus`): built-in hardware and cache events once per core PMU with the
// PMU's type in config bits 32-63, raw events once per core PMU with its type, software and tool
// events once, `cpu_core/NAME/` for one core PMU. perf probes each hybrid cache event by opening
// it and drops those the running kernel lacks; the attrs it printed for the probe are compared.
// Lower case cache names: `l1-dcache-load-misses` is a parser error after a probe of `l1-d`
// (rejected), `l1-d` and `l1d-loads` are perf 6.1's spellings of L1D read accesses.
TEST(HybridDiff, BuiltInRawAndPmuFormsMatchPerf) {
  OracleOptions options = OracleOptions::from_environment();
  if (auto why = oracle_unavailable(options)) GTEST_SKIP() << "perf oracle unavailable: " << *why;
  const fs::path devices =
      fs::path(PMUCAT_SOURCE_DIR) / "fixtures" / "sysfs" / "intel-adl-hybrid" / "devices";
  const std::vector<std::string> specs = {"cycles",
                                          "cycles:u",
                                          "instructions:k",
                                          "branches",
                                          "cache-misses",
                                          "ref-cycles",
                                          "bus-cycles",
                                          "stalled-cycles-frontend",
                                          "cpu-clock",
                                          "cs:u",
                                          "duration_time",
                                          "cpu_core/cycles/",
                                          "cpu_atom/cycles/",
                                          "cpu_core/cycles/u",
                                          "cpu_atom/branches/k",
                                          "cpu_core/cs/",
                                          "cpu_atom/cpu-clock/",
                                          "cpu_core/duration_time/",
                                          "cpu_atom/instructions/",
                                          "cpu_core/instructions/",
                                          "cpu_core/cycles,period=1/",
                                          "cpu_core/event=0x3c/",
                                          "cpu_core/r3c/",
                                          "r3c",
                                          "rc0:u",
                                          "r1a3/period=7/",
                                          "cycles/period=1000/",
                                          "instructions/config=2/",
                                          "branches/name=br/",
                                          "cycles//",
                                          "cs/period=1/",
                                          "L1-dcache-load-misses",
                                          "LLC-loads:u",
                                          "cpu_core/L1-dcache-load-misses/",
                                          "cpu_atom/L1-icache-loads/",
                                          "dTLB-loads/period=3/",
                                          "cycles,instructions",
                                          "cpu_core/foo/",
                                          "cycles/foo/",
                                          "l1-dcache-load-misses",
                                          "l1-dcache-load-misses:u",
                                          "l1-dcache-loads",
                                          "l1-d",
                                          "l1d-loads",
                                          "l1d-load-misses:u",
                                          "cpu_core/l1d-loads/"};
  // pmucat's semantics follow perf 7.3 here: a core PMU's sysfs event over the built-in name.
  const std::set<std::string> default_differs = {};
  const Tally tally = compare_on_tree(devices, specs, default_differs);
  std::printf("hybrid: %zu specs, perf accepted %zu, pmucat equal %zu\n", tally.specs,
              tally.perf_accepted, tally.equal);
  EXPECT_GT(tally.perf_accepted, specs.size() / 2);
}

// `cpu_core/NAME/` with a cache name perf 6.1 cannot parse (`l1-dcache-load-misses`: a parser
// error at `cache`, after probing `l1-d`): perf reads the one term again as a whole event, which
// fails, and then as a term of the PMU: "unknown term". Here that is also what a failed probe of
// a good name leads to (`cpu_core/L1-dcache-load-misses/`, accepted on a real machine), so the
// rejection is shown by the bare name's parser error, and perf 6.1's semantics must reject both
// forms.
TEST(HybridDiff, LowerCaseCacheNamesAreRejectedAsPerfRejectsThem) {
  OracleOptions options = OracleOptions::from_environment();
  if (auto why = oracle_unavailable(options)) GTEST_SKIP() << "perf oracle unavailable: " << *why;
  if (options.version != PerfRelease::v6_1) GTEST_SKIP() << "perf 6.1's hybrid probes only";
  const fs::path devices =
      fs::path(PMUCAT_SOURCE_DIR) / "fixtures" / "sysfs" / "intel-adl-hybrid" / "devices";
  const std::vector<std::string> names = {"l1-dcache-load-misses", "l1-dcache-loads"};
  std::vector<std::string> specs;
  for (const std::string& name : names) {
    specs.push_back(name);
    specs.push_back("cpu_core/" + name + "/");
    specs.push_back("cpu_atom/" + name + "/");
  }
  const OracleRun run = run_perf(devices, specs, options);
  ASSERT_TRUE(run.failure.empty()) << run.failure;
  ASSERT_EQ(run.results.size(), specs.size());
  auto catalog = Catalog::open(devices);
  ASSERT_TRUE(catalog.has_value());
  for (std::size_t i = 0; i < specs.size(); ++i) {
    const PerfResult& perf = run.results[i];
    if (i % 3 == 0) {
      EXPECT_FALSE(perf.accepted()) << specs[i] << ": " << perf.output;
      EXPECT_NE(perf.error.find("parser error"), std::string::npos) << perf.output;
    } else {
      EXPECT_NE(perf.output.find(fmt::format("unknown term '{}' for pmu", names[i / 3])),
                std::string::npos)
          << specs[i] << ": " << perf.output;
    }
    // pmucat's semantics read cache names in any case, as perf 7.3 does.
    const OurResult ours = encode_words(*catalog, specs[i], oracle_semantics());
    EXPECT_FALSE(ours.accepted()) << specs[i] << ": " << describe(ours.attrs);
  }
}

// Every built-in name perf lists (and its aliases) in six forms on the hybrid fixture: bare,
// with a modifier, on one core PMU, with hard-coded terms. CI: a seeded sample of 40; the full
// run (PMUCAT_VENDOR_DIFF_ALL=1): all of them.
TEST(HybridDiff, GeneratedBuiltInSpecsMatchPerf) {
  OracleOptions options = OracleOptions::from_environment();
  if (auto why = oracle_unavailable(options)) GTEST_SKIP() << "perf oracle unavailable: " << *why;
  const fs::path devices =
      fs::path(PMUCAT_SOURCE_DIR) / "fixtures" / "sysfs" / "intel-adl-hybrid" / "devices";
  auto catalog = Catalog::open(devices);
  ASSERT_TRUE(catalog.has_value());
  std::vector<std::string> names;
  for (const BuiltinEvent& event : builtin_events()) {
    names.push_back(event.name);
    names.insert(names.end(), event.aliases.begin(), event.aliases.end());
  }
  std::vector<std::string> specs;
  // pmucat's semantics take a core PMU's sysfs event of a bare built-in name, as perf 7.3 does.
  const std::set<std::string> default_differs;
  for (const std::string& name : names) {
    for (const std::string& spec :
         {name, name + ":u", "cpu_core/" + name + "/", "cpu_atom/" + name + "/k",
          name + "/period=100/", name + "/config=0x5/"}) {
      specs.push_back(spec);
    }
  }
  if (!full_run()) {
    std::mt19937_64 random(seed());
    std::shuffle(specs.begin(), specs.end(), random);
    specs.resize(40);
  }
  const Tally tally = compare_on_tree(devices, specs, default_differs);
  std::printf("hybrid, generated: %zu specs, perf accepted %zu, pmucat equal %zu\n", tally.specs,
              tally.perf_accepted, tally.equal);
}

// perf's hard-coded terms on built-in, cache and raw events of a non-hybrid machine: a `config`
// term replaces the event's config, `period`/`name`/`metric-id` go where they go for PMU events,
// format terms are unknown, tool events take none.
TEST(LegacyTermsDiff, BuiltInEventsWithTermsMatchPerf) {
  OracleOptions options = OracleOptions::from_environment();
  if (auto why = oracle_unavailable(options)) GTEST_SKIP() << "perf oracle unavailable: " << *why;
  const fs::path devices =
      fs::path(PMUCAT_SOURCE_DIR) / "fixtures" / "sysfs" / "intel-spr" / "devices";
  const std::vector<std::string> specs = {
      "cycles/period=1000/", "cycles/name=foo/u", "cpu-clock/period=1/",
      "L1-dcache-loads/period=1/", "cycles//", "cycles/config=2/", "cycles/event=0x3c/",
      "instructions/period=9/k", "instructions/config=2/", "cs/period=1/", "cycles/foo/",
      "branches/metric-id=x/", "cycles/config1=1,config2=2/", "r3c/period=1/", "r3c//u",
      "r3c/config=5/", "r3c/umask=1/", "L1-dcache-load-misses/config=0x10001/",
      "LLC-loads/period=5/pp", "duration_time//", "duration_time/period=1/",
      "cycles/period=1/,cs//", "cpu/cycles/", "cpu/L1-dcache-loads/", "faults/period=2/k",
      "l1-dcache-load-misses", "cpu/l1-dcache-load-misses/", "l1-d", "l1d-load-misses",
      // Numeric events, TYPE:CONFIG.
      "4:0x3c:u", "1:3/period=1/u", "0x4:60", "4:0x3c/config=5/", "0:0,1:1", "10:5", "0:0/umask=1/",
      "4:0x3c:", "4:0x1ffffffffffffffff", "4:", "3:0x10000/name=x/k"};
  // pmucat rejects a repeated config word from the user (difference 2), and gives raw events
  // the core PMU's type (here also 4).
  const std::set<std::string> default_differs = {};
  const Tally tally = compare_on_tree(devices, specs, default_differs);
  std::printf("built-in events with terms: %zu specs, perf accepted %zu, pmucat equal %zu\n",
              tally.specs, tally.perf_accepted, tally.equal);
  EXPECT_GT(tally.perf_accepted, specs.size() / 2);
}

// An event name with terms, `EVENT/terms/`: perf 6.1's lexer reads names it knows as events of
// some PMU (and the hyphenated topdown-*, mem-loads, ... always) as events before it looks for a
// PMU, and adds the event on every PMU that has it, the user's terms first (so they OR into the
// alias). Other hyphenated names are PMU names to it, which it cannot parse; pmucat semantics
// take them as events too (as newer perf does) and let a user term override the alias's.
TEST(EventTermsDiff, EventNamesWithTermsMatchPerf) {
  OracleOptions options = OracleOptions::from_environment();
  if (auto why = oracle_unavailable(options)) GTEST_SKIP() << "perf oracle unavailable: " << *why;
  const fs::path devices =
      fs::path(PMUCAT_SOURCE_DIR) / "fixtures" / "sysfs" / "intel-spr" / "devices";
  std::vector<std::string> specs = {"slots/metric-id=x/",
                                    "slots//",
                                    "SLOTS/period=1/u",
                                    "slots/umask=0x4/",
                                    "slots/umask=0x1/",
                                    "slots/foo=1/",
                                    "topdown-retiring/metric-id=x/",
                                    "topdown-retiring/metric-id=topdown!1retiring/k",
                                    "topdown-fe-bound//",
                                    "topdown-nonexistent/period=1/",
                                    "mem-loads/ldlat=30/",
                                    "mem-stores/period=5/",
                                    "c6-residency/metric-id=x/",
                                    "energy-pkg//",
                                    "cpu/slots,metric-id=a!1b/"};
  // perf 6.12 puts topdown events in a group led by slots, and after the leader fails to open
  // (as every event does here) it prints no attr for the members: only perf 6.1 shows both.
  if (oracle_perf_version() == PerfRelease::v6_1) {
    specs.push_back("slots/metric-id=s/,topdown-bad-spec/metric-id=topdown!1bad!1spec/");
  }
  // pmucat lets a user term override the alias's value (difference 1) and reads hyphenated
  // event names with terms as newer perf does (perf 6.1 takes them for PMU names and fails).
  std::set<std::string> default_differs = {"slots/umask=0x1/", "mem-loads/ldlat=30/"};
  if (oracle_perf_version() == PerfRelease::v6_1) {
    default_differs.insert({"c6-residency/metric-id=x/", "energy-pkg//"});
  }
  const Tally tally = compare_on_tree(devices, specs, default_differs);
  std::printf("event names with terms: %zu specs, perf accepted %zu, pmucat equal %zu\n",
              tally.specs, tally.perf_accepted, tally.equal);
  EXPECT_GT(tally.perf_accepted, specs.size() / 2);
}

// perf 6.1 retries a PMU that rejects the terms (unknown term, value too wide) on the PMUs named
// like it with a numeric suffix, and keeps those that take the terms; without a PMU of the name
// it keeps the instances that take them. pmucat semantics reject both with a note naming them.
TEST(FallbackDiff, RejectingPmuFallsBackToNumberedNamesakes) {
  OracleOptions options = OracleOptions::from_environment();
  if (auto why = oracle_unavailable(options)) GTEST_SKIP() << "perf oracle unavailable: " << *why;
  const testing::ScratchDir scratch("fallback");
  const fs::path devices = scratch / "devices";
  auto pmu = [&](const std::string& name, std::uint32_t type,
                 const std::vector<std::pair<std::string, std::string>>& formats) {
    testing::write_text(devices / name / "type", fmt::format("{}\n", type));
    for (const auto& [field, bits] : formats) {
      testing::write_text(devices / name / "format" / field, bits + "\n");
    }
  };
  pmu("cpu", 4, {{"event", "config:0-7"}, {"umask", "config:8-15"}});
  pmu("fake", 10042, {{"event", "config:0-7"}});
  pmu("fake10", 10043, {{"event", "config:0-15"}, {"umask", "config:16-23"}});
  pmu("fake_2", 10044, {{"event", "config:0-7"}, {"umask", "config:8-15"}});
  pmu("fakeq", 10045, {{"event", "config:0-7"}, {"umask", "config:8-15"}});
  pmu("solo", 10046, {{"event", "config:0-7"}});
  pmu("multi_0", 10047, {{"event", "config:0-7"}});
  pmu("multi_1", 10048, {{"event", "config:0-7"}, {"umask", "config:8-15"}});
  const std::vector<std::string> specs = {"fake/event=0x1/",        "fake/event=0x1,umask=0x2/",
                                          "fake/event=0x1ff/",      "fake/event=0x1ffff/",
                                          "fake/umask=1/u",         "solo/umask=1/",
                                          "multi/event=1,umask=2/", "multi/event=1/",
                                          "fake10/umask=3/"};
  const std::set<std::string> default_differs = {"fake/event=0x1,umask=0x2/", "fake/event=0x1ff/",
                                                 "fake/umask=1/u", "multi/event=1,umask=2/"};
  const Tally tally = compare_on_tree(devices, specs, default_differs);
  std::printf("exact PMU fallback: %zu specs, perf accepted %zu, pmucat equal %zu\n", tally.specs,
              tally.perf_accepted, tally.equal);
}

}  // namespace
}  // namespace differential
PMUCAT_END_NAMESPACE
