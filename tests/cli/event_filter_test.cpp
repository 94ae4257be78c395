// Internal unit test of pmuls' event selection (--topic, --event GLOB, --search, --deprecated), its
// listing order and its description layout.
#include "pmuls/event_filter.h"

#include <gtest/gtest.h>

#include <memory>

#include "pmucat/version.h"
#include "pmuls/event_listing.h"

PMUCAT_BEGIN_NAMESPACE
namespace cli {
namespace {

Event sysfs_event(std::string name) {
  Event event;
  event.name = std::move(name);
  return event;
}

Event json_event(std::string name, std::string topic, std::string brief,
                 std::string public_description = {}, bool deprecated = false) {
  auto vendor = std::make_shared<VendorEvent>();
  vendor->name = name;
  vendor->topic = std::move(topic);
  vendor->brief_description = std::move(brief);
  vendor->public_description = std::move(public_description);
  vendor->deprecated = deprecated;
  Event event;
  event.name = std::move(name);
  event.source = EventSource::json;
  event.vendor = std::move(vendor);
  return event;
}

TEST(EventFilter, NoConditionSelectsEverythingButDeprecatedEvents) {
  const EventFilter filter;
  EXPECT_FALSE(filter.narrows());
  EXPECT_TRUE(event_selected(sysfs_event("cycles"), filter));
  EXPECT_TRUE(event_selected(json_event("l1d.replacement", "cache", "L1D lines"), filter));
  const Event old = json_event("uops.old", "pipeline", "Old", "", true);
  EXPECT_FALSE(event_selected(old, filter));
  EventFilter with_deprecated;
  with_deprecated.deprecated = true;
  EXPECT_TRUE(event_selected(old, with_deprecated));
}

TEST(EventFilter, TopicsMatchExactlyIgnoringCaseAndSkipSysfsEvents) {
  EventFilter filter;
  filter.topics = parse_topics(std::vector<std::string>{"Cache, uncore memory"});
  EXPECT_TRUE(filter.narrows());
  EXPECT_TRUE(event_selected(json_event("a", "cache", ""), filter));
  EXPECT_TRUE(event_selected(json_event("b", "uncore memory", ""), filter));
  EXPECT_FALSE(event_selected(json_event("c", "uncore cache", ""), filter));
  EXPECT_FALSE(event_selected(json_event("d", "cach", ""), filter));
  EXPECT_FALSE(event_selected(sysfs_event("cycles"), filter));
}

TEST(EventFilter, TopicListsAreSplitAndTrimmed) {
  EXPECT_EQ(parse_topics(std::vector<std::string>{" cache ,,Pipeline", "other"}),
            (std::vector<std::string>{"cache", "pipeline", "other"}));
  EXPECT_TRUE(parse_topics(std::vector<std::string>{" , "}).empty());
}

TEST(EventFilter, NameGlobIsCaseInsensitive) {
  EventFilter filter;
  filter.name_glob = "UNC_CHA_*";
  EXPECT_TRUE(event_selected(json_event("unc_cha_clockticks", "uncore cache", ""), filter));
  EXPECT_FALSE(event_selected(json_event("unc_m_cas_count.rd", "uncore memory", ""), filter));
  EXPECT_TRUE(glob_matches_nocase("mem-load?", "MEM-LOADS"));
  EXPECT_TRUE(glob_matches_nocase("[lm]*", "Mem"));
  EXPECT_FALSE(glob_matches_nocase("mem", "mem-loads")) << "a glob matches the whole name";
}

TEST(EventFilter, IsGlobLooksForGlobCharacters) {
  EXPECT_TRUE(is_glob("unc_*"));
  EXPECT_TRUE(is_glob("mem-load?"));
  EXPECT_TRUE(is_glob("[ab]"));
  EXPECT_FALSE(is_glob("mem-loads"));
  EXPECT_FALSE(is_glob(""));
}

TEST(EventFilter, SearchNeedsEveryWordInNameTopicOrDescriptions) {
  const Event event = json_event("mem_load_retired.l3_miss", "cache",
                                 "Retired loads that missed L3", "Counts retired LOADS, precisely");
  auto search = [](std::string words) {
    EventFilter filter;
    filter.words = parse_search_words(std::vector<std::string>{std::move(words)});
    return filter;
  };
  EXPECT_TRUE(event_selected(event, search("l3_miss")));
  EXPECT_TRUE(event_selected(event, search("MISSED  cache")));
  EXPECT_TRUE(event_selected(event, search("precisely")));
  EXPECT_FALSE(event_selected(event, search("missed dram")));
  EXPECT_TRUE(event_selected(sysfs_event("mem-loads"), search("LOADS")));
  EXPECT_FALSE(event_selected(sysfs_event("mem-loads"), search("retired")));
}

TEST(EventFilter, SearchWordsSplitAtBlanksAcrossValues) {
  EXPECT_EQ(parse_search_words(std::vector<std::string>{"L3  Miss", "\tdram"}),
            (std::vector<std::string>{"l3", "miss", "dram"}));
}

TEST(EventListing, UndescribedEventsFirstThenByTopicThenName) {
  PmuInfo info;
  info.name = "cpu";
  // In name order, as a PMU holds them. c.nodesc is a JSON event without a description: perf
  // lists it with the sysfs events, not under its topic.
  info.events = {json_event("a.cache", "cache", "A"), json_event("b.pipe", "pipeline", "B"),
                 json_event("c.nodesc", "cache", ""), sysfs_event("cycles"),
                 json_event("d.cache", "cache", "D"), json_event("e.old", "cache", "E", "", true),
                 sysfs_event("instructions")};
  const Pmu pmu = Pmu::from_info(std::move(info));
  std::vector<std::string> names;
  for (const Event* event : listed_events(pmu, {})) names.push_back(event->name);
  EXPECT_EQ(names, (std::vector<std::string>{"cycles", "instructions", "c.nodesc", "a.cache",
                                             "d.cache", "b.pipe"}));
}

TEST(EventListing, DescriptionsAreBracketedIndentedAndWrapped) {
  EXPECT_EQ(render_description("Short text", 78), "       [Short text]\n");
  // Width 20: 12 columns of text after the 8 of indentation, the bracket included.
  EXPECT_EQ(render_description("alpha beta gamma delta", 20),
            "       [alpha beta\n"
            "        gamma delta]\n");
  EXPECT_EQ(render_description("alpha beta gamma delta", 0), "       [alpha beta gamma delta]\n");
  // The closing bracket never pushes a line past the width.
  const std::string text = render_description("aaaa bbbbbbb", 20);
  std::size_t start = 0;
  while (start < text.size()) {
    const std::size_t end = text.find('\n', start);
    EXPECT_LE(end - start, 20u) << text;
    start = end + 1;
  }
}

}  // namespace
}  // namespace cli
PMUCAT_END_NAMESPACE
