// The tools as whole processes on the hostile corpus: no crash, no hang, the documented exit
// status, valid JSON, and a message that names the file (and line:col where content is at fault).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "hostile_corpus.h"
#include "pmucat/version.h"
#include "support/tools.h"

PMUCAT_BEGIN_NAMESPACE
namespace hostile {
namespace {
namespace fs = std::filesystem;
using pmucat::testing::CommandResult;
using pmucat::testing::run_tool_command;
using pmucat::testing::shell_quote;

// Runs `tool args` (tool under cli/<tool>/ of this build) with a watchdog: 124 means it hung.
CommandResult run_tool(const std::string& tool, const std::string& args) {
  const std::string binary = std::string(PMUCAT_BINARY_DIR) + "/cli/" + tool + "/" + tool;
  return run_tool_command("timeout 300 " + shell_quote(binary) + " " + args, "-");
}

std::string describe(const CommandResult& result) {
  return "status " + std::to_string(result.status) + "\nstderr:\n" + result.err.substr(0, 3000) +
         "\nstdout:\n" + result.out.substr(0, 3000);
}

bool is_utf8_path(const std::string& text) {
  return nlohmann::json::accept(
             nlohmann::json(text).dump(-1, ' ', false, nlohmann::json::error_handler_t::ignore)) &&
         std::none_of(text.begin(), text.end(), [](char c) { return (c & 0x80) != 0; });
}

// `:LINE:COL: ` at the start of `rest`. (Not std::regex: GCC 12 reports false
// -Wmaybe-uninitialized inside its automaton in the sanitizer build.)
bool starts_with_line_col(std::string_view rest) {
  auto number = [&rest]() {
    if (rest.empty() || rest.front() != ':') return false;
    rest.remove_prefix(1);
    std::size_t digits = 0;
    while (digits < rest.size() && rest[digits] >= '0' && rest[digits] <= '9') ++digits;
    rest.remove_prefix(digits);
    return digits > 0;
  };
  return number() && number() && rest.starts_with(": ");
}

// `path:LINE:COL:` when located, else `path:` followed by a blank.
bool mentions(const std::string& text, const std::string& path, bool located) {
  std::size_t at = text.find(path + (located ? ":" : ": "));
  while (at != std::string::npos) {
    if (!located) return true;
    if (starts_with_line_col(std::string_view(text).substr(at + path.size()))) return true;
    at = text.find(path + ":", at + 1);
  }
  return false;
}

class HostileCli : public ::testing::Test {
 protected:
  HostileTree tree;
  std::string sysfs() const { return "--sysfs " + shell_quote(tree.devices().string()); }
  std::string path_of(const HostileCase& hostile) const {
    return (tree.devices() / hostile.entry).string();
  }
};

TEST_F(HostileCli, PmucheckTextNamesEveryCase) {
  const CommandResult result = run_tool("pmucheck", sysfs() + " --format=text");
  ASSERT_EQ(result.status, 1) << describe(result);
  const std::string all = result.out + result.err;
  for (const HostileCase& hostile : tree.cases()) {
    SCOPED_TRACE(hostile.label);
    EXPECT_TRUE(mentions(all, path_of(hostile), hostile.located))
        << path_of(hostile) << " (located: " << hostile.located << ")\n"
        << describe(result);
    EXPECT_NE(all.find("[" + hostile.ids.front() + "]"), std::string::npos);
  }
}

TEST_F(HostileCli, PmucheckKtapHasOneTestPerPmuAndTheMessages) {
  const CommandResult result = run_tool("pmucheck", sysfs() + " --format=ktap");
  ASSERT_EQ(result.status, 1) << describe(result);
  ASSERT_TRUE(result.out.starts_with("KTAP version 1\n")) << describe(result);
  EXPECT_NE(result.out.find("\n1.." + std::to_string(tree.cases().size() + 2) + "\n"),
            std::string::npos)
      << "the tree, the good PMU and one per case\n"
      << describe(result);
  for (const HostileCase& hostile : tree.cases()) {
    SCOPED_TRACE(hostile.label);
    if (!is_utf8_path(path_of(hostile))) continue;  // escaped in KTAP comments
    EXPECT_TRUE(mentions(result.out, path_of(hostile), hostile.located)) << describe(result);
  }
}

TEST_F(HostileCli, PmucheckJsonIsValidAndHasEveryFinding) {
  const CommandResult result = run_tool("pmucheck", sysfs() + " --json");
  ASSERT_EQ(result.status, 1) << describe(result);
  nlohmann::json report;
  ASSERT_NO_THROW(report = nlohmann::json::parse(result.out)) << describe(result);
  const std::string dump = report.dump();
  for (const HostileCase& hostile : tree.cases()) {
    SCOPED_TRACE(hostile.label);
    EXPECT_NE(dump.find("\"" + hostile.ids.front() + "\""), std::string::npos);
    if (!is_utf8_path(hostile.entry)) continue;
    EXPECT_NE(dump.find(hostile.entry), std::string::npos) << hostile.entry;
  }
}

// A diagnostic object anywhere under `node` ("diagnostics" of a PMU, "error" of an event) with
// one of `ids`, naming `file`, and a line when `located`.
bool has_diagnostic(const nlohmann::json& node, const std::vector<std::string>& ids,
                    const std::string& file, bool located) {
  if (node.is_object() && node.contains("id") && node.contains("file") && node["id"].is_string() &&
      node["file"] == file &&
      std::find(ids.begin(), ids.end(), node["id"].get<std::string>()) != ids.end() &&
      (!located || node.value("line", 0) >= 1)) {
    return true;
  }
  if (node.is_structured()) {
    for (const auto& child : node) {
      if (has_diagnostic(child, ids, file, located)) return true;
    }
  }
  return false;
}

// pmuls --json puts the diagnostics of what it loaded into the document (stderr stays empty).
TEST_F(HostileCli, PmulsJsonListsEveryPmuWithItsDiagnostics) {
  const CommandResult result = run_tool("pmuls", sysfs() + " --json");
  ASSERT_EQ(result.status, 0) << describe(result);
  nlohmann::json listing;
  ASSERT_NO_THROW(listing = nlohmann::json::parse(result.out)) << describe(result);
  ASSERT_TRUE(listing.contains("pmus"));
  EXPECT_EQ(listing["pmus"].size(), tree.cases().size() + 1);
  for (const HostileCase& hostile : tree.cases()) {
    SCOPED_TRACE(hostile.label);
    if (hostile.ids.front().ends_with("-charset")) continue;  // checker rules, not load errors
    if (!is_utf8_path(path_of(hostile))) continue;
    const auto pmu =
        std::find_if(listing["pmus"].begin(), listing["pmus"].end(),
                     [&](const nlohmann::json& p) { return p["name"] == hostile.pmu; });
    ASSERT_NE(pmu, listing["pmus"].end());
    EXPECT_TRUE(has_diagnostic(*pmu, hostile.ids, path_of(hostile), hostile.located))
        << pmu->dump(2).substr(0, 4000);
  }
}

TEST_F(HostileCli, PmuencodeEncodesBesideTheDamageAndLocatesTheDamage) {
  std::string specs = "good/ok/ good/plain/";
  for (const HostileCase& hostile : tree.cases()) {
    if (!hostile.usable_spec.empty()) specs += " " + shell_quote(hostile.usable_spec);
  }
  const CommandResult good = run_tool("pmuencode", sysfs() + " " + specs);
  EXPECT_EQ(good.status, 0) << describe(good);
  for (const HostileCase& hostile : tree.cases()) {
    if (!hostile.entry.starts_with(hostile.pmu + "/events/")) continue;
    if (!is_utf8_path(hostile.entry) || hostile.ids.front() == "event-empty" ||
        hostile.ids.front() == "terms-whitespace" || hostile.entry.ends_with("/up")) {
      continue;  // usable, or not nameable in a spec
    }
    SCOPED_TRACE(hostile.label);
    const std::string event = fs::path(hostile.entry).filename().string();
    const CommandResult bad =
        run_tool("pmuencode", sysfs() + " " + hostile.pmu + "/" + event + "/");
    EXPECT_EQ(bad.status, 1) << describe(bad);
    EXPECT_TRUE(mentions(bad.err, path_of(hostile), hostile.located)) << describe(bad);
  }
}

TEST_F(HostileCli, HundredThousandEventsStayUsableFromTheTools) {
  tree.add_big_pmu("big", 100000);
  const CommandResult encoded = run_tool("pmuencode", sysfs() + " big/e099999/ good/ok/");
  EXPECT_EQ(encoded.status, 0) << describe(encoded);
  EXPECT_NE(encoded.out.find("0x9f"), std::string::npos) << describe(encoded);
  const CommandResult listed = run_tool("pmuls", sysfs() + " --pmu big --json");
  ASSERT_EQ(listed.status, 0) << describe(listed);
  nlohmann::json listing;
  ASSERT_NO_THROW(listing = nlohmann::json::parse(listed.out));
  ASSERT_EQ(listing["pmus"].size(), 1U);
  EXPECT_EQ(listing["pmus"][0]["events"].size(), 100001U);
}

}  // namespace
}  // namespace hostile
PMUCAT_END_NAMESPACE
