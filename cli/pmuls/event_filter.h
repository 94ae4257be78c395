// Which events pmuls lists: --topic, --event GLOB, --search WORDS and --deprecated, as one value
// and one pure predicate.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "pmucat/catalog.h"

PMUCAT_BEGIN_NAMESPACE
namespace cli {

struct EventFilter {
  // Topics (`cache`, `uncore memory`), lower case; an event matches one of them exactly,
  // case-insensitively. Empty: any topic, and events without one.
  std::vector<std::string> topics;
  // An fnmatch-style glob (`*`, `?`, `[...]`) over the event's name, case-insensitive; empty: any.
  std::string name_glob;
  // Lower-case words that must all appear (as substrings, case-insensitively) in the event's
  // name, topic or descriptions; empty: no condition.
  std::vector<std::string> words;
  // Deprecated JSON events are listed only when set (perf list's --deprecated).
  bool deprecated = false;

  // True when a topic, glob or word narrows the listing: PMUs without a matching event are then
  // left out, and a listing with no event at all is an error.
  bool narrows() const { return !topics.empty() || !name_glob.empty() || !words.empty(); }
};

// --topic values: each may be a comma list; blanks around items are dropped, empty items ignored.
std::vector<std::string> parse_topics(std::span<const std::string> values);

// --search values: the words of every value (split at blanks), lower case.
std::vector<std::string> parse_search_words(std::span<const std::string> values);

// True when `text` has a glob character (`*`, `?`, `[`): --event then lists the events it
// matches instead of showing one event in full.
bool is_glob(std::string_view text);

// fnmatch(3) without flags over the lower-cased pattern and text.
bool glob_matches_nocase(std::string_view pattern, std::string_view text);

// `haystack` holds `needle` (already lower case), ignoring ASCII case: a --search word.
bool contains_nocase(std::string_view haystack, std::string_view needle);

// Whether `event` passes `filter`.
bool event_selected(const Event& event, const EventFilter& filter);

// The event's topic (its JSON file's), or "" for a sysfs-only event.
std::string_view event_topic(const Event& event);

}  // namespace cli
PMUCAT_END_NAMESPACE
