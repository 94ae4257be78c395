// pmucat::builtin_events() against the real `perf list hw sw cache` when perf 6.1 is installed
// (skipped otherwise: the names, alias groups and order are 6.1's).
//
// perf lists a hardware, software or cache event only when opening it on this machine succeeds,
// so a VM without a virtual PMU lists no hardware and no cache event at all, and an older kernel
// fewer software ones. What perf prints must therefore be a subsequence of our list (same text,
// same tag, same order); the tool events, which perf never probes, must be all there.
#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "pmucat/builtin_events.h"

PMUCAT_BEGIN_NAMESPACE
namespace {

struct Line {
  std::string text;  // `cpu-cycles OR cycles`
  std::string tag;   // `Hardware event`
  friend bool operator==(const Line&, const Line&) = default;
};

std::string run(const char* command) {
  std::unique_ptr<FILE, int (*)(FILE*)> pipe(::popen(command, "r"), ::pclose);
  if (!pipe) return {};
  std::string out;
  std::array<char, 4096> buffer{};
  while (std::size_t n = std::fread(buffer.data(), 1, buffer.size(), pipe.get())) {
    out.append(buffer.data(), n);
  }
  return out;
}

std::string trim(std::string text) {
  while (!text.empty() && (text.back() == ' ' || text.back() == '\n')) text.pop_back();
  std::size_t start = 0;
  while (start < text.size() && text[start] == ' ') ++start;
  return text.substr(start);
}

// perf's `  %-50s [%s]` lines; anything else (headings, blank lines) is skipped.
std::vector<Line> parse_perf_list(const std::string& out) {
  std::vector<Line> lines;
  std::size_t start = 0;
  while (start < out.size()) {
    std::size_t end = out.find('\n', start);
    if (end == std::string::npos) end = out.size();
    const std::string line = out.substr(start, end - start);
    start = end + 1;
    const std::size_t open = line.rfind(" [");
    if (open == std::string::npos || line.back() != ']') continue;
    lines.push_back({trim(line.substr(0, open)), line.substr(open + 2, line.size() - open - 3)});
  }
  return lines;
}

std::vector<Line> our_lines() {
  std::vector<Line> lines;
  for (const BuiltinEvent& event : builtin_events()) {
    std::string text = event.name;
    for (const std::string& alias : event.aliases) text += " OR " + alias;
    lines.push_back({text, std::string(builtin_kind_tag(event.kind))});
  }
  return lines;
}

TEST(PerfList, BuiltinNamesTagsAndOrderMatchPerf61) {
  const std::string version = run("perf version 2>/dev/null");
  if (version.rfind("perf version 6.1.", 0) != 0) {
    GTEST_SKIP() << "needs perf 6.1 (found: '" << trim(version) << "')";
  }
  // perf 6.1 has no `tool` selector: `sw` lists the tool events too.
  const std::vector<Line> perf = parse_perf_list(run("perf list hw sw cache 2>/dev/null"));
  ASSERT_FALSE(perf.empty()) << "perf list printed no event";
  const std::vector<Line> ours = our_lines();
  std::size_t next = 0;
  for (const Line& line : perf) {
    while (next < ours.size() && !(ours[next] == line)) ++next;
    ASSERT_LT(next, ours.size()) << "perf lists '" << line.text << "' [" << line.tag
                                 << "], not in our list or out of perf's order";
    ++next;
  }
  std::vector<std::string> tools;
  for (const Line& line : perf) {
    if (line.tag == "Tool event") tools.push_back(line.text);
  }
  EXPECT_EQ(tools, (std::vector<std::string>{"duration_time", "user_time", "system_time"}));
}

}  // namespace
PMUCAT_END_NAMESPACE
