// pmudiff: the SNB-EP QPI drs_data change from 2013 to today is an encoding change (ABI break).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "test_support.h"

namespace pmucat::diff {
namespace {

namespace fs = std::filesystem;
using check::testing::run_command;
using check::testing::tool;

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
}  // namespace pmucat::diff
