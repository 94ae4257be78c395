// The catalog and the parsers already report what they tolerate (lints) and what they could not
// read; this file files each of those under a pmucheck rule instead of re-checking the text.
#include <algorithm>

#include "context.h"
#include "pmucat/metadata.h"

namespace pmucat::check::detail {
namespace {

// Fatal parse errors come with precise ids (terms-missing-comma, scale-quoted, ...); pmucheck
// files each family under one rule and keeps the precise text in the message.
std::string family_rule(const Diagnostic& diagnostic) {
  const std::string& id = diagnostic.id;
  if (id == "pmu-type-hex") return "pmu-type-invalid";
  if (id.starts_with("cpulist-")) return "cpumask-invalid";
  if (diagnostic.severity != Severity::error) return "";
  if (id.starts_with("terms-")) return "terms-syntax";
  if (id.starts_with("format-")) return "format-syntax";
  if (id.starts_with("scale-")) return "scale-syntax";
  return "";
}

// Diagnostics with an id pmucheck does not know, filed by the file they are about.
std::string classify_by_path(const Diagnostic& diagnostic) {
  std::filesystem::path path{diagnostic.range.file};
  std::string name = path.filename().string();
  std::string parent = path.parent_path().filename().string();
  bool error = diagnostic.severity == Severity::error;
  if (parent == "events") {
    switch (metadata_suffix(name)) {
      case MetadataSuffix::scale:
        return error ? "scale-syntax" : "";
      case MetadataSuffix::unit:
        return error ? "unit-empty" : "";
      case MetadataSuffix::per_pkg:
      case MetadataSuffix::snapshot:
        return "flag-content";
      case MetadataSuffix::none:
        return error ? "terms-syntax" : "";
    }
  }
  if (parent == "format") return error ? "format-syntax" : "";
  if (name == "type" && error) return "pmu-type-invalid";
  if (name == "cpumask" || name == "cpus") return "cpumask-invalid";
  return "";
}

}  // namespace

std::string classify_library_diagnostic(const Diagnostic& diagnostic) {
  if (find_rule(diagnostic.id) != nullptr) return diagnostic.id;
  std::string family = family_rule(diagnostic);
  if (!family.empty()) return family;
  return classify_by_path(diagnostic);
}

void import_library_diagnostics(PmuContext& context) {
  const Pmu& pmu = context.pmu();
  // Load every part first: diagnostics() only holds what has been read so far.
  (void)pmu.attributes();
  (void)pmu.formats();
  (void)pmu.events();
  for (Diagnostic& diagnostic : pmu.diagnostics()) {
    std::string rule = classify_library_diagnostic(diagnostic);
    if (rule.empty()) {
      context.add_passthrough(std::move(diagnostic));
    } else {
      context.add(rule, std::move(diagnostic));
    }
  }
}

}  // namespace pmucat::check::detail
