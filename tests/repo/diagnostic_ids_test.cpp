// The diagnostic id table (include/pmucat/diagnostic_ids.def) against pmucheck's rules, the docs
// and the sources: docs/rules.md documents exactly the rules, docs/grammar.md's id list is
// generated from the table (PMUCAT_UPDATE_DOCS=1 rewrites it), every id a doc table names is in
// the table, no source spells a registered id as a string literal instead of the enum, and no code
// compares a diagnostic's id text (it compares Diagnostic::code).
#include "pmucat/diagnostic_ids.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "pmucat/check.h"
#include "support/generated_doc.h"

namespace {

namespace fs = std::filesystem;
using pmucat::DiagId;
using pmucat::DiagInfo;

const fs::path kSource = PMUCAT_SOURCE_DIR;
constexpr std::string_view kBegin = "<!-- diagnostic-ids: generated from include/pmucat/";
constexpr std::string_view kEnd = "<!-- diagnostic-ids: end -->";

using pmucat::testing::read_text;

// The section of docs/grammar.md that lists every id, as the table says it should read.
std::string generated_id_section() {
  std::string out(kBegin);
  out += "diagnostic_ids.def by tests/repo/diagnostic_ids_test.cpp -->\n";
  out += "| id | severity | pmucheck rule | summary |\n|---|---|---|---|\n";
  for (const DiagInfo& entry : pmucat::diagnostic_ids()) {
    std::string rule = !entry.rule       ? "—"
                       : entry.is_rule() ? "itself ([rules.md](rules.md))"
                                         : "`" + std::string(to_string(*entry.rule)) + "`";
    out += "| `" + std::string(entry.name) + "` | " + std::string(to_string(entry.severity)) +
           " | " + rule + " | " + pmucat::testing::escape_cell(entry.summary) + " |\n";
  }
  out += kEnd;
  return out;
}

TEST(DiagnosticIds, AreUniqueKebabCaseAndIndexedByEnum) {
  const std::regex kebab("[a-z0-9]+(-[a-z0-9]+)+");
  std::set<std::string_view> seen;
  std::size_t index = 0;
  for (const DiagInfo& entry : pmucat::diagnostic_ids()) {
    EXPECT_TRUE(std::regex_match(std::string(entry.name), kebab)) << entry.name;
    EXPECT_TRUE(seen.insert(entry.name).second) << "duplicate id " << entry.name;
    EXPECT_EQ(static_cast<std::size_t>(entry.id), index++) << entry.name;
    EXPECT_EQ(pmucat::find_diagnostic_id(entry.name), entry.id) << entry.name;
    EXPECT_FALSE(entry.summary.empty()) << entry.name;
    if (entry.rule) {
      EXPECT_TRUE(pmucat::info(*entry.rule).is_rule())
          << entry.name << " is filed under " << to_string(*entry.rule) << ", not a rule";
    }
  }
  EXPECT_FALSE(pmucat::find_diagnostic_id("no-such-id").has_value());
}

TEST(DiagnosticIds, PmucheckRulesAreTheTablesRules) {
  std::vector<std::string_view> from_table;
  for (const DiagInfo& entry : pmucat::diagnostic_ids()) {
    if (entry.is_rule()) from_table.push_back(entry.name);
  }
  std::vector<std::string_view> from_check;
  for (const pmucat::check::Rule& rule : pmucat::check::rules()) {
    from_check.push_back(rule.id);
    const auto id = pmucat::find_diagnostic_id(rule.id);
    ASSERT_TRUE(id.has_value()) << rule.id;
    EXPECT_EQ(pmucat::info(*id).severity, rule.severity) << rule.id;
    EXPECT_EQ(pmucat::info(*id).summary, rule.rationale) << rule.id;
  }
  EXPECT_EQ(from_check, from_table);
}

// `### `id` — severity` headings, optionally "(off by default)", in the table's order.
TEST(DiagnosticIds, RulesMdDocumentsExactlyTheRules) {
  const std::string text = read_text(kSource / "docs/rules.md");
  ASSERT_FALSE(text.empty());
  const std::regex heading("^### `([^`]+)` — (error|warning|note)( \\(off by default\\))?$");
  std::vector<std::string> documented;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    std::smatch match;
    if (!line.starts_with("### `")) continue;
    ASSERT_TRUE(std::regex_match(line, match, heading)) << "malformed rule heading: " << line;
    const std::string id = match[1];
    documented.push_back(id);
    const pmucat::check::Rule* rule = pmucat::check::find_rule(id);
    ASSERT_NE(rule, nullptr) << "docs/rules.md documents '" << id << "', which is not a rule";
    EXPECT_EQ(match[2].str(), to_string(rule->severity)) << id;
    EXPECT_EQ(match[3].matched, !rule->enabled_by_default) << id;
  }
  std::vector<std::string> rules;
  for (const pmucat::check::Rule& rule : pmucat::check::rules()) rules.emplace_back(rule.id);
  EXPECT_EQ(documented, rules) << "docs/rules.md must document every rule, in table order";
}

TEST(DiagnosticIds, GrammarMdListsEveryIdAsTheTableSays) {
  pmucat::testing::expect_generated_section(kSource / "docs/grammar.md", kBegin, kEnd,
                                            generated_id_section());
}

// Every id a table row of the docs names (`| `id` | ...`) is one the code can produce.
TEST(DiagnosticIds, EveryDocumentedIdIsInTheTable) {
  const std::regex row("^\\| `([a-z0-9]+(-[a-z0-9]+)+)` \\|");
  for (const char* doc : {"docs/grammar.md", "docs/rules.md", "docs/perfdata.md"}) {
    std::istringstream lines(read_text(kSource / doc));
    for (std::string line; std::getline(lines, line);) {
      std::smatch match;
      if (!std::regex_search(line, match, row)) continue;
      EXPECT_TRUE(pmucat::find_diagnostic_id(match[1].str()).has_value())
          << doc << " documents '" << match[1] << "', which is not in diagnostic_ids.def";
    }
  }
}

// `line` without a trailing `//` comment (comments may quote an id: "id perfdata-io").
std::string code_part(const std::string& line) {
  const std::size_t comment = line.find("//");
  if (comment == std::string::npos) return line;
  const auto quotes = std::count(line.begin(), line.begin() + static_cast<long>(comment), '"');
  return quotes % 2 == 0 ? line.substr(0, comment) : line;
}

// The enumerator of a kebab-case id: terms-missing-comma -> terms_missing_comma.
std::string enum_name(std::string id) {
  std::replace(id.begin(), id.end(), '-', '_');
  return id;
}

// Producers name ids by enum; a string literal spelling a registered id is a second source of
// truth that the table cannot check.
TEST(DiagnosticIds, SourcesUseTheEnumNotStrings) {
  std::set<std::string, std::less<>> ids;
  for (const DiagInfo& entry : pmucat::diagnostic_ids()) ids.emplace(entry.name);
  const std::regex literal("\"([a-z0-9]+(-[a-z0-9]+)+)\"");
  for (const char* dir : {"src", "cli", "include"}) {
    for (const auto& entry : fs::recursive_directory_iterator(kSource / dir)) {
      const std::string extension = entry.path().extension().string();
      if (extension != ".cpp" && extension != ".h") continue;
      std::istringstream lines(read_text(entry.path()));
      for (std::string line; std::getline(lines, line);) {
        line = code_part(line);
        for (std::sregex_iterator it(line.begin(), line.end(), literal), stop; it != stop; ++it) {
          EXPECT_FALSE(ids.contains((*it)[1].str()))
              << fs::relative(entry.path(), kSource).generic_string() << " spells the id "
              << (*it)[0] << "; use DiagId::" << enum_name((*it)[1].str());
        }
      }
    }
  }
}

// What comparing an id's text looks like: a diagnostic's `id` compared or searched as a string,
// or an id's text compared with one.
bool compares_id_text(const std::string& line) {
  static const std::regex pattern(
      R"((\.|->)id\s*(==|!=)\s*("|std::string|to_string\())"
      R"(|("|\))\s*(==|!=)\s*[\w.>()-]*(\.|->)id\b)"
      R"(|(\.|->)id\.(starts_with|ends_with|find|rfind|compare|substr)\()"
      R"(|to_string\(DiagId::\w+\)\s*(==|!=)|(==|!=)\s*to_string\(DiagId::)");
  return std::regex_search(line, pattern);
}

TEST(DiagnosticIds, ThePatternFindsIdTextComparisons) {
  for (const char* line : {
           R"(if (error->id.starts_with("output-")) {)",
           R"(return diagnostic.id == "format-syntax";)",
           "if (d.id != to_string(DiagId::format_syntax)) continue;",
           "return to_string(DiagId::perfdata_io) == error.id;",
           "if (diagnostic.id.find(\"vendor-\") == 0) {",
       }) {
    EXPECT_TRUE(compares_id_text(line)) << line;
  }
  for (const char* line : {
           "if (diagnostic.code == DiagId::format_syntax) {",
           "} else if (h.kind == Kind::end_marker && h.id == *options.pipe_end_marker) {",
           "if (known.id == 0) {",
           "item[\"id\"] = diagnostic.id;",
       }) {
    EXPECT_FALSE(compares_id_text(line)) << line;
  }
}

// Code asks which diagnostic it holds by enum (`diagnostic.code == DiagId::...`); the id text is
// for output only, so renaming an id's text cannot change what code does.
TEST(DiagnosticIds, CodeComparesTheEnumNotTheText) {
  for (const char* dir : {"src", "cli", "include", "python", "tools"}) {
    if (!fs::exists(kSource / dir)) continue;
    for (const auto& entry : fs::recursive_directory_iterator(kSource / dir)) {
      const std::string extension = entry.path().extension().string();
      if (extension != ".cpp" && extension != ".h") continue;
      std::istringstream lines(read_text(entry.path()));
      int number = 0;
      for (std::string line; std::getline(lines, line);) {
        ++number;
        EXPECT_FALSE(compares_id_text(code_part(line)))
            << fs::relative(entry.path(), kSource).generic_string() << ":" << number
            << " compares an id's text: " << line;
      }
    }
  }
}

}  // namespace
