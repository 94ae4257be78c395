// JSON output (docs/schema/pmucheck.schema.json).
#include "pmucat/diagnostic_json.h"
#include "reporters.h"

PMUCAT_BEGIN_NAMESPACE
namespace check {
namespace detail {

nlohmann::json finding_json(const Finding& finding) {
  // The diagnostic as every tool writes it, with pmucheck's names: the id is the finding's
  // rule, and `file` is relative to the devices dir while `path` is the diagnostic's own.
  nlohmann::json out = diagnostic_to_json<nlohmann::json>(finding.diagnostic);
  out.erase("id");
  out["rule"] = finding.rule;
  out["path"] = std::move(out["file"]);
  out["file"] = finding.file;
  out["check"] = std::string(to_string(finding.group));
  out["pmu"] = finding.pmu;
  out["baselined"] = finding.baselined;
  return out;
}

}  // namespace detail

namespace {

std::string status_of(const Report& report, const GroupResult& group) {
  if (!group.applicable) return "skip";
  return detail::group_fails(report, group) ? "fail" : "pass";
}

}  // namespace

std::string render_json(const Report& report) {
  nlohmann::json tree = nlohmann::json::array();
  for (const Finding& finding : report.tree_findings) tree.push_back(detail::finding_json(finding));
  nlohmann::json pmus = nlohmann::json::array();
  for (const PmuReport& pmu : report.pmus) {
    nlohmann::json checks = nlohmann::json::array();
    for (const GroupResult& group : pmu.groups) {
      nlohmann::json findings = nlohmann::json::array();
      for (const Finding& finding : group.findings)
        findings.push_back(detail::finding_json(finding));
      nlohmann::json check = {{"check", std::string(to_string(group.group))},
                              {"status", status_of(report, group)},
                              {"findings", findings}};
      if (!group.applicable) check["skip_reason"] = group.skip_reason;
      checks.push_back(std::move(check));
    }
    pmus.push_back({{"name", pmu.name},
                    {"status", detail::pmu_fails(report, pmu) ? "fail" : "pass"},
                    {"checks", checks}});
  }
  std::size_t baselined = 0;
  for (const Finding& finding : report.all_findings()) baselined += finding.baselined ? 1 : 0;
  nlohmann::json out = {
      {"tool", "pmucheck"},
      {"sysfs", report.sysfs},
      {"werror", report.werror},
      {"summary",
       {{"errors", report.count(Severity::error)},
        {"warnings", report.count(Severity::warning)},
        {"notes", report.count(Severity::note)},
        {"baselined", baselined},
        {"pmus", report.pmus.size()},
        {"status", exit_status(report, report.werror) == 0 ? "pass" : "fail"}}},
      {"tree", tree},
      {"pmus", pmus},
  };
  return out.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

}  // namespace check
PMUCAT_END_NAMESPACE
