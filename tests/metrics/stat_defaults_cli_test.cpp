// `pmuencode --for stat` with no spec: the events plain `perf stat` opens, against what perf
// 7.3.4, 6.12.118 and 6.1.192 printed for `perf stat -vv [-d] [-a] true` on the intel-spr
// fixture (PERF_CPUID=GenuineIntel-6-8F-8, NMI watchdog off): each attr's type and config in
// perf's order. perf 6.1 and 6.12 stop at the first default event that fails to open, so their
// lists are what they printed before stopping; perf 7.3 printed every attr. The differential
// suite (StatDefaultsDiff) compares every field on more trees against the perfs themselves.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "support/tools.h"

PMUCAT_BEGIN_NAMESPACE
namespace {

using testing::CommandResult;
using testing::shell_quote;

const std::string kSpr =
    "--sysfs fixtures/sysfs/intel-spr --cpuid GenuineIntel-6-8F-8 --nmi-watchdog off";

CommandResult pmuencode(const std::string& args) {
  return testing::run_tool_command(shell_quote(testing::tool("pmuencode")) + " " + args, "-");
}

std::string describe(const CommandResult& result) {
  return "status " + std::to_string(result.status) + "\nstderr:\n" + result.err.substr(0, 3000) +
         "\nstdout:\n" + result.out.substr(0, 3000);
}

// "type:config" of each attr of `pmuencode --json`, in order.
std::vector<std::string> attrs_of(const CommandResult& result) {
  std::vector<std::string> out;
  const auto items = nlohmann::json::parse(result.out, nullptr, false);
  if (!items.is_array()) return out;
  for (const auto& item : items) {
    std::ostringstream attr;
    attr << item.value("type", std::uint64_t{0}) << ":0x" << std::hex
         << item.value("config", std::uint64_t{0});
    out.push_back(attr.str());
  }
  return out;
}

std::vector<std::string> repeat(const std::string& attr, std::size_t times) {
  return std::vector<std::string>(times, attr);
}

std::vector<std::string> join(std::vector<std::vector<std::string>> parts) {
  std::vector<std::string> out;
  for (auto& part : parts) out.insert(out.end(), part.begin(), part.end());
  return out;
}

// What perf 7.3.4 opened after the common metrics' software events: the hardware events of the
// common metrics' groups (sorted by leader), then Sapphire Rapids' TopdownL1 and TopdownL2 events.
const std::vector<std::string> kSpr73Hardware = {
    "4:0xc5",   "0:0x4",    "0:0x4",    "4:0x3c",   "4:0x3c",   "4:0xc0",   "4:0x3c",  "0:0x7",
    "4:0x3c",   "0:0x8",    "0:0x8",    "4:0xc0",   "0:0x7",    "4:0x10ad", "4:0x400", "4:0x8000",
    "4:0x8200", "4:0x8700", "4:0x8300", "4:0x8400", "4:0x8500", "4:0x8600", "4:0x8100"};

TEST(StatDefaultsCli, Perf73OpensTheDefaultMetricGroups) {
  if (std::string_view(PMUCAT_TEST_DEFAULT_TABLES) != "7.3")
    GTEST_SKIP() << "the default tables are not linux 7.3's";
  const CommandResult plain = pmuencode(kSpr + " --perf-semantics=7.3 --for stat --json");
  ASSERT_EQ(plain.status, 0) << describe(plain);
  // perf prints no "events were regrouped" for the lists it builds itself.
  EXPECT_EQ(plain.err, "") << describe(plain);
  const auto tool = repeat("4294967294:0x1", 6);  // duration_time, once per metric list
  EXPECT_EQ(attrs_of(plain), join({tool, {"1:0x3", "1:0x4", "1:0x2", "1:0x1"}, kSpr73Hardware}))
      << describe(plain);

  // -d: Default2's L1-dcache and LLC events, sorted among the common metrics' (type 3 first).
  const CommandResult detailed = pmuencode(kSpr + " --perf-semantics=7.3 --for stat -d --json");
  ASSERT_EQ(detailed.status, 0) << describe(detailed);
  EXPECT_EQ(attrs_of(detailed),
            join({tool,
                  {"1:0x3", "1:0x4", "1:0x2", "1:0x1", "3:0x10000", "3:0x0", "3:0x2", "3:0x10002"},
                  kSpr73Hardware}))
      << describe(detailed);
  // -ddd: Default4 (two more), the level perf-73.md had only assumed.
  const CommandResult most = pmuencode(kSpr + " --perf-semantics=7.3 --for stat -ddd --json");
  ASSERT_EQ(most.status, 0) << describe(most);
  EXPECT_EQ(attrs_of(most).size(), 45u) << describe(most);

  // -a: #target_cpu is 1, so the common metrics read cpu-clock (config 0) for task-clock.
  const CommandResult cpus = pmuencode(kSpr + " --perf-semantics=7.3 --for stat -a --json");
  ASSERT_EQ(cpus.status, 0) << describe(cpus);
  EXPECT_EQ(attrs_of(cpus), join({tool, {"1:0x3", "1:0x0", "1:0x4", "1:0x2"}, kSpr73Hardware}))
      << describe(cpus);
}

// Without a model of the tables for the CPU perf 7.3 still opens its common table's Default
// metrics' events (23 attrs on intel-spr with PERF_CPUID=PmucatNone-0-0-0, StatDefaultsDiff);
// without any vendor metrics (no tables) pmucat says so rather than print no events.
TEST(StatDefaultsCli, Perf73WithoutAModelOpensTheCommonTablesDefaults) {
  const CommandResult common = pmuencode(
      "--sysfs fixtures/sysfs/intel-spr --cpuid PmucatNone-0-0-0 --perf-semantics=7.3 --for stat "
      "--json");
  ASSERT_EQ(common.status, 0) << describe(common);
  EXPECT_EQ(attrs_of(common).size(), 23u) << describe(common);
  const CommandResult none = pmuencode(
      "--sysfs fixtures/sysfs/intel-spr --no-events-dir --perf-semantics=7.3 --for stat");
  EXPECT_EQ(none.status, 1) << describe(none);
  EXPECT_NE(none.err.find("the catalog has no vendor metrics"), std::string::npos)
      << describe(none);
  EXPECT_NE(none.err.find("[metric-not-found]"), std::string::npos) << describe(none);
  EXPECT_EQ(none.out, "") << describe(none);
}

TEST(StatDefaultsCli, Perf612And61OpenTheirFixedLists) {
  // perf 6.12: the fixed list, then the Default metric group (TOPDOWN.SLOTS leads it).
  const CommandResult perf612 = pmuencode(kSpr + " --perf-semantics=6.12 --events-dir " +
                                          "fixtures/pmu-events/arch" + " --for stat --json");
  ASSERT_EQ(perf612.status, 0) << describe(perf612);
  const std::vector<std::string> fixed = {"1:0x1", "1:0x3", "1:0x4", "1:0x2",
                                          "0:0x0", "0:0x1", "0:0x4", "0:0x5"};
  auto attrs = attrs_of(perf612);
  ASSERT_GE(attrs.size(), fixed.size()) << describe(perf612);
  EXPECT_EQ(std::vector<std::string>(attrs.begin(), attrs.begin() + 8), fixed) << describe(perf612);

  // pmucat's own semantics (base perf 7.3) open perf 7.3's metric-driven list.
  const CommandResult own = pmuencode(kSpr + " --for stat --json");
  ASSERT_EQ(own.status, 0) << describe(own);
  const CommandResult perf73 = pmuencode(kSpr + " --perf-semantics=7.3 --for stat --json");
  ASSERT_EQ(perf73.status, 0) << describe(perf73);
  EXPECT_EQ(attrs_of(own), attrs_of(perf73)) << describe(own);

  // perf 6.1: the fixed list, then the topdown group (level 2: the tree has topdown-heavy-ops),
  // slots first; -d appends the four cache events after it.
  const CommandResult perf61 =
      pmuencode(kSpr + " --perf-semantics=6.1 --no-events-dir --for stat -d --json");
  ASSERT_EQ(perf61.status, 0) << describe(perf61);
  EXPECT_EQ(
      attrs_of(perf61),
      (std::vector<std::string>{
          "1:0x1",    "1:0x3",    "1:0x4",    "1:0x2",    "0:0x0",     "0:0x1",    "0:0x4",
          "0:0x5",    "4:0x400",  "4:0x8000", "4:0x8100", "4:0x8200",  "4:0x8300", "4:0x8400",
          "4:0x8500", "4:0x8600", "4:0x8700", "3:0x0",    "3:0x10000", "3:0x2",    "3:0x10002"}))
      << describe(perf61);
  // With -a perf counts cpu-clock where it counts task-clock for a command.
  const CommandResult cpus =
      pmuencode(kSpr + " --perf-semantics=6.1 --no-events-dir --for stat -a --json");
  ASSERT_EQ(cpus.status, 0) << describe(cpus);
  EXPECT_EQ(attrs_of(cpus).front(), "1:0x0") << describe(cpus);
}

TEST(StatDefaultsCli, OptionsThatNeedNoSpec) {
  const std::string spr = "--sysfs fixtures/sysfs/intel-spr";
  const CommandResult with_spec = pmuencode(spr + " --for stat -d cycles");
  EXPECT_EQ(with_spec.status, 2) << describe(with_spec);
  EXPECT_NE(with_spec.err.find("-d goes with --for stat and no SPEC"), std::string::npos)
      << describe(with_spec);
  const CommandResult record = pmuencode(spr + " --for record");
  EXPECT_EQ(record.status, 2) << describe(record);
  EXPECT_NE(record.err.find("nothing to encode"), std::string::npos) << describe(record);
  const CommandResult literal = pmuencode(spr + " --literal target_cpu=1 cycles");
  EXPECT_EQ(literal.status, 2) << describe(literal);
}

}  // namespace
PMUCAT_END_NAMESPACE
