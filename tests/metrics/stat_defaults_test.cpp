// stat_default_events() on every fixture tree with a model of linux 7.3's tables, under every
// release's semantics and pmucat's, with every -d level and with and without -a: the result is
// well formed (groups contiguous, each led by its first event; metric ids pointing at events that
// exist; no `events-regrouped` warning on a list perf builds itself), or an error. What each list
// holds is compared with the real perfs by StatDefaultsDiff and stat_defaults_cli_test.cpp.
#include "pmucat/stat_defaults.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "pmucat/catalog.h"

PMUCAT_BEGIN_NAMESPACE
namespace {

namespace fs = std::filesystem;

struct Tree {
  std::string fixture, cpuid;
};

// The index of the first event of `events[i]`'s group: its leader, which comes first.
void expect_well_formed(const StatDefaults& defaults, const std::string& label) {
  const auto& events = defaults.events;
  for (std::size_t i = 0; i < events.size(); ++i) {
    for (const Diagnostic& warning : events[i].warnings) {
      EXPECT_NE(warning.id, "events-regrouped") << label << ": event " << i;
    }
    if (!events[i].group_leader) continue;
    const std::size_t leader = *events[i].group_leader;
    ASSERT_LE(leader, i) << label << ": event " << i;
    EXPECT_EQ(events[leader].group_leader, leader) << label << ": event " << i;
    // Contiguous: every event between the leader and this one is in the same group.
    for (std::size_t k = leader; k <= i; ++k) {
      EXPECT_EQ(events[k].group_leader, leader) << label << ": event " << k;
    }
  }
  ASSERT_EQ(defaults.metrics.size(), defaults.metric_events.size()) << label;
  for (std::size_t m = 0; m < defaults.metrics.size(); ++m) {
    ASSERT_EQ(defaults.metric_events[m].size(), defaults.metrics[m].ids.size()) << label;
    for (const auto& indices : defaults.metric_events[m]) {
      for (std::size_t index : indices) EXPECT_LT(index, events.size()) << label;
    }
  }
}

TEST(StatDefaults, EveryTreeReleaseAndLevelIsWellFormed) {
  const fs::path tables = PMUCAT_TEST_EVENTS_DIR_7_3;
  if (tables.empty()) GTEST_SKIP() << "the build has no linux 7.3 tables";
  const std::vector<Tree> trees = {{"intel-spr", "GenuineIntel-6-8F-8"},
                                   {"intel-cwf", "GenuineIntel-6-DD-1"},
                                   {"intel-arl-hybrid", "GenuineIntel-6-C5-0"},
                                   {"intel-adl-hybrid", "GenuineIntel-6-97-0"},
                                   {"amd-zen4", "AuthenticAMD-25-11-0"},
                                   {"amd-zen6", "AuthenticAMD-26-50-0"},
                                   {"arm64-n1", "0x00000000410fd0c0"},
                                   {"arm-neoverse-v3", "0x00000000410fd830"},
                                   {"power9", "0x004e1200"}};
  std::vector<Profile> semantics = {Profile::pmucat()};
  for (PerfRelease release : known_perf_releases()) semantics.push_back(Profile::perf(release));
  std::size_t lists = 0;
  std::size_t errors = 0;
  for (const Tree& tree : trees) {
    for (const Profile& profile : semantics) {
      // linux 7.3's tables for the semantics that read them (pmucat's own, perf 7.2's and
      // 7.3's); none for perf 6.1's and 6.12's, whose fixed lists need none (their own tables'
      // Default groups are StatDefaultsDiff's).
      const bool reads_73 = profile.metric_dialect() >= MetricDialect::of_7_2;
      auto catalog =
          Catalog::open(fs::path(PMUCAT_SOURCE_DIR) / "fixtures/sysfs" / tree.fixture / "devices",
                        reads_73 ? VendorOptions{tables, tree.cpuid, {}, {}, PerfRelease::v7_3}
                                 : VendorOptions{});
      ASSERT_TRUE(catalog.has_value()) << tree.fixture;
      for (unsigned detail = 0; detail <= 4; ++detail) {
        for (bool cpus : {false, true}) {
          StatDefaultsOptions options;
          options.detail = detail;
          options.cpu_target = cpus;
          options.metrics.literals = host_metric_literals();  // what perf reads on this host
          EncodeOptions encode_options;
          encode_options.semantics = profile;
          const std::string label = tree.fixture + " " + std::string(profile.name()) + " -d" +
                                    std::to_string(detail) + (cpus ? " -a" : "");
          auto defaults = stat_default_events(*catalog, options, encode_options);
          ++lists;
          if (!defaults) {
            // Only the arm64 tables' #slots (an x86 perf cannot read it) stops a default list.
            EXPECT_EQ(tree.fixture, "arm-neoverse-v3") << label << ": " << defaults.error().message;
            ++errors;
            continue;
          }
          EXPECT_FALSE(defaults->events.empty()) << label;
          expect_well_formed(*defaults, label);
          // linux 7.3's tables have all four Default groups (the common table's): perf 7.2
          // expands one more for each -d up to Default4, perf 6.12 (and pmucat) Default alone,
          // perf 6.1 none.
          std::vector<std::string> groups;
          if (profile.has(Behaviour::metric_driven_default_stat)) {
            const std::vector<std::string> all = {"Default", "Default2", "Default3", "Default4"};
            groups.assign(all.begin(), all.begin() + std::min<std::size_t>(detail + 1, 4));
          } else if (reads_73 && profile.has(Behaviour::default_stat_metricgroup)) {
            groups = {"Default"};
          }
          EXPECT_EQ(defaults->metric_groups, groups) << label;
        }
      }
    }
  }
  std::printf("[ defaults ] %zu lists, %zu errors\n", lists, errors);
}

}  // namespace
PMUCAT_END_NAMESPACE
