// pmuencode -M and pmumetric as whole processes on metric input no real table has: a chain of
// 10,000 metrics each naming the next (an error naming the chain, never a crash), every
// Sapphire Rapids metric of the default tables evaluated with the literals and functions perf
// knows, linux 7.3's common and generated metrics expanded and evaluated, and an encoding error
// that names its metric.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "json_schema.h"
#include "pmucat/version.h"
#include "support/files.h"
#include "support/scratch_dir.h"
#include "support/tools.h"

PMUCAT_BEGIN_NAMESPACE
namespace {

namespace fs = std::filesystem;
using testing::CommandResult;
using testing::shell_quote;

const std::string kSpr = "--sysfs fixtures/sysfs/intel-spr --cpuid GenuineIntel-6-8F-8";

CommandResult run_tool(const std::string& tool, const std::string& args) {
  return testing::run_tool_command(shell_quote(testing::tool(tool)) + " " + args, "-");
}

std::string describe(const CommandResult& result) {
  return "status " + std::to_string(result.status) + "\nstderr:\n" + result.err.substr(0, 3000) +
         "\nstdout:\n" + result.out.substr(0, 3000);
}

// An events dir whose model (selected by GenuineIntel-6-8F) has INST_RETIRED.ANY and the
// metrics M0 = M1 + 1, ..., M<length-1> = INST_RETIRED.ANY.
void write_chain_model(const fs::path& arch, std::size_t length) {
  testing::write_text(
      arch / "x86/mapfile.csv",
      "Family-model,Version,Filename,EventType\nGenuineIntel-6-8F,v1,chainlake,core\n");
  testing::write_text(arch / "x86/chainlake/pipeline.json",
                      R"([{"EventCode": "0xc0", "EventName": "INST_RETIRED.ANY", "UMask": "0x00",)"
                      R"( "BriefDescription": "Instructions retired"}])");
  nlohmann::json metrics = nlohmann::json::array();
  for (std::size_t i = 0; i < length; ++i) {
    const std::string next =
        i + 1 < length ? "M" + std::to_string(i + 1) + " + 1" : std::string("INST_RETIRED.ANY");
    metrics.push_back({{"MetricName", "M" + std::to_string(i)},
                       {"MetricExpr", next},
                       {"BriefDescription", "a link of the chain"}});
  }
  testing::write_text(arch / "x86/chainlake/chain-metrics.json", metrics.dump());
}

TEST(MetricsCli, AChainOfTenThousandMetricsIsAnErrorNamingIt) {
  const testing::ScratchDir dir("metric-chain");
  write_chain_model(dir / "arch", 10000);
  testing::write_text(dir / "counts.json",
                      R"({"counter-value" : "5.000000", "unit" : "", "event" : "INST_RETIRED.ANY",)"
                      R"( "event-runtime" : 100, "pcnt-running" : 100.00})"
                      "\n");
  const std::string model = kSpr + " --events-dir " + shell_quote((dir / "arch").string());
  const CommandResult encoded = run_tool("pmuencode", model + " -M M0");
  EXPECT_EQ(encoded.status, 1) << describe(encoded);
  EXPECT_NE(encoded.err.find("metric M0: its chain of references exceeds 1000 levels: M0 -> M1 "
                             "-> M2 -> ... (994 more) -> M997 -> M998 -> M999 -> M1000"),
            std::string::npos)
      << describe(encoded);
  EXPECT_NE(encoded.err.find("[metric-too-deep]"), std::string::npos) << describe(encoded);
  // Within the bound: M9000 is 1000 metrics from the end of the chain.
  const CommandResult fits = run_tool("pmuencode", model + " --perf -M M9000");
  EXPECT_EQ(fits.status, 0) << describe(fits);
  EXPECT_NE(fits.out.find("INST_RETIRED.ANY"), std::string::npos) << describe(fits);

  const CommandResult metric =
      run_tool("pmumetric", model + " -M M0,M9000 " + shell_quote((dir / "counts.json").string()));
  EXPECT_EQ(metric.status, 1) << describe(metric);
  EXPECT_NE(metric.out.find("its chain of metric references is 10000 levels deep, more than "
                            "1000: M0 -> M1 -> M2 -> ... (9994 more) -> M9997 -> M9998 -> M9999"),
            std::string::npos)
      << describe(metric);
  EXPECT_NE(metric.out.find("1004.00"), std::string::npos) << describe(metric);  // M9000
  const CommandResult json =
      run_tool("pmumetric", model + " --json -M M0 " + shell_quote((dir / "counts.json").string()));
  EXPECT_EQ(json.status, 1) << describe(json);
  const nlohmann::json schema = nlohmann::json::parse(
      testing::read_text(fs::path(PMUCAT_SOURCE_DIR) / "docs/schema/pmumetric.schema.json"));
  const nlohmann::json document = nlohmann::json::parse(json.out, nullptr, false);
  EXPECT_EQ(testing::validate_json(schema, document), std::vector<std::string>{});
  EXPECT_EQ(document["metrics"][0]["why"], "reference chain too deep") << json.out;
}

// `pmumetric --json -M all` on `counts` with the default tables: the metrics as JSON.
nlohmann::json all_metrics(const std::string& options, const fs::path& counts) {
  const CommandResult result = run_tool(
      "pmumetric", kSpr + " --json -M all " + options + " " + shell_quote(counts.string()));
  EXPECT_NE(result.status, -1) << describe(result);
  return nlohmann::json::parse(result.out, nullptr, false);
}

// A machine root with 4 CPUs, 2 cores, SMT on, one die and package, no NFIT, 2 GHz.
void write_host(const fs::path& root) {
  const fs::path cpu = root / "sys/devices/system/cpu";
  testing::write_text(cpu / "present", "0-3\n");
  testing::write_text(cpu / "online", "0-3\n");
  testing::write_text(cpu / "smt/active", "1\n");
  for (int c = 0; c < 4; ++c) {
    const fs::path topology = cpu / ("cpu" + std::to_string(c)) / "topology";
    testing::write_text(topology / "core_cpus_list", c % 2 == 0 ? "0,2\n" : "1,3\n");
    testing::write_text(topology / "thread_siblings_list", c % 2 == 0 ? "0,2\n" : "1,3\n");
    testing::write_text(topology / "die_cpus_list", "0-3\n");
    testing::write_text(topology / "package_cpus_list", "0-3\n");
  }
  testing::write_text(root / "proc/cpuinfo",
                      "processor\t: 0\nmodel name\t: Intel(R) Xeon(R) Test CPU @ 2.00GHz\n");
}

TEST(MetricsCli, EverySapphireRapidsMetricEvaluates) {
  const testing::ScratchDir dir("spr-metrics");
  write_host(dir / "root");
  // The counts: every event some metric still misses, each with its own value, until none is
  // missing (each round names the first missing event of each metric).
  std::set<std::string> events;
  nlohmann::json values;
  const std::string host = "--host-root " + shell_quote((dir / "root").string());
  for (int round = 0; round < 40; ++round) {
    std::string text;
    int i = 0;
    for (const std::string& event : events) {
      text += nlohmann::json{{"counter-value", std::to_string(1000 + 37 * ++i) + ".000000"},
                             {"unit", ""},
                             {"event", event},
                             {"event-runtime", 1000},
                             {"pcnt-running", 100.0}}
                  .dump() +
              "\n";
    }
    if (events.empty())
      text = R"({"counter-value" : "1", "event" : "cycles"})"
             "\n";
    testing::write_text(dir / "counts.json", text);
    values = all_metrics(host, dir / "counts.json");
    ASSERT_TRUE(values.is_object()) << text;
    bool added = false;
    for (const auto& metric : values["metrics"]) {
      if (!metric["computed"].get<bool>() && metric["cause"] == "missing event") {
        added |= events.insert(metric["subject"].get<std::string>()).second;
      }
    }
    if (!added) break;
  }
  // linux 7.3's Sapphire Rapids table: its JSON, the generated and the common metrics; linux
  // 6.12's where that is the default set.
  const std::size_t expected = std::string_view(PMUCAT_TEST_DEFAULT_TABLES) == "7.3" ? 466 : 297;
  ASSERT_EQ(values["metrics"].size(), expected);
  std::size_t computed = 0;
  for (const auto& metric : values["metrics"]) {
    if (metric["computed"].get<bool>()) {
      ++computed;
      continue;
    }
    const std::string why = metric["why"];
    // Synthetic counts may divide by zero; nothing else may keep a metric from a value.
    EXPECT_EQ(metric["cause"], "division by zero") << metric.dump();
    EXPECT_NE(why, "missing literal") << metric.dump();
    EXPECT_NE(why, "bad expression") << metric.dump();
  }
  EXPECT_EQ(computed, expected);  // these counts divide by zero nowhere
  const auto find = [&](std::string_view name) {
    for (const auto& metric : values["metrics"]) {
      if (metric["name"] == name) return metric;
    }
    return nlohmann::json{};
  };
  EXPECT_TRUE(find("tma_dram_bound")["computed"].get<bool>()) << find("tma_dram_bound").dump();

  // The literals from flags alone, with or without '#', win over the host's.
  const nlohmann::json flags = all_metrics(
      "--literal has_pmem=1 --literal '#num_cpus_online=4' --literal num_dies=1 "
      "--literal '#num_packages=2' --literal smt_on=1 --literal num_cpus=4 --literal num_cores=2 "
      "--literal core_wide=0 --literal system_tsc_freq=2e9 --literal '#slots=4'",
      dir / "counts.json");
  for (const auto& metric : flags["metrics"]) {
    EXPECT_NE(metric.value("cause", ""), "missing literal") << metric.dump();
  }
  // Without either, the reason names the literal.
  const nlohmann::json none = all_metrics("", dir / "counts.json");
  bool named = false;
  for (const auto& metric : none["metrics"]) {
    named |= metric.value("subject", "") == "#has_pmem";
  }
  EXPECT_TRUE(named);
}

// linux 7.3's common metrics and the metrics its build generates, with the default tables when
// they are 7.3's: `-M Default` gives the lists perf 7.3.4 printed for `perf stat -vv -M Default
// true` on this tree (PERF_CPUID=GenuineIntel-6-8F-8), and pmumetric evaluates CPUs_utilized
// (`#target_cpu` from the counts: task-clock for a command, cpu-clock for -a) and
// lpm_miss_lat_loc (`aggr_nr()`: the lines summed into the count) from given counts.
TEST(MetricsCli, Linux73CommonAndGeneratedMetrics) {
  if (std::string_view(PMUCAT_TEST_DEFAULT_TABLES) != "7.3")
    GTEST_SKIP() << "the default tables are not linux 7.3's";
  const std::vector<std::string> perf73 = {
      "topdown-retiring/metric-id=topdown!1retiring/,software/"
      "context-switches,name=context-switches,metric-id=software!3context!1switches!0name!2context!"
      "1switches!3/,software/"
      "page-faults,name=page-faults,metric-id=software!3page!1faults!0name!2page!1faults!3/"
      ",software/task-clock,name=task-clock,metric-id=software!3task!1clock!0name!2task!1clock!3/"
      ",cpu-cycles/metric-id=cpu!1cycles/,TOPDOWN.SLOTS/metric-id=TOPDOWN.SLOTS/,topdown-fe-bound/"
      "metric-id=topdown!1fe!1bound/,topdown-mem-bound/metric-id=topdown!1mem!1bound/"
      ",INT_MISC.UOP_DROPPING/metric-id=INT_MISC.UOP_DROPPING/,topdown-be-bound/"
      "metric-id=topdown!1be!1bound/,topdown-heavy-ops/metric-id=topdown!1heavy!1ops/"
      ",topdown-br-mispredict/metric-id=topdown!1br!1mispredict/,branches/metric-id=branches/"
      ",software/"
      "cpu-migrations,name=cpu-migrations,metric-id=software!3cpu!1migrations!0name!2cpu!"
      "1migrations!3/,topdown-fetch-lat/metric-id=topdown!1fetch!1lat/,topdown-bad-spec/"
      "metric-id=topdown!1bad!1spec/,duration_time",
      "{stalled-cycles-backend/metric-id=stalled!1cycles!1backend/,instructions/"
      "metric-id=instructions/,stalled-cycles-frontend/metric-id=stalled!1cycles!1frontend/"
      "}:W,duration_time",
      "{cpu-cycles/metric-id=cpu!1cycles/,instructions/metric-id=instructions/}:W,duration_time",
      "{cpu-cycles/metric-id=cpu!1cycles/,stalled-cycles-frontend/"
      "metric-id=stalled!1cycles!1frontend/}:W,duration_time",
      "{branch-misses/metric-id=branch!1misses/,branches/metric-id=branches/}:W,duration_time",
      "{cpu-cycles/metric-id=cpu!1cycles/,stalled-cycles-backend/"
      "metric-id=stalled!1cycles!1backend/}:W,duration_time",
  };
  const CommandResult lists = run_tool("pmuencode", kSpr + " --perf -M Default");
  ASSERT_EQ(lists.status, 0) << describe(lists);
  std::vector<std::string> lines;
  std::istringstream in(lists.out);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  EXPECT_EQ(lines, perf73);
  const CommandResult attrs = run_tool("pmuencode", kSpr + " -M Default,Default2");
  EXPECT_EQ(attrs.status, 0) << describe(attrs);
  // Each list's attrs are numbered within the list, leaders too (the second list is a group).
  EXPECT_NE(attrs.out.find("group: member #1, leader #0 "
                           "(cpu/stalled-cycles-backend,metric-id=stalled!1cycles!1backend/)\n"),
            std::string::npos)
      << attrs.out;
  // perf stat -a: the CPU clock.
  const CommandResult cpus =
      run_tool("pmuencode", kSpr + " --perf -M CPUs_utilized --literal target_cpu=1");
  EXPECT_EQ(cpus.status, 0) << describe(cpus);
  EXPECT_EQ(cpus.out,
            "software/cpu-clock,name=cpu-clock,metric-id=software!3cpu!1clock!0name!2cpu!1clock!3/"
            ",duration_time\n");
  const CommandResult generated = run_tool("pmuencode", kSpr + " --perf -M lpm_cycles_total");
  EXPECT_EQ(generated.status, 0) << describe(generated);
  EXPECT_EQ(generated.out,
            "{cpu-cycles/metric-id=cpu!1cycles:uH/uH,cpu-cycles/metric-id=cpu!1cycles:kHh/kHh,"
            "cpu-cycles/metric-id=cpu!1cycles:G/G}:W\n");

  const testing::ScratchDir dir("metrics73");
  auto line = [](std::string_view event, std::string_view value, std::string_view unit) {
    return nlohmann::json{{"counter-value", value},
                          {"unit", unit},
                          {"event", event},
                          {"event-runtime", 1000},
                          {"pcnt-running", 100.0}}
               .dump() +
           "\n";
  };
  // perf stat of a command: task-clock 2000 msec over 1 s.
  testing::write_text(dir / "command.json", line("task-clock", "2000.000000", "msec") +
                                                line("duration_time", "1000000000", "ns"));
  const CommandResult command =
      run_tool("pmumetric",
               kSpr + " --json -M CPUs_utilized " + shell_quote((dir / "command.json").string()));
  ASSERT_EQ(command.status, 0) << describe(command);
  const nlohmann::json value = nlohmann::json::parse(command.out)["metrics"][0];
  EXPECT_DOUBLE_EQ(value["value"].get<double>(), 2.0) << command.out;
  EXPECT_EQ(value["unit"], "CPUs") << command.out;
  // A missing event is the reason, not the clock of the branch not taken.
  const CommandResult switches = run_tool(
      "pmumetric", kSpr + " -M cs_per_second " + shell_quote((dir / "command.json").string()));
  EXPECT_EQ(switches.status, 1) << describe(switches);
  EXPECT_NE(switches.out.find("event 'software@context-switches,name=context-switches@' missing"),
            std::string::npos)
      << describe(switches);
  // perf stat -a: cpu-clock, 8000 msec over 1 s on 8 CPUs.
  testing::write_text(dir / "cpus.json", line("cpu-clock", "8000.000000", "msec") +
                                             line("duration_time", "1000000000", "ns"));
  const CommandResult system = run_tool(
      "pmumetric", kSpr + " --json -M CPUs_utilized " + shell_quote((dir / "cpus.json").string()));
  ASSERT_EQ(system.status, 0) << describe(system);
  EXPECT_DOUBLE_EQ(nlohmann::json::parse(system.out)["metrics"][0]["value"].get<double>(), 8.0)
      << system.out;
  // ... unless told otherwise: then task-clock is missing.
  const CommandResult told =
      run_tool("pmumetric", kSpr + " -M CPUs_utilized --literal target_cpu=0 " +
                                shell_quote((dir / "cpus.json").string()));
  EXPECT_EQ(told.status, 1) << describe(told);
  EXPECT_NE(told.out.find("task-clock"), std::string::npos) << describe(told);

  // lpm_miss_lat_loc = duration_time * 1e9 * OCCUPANCY / (CLOCKTICKS / aggr_nr(INSERTS) *
  // INSERTS), the inserts counted on 4 CHA boxes (4 lines): 1e9 * 8000 / (4000 / 4 * 1000).
  std::string uncore = line("duration_time", "1000000000", "ns") +
                       line("UNC_CHA_TOR_OCCUPANCY.IA_MISS_DRD_LOCAL", "8000", "") +
                       line("UNC_CHA_CLOCKTICKS", "4000", "");
  for (int box = 0; box < 4; ++box) {
    uncore += line("UNC_CHA_TOR_INSERTS.IA_MISS_DRD_LOCAL", "250", "");
  }
  testing::write_text(dir / "uncore.json", uncore);
  const CommandResult latency =
      run_tool("pmumetric",
               kSpr + " --json -M lpm_miss_lat_loc " + shell_quote((dir / "uncore.json").string()));
  ASSERT_EQ(latency.status, 0) << describe(latency);
  const nlohmann::json lat = nlohmann::json::parse(latency.out)["metrics"][0];
  EXPECT_DOUBLE_EQ(lat["value"].get<double>(), 8.0e6) << latency.out;
  EXPECT_EQ(lat["unit"], "ns") << latency.out;
}

TEST(MetricsCli, AnEncodingErrorNamesItsMetric) {
  // M0 reads M1, which reads M2, whose event no PMU has: the error names the chain.
  const testing::ScratchDir dir("metric-unknown-event");
  write_chain_model(dir / "arch", 3);
  testing::write_text(dir / "arch/x86/chainlake/chain-metrics.json",
                      R"([{"MetricName": "M0", "MetricExpr": "M1 + INST_RETIRED.ANY"},)"
                      R"( {"MetricName": "M1", "MetricExpr": "M2 * 2"},)"
                      R"( {"MetricName": "M2", "MetricExpr": "INST_RETIRED.ANY / UNC_NOPE.ANY"}])");
  const CommandResult result = run_tool(
      "pmuencode", kSpr + " --events-dir " + shell_quote((dir / "arch").string()) + " -M M0");
  EXPECT_EQ(result.status, 1) << describe(result);
  EXPECT_NE(result.err.find(
                "error: metric M0 -> M1 -> M2, event UNC_NOPE.ANY: unknown PMU 'UNC_NOPE.ANY'"),
            std::string::npos)
      << describe(result);
  // The same on the real tables: -M all reads an uncore event this fixture has no PMU for.
  const CommandResult all = run_tool("pmuencode", kSpr + " --plan -M all");
  if (all.status != 0) {
    EXPECT_NE(all.err.find("error: metric "), std::string::npos) << describe(all);
  }
}

}  // namespace
PMUCAT_END_NAMESPACE
