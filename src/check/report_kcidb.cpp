// A KCIDB v5 `tests` fragment: the caller merges it into a submission with its own build.
#include <algorithm>

#include "reporters.h"

namespace pmucat::check {
namespace {

// KCIDB paths are dot-separated, so dots inside a PMU name would add levels.
std::string path_part(std::string_view text) {
  std::string out(text);
  std::replace(out.begin(), out.end(), '.', '_');
  std::replace(out.begin(), out.end(), '-', '_');
  return out;
}

constexpr std::size_t kMaxLogExcerpt = 16384;  // KCIDB's limit on log_excerpt

nlohmann::json test_json(const KcidbOptions& options, const Report& report, std::string_view pmu,
                         std::string_view check, const std::vector<Finding>& findings,
                         bool applicable) {
  std::string path = options.path_prefix + "." + path_part(pmu) + "." + path_part(check);
  bool fails = std::any_of(findings.begin(), findings.end(),
                           [&](const Finding& f) { return report.fails(f); });
  std::string excerpt;
  nlohmann::json misc_findings = nlohmann::json::array();
  for (const Finding& finding : findings) {
    excerpt += detail::plain_text(finding);
    misc_findings.push_back(detail::finding_json(finding));
  }
  if (excerpt.size() > kMaxLogExcerpt) excerpt.resize(kMaxLogExcerpt);
  nlohmann::json test = {
      {"id", options.origin + ":" + path},
      {"build_id", options.build_id},
      {"origin", options.origin},
      {"path", path},
      {"status", !applicable ? "SKIP" : (fails ? "FAIL" : "PASS")},
      {"misc", {{"findings", misc_findings}}},
  };
  if (!excerpt.empty()) test["log_excerpt"] = excerpt;
  return test;
}

}  // namespace

std::string render_kcidb(const Report& report, const KcidbOptions& options) {
  nlohmann::json tests = nlohmann::json::array();
  tests.push_back(
      test_json(options, report, detail::kTreeTestName, "entries", report.tree_findings, true));
  for (const PmuReport& pmu : report.pmus) {
    for (const GroupResult& group : pmu.groups) {
      tests.push_back(test_json(options, report, pmu.name, to_string(group.group), group.findings,
                                group.applicable));
    }
  }
  nlohmann::json out = {{"version", {{"major", 5}, {"minor", 3}}}, {"tests", tests}};
  return out.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

}  // namespace pmucat::check
