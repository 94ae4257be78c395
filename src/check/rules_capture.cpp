// pmucheck on a pmusnap capture: the entries the capture could not copy byte for byte are
// reported under the rule the original tree hit, instead of what their empty placeholders say.
#include <fmt/core.h>

#include <algorithm>

#include "context.h"
#include "pmucat/diagnostic_ids.h"

PMUCAT_BEGIN_NAMESPACE
namespace check::detail {

bool names_pmu(const snap::NotCaptured& entry, std::string_view pmu) {
  std::string_view path = entry.path;
  return path.substr(0, path.find('/')) == pmu;
}

void check_not_captured(PmuContext& context, std::span<const snap::NotCaptured> entries) {
  std::vector<Finding>& findings = context.findings();
  for (const snap::NotCaptured& entry : entries) {
    // Tree-level entries (stray files) are reported by the placeholder itself; files no
    // pmucheck rule reads have no rule.
    if (entry.rule.empty() || !names_pmu(entry, context.pmu().name()) ||
        find_diagnostic_id(entry.rule) == DiagId::catalog_stray_entry) {
      continue;
    }
    std::string below = entry.path + "/";
    std::erase_if(findings, [&](const Finding& finding) {
      return finding.file == entry.path || finding.file.starts_with(below);
    });
    bool whole_pmu = entry.path == context.pmu().name();
    std::string display =
        whole_pmu
            ? context.pmu().path().string()
            : context.path_of(std::string_view(entry.path).substr(context.pmu().name().size() + 1));
    context.add(entry.rule,
                make_file_diagnostic(Severity::error, entry.rule, display,
                                     fmt::format("{} (in the captured tree; not captured, see {})",
                                                 entry.reason, snap::kManifestName)));
  }
}

}  // namespace check::detail
PMUCAT_END_NAMESPACE
