// pmuencode --json gives the type and config words the installed perf (6.1) puts in
// perf_event_attr, for every plain event of every fixture tree. perf reads the fixture through a
// bind mount in a private mount namespace; the test is skipped where that is not allowed.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "pmucat/version.h"
#include "support/tools.h"

PMUCAT_BEGIN_NAMESPACE
namespace testing {
namespace {

using nlohmann::json;

struct Words {
  std::uint64_t type = 0, config = 0, config1 = 0, config2 = 0;
  bool seen = false;
  friend bool operator==(const Words&, const Words&) = default;
};

std::ostream& operator<<(std::ostream& out, const Words& words) {
  return out << "type=" << words.type << std::hex << " config=0x" << words.config << " config1=0x"
             << words.config1 << " config2=0x" << words.config2 << std::dec
             << (words.seen ? "" : " (perf printed no attr)");
}

bool oracle_available() {
  const CommandResult probe =
      run_tool_command("command -v perf >/dev/null && unshare -m true", "-");
  return probe.status == 0;
}

// perf 6.1 cannot lex a PMU name with '-', and treats some names specially outside pmu//.
bool perf_can_parse(const std::string& perf_form) {
  const std::string pmu = perf_form.substr(0, perf_form.find('/'));
  return pmu.find('-') == std::string::npos;
}

// Runs `perf stat -vv -e EVENT true` for each event against the tree and collects the
// type/config words of the first attr perf prints for each.
std::map<std::string, Words> ask_perf(const std::string& tree,
                                      const std::vector<std::string>& events) {
  const std::string devices =
      source_dir() + "/fixtures/sysfs/" + tree + "/bus/event_source/devices";
  // The tree's symlinks are relative to its own root; perf must see absolute ones.
  std::string script = "set -e; links=$(mktemp -d); for p in " + shell_quote(devices) +
                       "/*; do ln -s \"$(readlink -f \"$p\")\" \"$links/${p##*/}\"; done; "
                       "mount --bind \"$links\" /sys/bus/event_source/devices; set +e; ";
  for (const std::string& event : events) {
    script += "echo '=== '" + shell_quote(event) + "; perf stat -vv -e " + shell_quote(event) +
              " true 2>&1 | sed -n '/^perf_event_attr:/,/^-----/p' | sed -n '1,/^-----/p'; ";
  }
  const CommandResult result = run_tool_command("unshare -m sh -c " + shell_quote(script), "-");
  std::map<std::string, Words> words;
  std::istringstream lines(result.out);
  std::string line;
  std::string current;
  while (std::getline(lines, line)) {
    if (line.rfind("=== ", 0) == 0) {
      current = line.substr(4);
      words[current] = Words{};
      continue;
    }
    // perf prints unions as `{ bp_addr, config1 }  0x3`: the name is the last word before the
    // value, without the brace.
    std::istringstream fields(line);
    std::string word, name, value;
    while (fields >> word) {
      if (word == "}") continue;
      name = value;
      value = word;
    }
    if (!name.empty() && name.back() == ',') name.pop_back();
    if (line.find("config1 }") != std::string::npos) name = "config1";
    if (line.find("config2 }") != std::string::npos) name = "config2";
    if (current.empty() || value.empty()) continue;
    if (name != "type" && name != "config" && name != "config1" && name != "config2") continue;
    Words& entry = words[current];
    const std::uint64_t number = std::stoull(value, nullptr, 0);
    if (name == "type") {
      entry.type = number;
      entry.seen = true;
    } else if (name == "config") {
      entry.config = number;
    } else if (name == "config1") {
      entry.config1 = number;
    } else if (name == "config2") {
      entry.config2 = number;
    }
  }
  return words;
}

class PerfOracle : public ::testing::TestWithParam<const char*> {};

TEST_P(PerfOracle, PmuencodeMatchesPerf) {
  if (!oracle_available()) GTEST_SKIP() << "perf or unshare -m not usable here";
  const std::string tree = GetParam();
  const CommandResult listing = run_tool_command("pmuls --json", tree);
  ASSERT_EQ(listing.status, 0) << listing.err;
  const json catalog = json::parse(listing.out);
  std::vector<std::string> events;
  for (const json& pmu : catalog["pmus"]) {
    for (const json& event : pmu["events"]) {
      const std::string perf_form = event["perf"];
      if (event.contains("config") && event["params"].empty() && perf_can_parse(perf_form)) {
        events.push_back(perf_form);
      }
    }
  }
  ASSERT_FALSE(events.empty());
  std::string command = "pmuencode --json --perf-semantics";
  for (const std::string& event : events) command += " " + shell_quote(event);
  const CommandResult encoded = run_tool_command(command, tree);
  ASSERT_EQ(encoded.status, 0) << encoded.err;
  const json attrs = json::parse(encoded.out);
  ASSERT_EQ(attrs.size(), events.size());

  const std::map<std::string, Words> perf = ask_perf(tree, events);
  int compared = 0;
  for (std::size_t i = 0; i < events.size(); ++i) {
    Words ours;
    ours.type = attrs[i]["type"];
    ours.config = attrs[i]["config"];
    ours.config1 = attrs[i]["config1"];
    ours.config2 = attrs[i]["config2"];
    ours.seen = true;
    const auto found = perf.find(events[i]);
    ASSERT_NE(found, perf.end()) << events[i] << ": perf was not run";
    EXPECT_EQ(ours, found->second) << events[i];
    ++compared;
  }
  EXPECT_EQ(compared, static_cast<int>(events.size()));
}

INSTANTIATE_TEST_SUITE_P(Trees, PerfOracle,
                         ::testing::Values("intel-spr", "amd-zen4", "arm-neoverse", "power9"),
                         [](const ::testing::TestParamInfo<const char*>& param_info) {
                           std::string name = param_info.param;
                           for (char& c : name) {
                             if (c == '-') c = '_';
                           }
                           return name;
                         });

}  // namespace
}  // namespace testing
PMUCAT_END_NAMESPACE
