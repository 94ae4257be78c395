// The perf release table (include/pmucat/perf_releases.def) against the code, the docs and the
// build: no code outside the table's own compares releases, docs/perf-compat.md carries the
// table as the code has it (PMUCAT_UPDATE_DOCS=1 rewrites that section) and every anchor a row
// names is one of its headings, and cmake/PmucatEvents.cmake has one table set per release.
#include <gtest/gtest.h>

#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "pmucat/perf_profile.h"
#include "support/generated_doc.h"

namespace {

namespace fs = std::filesystem;
using pmucat::Behaviour;
using pmucat::BehaviourInfo;
using pmucat::PerfRelease;
using pmucat::Profile;
using pmucat::ReleaseInfo;

const fs::path kSource = PMUCAT_SOURCE_DIR;
constexpr std::string_view kBegin = "<!-- perf-releases: generated from include/pmucat/";
constexpr std::string_view kEnd = "<!-- perf-releases: end -->";

using pmucat::testing::read_text;

// What a release comparison looks like: a release enumerator, a profile built for one release,
// or a profile's release() on either side of a comparison, a `case` of a release, or the names
// the table replaced.
const std::regex& comparison_pattern() {
  static const std::regex pattern(
      R"((==|!=|<=|>=|<|>)\s*(pmucat::)?PerfRelease::\w+)"
      R"(|(pmucat::)?PerfRelease::\w+\s*(==|!=|<=|>=|<[^<]|>[^>]))"
      R"(|(==|!=)\s*(pmucat::)?Profile::(perf\(|pmucat\(\)))"
      R"(|Profile::(perf\([^()]*(\([^()]*\))?[^()]*\)|pmucat\(\))\s*(==|!=))"
      R"(|\.release\(\)\s*(==|!=|<|>))"
      R"(|(==|!=)\s*[\w.>-]*\.release\(\))"
      R"(|case\s+(pmucat::)?PerfRelease::)"
      R"(|\bSemantics::|\bPerfVersion\b|\bfollows_perf\(|\bperf61_?\b|\bv612\b)");
  return pattern;
}

bool is_comparison(const std::string& line) {
  return std::regex_search(line, comparison_pattern());
}

// The table's own code: where releases are compared to build the profiles.
bool is_table_code(const fs::path& relative) {
  const std::string path = relative.generic_string();
  return path == "include/pmucat/perf_profile.h" || path == "include/pmucat/perf_releases.def" ||
         path == "src/parser/perf_profile.cpp";
}

TEST(PerfReleases, ThePatternFindsComparisonsAndPassesBehaviourQuestions) {
  for (const char* line : {
           "if (rules == PerfRelease::v6_12) {",
           "  const bool old = options.semantics == Profile::perf(PerfRelease::v6_1);",
           "if (profile.release() == pmucat::kNewestPerfRelease)",
           "    case PerfRelease::v6_1:",
           "return PerfRelease::v6_1 != version;",
           "if (semantics != Profile::pmucat()) return;",
           "bool perf61 = true;",
           "Semantics::perf_6_1",
       }) {
    EXPECT_TRUE(is_comparison(line)) << line;
  }
  for (const char* line : {
           "if (options.semantics.has(Behaviour::weak_needs_group)) {",
           "options.semantics = Profile::perf(PerfRelease::v6_12);",
           "if (jevents_rules(event.rules) == JeventsRules::of_6_12) {",
           "switch (profile.lexer()) {",
           "std::optional<PerfRelease> rules = {};",
           "return options_.rules.value_or(PerfRelease::v6_1);",
       }) {
    EXPECT_FALSE(is_comparison(line)) << line;
  }
}

TEST(PerfReleases, NoCodeOutsideTheTableComparesReleases) {
  std::vector<std::string> found;
  for (const char* dir : {"src", "include", "cli", "python", "tools"}) {
    if (!fs::exists(kSource / dir)) continue;
    for (const auto& entry : fs::recursive_directory_iterator(kSource / dir)) {
      if (!entry.is_regular_file()) continue;
      const std::string extension = entry.path().extension().string();
      if (extension != ".cpp" && extension != ".h" && extension != ".c" && extension != ".def" &&
          extension != ".py") {
        continue;
      }
      const fs::path relative = fs::relative(entry.path(), kSource);
      if (is_table_code(relative)) continue;
      std::ifstream in(entry.path());
      std::string line;
      for (int number = 1; std::getline(in, line); ++number) {
        if (is_comparison(line)) {
          found.push_back(relative.generic_string() + ":" + std::to_string(number) + ": " + line);
        }
      }
    }
  }
  std::string listing;
  for (const std::string& hit : found) listing += hit + "\n";
  EXPECT_TRUE(found.empty())
      << "ask the Profile for a behaviour by name (include/pmucat/perf_releases.def) instead of "
         "comparing releases:\n"
      << listing;
}

TEST(PerfReleases, ProfilesFollowTheTable) {
  ASSERT_FALSE(pmucat::perf_releases().empty());
  std::set<std::string_view> names;
  for (std::size_t i = 0; i < pmucat::perf_releases().size(); ++i) {
    const ReleaseInfo& release = pmucat::perf_releases()[i];
    EXPECT_EQ(static_cast<std::size_t>(release.release), i) << release.name;
    EXPECT_TRUE(names.insert(release.name).second) << "duplicate release " << release.name;
    EXPECT_EQ(pmucat::parse_perf_release(release.name), release.release) << release.name;
    EXPECT_EQ(pmucat::parse_profile(std::string("perf-") + std::string(release.name)),
              Profile::perf(release.release));
    EXPECT_TRUE(release.attr_size % 8 == 0 && release.attr_size >= 64) << release.name;
    EXPECT_FALSE(release.oracle.empty()) << release.name;
    EXPECT_EQ(Profile::perf(release.release).attr_size(), release.attr_size);
  }
  EXPECT_EQ(pmucat::kNewestPerfRelease, pmucat::perf_releases().back().release);
  const Profile pmucat_own = Profile::pmucat();
  const Profile base = Profile::perf(pmucat::kPmucatBaseRelease);
  EXPECT_EQ(pmucat_own.attr_size(), base.attr_size());
  EXPECT_EQ(pmucat_own.lexer(), base.lexer());
  EXPECT_EQ(pmucat_own.metric_rules(), base.metric_rules());
  for (std::size_t i = 0; i < pmucat::behaviours().size(); ++i) {
    const BehaviourInfo& row = pmucat::behaviours()[i];
    EXPECT_EQ(static_cast<std::size_t>(row.behaviour), i) << row.name;
    EXPECT_FALSE(row.anchor.empty()) << row.name;
    // pmucat = its base release, its deliberate differences and adopted changes aside.
    EXPECT_EQ(pmucat_own.has(row.behaviour),
              row.in_pmucat && (!row.since || base.has(row.behaviour) || row.adopted))
        << row.name;
    for (const ReleaseInfo& release : pmucat::perf_releases()) {
      const bool expected = row.since && *row.since <= release.release;
      EXPECT_EQ(Profile::perf(release.release).has(row.behaviour), expected)
          << row.name << " in perf " << release.name;
    }
  }
  // Unknown releases are rejected, never mapped to a neighbour.
  for (const char* text :
       {"7.1", "6.2", "6", "6.", "6.12x", "perf-7.1", "7.30", "", "auto", "perf-"}) {
    EXPECT_FALSE(pmucat::parse_profile(text).has_value()) << text;
  }
  EXPECT_EQ(pmucat::parse_perf_release("perf version 6.12.118-dirty"), PerfRelease::v6_12);
  EXPECT_EQ(pmucat::parse_perf_release("perf version 7.3.4"), PerfRelease::v7_3);
  EXPECT_EQ(pmucat::parse_perf_release("perf version 7.2.13"), PerfRelease::v7_2);
  EXPECT_EQ(pmucat::parse_profile("pmucat"), Profile::pmucat());
  EXPECT_EQ(Profile(), Profile::pmucat());
}

// docs/perf-compat.md's generated section, as the table says it should read.
std::string generated_section() {
  std::string out(kBegin);
  out += "perf_releases.def by tests/repo/perf_releases_test.cpp -->\n";
  out += "| release | tables | attr size | oracle |\n|---|---|---|---|\n";
  for (const ReleaseInfo& release : pmucat::perf_releases()) {
    out += "| perf " + std::string(release.name) + " | " + std::string(release.tables) + " | " +
           std::to_string(release.attr_size) + " | " +
           pmucat::testing::escape_cell(release.oracle) + " |\n";
  }
  out +=
      "\n| behaviour | since | pmucat | perf's message | described in |\n|---|---|---|---|---|\n";
  for (const BehaviourInfo& row : pmucat::behaviours()) {
    const std::string since =
        row.since ? "perf " + std::string(pmucat::to_string(*row.since)) : "pmucat only";
    const std::string pmucat_column = !row.since      ? "yes"
                                      : row.adopted   ? "adopted"
                                      : row.in_pmucat ? "follows"
                                                      : "differs";
    const std::string message =
        row.message.empty() ? "—" : "`" + pmucat::testing::escape_cell(row.message) + "`";
    out += "| `" + std::string(row.name) + "` | " + since + " | " + pmucat_column + " | " +
           message + " | [§](#" + std::string(row.anchor) + ") |\n";
  }
  out += kEnd;
  return out;
}

// GitHub's anchor of a heading: lower case, punctuation but '-' and '_' dropped, spaces '-'.
std::string slug(std::string_view heading) {
  std::string out;
  for (char c : heading) {
    const auto byte = static_cast<unsigned char>(c);
    if (std::isalnum(byte) || c == '-' || c == '_') {
      out += static_cast<char>(std::tolower(byte));
    } else if (c == ' ') {
      out += '-';
    }
  }
  return out;
}

TEST(PerfReleases, PerfCompatMdCarriesTheTable) {
  pmucat::testing::expect_generated_section(kSource / "docs/perf-compat.md", kBegin, kEnd,
                                            generated_section());
}

TEST(PerfReleases, EveryAnchorIsAHeadingOfPerfCompatMd) {
  std::set<std::string> anchors;
  std::istringstream lines(read_text(kSource / "docs/perf-compat.md"));
  std::string line;
  while (std::getline(lines, line)) {
    if (line.starts_with("#")) anchors.insert(slug(line.substr(line.find_first_not_of("# "))));
  }
  ASSERT_FALSE(anchors.empty());
  for (const BehaviourInfo& row : pmucat::behaviours()) {
    EXPECT_TRUE(anchors.contains(std::string(row.anchor)))
        << row.name << ": docs/perf-compat.md has no heading #" << row.anchor;
  }
}

// cmake/PmucatEvents.cmake builds one vendor table set per release: the newest release's is the
// default set (PMUCAT_EVENTS_VERSION), each other has its own variables (suffix _6_1), its index
// built and installed beside the default set's under the name installed_vendor_index looks for
// (`<default index>-<release>`), and it knows no release the table does not.
TEST(PerfReleases, PmucatEventsCmakeHasOneTableSetPerRelease) {
  const std::string cmake = read_text(kSource / "cmake/PmucatEvents.cmake");
  ASSERT_FALSE(cmake.empty());
  const std::string newest(pmucat::to_string(pmucat::kNewestPerfRelease));
  EXPECT_NE(cmake.find("set(PMUCAT_EVENTS_VERSION " + newest + ")"), std::string::npos) << newest;
  std::set<std::string> in_table;
  for (const ReleaseInfo& release : pmucat::perf_releases()) {
    const std::string name(release.name);
    in_table.insert(name);
    EXPECT_EQ(std::string(release.tables), "linux " + name);
    // A set is an arch/ tree, or (pmucat_generated_event_tables) tools/perf/pmu-events whose
    // generator scripts the build runs.
    EXPECT_TRUE(cmake.find("pmucat_event_tables(" + name + " ") != std::string::npos ||
                cmake.find("pmucat_generated_event_tables(" + name + " ") != std::string::npos)
        << name;
    EXPECT_NE(cmake.find("linux-source-" + name + ".tar.xz"), std::string::npos) << name;
    if (release.name == newest) continue;
    std::string suffix = "_" + name;
    for (char& c : suffix) c = c == '.' ? '_' : c;
    for (const char* variable :
         {"PMUCAT_KERNEL_SOURCE_TARBALL", "PMUCAT_EVENTS_JSON_DIR", "PMUCAT_EVENTS_DIR_BUILD"}) {
      EXPECT_NE(cmake.find(variable + suffix), std::string::npos) << variable << suffix;
    }
    // An arch/ tree's directory, or a generated set's tools/perf/pmu-events.
    EXPECT_TRUE(cmake.find("PMUCAT_PMU_EVENTS_DIR" + suffix) != std::string::npos ||
                cmake.find("PMUCAT_PMU_EVENTS_SOURCE" + suffix) != std::string::npos)
        << suffix;
    const std::string installed =
        "set(PMUCAT_EVENTS_INSTALL_DIR" + suffix + " ${PMUCAT_EVENTS_INSTALL_DIR}-" + name + ")";
    EXPECT_NE(cmake.find(installed), std::string::npos) << installed;
  }
  const std::regex call(R"(pmucat_(?:generated_)?event_tables\(([0-9.]+) )");
  for (auto it = std::sregex_iterator(cmake.begin(), cmake.end(), call);
       it != std::sregex_iterator(); ++it) {
    EXPECT_TRUE(in_table.contains((*it)[1].str()))
        << "cmake/PmucatEvents.cmake builds tables of linux " << (*it)[1].str()
        << ", a release include/pmucat/perf_releases.def does not list";
  }
}

}  // namespace
