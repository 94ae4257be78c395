// The catalog and the parsers already report what they tolerate (lints) and what they could not
// read; this file files each of those under a pmucheck rule instead of re-checking the text.
#include <set>

#include "context.h"
#include "pmucat/diagnostic_ids.h"

PMUCAT_BEGIN_NAMESPACE
namespace check::detail {

// The diagnostic id table names the rule of each id: a rule files itself, a precise parse error
// (terms-missing-comma, scale-quoted, ...) its file kind's rule, whose message keeps the detail.
std::optional<DiagId> classify_library_diagnostic(const Diagnostic& diagnostic) {
  const std::optional<DiagId> id = diagnostic.code;
  if (!id) return std::nullopt;
  return info(*id).rule;
}

void import_library_diagnostics(PmuContext& context) {
  const Pmu& pmu = context.pmu();
  // Load every part first: diagnostics() only holds what has been read so far.
  (void)pmu.attributes();
  (void)pmu.formats();
  (void)pmu.events();
  // The term-string lints and parse errors of JSON-only events (located in `<json>[<name>]`) are
  // not problems of the tree: vendor-event-unencodable reports what matters of them.
  std::set<std::string_view> json_events;
  for (const Event& event : pmu.events()) {
    if (event.source == EventSource::json) json_events.insert(event.path);
  }
  for (Diagnostic& diagnostic : pmu.diagnostics()) {
    if (!json_events.empty() && json_events.count(diagnostic.range.file) != 0) continue;
    if (std::optional<DiagId> rule = classify_library_diagnostic(diagnostic)) {
      context.add(*rule, std::move(diagnostic));
    } else {
      context.add_passthrough(std::move(diagnostic));
    }
  }
}

}  // namespace check::detail
PMUCAT_END_NAMESPACE
