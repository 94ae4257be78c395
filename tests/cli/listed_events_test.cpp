// Internal unit test of pmuls' non-PMU events (--kind): kind parsing, filters, perf list's lines,
// availability from the tree, and the JSON entries.
#include "pmuls/listed_events.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "pmucat/version.h"

PMUCAT_BEGIN_NAMESPACE
namespace cli {
namespace {

Catalog catalog_of(std::vector<std::pair<std::string, bool>> pmus) {
  std::vector<Pmu> list;
  for (auto& [name, with_cpus] : pmus) {
    PmuInfo info;
    info.name = name;
    info.attributes.type = 4;
    info.attributes.type_text = "4";
    if (with_cpus) info.attributes.cpus = CpuList{"0-1", {0, 1}};
    list.push_back(Pmu::from_info(std::move(info)));
  }
  return Catalog::from_pmus(std::move(list));
}

TEST(ListedEvents, KindsAndTheirSpellings) {
  const std::vector<std::string> values{"hw, software", "hwcache"};
  const KindSet kinds = parse_kinds(values);
  EXPECT_TRUE(kinds.has(ListKind::hw));
  EXPECT_TRUE(kinds.has(ListKind::sw));
  EXPECT_TRUE(kinds.has(ListKind::cache));
  EXPECT_FALSE(kinds.has(ListKind::tool));
  EXPECT_FALSE(kinds.has(ListKind::pmu));
  const std::vector<std::string> all{"all"};
  EXPECT_TRUE(parse_kinds(all).has(ListKind::pmu));
  EXPECT_TRUE(parse_kinds(all).has(ListKind::tool));
  EXPECT_FALSE(parse_kinds(all).has(ListKind::tracepoint));
  EXPECT_EQ(kind_check("hw,sw,tool,cache,pmu,all"), "");
  EXPECT_NE(kind_check("hw,bogus").find("'bogus'"), std::string::npos);
  EXPECT_EQ(kind_check("tracepoint"), "");
  EXPECT_TRUE(parse_kinds(std::vector<std::string>{"tracepoint"}).has(ListKind::tracepoint));
  KindSet pmu_only;
  pmu_only.add(ListKind::pmu);
  EXPECT_FALSE(pmu_only.has_non_pmu());
}

TEST(ListedEvents, AvailabilityFollowsTheCorePmus) {
  const Catalog none = catalog_of({{"uncore_imc_0", false}});
  for (const ListedEvent& event : builtin_listed_events(none, KindSet::all_builtins())) {
    const bool hardware = event.kind == "hw" || event.kind == "cache";
    EXPECT_EQ(event.available, !hardware) << event.name;
    EXPECT_TRUE(event.pmus.empty()) << event.name;
  }
  const Catalog hybrid = catalog_of({{"cpu_atom", true}, {"cpu_core", true}, {"msr", false}});
  KindSet cache;
  cache.add(ListKind::cache);
  const std::vector<ListedEvent> events = builtin_listed_events(hybrid, cache);
  ASSERT_EQ(events.size(), 32u);
  EXPECT_TRUE(events.front().available);
  EXPECT_EQ(events.front().pmus, (std::vector<std::string>{"cpu_atom", "cpu_core"}));
}

TEST(ListedEvents, FiltersAndLines) {
  const Catalog none = catalog_of({});
  const std::vector<ListedEvent> events = builtin_listed_events(none, KindSet::all_builtins());
  EventFilter glob;
  glob.name_glob = "CS";  // an alias, case-insensitively
  std::vector<ListedEvent> matched;
  for (const ListedEvent& event : events) {
    if (listed_event_selected(event, glob)) matched.push_back(event);
  }
  ASSERT_EQ(matched.size(), 1u);
  EXPECT_EQ(render_listed_events(matched),
            "  context-switches OR cs                             [Software event]\n");
  EventFilter words;
  words.words = {"tool", "wall-clock"};  // the tag and the description
  matched.clear();
  for (const ListedEvent& event : events) {
    if (listed_event_selected(event, words)) matched.push_back(event);
  }
  ASSERT_EQ(matched.size(), 1u);
  EXPECT_EQ(matched[0].name, "duration_time");
  EventFilter topic;
  topic.topics = {"cache"};
  for (const ListedEvent& event : events) EXPECT_FALSE(listed_event_selected(event, topic));
  // A hardware event on a tree without a core PMU says so.
  const std::vector<const ListedEvent*> cycles = find_listed_events(events, "cycles");
  ASSERT_EQ(cycles.size(), 1u);
  EXPECT_EQ(render_listed_events({cycles[0], 1}),
            "  cpu-cycles OR cycles                               [Hardware event]  (not "
            "available: no core PMU)\n");
  const Json json = listed_events_to_json({cycles[0], 1});
  EXPECT_EQ(json[0]["kind"], "hw");
  EXPECT_EQ(json[0]["EventAlias"], "cycles");
  EXPECT_EQ(json[0]["available"], false);
  // The streamed text is the same document.
  EXPECT_EQ(Json::parse(listed_events_json_text(events)), listed_events_to_json(events));
}

}  // namespace
}  // namespace cli
PMUCAT_END_NAMESPACE
