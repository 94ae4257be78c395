// Event groups against perf 6.1 (`perf stat -vv`): generated `[name]{a,b,...}[:mods]` lists on the
// intel-spr fixture tree (sysfs PMU terms, aliases, built-in names, member and group modifiers,
// named groups, several groups and loose events), plus specs perf must reject. perf prints the
// attrs it tries before the expected open failure; for a list starting with a group that is the
// leader alone, so the leader's type, config words and modifier bits are compared.
// CI: the edge cases and a seeded sample of 40 generated lists ($PMUCAT_DIFF_SEED);
// PMUCAT_GROUP_DIFF_ALL=1: 600 generated lists (docs/robustness.md).
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "diff_env.h"
#include "perf_oracle.h"
#include "pmucat/catalog.h"
#include "pmucat/diagnostic.h"
#include "pmucat/encode.h"

PMUCAT_BEGIN_NAMESPACE
namespace differential {
namespace {

namespace fs = std::filesystem;

bool group_full_run() {
  return full_run("PMUCAT_GROUP_DIFF_ALL");
}

std::uint64_t group_seed() {
  return seed(20261202);
}

AttrBits bits_of(const Attr& a) {
  AttrBits b;
  b.exclude_user = a.exclude_user;
  b.exclude_kernel = a.exclude_kernel;
  b.exclude_hv = a.exclude_hv;
  b.exclude_guest = a.exclude_guest;
  b.exclude_host = a.exclude_host;
  b.exclude_idle = a.exclude_idle;
  b.pinned = a.pinned;
  b.exclusive = a.exclusive;
  b.precise_ip = a.precise_ip;
  return b;
}

// A random list: one to three groups (sometimes named, sometimes with modifiers) and loose
// events, starting with a group.
std::string random_list(std::mt19937_64& random) {
  const std::vector<std::string> members = {"cycles",
                                            "instructions",
                                            "branch-misses",
                                            "cache-misses",
                                            "cpu-clock",
                                            "page-faults",
                                            "L1-dcache-load-misses",
                                            "cpu/event=0x3c/",
                                            "cpu/event=0xc0,umask=0x1/",
                                            "cpu/event=0x2e,umask=0x41,cmask=1/",
                                            "cpu/cycles-t/",
                                            "cpu/branch-misses/",
                                            "cpu/el-abort/",
                                            "r1a3"};
  const std::vector<std::string> member_mods = {"",  "",  "",   "u", "k", "p", "pp",
                                                "H", "G", "uk", "S", "D", "I", "h"};
  const std::vector<std::string> group_mods = {"",   "",   "u",  "k",  "h",  "uk",  "p",
                                               "pp", "G",  "H",  "S",  "D",  "W",   "e",
                                               "I",  "kp", "uS", "Dk", "GH", "upp", "ppp"};
  auto pick = [&](const std::vector<std::string>& from) {
    return from[std::uniform_int_distribution<std::size_t>(0, from.size() - 1)(random)];
  };
  auto member = [&] {
    std::string text = pick(members);
    const std::string mods = pick(member_mods);
    if (mods.empty()) return text;
    return text.back() == '/' ? text + mods : text + ":" + mods;
  };
  std::string out;
  const int items = std::uniform_int_distribution<int>(1, 3)(random);
  for (int i = 0; i < items; ++i) {
    if (!out.empty()) out += ',';
    if (i > 0 && random() % 3 == 0) {
      out += member();
      continue;
    }
    if (random() % 3 == 0) out += "g" + std::to_string(i);
    out += '{';
    const int count = std::uniform_int_distribution<int>(1, 4)(random);
    for (int m = 0; m < count; ++m) out += (m ? "," : "") + member();
    out += '}';
    const std::string mods = pick(group_mods);
    if (!mods.empty()) out += ":" + mods;
  }
  return out;
}

TEST(GroupDiff, GroupLeadersMatchPerf) {
  const OracleOptions options = OracleOptions::from_environment();
  if (auto why = oracle_unavailable(options)) GTEST_SKIP() << "perf oracle unavailable: " << *why;
  const fs::path source = fs::path(PMUCAT_SOURCE_DIR) / "fixtures/sysfs/intel-spr/devices";
  auto tree = MaterialisedTree::copy_of(source);
  ASSERT_TRUE(tree.has_value());
  // Edge cases: modifier combinations read from parse-events.c, then what perf must reject.
  std::vector<std::string> specs = {
      "{cycles,instructions}:u", "{cycles:k,instructions}:u", "{cycles}:k", "{cycles:k}:k",
      "{cycles:p,instructions:S}:pD", "{cycles:H}:G", "{cycles:G}:u", "{cycles,instructions}:W",
      "{cycles,instructions}:e", "g1{cycles,instructions}", "{cycles:u}:h", "{cycles:S}:u",
      "{cpu/event=0x3c/D,cycles}", "{cycles:pp}:p", "{cycles:D}:I", "{cycles},{instructions}:k",
      "cycles,{instructions}:u", "{cpu/event=0x3c/k,cpu/event=0xc0/}:uD",
      // uncore aliases of one block: perf 6.1 splits the group per instance
      "{cas_count_read,cas_count_write}:D", "g{cas_count_read,cas_count_write}:k",
      // a group's p after a member's G or H (perf 6.12 excludes the guest anyway)
      "{cycles:G}:p", "{cycles:H}:pG", "{cycles:G,instructions}:pH",
      // group names: perf 6.12's name token takes '-' and a leading digit; names another lexer
      // rule takes on a tie (built-in events, cache words, numbers, raw events, modifiers) are
      // rejected by both
      "g-1{cycles}", "1g{cycles}", "L1-dcache-x{cycles}", "cpu-x{cycles}", "cycles{instructions}",
      "u{cycles}", "uk{cycles}", "12{cycles}", "0x1f{cycles}", "rab{cycles}", "L1-dcache{cycles}",
      "node{cycles}", "loads{cycles}", "cs{cycles}",
      // rejected by both
      "{cycles,{instructions}}", "{}", "cycles}", "{cycles}}", "{cycles}u", "{cycles,}",
      "{,cycles}", "{cycles:ppp}:p", "{cycles:pp}:pp", "{cycles}:", "{cycles}:x", "{cycles}:uu",
      "cpu/event=1/{cycles}"};
  const std::size_t edge_cases = specs.size();
  std::mt19937_64 random(group_seed());
  const int generated = group_full_run() ? 600 : 40;
  for (int i = 0; i < generated; ++i) specs.push_back(random_list(random));

  OracleRun run = run_perf(tree->devices_dir(), specs, options);
  ASSERT_TRUE(run.failure.empty()) << run.failure;
  ASSERT_EQ(run.results.size(), specs.size());
  auto catalog = Catalog::open(source);
  ASSERT_TRUE(catalog.has_value());
  EncodeOptions perf61;
  perf61.semantics = oracle_semantics();
  perf61.tool = Tool::stat;
  std::size_t accepted = 0, equal = 0;
  for (std::size_t i = 0; i < specs.size(); ++i) {
    PerfResult& perf = run.results[i];
    restore_materialised_types(perf);
    accepted += perf.accepted() ? 1 : 0;
    const auto ours = encode(*catalog, specs[i], perf61);
    EXPECT_EQ(ours.has_value(), perf.accepted())
        << specs[i] << ": pmucat " << (ours ? "accepts" : render(ours.error()))
        << "\nperf: " << perf.output;
    if (!ours || !perf.accepted() || ours->empty()) continue;
    // perf prints the first attr it opens; for a PMU with several instances perf 6.1 walks
    // them in directory order, pmucat in name order, so the leader perf printed is matched
    // among pmucat's leaders (and loose events) with the same type.
    const auto& printed_type = perf.printed.front().first.type;
    const Attr* found = &ours->front().attr;
    for (std::size_t k = 0; k < ours->size(); ++k) {
      const EncodedEvent& e = (*ours)[k];
      if ((!e.group_leader || *e.group_leader == k) && e.attr.type == printed_type) {
        found = &e.attr;
        break;
      }
    }
    const Attr& leader = *found;
    const AttrWords words{leader.type, leader.config};
    const auto& [perf_words, perf_bits] = perf.printed.front();
    EXPECT_EQ(to_string(words), to_string(perf_words)) << specs[i];
    EXPECT_EQ(to_string(bits_of(leader)), to_string(perf_bits)) << specs[i];
    if (words == perf_words && bits_of(leader) == perf_bits) ++equal;
    // The default semantics accept the same lists (a newer perf than theirs may accept more:
    // perf 7.3 takes `cycles{instructions}`).
    if (oracle_perf_version() <= kPmucatBaseRelease) {
      EXPECT_TRUE(encode(*catalog, specs[i]).has_value()) << specs[i];
    }
  }
  std::printf(
      "groups: %zu specs (%zu edge cases, seed %llu), perf accepted %zu, pmucat equal %zu\n",
      specs.size(), edge_cases, static_cast<unsigned long long>(group_seed()), accepted, equal);
  EXPECT_GT(accepted, specs.size() / 3) << "too few accepted specs to prove anything";
}

// perf 6.1 accepts a group without its `}` at the end of the list (`{cycles`: its bison grammar
// recovers at end of input); pmucat rejects it (spec-group-unclosed, docs/perf-compat.md).
TEST(GroupDiff, Perf61AcceptsAnUnclosedGroupAtTheEnd) {
  const OracleOptions options = OracleOptions::from_environment();
  if (auto why = oracle_unavailable(options)) GTEST_SKIP() << "perf oracle unavailable: " << *why;
  const fs::path source = fs::path(PMUCAT_SOURCE_DIR) / "fixtures/sysfs/intel-spr/devices";
  auto tree = MaterialisedTree::copy_of(source);
  ASSERT_TRUE(tree.has_value());
  const OracleRun run = run_perf(tree->devices_dir(), {"{cycles"}, options);
  ASSERT_TRUE(run.failure.empty()) << run.failure;
  ASSERT_EQ(run.results.size(), 1u);
  EXPECT_TRUE(run.results[0].accepted()) << run.results[0].output;
  auto catalog = Catalog::open(source);
  ASSERT_TRUE(catalog.has_value());
  const auto ours = encode(*catalog, "{cycles", {oracle_semantics(), Tool::stat, "", ""});
  ASSERT_FALSE(ours.has_value());
  EXPECT_EQ(ours.error().id, "spec-group-unclosed");
}

}  // namespace
}  // namespace differential
PMUCAT_END_NAMESPACE
