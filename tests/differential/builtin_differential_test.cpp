// Breakpoints (`mem:...`) and tracepoints (`sys:event`, globs) against perf 6.1: type, config
// words (config1/config2 are bp_addr/bp_len) and bp_type. Tracepoints read a fake tracefs
// (fixtures/tracefs/basic) that perf finds through TRACEFS_PATH. CI: the edge cases and a
// seeded sample; PMUCAT_VENDOR_DIFF_ALL=1 (or --all): every generated combination.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "comparison.h"
#include "diff_env.h"
#include "perf_oracle.h"
#include "pmucat/catalog.h"
#include "support/command.h"
#include "support/scratch_dir.h"
#include "vendor_tree.h"

PMUCAT_BEGIN_NAMESPACE
namespace differential {
namespace {

// `count` specs of `all` (shuffled with the seed; $PMUCAT_BUILTIN_DIFF_COUNT overrides the
// count), or all of them in the full run.
std::vector<std::string> sample(std::vector<std::string> all, std::size_t count) {
  if (const char* text = std::getenv("PMUCAT_BUILTIN_DIFF_COUNT"); text != nullptr && *text) {
    count = std::strtoull(text, nullptr, 10);
  }
  if (full_run() || all.size() <= count) return all;
  std::mt19937_64 random(seed(20261202));
  std::shuffle(all.begin(), all.end(), random);
  all.resize(count);
  return all;
}

std::filesystem::path core_tree(const testing::ScratchDir& scratch) {
  VendorEvent event;
  event.name = "inst_retired.any";
  event.terms = "event=0xc0";
  write_vendor_tree(make_vendor_tree({event}, CpuVendor::intel), scratch / "devices");
  return scratch / "devices";
}

struct Tally {
  std::size_t specs = 0, accepted = 0, equal = 0;
};

// Runs perf on every spec and compares; `pmucat_may_differ` says when the pmucat semantics may
// accept what perf 6.1 rejects (docs/perf-compat.md).
Tally compare(const std::vector<std::string>& specs, const OracleOptions& options,
              const std::string& tracefs, bool (*pmucat_may_differ)(const std::string&) = nullptr) {
  Tally tally;
  const testing::ScratchDir scratch("builtin-diff");
  const auto devices = core_tree(scratch);
  const OracleRun run = run_perf(devices, specs, options);
  EXPECT_TRUE(run.failure.empty()) << run.failure;
  if (run.results.size() != specs.size()) return tally;
  auto catalog = Catalog::open(devices);
  EXPECT_TRUE(catalog.has_value());
  if (!catalog) return tally;
  for (std::size_t i = 0; i < specs.size(); ++i) {
    const PerfResult& perf = run.results[i];
    ++tally.specs;
    tally.accepted += perf.accepted() ? 1 : 0;
    for (const Profile semantics : semantics_matching_oracle()) {
      const OurResult ours = encode_words(*catalog, specs[i], semantics, tracefs);
      if (semantics == Profile::pmucat() && pmucat_may_differ != nullptr &&
          pmucat_may_differ(specs[i])) {
        continue;
      }
      EXPECT_EQ(ours.accepted(), perf.accepted())
          << specs[i] << " (" << (semantics != Profile::pmucat() ? "perf" : "pmucat")
          << " semantics): pmucat " << (ours.accepted() ? describe(ours.attrs) : ours.error)
          << "\nperf: " << perf.output;
      EXPECT_EQ(ours.attrs, perf.attrs) << specs[i] << "\nperf: " << perf.output;
      if (semantics != Profile::pmucat() && ours.accepted() == perf.accepted() &&
          ours.attrs == perf.attrs) {
        ++tally.equal;
      }
    }
  }
  return tally;
}

std::vector<std::string> breakpoint_specs() {
  const std::vector<std::string> addrs = {
      "0x1000", "4096", "0", "0xdeadBEEF", "010", "18446744073709551615", "0xffffffffffffffff"};
  const std::vector<std::string> lens = {"", "/0", "/1", "/2", "/3", "/4", "/8", "/0x8", "/16"};
  std::vector<std::string> accesses = {""};
  const std::string letters = "rwx";
  for (char a : letters) {
    accesses.push_back(std::string(1, a));
    for (char b : letters) {
      accesses.push_back(std::string{a, b});  // repeated letters are rejected
      for (char c : letters) accesses.push_back(std::string{a, b, c});
    }
  }
  accesses.push_back("rwxr");  // four letters
  const std::vector<std::string> tails = {"", ":", ":u", ":k", "u", "k", ":pp", ":W", ":S", "q"};
  std::vector<std::string> specs;
  for (const auto& addr : addrs) {
    for (const auto& len : lens) {
      for (const auto& access : accesses) {
        for (const auto& tail : tails) {
          std::string spec = "mem:" + addr + len;
          if (!access.empty()) spec += ":" + access;
          // After the access letters, modifiers follow with or without ':'; right after the
          // number a letter is a modifier and ':' the access separator.
          spec += tail;
          specs.push_back(spec);
        }
      }
    }
  }
  return specs;
}

TEST(BuiltinDiff, BreakpointsMatchPerf) {
  OracleOptions options = OracleOptions::from_environment();
  if (auto why = oracle_unavailable(options)) GTEST_SKIP() << "perf oracle unavailable: " << *why;
  std::vector<std::string> specs = {
      // must-reject shapes
      "mem:", "mem:0X10", "mem:0x", "mem:0x1000::u", "mem:0x1000rw", "mem:0x1000/8/2",
      "mem:0x1000/x", "mem:0x1000:ru:k", "mem:18446744073709551616", "mem:0x10000000000000000",
      "mem:0x1000:rw/4", "MEM:0x10",
      // accepted edge cases
      "mem:0x1000:rwxuk", "mem:0x1000/8k", "mem:0x1000,mem:0x2000/2:w"};
  const auto generated = sample(breakpoint_specs(), 60);
  specs.insert(specs.end(), generated.begin(), generated.end());
  const Tally tally = compare(specs, options, "");
  std::printf("breakpoints: %zu specs, perf accepted %zu, pmucat equal %zu\n", tally.specs,
              tally.accepted, tally.equal);
  EXPECT_EQ(tally.equal, tally.specs);
}

// pmucat (not perf 6.1) takes `*:event` from the systems that have the event.
bool system_glob(const std::string& spec) {
  const auto colon = spec.find(':');
  return spec.substr(0, colon).find_first_of("*?") != std::string::npos;
}

TEST(BuiltinDiff, TracepointsMatchPerf) {
  OracleOptions options = OracleOptions::from_environment();
  if (auto why = oracle_unavailable(options)) GTEST_SKIP() << "perf oracle unavailable: " << *why;
  const std::string tracefs = testing::source_dir() + "/fixtures/tracefs/basic";
  options.tracefs = tracefs;
  std::vector<std::string> specs = {"sched:sched_switch",
                                    "sched:sched_switch:u",
                                    "sched:*",
                                    "sched:sched_*",
                                    "sched:sched_s[w]*",
                                    "sched:sched_switc[h]",
                                    "*:*",
                                    "*:sched_switch",
                                    "sys*:sys_enter*",
                                    "raw_syscalls:sys_e?ter",
                                    "probe-libc:malloc_entry",
                                    "probe-libc:*:k",
                                    "sched:nosuch",
                                    "nosys:x",
                                    "sched:read",
                                    "sched:u",
                                    "sched:sched_switch/call-graph=no/",
                                    "sched:sched_switch/period=1/",
                                    "cycles,irq:*",
                                    "sched:sched_switch:foo"};
  std::vector<std::string> generated;
  const std::vector<std::string> systems = {"sched", "irq",        "syscalls", "raw_syscalls",
                                            "block", "probe-libc", "s*",       "*sys*",
                                            "?rq",   "nosuch"};
  const std::vector<std::string> events = {
      "*",       "sched_switch",      "sched_*",        "sys_enter",    "sys_*",
      "*_entry", "irq_?andler_entry", "block_rq_issue", "malloc_entry", "missing"};
  for (const auto& system : systems) {
    for (const auto& event : events) {
      generated.push_back(system + ":" + event);
      generated.push_back(system + ":" + event + ":k");
    }
  }
  generated = sample(generated, 40);
  specs.insert(specs.end(), generated.begin(), generated.end());
  const Tally tally = compare(specs, options, tracefs, system_glob);
  std::printf("tracepoints: %zu specs, perf accepted %zu, pmucat equal %zu\n", tally.specs,
              tally.accepted, tally.equal);
  EXPECT_EQ(tally.equal, tally.specs);
}

}  // namespace
}  // namespace differential
PMUCAT_END_NAMESPACE
