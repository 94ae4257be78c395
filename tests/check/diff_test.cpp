// pmudiff: the SNB-EP QPI drs_data change from 2013 to today is an encoding change (ABI break).
#include "pmucat/diff.h"

#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "support/files.h"
#include "support/scratch_dir.h"
#include "support/tools.h"
#include "test_support.h"

PMUCAT_BEGIN_NAMESPACE
namespace diff {
namespace {

namespace fs = std::filesystem;
using pmucat::testing::run_command;
using pmucat::testing::tool;

Catalog open_tree(const std::string& relative) {
  fs::current_path(PMUCAT_SOURCE_DIR);
  auto catalog = Catalog::open(relative);
  EXPECT_TRUE(catalog.has_value()) << relative;
  return std::move(*catalog);
}

const Change* find_change(const Result& result, Subject subject, std::string_view name) {
  for (const Change& change : result.changes) {
    if (change.subject == subject && change.name == name) return &change;
  }
  return nullptr;
}

TEST(Diff, DrsDataEncodingChangeIsAnAbiBreak) {
  Result result = compare(open_tree("fixtures/sysfs/diff/snb-ep-2013/devices"),
                          open_tree("fixtures/sysfs/diff/snb-ep-today/devices"));
  const Change* drs = find_change(result, Subject::event, "drs_data");
  ASSERT_NE(drs, nullptr);
  EXPECT_EQ(drs->kind, ChangeKind::changed);
  EXPECT_EQ(drs->pmu, "uncore_qpi_0");
  EXPECT_EQ(drs->old_text, "event=0x02,umask=0x08");
  EXPECT_EQ(drs->new_text, "event=0x102,umask=0x08");
  ASSERT_TRUE(drs->old_config && drs->new_config);
  EXPECT_EQ((*drs->old_config)[0], 0x802u);
  EXPECT_EQ((*drs->new_config)[0], 0x200802u);
  EXPECT_TRUE(drs->abi_break);
  EXPECT_TRUE(result.has_abi_break());
  // Only a trailing newline was added to these: same encoding, nothing to report.
  EXPECT_EQ(find_change(result, Subject::event, "clockticks"), nullptr);
  const Change* type = find_change(result, Subject::type, "");
  ASSERT_NE(type, nullptr);
  EXPECT_FALSE(type->abi_break);
  EXPECT_EQ(type->old_text, "14");
  EXPECT_EQ(type->new_text, "16");
}

TEST(Diff, IdenticalTreesHaveNoChanges) {
  Result result = compare(open_tree("fixtures/sysfs/diff/snb-ep-today/devices"),
                          open_tree("fixtures/sysfs/diff/snb-ep-today/devices"));
  EXPECT_TRUE(result.changes.empty());
  EXPECT_FALSE(result.has_abi_break());
}

TEST(Diff, AddedRemovedAndFormatChanges) {
  std::vector<Pmu> old_pmus, new_pmus;
  old_pmus.push_back(check::testing::make_pmu("gone", 7, {{"event", "config:0-7\n"}}, {}));
  old_pmus.push_back(check::testing::make_pmu(
      "cpu", 4, {{"event", "config:0-7\n"}, {"umask", "config:8-15\n"}, {"any", "config:21\n"}},
      {{"cycles", "event=0x3c\n"}, {"old-only", "event=0x1\n"}}));
  new_pmus.push_back(check::testing::make_pmu(
      "cpu", 4,
      {{"event", "config:0-7\n"}, {"umask", "config:8-15,40-47\n"}, {"eq", "config:36\n"}},
      {{"cycles", "event=0x3c\n"}, {"new-only", "event=0x2\n"}}));
  new_pmus.push_back(check::testing::make_pmu("fresh", 8, {{"event", "config:0-7\n"}}, {}));
  Result result =
      compare(Catalog::from_pmus(std::move(old_pmus)), Catalog::from_pmus(std::move(new_pmus)));
  auto has = [&](ChangeKind kind, Subject subject, std::string_view pmu, std::string_view name) {
    return std::any_of(result.changes.begin(), result.changes.end(), [&](const Change& c) {
      return c.kind == kind && c.subject == subject && c.pmu == pmu && c.name == name;
    });
  };
  EXPECT_TRUE(has(ChangeKind::removed, Subject::pmu, "gone", ""));
  EXPECT_TRUE(has(ChangeKind::added, Subject::pmu, "fresh", ""));
  EXPECT_TRUE(has(ChangeKind::removed, Subject::format, "cpu", "any"));
  EXPECT_TRUE(has(ChangeKind::added, Subject::format, "cpu", "eq"));
  EXPECT_TRUE(has(ChangeKind::removed, Subject::event, "cpu", "old-only"));
  EXPECT_TRUE(has(ChangeKind::added, Subject::event, "cpu", "new-only"));
  const Change* umask = find_change(result, Subject::format, "umask");
  ASSERT_NE(umask, nullptr);
  EXPECT_FALSE(umask->abi_break) << "widening keeps old values on their bits";
  EXPECT_EQ(find_change(result, Subject::event, "cycles"), nullptr);
}

// A PMU with one event `ev` carrying every kind of metadata, plus cpu lists, caps and alias.
struct PmuFacts {
  std::optional<std::string> unit = "Joules";
  std::string scale_text = "2.3283064365386962890625e-10";
  bool per_pkg = true;
  bool snapshot = false;
  std::string cpumask = "0";
  std::string cpus = "0-3";
  std::map<std::string, std::string> caps = {{"max_precise", "3"}, {"branches", "32"}};
  std::optional<std::string> alias;
  bool second_event = true;
};

Pmu facts_pmu(const PmuFacts& facts) {
  Pmu base = check::testing::make_pmu(
      "power", 9, {{"event", "config:0-7\n"}},
      facts.second_event
          ? std::vector<std::pair<std::string, std::string>>{{"ev", "event=0x2\n"},
                                                             {"other", "event=0x3\n"}}
          : std::vector<std::pair<std::string, std::string>>{{"ev", "event=0x2\n"}});
  PmuInfo info;
  info.name = base.name();
  info.attributes = base.attributes();
  info.formats.assign(base.formats().begin(), base.formats().end());
  info.events.assign(base.events().begin(), base.events().end());
  info.attributes.cpumask = parse_cpu_list(facts.cpumask, "cpumask").value();
  info.attributes.cpus = parse_cpu_list(facts.cpus, "cpus").value();
  info.attributes.caps = facts.caps;
  info.attributes.alias = facts.alias;
  Event& ev = info.events[0];
  ev.unit = facts.unit;
  ev.scale_text = facts.scale_text + "\n";
  ev.scale = std::stod(facts.scale_text);
  ev.per_pkg = facts.per_pkg;
  ev.snapshot = facts.snapshot;
  return Pmu::from_info(std::move(info));
}

Result compare_facts(const PmuFacts& before, const PmuFacts& after) {
  std::vector<Pmu> a, b;
  a.push_back(facts_pmu(before));
  b.push_back(facts_pmu(after));
  return compare(Catalog::from_pmus(std::move(a)), Catalog::from_pmus(std::move(b)));
}

TEST(Diff, MetadataCpuListsAndCapsAreReported) {
  PmuFacts before;
  EXPECT_TRUE(compare_facts(before, before).changes.empty());
  PmuFacts after = before;
  after.per_pkg = false;
  after.snapshot = true;
  after.cpumask = "0,56";
  after.cpus = "0,1,2,3";  // the same CPUs written otherwise: no change
  after.caps = {{"max_precise", "2"}, {"pmu_name", "sapphire_rapids"}};
  after.alias = "uncore_power";
  Result info = compare_facts(before, after);
  auto find = [&](const Result& result, Subject subject, std::string_view name) {
    const Change* found = nullptr;
    for (const Change& change : result.changes) {
      if (change.subject == subject && change.name == name) found = &change;
    }
    return found;
  };
  ASSERT_NE(find(info, Subject::per_pkg, "ev"), nullptr);
  EXPECT_EQ(find(info, Subject::per_pkg, "ev")->kind, ChangeKind::removed);
  ASSERT_NE(find(info, Subject::snapshot, "ev"), nullptr);
  EXPECT_EQ(find(info, Subject::snapshot, "ev")->kind, ChangeKind::added);
  ASSERT_NE(find(info, Subject::cpumask, ""), nullptr);
  EXPECT_EQ(find(info, Subject::cpumask, "")->old_text, "0");
  EXPECT_EQ(find(info, Subject::cpumask, "")->new_text, "0,56");
  EXPECT_EQ(find(info, Subject::cpus, ""), nullptr);
  ASSERT_NE(find(info, Subject::cap, "max_precise"), nullptr);
  EXPECT_EQ(find(info, Subject::cap, "max_precise")->kind, ChangeKind::changed);
  ASSERT_NE(find(info, Subject::cap, "branches"), nullptr);
  EXPECT_EQ(find(info, Subject::cap, "branches")->kind, ChangeKind::removed);
  ASSERT_NE(find(info, Subject::cap, "pmu_name"), nullptr);
  ASSERT_NE(find(info, Subject::attribute, "alias"), nullptr);
  EXPECT_EQ(info.changes.size(), 7u) << render_text(info);
  EXPECT_FALSE(info.has_abi_break()) << "these change how perf runs, not what a name means";

  PmuFacts rescaled = before;
  rescaled.scale_text = "1e-3";
  Result scale = compare_facts(before, rescaled);
  ASSERT_NE(find(scale, Subject::scale, "ev"), nullptr);
  EXPECT_TRUE(find(scale, Subject::scale, "ev")->abi_break);
  PmuFacts respelled = before;
  respelled.scale_text = "0.00000000023283064365386962890625";
  Result same_scale = compare_facts(before, respelled);
  ASSERT_NE(find(same_scale, Subject::scale, "ev"), nullptr);
  EXPECT_FALSE(same_scale.has_abi_break()) << "the same value written otherwise";

  PmuFacts relabelled = before;
  relabelled.unit = "kJoules";
  Result unit = compare_facts(before, relabelled);
  ASSERT_NE(find(unit, Subject::unit, "ev"), nullptr);
  EXPECT_TRUE(unit.has_abi_break());
  PmuFacts unlabelled = before;
  unlabelled.unit.reset();
  EXPECT_TRUE(compare_facts(before, unlabelled).has_abi_break());

  PmuFacts fewer = before;
  fewer.second_event = false;
  Result removed = compare_facts(before, fewer);
  ASSERT_NE(find(removed, Subject::event, "other"), nullptr);
  EXPECT_TRUE(find(removed, Subject::event, "other")->abi_break) << "a removed event breaks users";

  std::string text = render_text(info);
  EXPECT_NE(text.find("~ cpumask power: 0 -> 0,56\n"), std::string::npos) << text;
  EXPECT_NE(text.find("- per-pkg power/ev: 1\n"), std::string::npos) << text;
  EXPECT_NE(text.find("~ cap power/max_precise: 3 -> 2\n"), std::string::npos) << text;
  auto json = nlohmann::json::parse(render_json(scale));
  EXPECT_EQ(json["changes"][0]["subject"], "scale");
  EXPECT_EQ(json["changes"][0]["old"], "2.3283064365386962890625e-10");
  EXPECT_EQ(json["changes"][0]["new"], "1e-3");
  EXPECT_TRUE(json["abi_break"].get<bool>());
}

// The same through the files and the command line: exit 1 only for the ABI breaks.
TEST(Diff, CliReportsMetadataFromTreesOnDisk) {
  const pmucat::testing::ScratchDir scratch("diff-metadata");
  fs::path dir = scratch.path();
  for (const char* side : {"old", "new"}) {
    fs::path pmu = dir / side / "devices/power";
    fs::create_directories(pmu / "events");
    fs::create_directories(pmu / "format");
    fs::create_directories(pmu / "caps");
    pmucat::testing::write_text(pmu / "type", "9\n");
    pmucat::testing::write_text(pmu / "format/event", "config:0-7\n");
    pmucat::testing::write_text(pmu / "events/energy", "event=0x2\n");
    pmucat::testing::write_text(pmu / "events/energy.unit", "Joules\n");
    pmucat::testing::write_text(pmu / "events/energy.scale", "2.3283064365386962890625e-10\n");
    pmucat::testing::write_text(pmu / "cpumask", "0\n");
    pmucat::testing::write_text(pmu / "caps/max_precise", "3\n");
  }
  fs::path changed = dir / "new/devices/power";
  pmucat::testing::write_text(changed / "cpumask", "0,56\n");
  pmucat::testing::write_text(changed / "caps/max_precise", "2\n");
  pmucat::testing::write_text(changed / "events/energy.per-pkg", "1\n");
  std::string args = " " + (dir / "old/devices").string() + " " + (dir / "new/devices").string();
  auto informational = run_command(tool("pmudiff") + args);
  EXPECT_EQ(informational.status, 0) << informational.out;
  EXPECT_NE(informational.out.find("~ cpumask power: 0 -> 0,56"), std::string::npos)
      << informational.out;
  EXPECT_NE(informational.out.find("+ per-pkg power/energy: 1"), std::string::npos);
  EXPECT_NE(informational.out.find("~ cap power/max_precise: 3 -> 2"), std::string::npos);
  EXPECT_NE(informational.out.find("3 changes, 0 ABI breaks"), std::string::npos);
  pmucat::testing::write_text(changed / "events/energy.scale", "1e-3\n");
  pmucat::testing::write_text(changed / "events/energy.unit", "kJoules\n");
  auto breaking = run_command(tool("pmudiff") + " --json" + args);
  EXPECT_EQ(breaking.status, 1) << breaking.out;
  auto json = nlohmann::json::parse(breaking.out);
  std::set<std::string> broken;
  for (const auto& change : json["changes"]) {
    if (change["abi_break"].get<bool>()) broken.insert(change["subject"].get<std::string>());
  }
  EXPECT_EQ(broken, (std::set<std::string>{"unit", "scale"}));
}

TEST(Diff, CliReportsTheBreakInTextAndJson) {
  std::string args =
      " fixtures/sysfs/diff/snb-ep-2013/devices fixtures/sysfs/diff/snb-ep-today/devices";
  auto text = run_command(tool("pmudiff") + args);
  EXPECT_EQ(text.status, 1);
  EXPECT_NE(text.out.find("~ event uncore_qpi_0/drs_data: event=0x02,umask=0x08 -> "
                          "event=0x102,umask=0x08  [ABI break]\n    config 0x802 -> 0x200802\n"),
            std::string::npos)
      << text.out;
  auto json = run_command(tool("pmudiff") + " --json" + args);
  EXPECT_EQ(json.status, 1);
  auto parsed = nlohmann::json::parse(json.out);
  EXPECT_TRUE(parsed["abi_break"].get<bool>());
  auto same = run_command(tool("pmudiff") +
                          " fixtures/sysfs/diff/snb-ep-today/devices "
                          "fixtures/sysfs/diff/snb-ep-today/devices");
  EXPECT_EQ(same.status, 0);
  EXPECT_EQ(run_command(tool("pmudiff") + " /nonexistent/a /nonexistent/b 2>/dev/null").status, 2);
}

}  // namespace
}  // namespace diff
PMUCAT_END_NAMESPACE
