// Human output: clang-style diagnostics, then a one-line summary.
#include <fmt/core.h>

#include <algorithm>

#include "pmucat/version.h"
#include "reporters.h"

PMUCAT_BEGIN_NAMESPACE
namespace check {
namespace detail {

std::string plain_text(const Finding& finding) {
  Diagnostic diagnostic = finding.diagnostic;
  if (finding.baselined) diagnostic.message += " (known: baseline)";
  return render(diagnostic, RenderOptions{.color = false, .show_id = true});
}

bool group_fails(const Report& report, const GroupResult& group) {
  return std::any_of(group.findings.begin(), group.findings.end(),
                     [&](const Finding& f) { return report.fails(f); });
}

bool pmu_fails(const Report& report, const PmuReport& pmu) {
  return std::any_of(pmu.groups.begin(), pmu.groups.end(),
                     [&](const GroupResult& g) { return group_fails(report, g); });
}

bool tree_fails(const Report& report) {
  return std::any_of(report.tree_findings.begin(), report.tree_findings.end(),
                     [&](const Finding& f) { return report.fails(f); });
}

}  // namespace detail

namespace {

std::string plural(std::size_t n, std::string_view word) {
  return fmt::format("{} {}{}", n, word, n == 1 ? "" : "s");
}

}  // namespace

std::string render_text(const Report& report, const TextOptions& options) {
  std::string out;
  std::size_t baselined = 0;
  for (const Finding& finding : report.all_findings()) {
    if (finding.baselined) ++baselined;
    Diagnostic diagnostic = finding.diagnostic;
    if (finding.baselined) diagnostic.message += " (known: baseline)";
    out += render(diagnostic, RenderOptions{.color = options.color, .show_id = true});
  }
  if (options.summary) {
    out += fmt::format("{}, {}, {} in {}", plural(report.count(Severity::error), "error"),
                       plural(report.count(Severity::warning), "warning"),
                       plural(report.count(Severity::note), "note"),
                       plural(report.pmus.size(), "PMU"));
    if (baselined != 0) out += fmt::format(" ({} known from the baseline)", baselined);
    out += '\n';
  }
  return out;
}

}  // namespace check
PMUCAT_END_NAMESPACE
