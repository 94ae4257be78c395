// Runs the rules PMU by PMU (optionally on several threads) and assembles the Report.
#include <fmt/core.h>
#include <sys/stat.h>

#include <algorithm>
#include <atomic>
#include <set>
#include <thread>
#include <tuple>

#include "context.h"
#include "pmucat/diagnostic_ids.h"

PMUCAT_BEGIN_NAMESPACE
namespace check {
namespace {

// Rules that can fire at most once per file: a second report of the same file is the same fact
// seen by both the library and a pmucheck rule.
bool once_per_file(std::optional<DiagId> rule) {
  static constexpr DiagId kOnce[] = {
      DiagId::file_unreadable,  DiagId::file_too_large,   DiagId::file_not_regular,
      DiagId::pmu_type_missing, DiagId::pmu_type_invalid, DiagId::cpumask_invalid,
      DiagId::format_syntax,    DiagId::terms_syntax,     DiagId::event_empty,
      DiagId::scale_syntax,     DiagId::unit_empty,       DiagId::flag_content};
  return rule && std::find(std::begin(kOnce), std::end(kOnce), *rule) != std::end(kOnce);
}

bool is_enabled(std::string_view rule, const Options& options) {
  auto listed = [&](const std::vector<std::string>& ids) {
    return std::find(ids.begin(), ids.end(), rule) != ids.end();
  };
  if (listed(options.disabled)) return false;
  if (listed(options.enabled)) return true;
  const Rule* known = find_rule(rule);
  return known == nullptr || known->enabled_by_default;
}

std::vector<Finding> dedupe(std::vector<Finding> findings) {
  std::set<std::tuple<std::string, std::string, std::uint32_t, std::uint32_t>> seen;
  std::vector<Finding> kept;
  for (Finding& finding : findings) {
    const SourceRange& range = finding.diagnostic.range;
    // A finding's diagnostic carries its rule's id.
    bool once = once_per_file(finding.diagnostic.code);
    auto key =
        std::make_tuple(finding.rule, range.file, once ? 0U : range.line, once ? 0U : range.column);
    if (seen.insert(key).second) kept.push_back(std::move(finding));
  }
  return kept;
}

bool finding_less(const Finding& a, const Finding& b) {
  const SourceRange& x = a.diagnostic.range;
  const SourceRange& y = b.diagnostic.range;
  return std::tie(a.file, x.line, x.column, a.rule, a.diagnostic.message) <
         std::tie(b.file, y.line, y.column, b.rule, b.diagnostic.message);
}

bool group_applies(Group group, const Pmu& pmu, const Options& options) {
  switch (group) {
    case Group::tree:
      return false;
    case Group::attributes:
    case Group::pmu_name:
      return true;
    case Group::cpumask:
      return pmu.attributes().cpumask.has_value() || pmu.attributes().cpus.has_value();
    case Group::format:
      return !pmu.formats().empty();
    case Group::events:
    case Group::names:
      return !pmu.events().empty();
    case Group::metadata:
      return std::any_of(pmu.events().begin(), pmu.events().end(), [](const Event& e) {
        return e.unit.has_value() || e.scale.has_value() || !e.scale_text.empty() || e.per_pkg ||
               e.snapshot;
      });
    case Group::live:
      return options.live && !pmu.events().empty();
  }
  return false;
}

std::string_view skip_reason(Group group) {
  switch (group) {
    case Group::cpumask:
      return "no cpumask or cpus file";
    case Group::format:
      return "no format/ files";
    case Group::events:
    case Group::names:
      return "no events/ files";
    case Group::metadata:
      return "no .unit/.scale/.per-pkg/.snapshot files";
    case Group::live:
      return "--live not given";
    default:
      return "not applicable";
  }
}

constexpr Group kPmuGroups[] = {Group::attributes, Group::cpumask,  Group::pmu_name, Group::format,
                                Group::events,     Group::metadata, Group::names,    Group::live};

PmuReport check_pmu(const Catalog& catalog, const Pmu& pmu,
                    const std::filesystem::path& devices_dir, std::vector<Finding> extra,
                    const Options& options, std::span<const snap::NotCaptured> not_captured,
                    bool live_refused) {
  detail::PmuContext context(pmu, devices_dir);
  detail::import_library_diagnostics(context);  // first: library locations win duplicates
  detail::check_formats(context);
  detail::check_events(context);
  detail::check_event_names(context);
  if (detail::vendor_rules_apply(catalog)) detail::check_vendor_events(context);
  if (options.live) detail::check_live(context);
  detail::check_not_captured(context, not_captured);  // last: replaces placeholder findings
  std::vector<Finding> findings = std::move(context.findings());
  findings.insert(findings.end(), std::make_move_iterator(extra.begin()),
                  std::make_move_iterator(extra.end()));
  findings = dedupe(std::move(findings));

  PmuReport report;
  report.name = pmu.name();
  for (Group group : kPmuGroups) {
    GroupResult result;
    result.group = group;
    for (Finding& finding : findings) {
      if (finding.group != group || !is_enabled(finding.rule, options)) continue;
      finding.baselined = options.baseline.covers(finding);
      result.findings.push_back(finding);
    }
    std::sort(result.findings.begin(), result.findings.end(), finding_less);
    result.applicable = !result.findings.empty() || group_applies(group, pmu, options);
    if (!result.applicable) {
      result.skip_reason = group == Group::live && options.live ? "no events to open"
                           : group == Group::live && live_refused
                               ? "--live refused: not the running kernel's tree (live-foreign-tree)"
                               : std::string(skip_reason(group));
    }
    report.groups.push_back(std::move(result));
  }
  return report;
}

std::vector<const Pmu*> select_pmus(const Catalog& catalog, const Options& options) {
  std::vector<const Pmu*> selected;
  auto all = catalog.pmus();
  if (options.pmu_patterns.empty()) {
    for (const Pmu& pmu : all) selected.push_back(&pmu);
    return selected;
  }
  std::set<const Pmu*> chosen;
  for (const auto& pattern : options.pmu_patterns) {
    for (const Pmu* pmu : catalog.match_pmus(pattern)) chosen.insert(pmu);
  }
  for (const Pmu& pmu : all) {
    if (chosen.count(&pmu) != 0) selected.push_back(&pmu);
  }
  return selected;
}

constexpr const char* kRunningDevices = "/sys/bus/event_source/devices";

bool same_directory(const std::filesystem::path& a, const char* b) {
  struct stat first {};
  struct stat second {};
  return ::stat(a.c_str(), &first) == 0 && ::stat(b, &second) == 0 &&
         first.st_dev == second.st_dev && first.st_ino == second.st_ino;
}

}  // namespace

std::optional<Diagnostic> live_tree_problem(const Catalog& catalog, const Options& options) {
  if (!options.live || options.live_any_tree) return std::nullopt;
  if (same_directory(catalog.devices_dir(), kRunningDevices)) return std::nullopt;
  Diagnostic diagnostic = make_file_diagnostic(
      Severity::error, DiagId::live_foreign_tree, catalog.devices_dir().string(),
      fmt::format("--live refused: this is not the running kernel's {}, so its type numbers "
                  "would open other PMUs (or none) here",
                  kRunningDevices));
  diagnostic.hint =
      "check the running tree (no --sysfs), or pass --live-any-tree to open them anyway";
  return diagnostic;
}

Report run(const Catalog& catalog, const Options& given_options) {
  Options options = given_options;
  std::optional<Diagnostic> live_refused = live_tree_problem(catalog, options);
  const bool refused_live = live_refused.has_value();
  if (refused_live) options.live = false;
  Report report;
  report.sysfs = catalog.devices_dir().string();
  report.werror = options.werror;
  for (const Diagnostic& diagnostic : catalog.diagnostics()) {
    const DiagId rule_id =
        detail::classify_library_diagnostic(diagnostic).value_or(DiagId::catalog_stray_entry);
    const std::string rule(to_string(rule_id));
    if (!is_enabled(rule, options)) continue;
    Finding finding;
    finding.rule = rule;
    finding.group = Group::tree;
    finding.file = detail::relative_to(diagnostic.range.file, catalog.devices_dir());
    finding.diagnostic = diagnostic;
    set_id(finding.diagnostic, rule_id);
    if (const Rule* known = find_rule(rule)) finding.diagnostic.severity = known->severity;
    finding.baselined = options.baseline.covers(finding);
    report.tree_findings.push_back(std::move(finding));
  }
  // A pmusnap capture says which files it could not copy; an unusable manifest is a finding.
  std::vector<snap::NotCaptured> not_captured;
  if (auto manifest = snap::read_manifest(catalog.devices_dir())) {
    not_captured = std::move(*manifest);
  } else if (is_enabled(to_string(DiagId::capture_manifest_invalid), options)) {
    Finding finding;
    finding.rule = to_string(DiagId::capture_manifest_invalid);
    finding.group = Group::tree;
    finding.file = manifest.error().range.file;
    finding.diagnostic = std::move(manifest).error();
    finding.baselined = options.baseline.covers(finding);
    report.tree_findings.push_back(std::move(finding));
  }
  if (live_refused && is_enabled(to_string(DiagId::live_foreign_tree), options)) {
    Finding finding;
    finding.rule = to_string(DiagId::live_foreign_tree);
    finding.group = Group::tree;
    finding.file = detail::relative_to(live_refused->range.file, catalog.devices_dir());
    finding.diagnostic = std::move(*live_refused);
    finding.baselined = options.baseline.covers(finding);
    report.tree_findings.push_back(std::move(finding));
  }
  for (Finding& finding : detail::check_vendor_catalog(catalog)) {
    if (!is_enabled(finding.rule, options)) continue;
    finding.baselined = options.baseline.covers(finding);
    report.tree_findings.push_back(std::move(finding));
  }
  std::sort(report.tree_findings.begin(), report.tree_findings.end(), finding_less);

  std::vector<const Pmu*> selected = select_pmus(catalog, options);
  // Rules that compare PMUs with each other run once, before the per-PMU workers.
  std::vector<Finding> cross_pmu = detail::check_duplicate_types(catalog, selected);
  for (Finding& finding : detail::check_pmu_names(catalog, selected)) {
    cross_pmu.push_back(std::move(finding));
  }
  report.pmus.resize(selected.size());
  std::atomic<std::size_t> next{0};
  auto worker = [&] {
    for (std::size_t i = next++; i < selected.size(); i = next++) {
      std::vector<Finding> extra;
      for (const Finding& finding : cross_pmu) {
        if (finding.pmu == selected[i]->name()) extra.push_back(finding);
      }
      report.pmus[i] = check_pmu(catalog, *selected[i], catalog.devices_dir(), std::move(extra),
                                 options, not_captured, refused_live);
    }
  };
  unsigned jobs = std::clamp<unsigned>(options.jobs, 1, 256);
  std::vector<std::jthread> threads;
  for (unsigned j = 1; j < jobs; ++j) threads.emplace_back(worker);
  worker();
  threads.clear();  // joins: every PMU's slot is written before the report leaves
  return report;
}

std::vector<Finding> Report::all_findings() const {
  std::vector<Finding> all = tree_findings;
  for (const PmuReport& pmu : pmus) {
    for (const GroupResult& group : pmu.groups) {
      all.insert(all.end(), group.findings.begin(), group.findings.end());
    }
  }
  return all;
}

std::size_t Report::count(Severity severity) const {
  auto all = all_findings();
  return static_cast<std::size_t>(std::count_if(all.begin(), all.end(), [&](const Finding& f) {
    return !f.baselined && f.diagnostic.severity == severity;
  }));
}

bool Report::fails(const Finding& finding) const {
  if (finding.baselined) return false;
  Severity severity = finding.diagnostic.severity;
  return severity == Severity::error || (werror && severity == Severity::warning);
}

int exit_status(const Report& report, bool werror) {
  std::size_t failing = report.count(Severity::error);
  if (werror) failing += report.count(Severity::warning);
  return failing == 0 ? 0 : 1;
}

}  // namespace check
PMUCAT_END_NAMESPACE
