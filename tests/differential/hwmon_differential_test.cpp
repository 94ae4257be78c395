// perf 7.2+'s hwmon PMUs against the real perf: scripts/hwmon-oracle.sh gives perf a fake
// /sys/class/hwmon (the default layout of docs/hwmon.md) in a private mount namespace, pmucat
// reads the same devices from a tree's class/hwmon, and every spec must give the same attrs
// (type and config words) or be rejected by both. Runs with an oracle that has hwmon PMUs
// (PMUCAT_DIFF_PERF_VERSION=7.3, the `.perf7.3` test); skips otherwise.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "comparison.h"
#include "diff_env.h"
#include "perf_oracle.h"
#include "pmucat/catalog.h"
#include "pmucat/encode.h"
#include "support/command.h"
#include "support/hwmon_layout.h"
#include "support/temp_tree.h"

PMUCAT_BEGIN_NAMESPACE
namespace differential {
namespace {

namespace fs = std::filesystem;

// The default layout twice: for perf, one directory per device (scripts/hwmon-oracle.sh links
// them into its class/hwmon); for pmucat, a tree with intel-spr's PMUs and the same devices
// under its class/hwmon.
struct HwmonTrees {
  HwmonTrees() {
    const fs::path source(PMUCAT_SOURCE_DIR);
    tree.symlink((source / "fixtures" / "sysfs" / "intel-spr" / "bus").string(), "bus");
    for (const auto& file : testing::hwmon_default_layout()) {
      layout.write(std::string(file.device) + "/" + file.name, file.text);
      tree.write(std::string("sys-devices/") + file.device + "/" + file.name, file.text);
      if (!fs::is_symlink(tree.path(std::string("class/hwmon/") + file.device))) {
        tree.symlink(std::string("../../sys-devices/") + file.device,
                     std::string("class/hwmon/") + file.device);
      }
    }
  }
  testing::TempTree layout{"hwmon-layout"};
  testing::TempTree tree{"hwmon-tree"};
};

// Why the oracle cannot answer for hwmon PMUs here: a perf without them, or no oracle at all.
std::optional<std::string> hwmon_oracle_unavailable(const OracleOptions& options) {
  if (!Profile::perf(options.version).has(Behaviour::hwmon_pmus)) {
    return "perf " + std::string(to_string(options.version)) + " has no hwmon PMUs";
  }
  if (auto why = oracle_unavailable(options)) return "perf oracle unavailable: " + *why;
  return std::nullopt;
}

TEST(HwmonDiff, SensorsEncodeAsPerfEncodesThem) {
  const OracleOptions options = OracleOptions::from_environment();
  if (auto why = hwmon_oracle_unavailable(options)) GTEST_SKIP() << *why;
  const fs::path source(PMUCAT_SOURCE_DIR);
  const fs::path devices = source / "fixtures" / "sysfs" / "intel-spr" / "devices";
  const HwmonTrees trees;
  const testing::TempTree& layout = trees.layout;
  const testing::TempTree& tree = trees.tree;
  auto catalog = Catalog::open(tree.root());
  ASSERT_TRUE(catalog.has_value()) << catalog.error().message;

  // docs/hwmon.md §6's specs, less pmucat's documented differences (hwmon.md, "pmucat").
  const std::vector<std::string> specs = {
      "temp1", "temp1_input", "temp01", "temp1foo", "temp_tctl", "temp_Tctl", "fan1", "pwm2", "in0",
      "in_vcore", "intrusion1", "cpu1", "curr1", "energy1", "humidity1", "power1", "power_ppt",
      "temp2", "hwmon_k10temp/temp1/", "hwmon_k10temp/temp1_input/", "hwmon_k10temp/temp_tctl/",
      "hwmon0/temp1/", "hwmon_nvme/temp1/", "hwmon1/temp1/", "hwmon/temp1/", "temp1:u",
      "temp_tctl:k", "temp_tctl:H", "{temp_tctl,fan1}", "{cycles,temp_tctl}", "TEMP1", "Temp1",
      "temp", "temp_", "temp3", "temp4", "pwm1", "cpu0", "hwmon_k10temp", "k10temp/temp1/",
      "hwmon_nvme/temp_tctl/", "temp1:W",
      // perf 7.3's term rules for a hwmon PMU.
      "hwmon_k10temp/temp1=2/", "hwmon_k10temp/temp1,temp2/", "hwmon_k10temp/temp_tctl,fan1/",
      "hwmon_k10temp/TEMP1/", "hwmon_k10temp/tctl/", "hwmon_k10temp/config=0xa0001/",
      "hwmon_k10temp/temp1,name=x/", "hwmon_k10temp/temp1,period=1000/", "hwmon_k10temp/temp9/",
      "hwmon_k10temp//", "hwmon_*/temp1/", "hwmon_k10*/fan1/"};
  const fs::path script = source / "scripts" / "hwmon-oracle.sh";
  EncodeOptions encode_options;
  encode_options.semantics = oracle_semantics();
  encode_options.tool = Tool::stat;
  std::size_t equal = 0;
  std::size_t accepted = 0;
  for (const std::string& spec : specs) {
    testing::Command command;
    command.argv = {"bash", script.string(),  "-d",         layout.root().string(),
                    "-t",   devices.string(), options.perf, spec};
    const testing::CommandResult run = testing::run(command);
    const PerfResult perf = parse_perf_output(run.out + run.err);
    std::vector<AttrWords> ours;
    auto events = encode(*catalog, spec, encode_options);
    if (events) {
      for (const EncodedEvent& event : *events) {
        AttrWords words;
        words.type = event.attr.type;
        words.config = event.attr.config;
        words.config[3] = 0;  // perf -vv prints neither config3 nor config4
        words.config[4] = 0;
        ours.push_back(words);
      }
      std::sort(ours.begin(), ours.end());
      ours.erase(std::unique(ours.begin(), ours.end()), ours.end());
    }
    const bool same = ours == perf.attrs;
    EXPECT_TRUE(same) << spec << ": pmucat "
                      << (events ? std::to_string(ours.size()) + " attrs"
                                 : "rejected: " + events.error().message)
                      << "\nperf:\n"
                      << perf.output.substr(0, 3000);
    equal += same ? 1 : 0;
    accepted += perf.accepted() ? 1 : 0;
  }
  std::printf("[ hwmon    ] %zu specs, perf accepted %zu, pmucat equal %zu\n", specs.size(),
              accepted, equal);
}

// `pmuls --json` of the same devices against `perf list -j hwmon`: every hwmon entry perf lists
// (its fields in its key order, the descriptions' live values included), in perf's order.
TEST(HwmonDiff, PmulsListsWhatPerfListJsonLists) {
  const OracleOptions options = OracleOptions::from_environment();
  if (auto why = hwmon_oracle_unavailable(options)) GTEST_SKIP() << *why;
  const fs::path source(PMUCAT_SOURCE_DIR);
  const HwmonTrees trees;
  const testing::TempTree& layout = trees.layout;
  const testing::TempTree& tree = trees.tree;
  testing::Command perf_list;
  perf_list.argv = {"bash",       (source / "scripts" / "hwmon-oracle.sh").string(),
                    "-m",         "listj",
                    "-d",         layout.root().string(),
                    options.perf, "hwmon"};
  const testing::CommandResult listed = testing::run(perf_list);
  const std::string text = listed.out.substr(0, listed.out.rfind(']') + 1);
  const auto perf = nlohmann::json::parse(text, nullptr, false);
  ASSERT_TRUE(perf.is_array()) << listed.out << listed.err;
  testing::Command pmuls;
  pmuls.argv = {std::string(PMUCAT_BINARY_DIR) + "/cli/pmuls/pmuls",
                "--sysfs",
                tree.root().string(),
                "--no-events-dir",
                "--perf-semantics=" + std::string(to_string(options.version)),
                "--pmu",
                "hwmon_*",
                "--json"};
  const testing::CommandResult ours_run = testing::run(pmuls);
  ASSERT_EQ(ours_run.status, 0) << ours_run.err;
  const auto ours_document = nlohmann::json::parse(ours_run.out);
  nlohmann::json theirs = nlohmann::json::array();
  for (const auto& entry : perf) {
    if (entry.value("Topic", "") == "hwmon") theirs.push_back(entry);
  }
  nlohmann::json ours = nlohmann::json::array();
  for (const auto& pmu : ours_document["pmus"]) {
    for (const auto& event : pmu["events"]) {
      if (!event.contains("EventName")) continue;
      nlohmann::json fields = nlohmann::json::object();
      for (const auto& [key, value] : event.items()) {
        if (std::isupper(static_cast<unsigned char>(key[0]))) fields[key] = value;
      }
      ours.push_back(fields);
    }
  }
  ASSERT_EQ(ours.size(), theirs.size()) << ours.dump(1) << "\nperf:\n" << theirs.dump(1);
  std::size_t equal = 0;
  for (std::size_t i = 0; i < ours.size(); ++i) {
    EXPECT_EQ(ours[i], theirs[i]) << "pmucat " << ours[i].dump() << "\nperf   " << theirs[i].dump();
    equal += ours[i] == theirs[i] ? 1 : 0;
  }
  std::printf("[ hwmon    ] perf list -j: %zu entries, %zu equal\n", theirs.size(), equal);
}

}  // namespace
}  // namespace differential
PMUCAT_END_NAMESPACE
