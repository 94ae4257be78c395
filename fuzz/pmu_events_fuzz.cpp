// The vendor JSON readers on arbitrary bytes: the same input read as one model's JSON file (twice,
// the second time with the first read's events as the architecture standard events, so that
// ArchStdEvent references resolve) and as a mapfile.csv. Invariants: nothing throws, every
// diagnostic and event location lies inside the input and renders, names are lower-case and not
// empty, reading is deterministic, and perf's descriptions and the CPU identifier rules accept
// whatever was read.
#include <string>
#include <string_view>
#include <vector>

#include "fuzz_target.h"
#include "pmucat/diagnostic.h"
#include "pmucat/terms.h"
#include "pmucat/vendor_events.h"

namespace {

using pmucat::Diagnostic;
using pmucat::VendorEvent;

void check_diagnostics(const std::vector<Diagnostic>& diagnostics, std::string_view text) {
  for (const Diagnostic& diagnostic : diagnostics) {
    PMUCAT_FUZZ_CHECK(diagnostic.range.offset <= text.size());
    PMUCAT_FUZZ_CHECK(!pmucat::render(diagnostic).empty());
  }
}

void check_events(const std::vector<VendorEvent>& events, std::string_view text) {
  for (const VendorEvent& event : events) {
    PMUCAT_FUZZ_CHECK(!event.name.empty());
    for (char c : event.name) PMUCAT_FUZZ_CHECK(!(c >= 'A' && c <= 'Z'));
    PMUCAT_FUZZ_CHECK(event.location.offset <= text.size());
    // The term string goes through the events/ file grammar like a sysfs alias: it may be
    // rejected, never crash.
    (void)pmucat::parse_terms(event.terms, "fuzz[event]", pmucat::TermSyntax::event_file);
    (void)pmucat::perf_brief_description(event);
    (void)pmucat::perf_public_description(event);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);

  // Each perf release's jevents rules (6.12 canonicalises numbers and knows more fields).
  for (const pmucat::PerfRelease rules : pmucat::known_perf_releases()) {
    std::vector<Diagnostic> diagnostics;
    const std::vector<VendorEvent> events = pmucat::parse_vendor_json(
        text, "arch/x86/fuzz/cache.json", "cache", {}, rules, diagnostics);
    check_diagnostics(diagnostics, text);
    check_events(events, text);

    std::vector<Diagnostic> again_diagnostics;
    const std::vector<VendorEvent> again = pmucat::parse_vendor_json(
        text, "arch/x86/fuzz/cache.json", "cache", {}, rules, again_diagnostics);
    PMUCAT_FUZZ_CHECK(again == events);
    PMUCAT_FUZZ_CHECK(again_diagnostics.size() == diagnostics.size());

    std::vector<Diagnostic> std_diagnostics;
    const std::vector<VendorEvent> with_std = pmucat::parse_vendor_json(
        text, "arch/arm64/fuzz/core.json", "core", events, rules, std_diagnostics);
    check_diagnostics(std_diagnostics, text);
    check_events(with_std, text);
  }
  std::vector<Diagnostic> group_diagnostics;
  const auto groups = pmucat::parse_metric_group_descriptions(
      text, "arch/x86/fuzz/metricgroups.json", group_diagnostics);
  check_diagnostics(group_diagnostics, text);
  for (std::size_t i = 1; i < groups.size(); ++i)
    PMUCAT_FUZZ_CHECK(groups[i - 1].name < groups[i].name);

  const pmucat::Mapfile mapfile = pmucat::parse_mapfile(text, "arch/x86/mapfile.csv", "x86");
  check_diagnostics(mapfile.diagnostics, text);
  for (const pmucat::MapfileRow& row : mapfile.rows) {
    PMUCAT_FUZZ_CHECK(row.line >= 1);
    (void)pmucat::cpuid_matches(row.cpuid, "GenuineIntel-6-8F-8", pmucat::CpuidRules::x86);
    (void)pmucat::cpuid_matches(row.cpuid, "0x00000000410fd0c0", pmucat::CpuidRules::whole);
  }
  (void)pmucat::find_mapfile_row(mapfile, "GenuineIntel-6-8F-8");
  return 0;
}
