// Internal unit test of the built-in event list (pmucat/builtin_events.h) against the encoder's
// legacy table (src/encode/legacy_events.h): one table, so the two cannot drift apart.
#include "pmucat/builtin_events.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "encode/legacy_events.h"
#include "pmucat/encode.h"
#include "sample_tree.h"

PMUCAT_BEGIN_NAMESPACE
namespace {

std::string listed_text(const BuiltinEvent& event) {
  std::string text = event.name;
  for (const std::string& alias : event.aliases) text += " OR " + alias;
  return text;
}

Pmu info_pmu(std::string name, std::uint32_t type, bool with_cpus) {
  PmuInfo info;
  info.name = std::move(name);
  info.attributes.type = type;
  info.attributes.type_text = std::to_string(type);
  if (with_cpus) info.attributes.cpus = CpuList{"0-3", {0, 1, 2, 3}};
  return Pmu::from_info(std::move(info));
}

TEST(BuiltinEvents, ListsExactlyTheNamesTheEncoderSuggests) {
  std::multiset<std::string> listed;
  for (const BuiltinEvent& event : builtin_events()) {
    listed.insert(event.name);
    for (const std::string& alias : event.aliases) listed.insert(alias);
  }
  const std::vector<std::string> names = encode_detail::legacy_event_names();
  const std::multiset<std::string> encoder(names.begin(), names.end());
  EXPECT_EQ(listed, encoder);
}

// Every listed spelling encodes, with perf 6.1's semantics and with pmucat's, to the entry's
// type and config: a name added to one side only, or a wrong config, fails here. The tree has a
// core PMU without events (a PMU event of the same name would take a bare name).
TEST(BuiltinEvents, EveryListedNameEncodesToItsEntry) {
  std::vector<Pmu> pmus;
  pmus.push_back(info_pmu("cpu", 4, false));
  pmus.push_back(info_pmu("software", 1, false));
  const Catalog catalog = Catalog::from_pmus(std::move(pmus));
  for (Profile semantics : {Profile::perf(PerfRelease::v6_1), Profile::perf(PerfRelease::v6_12)}) {
    EncodeOptions options;
    options.semantics = semantics;
    for (const BuiltinEvent& event : builtin_events()) {
      std::vector<std::string> spellings = event.aliases;
      spellings.push_back(event.name);
      for (const std::string& spelling : spellings) {
        const auto encoded = encode(catalog, spelling, options);
        ASSERT_TRUE(encoded.has_value()) << spelling << ": " << encoded.error().message;
        ASSERT_EQ(encoded->size(), 1u) << spelling;
        EXPECT_EQ(encoded->front().attr.type, static_cast<std::uint32_t>(event.type)) << spelling;
        EXPECT_EQ(encoded->front().attr.config[0], event.config) << spelling;
        const auto direct = encode_detail::find_legacy_event(spelling);
        ASSERT_TRUE(direct.has_value()) << spelling;
        EXPECT_EQ(direct->config, event.config) << spelling;
      }
    }
  }
}

TEST(BuiltinEvents, PerfListSectionsAndOrder) {
  const std::vector<BuiltinEvent> events = builtin_events();
  std::vector<std::string> hardware;
  std::vector<std::string> software;
  std::vector<std::string> tool;
  std::vector<std::string> cache;
  for (const BuiltinEvent& event : events) {
    switch (event.kind) {
      case BuiltinKind::hardware:
        hardware.push_back(listed_text(event));
        break;
      case BuiltinKind::software:
        software.push_back(listed_text(event));
        break;
      case BuiltinKind::tool:
        tool.push_back(listed_text(event));
        break;
      case BuiltinKind::hw_cache:
        cache.push_back(listed_text(event));
        break;
    }
  }
  // Sections in perf list's order, never interleaved.
  EXPECT_TRUE(
      std::is_sorted(events.begin(), events.end(),
                     [](const BuiltinEvent& a, const BuiltinEvent& b) { return a.kind < b.kind; }));
  // perf 6.1's `perf list hw` on a machine that counts them all.
  EXPECT_EQ(hardware,
            (std::vector<std::string>{"branch-instructions OR branches", "branch-misses",
                                      "bus-cycles", "cache-misses", "cache-references",
                                      "cpu-cycles OR cycles", "instructions", "ref-cycles",
                                      "stalled-cycles-backend OR idle-cycles-backend",
                                      "stalled-cycles-frontend OR idle-cycles-frontend"}));
  // perf 6.1's `perf list sw` (as this VM's perf prints it).
  EXPECT_EQ(software,
            (std::vector<std::string>{
                "alignment-faults", "bpf-output", "cgroup-switches", "context-switches OR cs",
                "cpu-clock", "cpu-migrations OR migrations", "dummy", "emulation-faults",
                "major-faults", "minor-faults", "page-faults OR faults", "task-clock"}));
  EXPECT_EQ(tool, (std::vector<std::string>{"duration_time", "user_time", "system_time"}));
  // 16 type/operation pairs perf considers valid, each as accesses and misses, byte-sorted.
  ASSERT_EQ(cache.size(), 32u);
  EXPECT_TRUE(std::is_sorted(cache.begin(), cache.end()));
  EXPECT_EQ(cache.front(), "L1-dcache-load-misses");
  EXPECT_EQ(cache.back(), "node-stores");
  for (const char* name : {"LLC-prefetches", "iTLB-load-misses", "branch-loads",
                           "L1-icache-prefetch-misses", "dTLB-store-misses"}) {
    EXPECT_NE(std::find(cache.begin(), cache.end(), name), cache.end()) << name;
  }
  for (const BuiltinEvent& event : events) {
    EXPECT_FALSE(event.description.empty()) << event.name;
  }
  EXPECT_EQ(builtin_kind_tag(BuiltinKind::hw_cache), "Hardware cache event");
  EXPECT_EQ(to_string(BuiltinKind::hw_cache), "cache");
}

TEST(BuiltinEvents, HardwareKindsNeedACorePmu) {
  std::vector<Pmu> none;
  none.push_back(info_pmu("software", 1, false));
  const Catalog without = Catalog::from_pmus(std::move(none));
  EXPECT_TRUE(builtin_kind_pmus(without, BuiltinKind::hardware).empty());
  EXPECT_FALSE(builtin_kind_available(BuiltinKind::hardware, {}));
  EXPECT_FALSE(builtin_kind_available(BuiltinKind::hw_cache, {}));
  EXPECT_TRUE(builtin_kind_available(BuiltinKind::software, {}));
  EXPECT_TRUE(builtin_kind_available(BuiltinKind::tool, {}));

  std::vector<Pmu> hybrid;
  hybrid.push_back(info_pmu("cpu_atom", 10, true));
  hybrid.push_back(info_pmu("cpu_core", 4, true));
  hybrid.push_back(info_pmu("uncore_imc_0", 18, false));
  const Catalog both = Catalog::from_pmus(std::move(hybrid));
  const std::vector<const Pmu*> cores = builtin_kind_pmus(both, BuiltinKind::hw_cache);
  ASSERT_EQ(cores.size(), 2u);
  EXPECT_EQ(cores[0]->name(), "cpu_atom");
  EXPECT_EQ(cores[1]->name(), "cpu_core");
  EXPECT_TRUE(builtin_kind_pmus(both, BuiltinKind::software).empty());

  const Catalog sample = testing::extended_catalog();
  const std::vector<const Pmu*> cpu = builtin_kind_pmus(sample, BuiltinKind::hardware);
  ASSERT_EQ(cpu.size(), 1u);
  EXPECT_EQ(cpu[0]->name(), "cpu");
}

}  // namespace
PMUCAT_END_NAMESPACE
