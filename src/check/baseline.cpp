// --baseline files: known findings that are reported but do not fail the run.
#include <fmt/core.h>
#include <fnmatch.h>

#include <set>

#include "pmucat/check.h"
#include "pmucat/diagnostic_ids.h"

PMUCAT_BEGIN_NAMESPACE
namespace check {
namespace {

bool glob_matches(const std::string& pattern, const std::string& text) {
  return fnmatch(pattern.c_str(), text.c_str(), 0) == 0;
}

// A name as a baseline word that matches the name: glob characters are escaped, and bytes a
// baseline line cannot hold (blanks, newlines and other controls, '#') become '?', so a file
// named "a b" or "x\n" still gives one word that covers it.
std::string as_baseline_word(std::string_view name) {
  std::string word;
  for (char c : name) {
    const auto byte = static_cast<unsigned char>(c);
    if (c == '*' || c == '?' || c == '[' || c == '\\') {
      word += '\\';
      word += c;
    } else if (byte <= 0x20 || byte == 0x7f || c == '#') {
      word += '?';
    } else {
      word += c;
    }
  }
  return word;
}

}  // namespace

bool Baseline::covers(const Finding& finding) const {
  for (const BaselineEntry& entry : entries) {
    if (entry.rule != finding.rule) continue;
    if (!glob_matches(entry.pmu, finding.pmu.empty() ? "-" : finding.pmu)) continue;
    if (!glob_matches(entry.file, finding.file)) continue;
    return true;
  }
  return false;
}

Expected<Baseline> parse_baseline(std::string_view text, std::string_view file) {
  Baseline baseline;
  std::size_t line_start = 0;
  while (line_start < text.size()) {
    std::size_t line_end = text.find('\n', line_start);
    if (line_end == std::string_view::npos) line_end = text.size();
    std::string_view line = text.substr(line_start, line_end - line_start);
    auto hash = line.find('#');
    if (hash != std::string_view::npos) line = line.substr(0, hash);
    std::vector<std::pair<std::string, std::size_t>> words;
    std::size_t i = 0;
    while (i < line.size()) {
      while (i < line.size() && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r')) ++i;
      std::size_t start = i;
      while (i < line.size() && line[i] != ' ' && line[i] != '\t' && line[i] != '\r') ++i;
      if (i > start) words.emplace_back(std::string(line.substr(start, i - start)), start);
    }
    if (!words.empty()) {
      if (words.size() < 2 || words.size() > 3) {
        return unexpected(make_diagnostic(Severity::error, DiagId::baseline_syntax, file, text,
                                          line_start + words.front().second,
                                          line.size() - words.front().second,
                                          fmt::format("expected 'RULE PMU [FILE]', found {} word{}",
                                                      words.size(), words.size() == 1 ? "" : "s")));
      }
      if (find_rule(words[0].first) == nullptr && words[0].first.find('-') == std::string::npos) {
        return unexpected(make_diagnostic(Severity::error, DiagId::baseline_syntax, file, text,
                                          line_start + words[0].second, words[0].first.size(),
                                          fmt::format("'{}' is not a rule id", words[0].first)));
      }
      BaselineEntry entry{words[0].first, words[1].first,
                          words.size() == 3 ? words[2].first : std::string("*")};
      baseline.entries.push_back(std::move(entry));
    }
    line_start = line_end + 1;
  }
  return baseline;
}

std::string format_baseline(std::span<const Finding> findings) {
  std::set<std::tuple<std::string, std::string, std::string>> lines;
  for (const Finding& finding : findings) {
    lines.emplace(finding.rule, finding.pmu.empty() ? "-" : as_baseline_word(finding.pmu),
                  finding.file.empty() ? "*" : as_baseline_word(finding.file));
  }
  std::string out =
      "# pmucheck baseline: RULE PMU FILE (globs); findings listed here do not fail\n";
  for (const auto& [rule, pmu, file] : lines) out += fmt::format("{} {} {}\n", rule, pmu, file);
  return out;
}

}  // namespace check
PMUCAT_END_NAMESPACE
