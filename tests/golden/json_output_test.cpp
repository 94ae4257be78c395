// `--json` output of both tools on every fixture tree validates against docs/schema, and so do
// the JSON examples in docs/cli.md.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "json_schema.h"
#include "pmucat/version.h"
#include "support/tools.h"

PMUCAT_BEGIN_NAMESPACE
namespace testing {
namespace {

using nlohmann::json;

const char* const kTrees[] = {"intel-spr", "amd-zen4", "arm-neoverse", "power9"};

json load_schema(const std::string& name) {
  std::ifstream file(source_dir() + "/docs/schema/" + name + ".schema.json");
  return json::parse(file);
}

json run_json(const std::string& command, const std::string& tree) {
  const CommandResult result = run_tool_command(command, tree);
  EXPECT_EQ(result.status, 0) << command << "\n" << result.err;
  EXPECT_EQ(result.err, "") << command;
  return json::parse(result.out, nullptr, /*allow_exceptions=*/false);
}

void expect_valid(const json& schema, const json& instance, const std::string& what) {
  ASSERT_FALSE(instance.is_discarded()) << what << ": not JSON";
  const auto errors = validate_json(schema, instance);
  EXPECT_TRUE(errors.empty()) << what << ": " << errors.size()
                              << " violations, first: " << (errors.empty() ? "" : errors.front());
}

// Whether an event of a pmuls --json document encodes to its own attr alone: it encodes, needs no
// `?`, and is no topdown metric event, which perf 7.3 (and pmucat's semantics) open with a
// `slots` leader (TopdownGroups.* test those).
bool encodes_alone(const json& event) {
  return event.contains("config") && event["params"].empty() &&
         !event["name"].get<std::string>().starts_with("topdown-");
}

// The `perf` forms of every event in a pmuls --json document that encodes_alone().
std::vector<std::string> plain_events(const json& catalog) {
  std::vector<std::string> names;
  for (const json& pmu : catalog["pmus"]) {
    for (const json& event : pmu["events"]) {
      if (encodes_alone(event)) names.push_back(event["perf"]);
    }
  }
  return names;
}

class JsonOutput : public ::testing::TestWithParam<const char*> {};

TEST_P(JsonOutput, PmulsWholeCatalogMatchesTheSchema) {
  const json catalog = run_json("pmuls --json", GetParam());
  expect_valid(load_schema("pmuls"), catalog, std::string("pmuls --json on ") + GetParam());
  EXPECT_FALSE(catalog["pmus"].empty());
}

TEST_P(JsonOutput, PmuencodeOfEveryEventMatchesTheSchemaAndPmuls) {
  const json catalog = run_json("pmuls --json", GetParam());
  const std::vector<std::string> events = plain_events(catalog);
  ASSERT_FALSE(events.empty());
  std::string command = "pmuencode --json";
  for (const std::string& event : events) command += " " + shell_quote(event);
  const json encoded = run_json(command, GetParam());
  expect_valid(load_schema("pmuencode"), encoded, std::string("pmuencode --json on ") + GetParam());
  ASSERT_EQ(encoded.size(), events.size());
  // pmuls shows the same words pmuencode produces.
  std::size_t index = 0;
  for (const json& pmu : catalog["pmus"]) {
    for (const json& event : pmu["events"]) {
      if (!encodes_alone(event)) continue;
      const json& attr = encoded[index++];
      EXPECT_EQ(attr["perf"].get<std::string>().empty(), false);
      for (const char* word : {"config", "config1", "config2", "config3"}) {
        EXPECT_EQ(attr[word], event[word]) << event["perf"] << " " << word;
      }
      EXPECT_EQ(attr["type"], pmu["type"]) << event["perf"];
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Trees, JsonOutput, ::testing::ValuesIn(kTrees),
                         [](const ::testing::TestParamInfo<const char*>& param_info) {
                           std::string name = param_info.param;
                           for (char& c : name) {
                             if (c == '-') c = '_';
                           }
                           return name;
                         });

// With the fixture's vendor JSON model: sysfs, JSON-only and merged events all match the schema,
// and every event carries perf list -j's fields (perf 6.12's: the Unit of a JSON event is the PMU
// its table names, `uncore_cha` on uncore_cha_0; the Encoding names the instance listed).
TEST(JsonOutput, PmulsWithVendorEventsMatchesTheSchema) {
  const json catalog = run_json(
      "pmuls --json --events-dir fixtures/pmu-events/arch --cpuid GenuineIntel-6-8F-8 --deprecated",
      "intel-spr");
  expect_valid(load_schema("pmuls"), catalog, "pmuls --json with vendor events");
  std::set<std::string> sources;
  for (const json& pmu : catalog["pmus"]) {
    for (const json& event : pmu["events"]) {
      sources.insert(event["source"].get<std::string>());
      if (!event.contains("EventName")) {
        // perf 7.3's `perf list -j` (list_json_fields) leaves out a core PMU's event named as a
        // legacy hardware event.
        static const std::set<std::string> kLegacyNames = {"cpu-cycles",
                                                           "cycles",
                                                           "instructions",
                                                           "cache-references",
                                                           "cache-misses",
                                                           "branch-instructions",
                                                           "branches",
                                                           "branch-misses",
                                                           "bus-cycles",
                                                           "stalled-cycles-frontend",
                                                           "stalled-cycles-backend",
                                                           "ref-cycles"};
        EXPECT_EQ(pmu["name"], "cpu") << event.dump();
        EXPECT_EQ(kLegacyNames.count(event["name"].get<std::string>()), 1u) << event.dump();
        continue;
      }
      const std::string unit = event["Unit"];
      const std::string name = pmu["name"];
      EXPECT_TRUE(unit == name || (event.contains("json") && name.rfind(unit + "_", 0) == 0))
          << unit << " on " << name;
      EXPECT_EQ(event["EventType"], "Kernel PMU event");
      const std::string encoding = event["Encoding"];
      EXPECT_EQ(encoding.rfind(pmu["name"].get<std::string>() + "/", 0), 0u) << encoding;
    }
  }
  EXPECT_EQ(sources, (std::set<std::string>{"sysfs", "json", "both"}));
}

TEST(JsonOutput, DecodeMatchesTheSchema) {
  const json decoded = run_json("pmuencode --json --decode cpu config=0x403800023", "amd-zen4");
  expect_valid(load_schema("pmuencode-decode"), decoded, "pmuencode --decode --json");
  ASSERT_EQ(decoded.size(), 1u);
  EXPECT_EQ(decoded[0]["config"].get<std::uint64_t>(), 0x403800023u);
}

TEST(JsonOutput, ExplainMatchesTheSchema) {
  const json explained = run_json(
      "pmuencode --sysfs fixtures/sysfs/intel-adl-hybrid --explain --json --host-root "
      "fixtures/host/perfmon-user 'cpu_atom/event=0xc0/u' 'uncore_cbox_0/config=0x1000000/' cycles",
      "-");
  expect_valid(load_schema("pmuencode-explain"), explained, "pmuencode --explain --json");
  ASSERT_EQ(explained["events"].size(), 4u);  // cycles: once per core PMU
  EXPECT_EQ(explained["host"]["perf_event_paranoid"], 2);
}

TEST(JsonOutput, PlanMatchesTheSchema) {
  // A group that fits, a weak one that never does (9 events for 8 generic counters, reopened
  // ungrouped, so the plan exits 0), an uncore box, topdown slots and a metric: every optional
  // field of the schema appears.
  const json plan = run_json(
      "pmuencode --sysfs fixtures/sysfs/intel-spr --cpuid GenuineIntel-6-8F-8 --nmi-watchdog on "
      "--plan --json '{cycles,ref-cycles},instructions' 'uncore_cha_0/event=0x1/' "
      "'{slots,topdown-retiring}' '{cpu/event=0xc2/,cpu/event=0xc3/,cpu/event=0xc4/,"
      "cpu/event=0xc5/,cpu/event=0xc6/,cpu/event=0xc7/,cpu/event=0xc8/,cpu/event=0xc9/,"
      "cpu/event=0xca/}:W'",
      "-");
  expect_valid(load_schema("pmuencode-plan"), plan, "pmuencode --plan --json");
  EXPECT_FALSE(plan["fits"].get<bool>());
  bool never = false;
  for (const json& pmu : plan["pmus"]) never |= pmu.contains("never") && !pmu["never"].empty();
  EXPECT_TRUE(never);
  EXPECT_FALSE(plan["regrouping"]["perf_events"].get<std::string>().empty());
}

TEST(JsonOutput, PmumetricMatchesTheSchema) {
  const json metrics = run_json(
      "pmumetric --events-dir fixtures/pmu-events/arch --cpuid GenuineIntel-6-8F-8 --json "
      "--literal num_cores=4 -M Branch_Misprediction_Ratio,Branches,MemoryBW,Mem "
      "tests/metrics/data/demolake.json",
      "intel-spr");
  expect_valid(load_schema("pmumetric"), metrics, "pmumetric --json");
  ASSERT_TRUE(metrics["metrics"].is_array());
  EXPECT_FALSE(metrics["metrics"].empty());
  for (const json& metric : metrics["metrics"]) {
    EXPECT_TRUE(metric["computed"].get<bool>()) << metric.dump();
  }
}

// docs/cli.md marks each JSON example with `<!-- schema: NAME -->` on the line before its fence.
TEST(JsonOutput, DocumentedExamplesMatchTheirSchemas) {
  std::ifstream file(source_dir() + "/docs/cli.md");
  std::string line;
  std::string schema_name;
  std::string block;
  bool in_block = false;
  int examples = 0;
  while (std::getline(file, line)) {
    if (in_block) {
      if (line == "```") {
        in_block = false;
        const json instance = json::parse(block, nullptr, false);
        expect_valid(load_schema(schema_name), instance, "docs/cli.md example " + schema_name);
        ++examples;
        schema_name.clear();
      } else {
        block += line + "\n";
      }
    } else if (line.rfind("<!-- schema: ", 0) == 0) {
      schema_name = line.substr(13, line.find(" -->") - 13);
    } else if (line == "```json" && !schema_name.empty()) {
      in_block = true;
      block.clear();
    }
  }
  EXPECT_GE(examples, 3);
}

}  // namespace
}  // namespace testing
PMUCAT_END_NAMESPACE
