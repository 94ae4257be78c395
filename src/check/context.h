// Shared by the rule files: where findings go and how they are built.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "pmucat/capture_manifest.h"
#include "pmucat/catalog.h"
#include "pmucat/check.h"
#include "pmucat/diagnostic_ids.h"

PMUCAT_BEGIN_NAMESPACE
namespace check::detail {

// Collects the findings of one PMU; every rule function appends through it.
class PmuContext {
 public:
  PmuContext(const Pmu& pmu, std::filesystem::path devices_dir)
      : pmu_(pmu), devices_dir_(std::move(devices_dir)) {}

  const Pmu& pmu() const { return pmu_; }
  // The path of `relative` inside the PMU directory, as diagnostics print it.
  std::string path_of(std::string_view relative) const;

  // Adds a finding for `rule`; the rule's severity replaces the diagnostic's.
  void add(DiagId rule, Diagnostic diagnostic);
  // The same for a rule named by data (a capture manifest's entry).
  void add(std::string_view rule, Diagnostic diagnostic);
  // Adds a library diagnostic under `rule` keeping its own severity (ids pmucheck does not know).
  void add_passthrough(Diagnostic diagnostic);

  std::vector<Finding>& findings() { return findings_; }

 private:
  Finding make(std::string rule, Diagnostic diagnostic) const;
  const Pmu& pmu_;
  std::filesystem::path devices_dir_;
  std::vector<Finding> findings_;
};

// `path` relative to `devices_dir` when it lies below it, else unchanged.
std::string relative_to(std::string_view path, const std::filesystem::path& devices_dir);
// The group a file belongs to by where it lives (format/, events/, cpumask, ...).
Group group_for_path(std::string_view path);
// "0-7,21" for a mask.
std::string bits_text(std::uint64_t mask);
// The bits a `first-last` item names once clamped to 0..63, in ascending order of bits.
std::uint64_t range_mask(std::uint32_t first, std::uint32_t last);

void check_formats(PmuContext& context);
void check_events(PmuContext& context);
void check_event_names(PmuContext& context);
// The rule a library diagnostic is filed under (from the diagnostic id table); nothing when
// pmucheck has no rule for it.
std::optional<DiagId> classify_library_diagnostic(const Diagnostic& diagnostic);
// Turns the catalog's and parsers' own diagnostics for this PMU into findings.
void import_library_diagnostics(PmuContext& context);
// On a pmusnap capture: replaces what the placeholders of this PMU's not-captured entries
// caused with findings under the rule the original entries hit (from the capture manifest).
void check_not_captured(PmuContext& context, std::span<const snap::NotCaptured> entries);
// True when the catalog has a vendor JSON catalog and a CPU identifier: the vendor rules run.
bool vendor_rules_apply(const Catalog& catalog);
// The vendor model's load problems (vendor-json-invalid, mapfile-no-match, ...) and the Units no
// PMU of the tree takes (vendor-unit-unmatched): findings about the tree, once per run.
std::vector<Finding> check_vendor_catalog(const Catalog& catalog);
// JSON events this PMU cannot encode, and sysfs aliases whose JSON namesake encodes differently.
void check_vendor_events(PmuContext& context);
// Opens each event with perf_event_open (--live).
void check_live(PmuContext& context);

// PMU names whose `_xx` suffix looks like an instance number perf does not recognise.
std::vector<Finding> check_pmu_names(const Catalog& catalog,
                                     const std::vector<const Pmu*>& selected);
// Duplicate `type` numbers across the catalog, reported on the selected PMUs.
std::vector<Finding> check_duplicate_types(const Catalog& catalog,
                                           const std::vector<const Pmu*>& selected);

}  // namespace check::detail
PMUCAT_END_NAMESPACE
