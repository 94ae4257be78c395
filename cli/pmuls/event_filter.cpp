#include "pmuls/event_filter.h"

#include <fnmatch.h>

#include <algorithm>

#include "pmucat/version.h"

PMUCAT_BEGIN_NAMESPACE
namespace cli {
namespace {

std::string lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

std::string_view trim_blanks(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  return text;
}

}  // namespace

std::vector<std::string> parse_topics(std::span<const std::string> values) {
  std::vector<std::string> topics;
  for (std::string_view value : values) {
    while (true) {
      const std::size_t comma = value.find(',');
      const std::string_view item = trim_blanks(value.substr(0, comma));
      if (!item.empty()) topics.push_back(lower(item));
      if (comma == std::string_view::npos) break;
      value.remove_prefix(comma + 1);
    }
  }
  return topics;
}

std::vector<std::string> parse_search_words(std::span<const std::string> values) {
  std::vector<std::string> words;
  for (std::string_view value : values) {
    std::size_t i = 0;
    while (i < value.size()) {
      while (i < value.size() && (value[i] == ' ' || value[i] == '\t')) ++i;
      std::size_t end = i;
      while (end < value.size() && value[end] != ' ' && value[end] != '\t') ++end;
      if (end > i) words.push_back(lower(value.substr(i, end - i)));
      i = end;
    }
  }
  return words;
}

bool is_glob(std::string_view text) {
  return text.find_first_of("*?[") != std::string_view::npos;
}

bool glob_matches_nocase(std::string_view pattern, std::string_view text) {
  return fnmatch(lower(pattern).c_str(), lower(text).c_str(), 0) == 0;
}

std::string_view event_topic(const Event& event) {
  return event.vendor ? std::string_view(event.vendor->topic) : std::string_view();
}

bool contains_nocase(std::string_view haystack, std::string_view needle) {
  auto it = std::search(haystack.begin(), haystack.end(), needle.begin(), needle.end(),
                        [](char a, char b) {
                          if (a >= 'A' && a <= 'Z') a = static_cast<char>(a - 'A' + 'a');
                          return a == b;
                        });
  return it != haystack.end();
}

bool event_selected(const Event& event, const EventFilter& filter) {
  if (event.vendor && event.vendor->deprecated && !filter.deprecated) return false;
  if (!filter.topics.empty()) {
    const std::string topic = lower(event_topic(event));
    if (topic.empty() ||
        std::find(filter.topics.begin(), filter.topics.end(), topic) == filter.topics.end()) {
      return false;
    }
  }
  if (!filter.name_glob.empty() && !glob_matches_nocase(filter.name_glob, event.name)) {
    return false;
  }
  for (const std::string& word : filter.words) {
    bool found = contains_nocase(event.name, word);
    if (!found && event.vendor) {
      const VendorEvent& vendor = *event.vendor;
      found = contains_nocase(vendor.topic, word) ||
              contains_nocase(vendor.brief_description, word) ||
              contains_nocase(vendor.public_description, word);
    }
    if (!found) return false;
  }
  return true;
}

}  // namespace cli
PMUCAT_END_NAMESPACE
