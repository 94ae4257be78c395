// Opening the tree a tool reads: a sysfs directory or a pmusnap .tar.gz capture, the same way in
// every tool (pmucat::snap::open_tree does the work). Separate from app.h because it needs the
// library's snapshot module (where captures live), which not every user of cli/common links.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include "common/diagnostics.h"
#include "common/options.h"
#include "pmucat/snapshot.h"

PMUCAT_BEGIN_NAMESPACE
namespace cli {

// Opens `path`: a devices folder, any root above bus/event_source/devices, or a pmusnap
// `.tar.gz`/`.tgz` (unpacked while the result lives). An empty path is the live /sys; the
// library's own default ($PMUCAT_SYSFS) is never consulted, --sysfs already carries it.
Expected<snap::OpenedTree> open_tree(const std::filesystem::path& path);

// The CPU identifier the capture holding `devices_dir` recorded (its manifest's `cpuid`), or
// nullopt: not a capture, a capture from before pmusnap recorded it, or a manifest that does not
// parse (pmucheck reports that one; choosing a model is no place to fail).
std::optional<std::string> capture_cpuid(const std::filesystem::path& devices_dir);

// The tracefs root tracepoint specs read: --tracefs / $PMUCAT_TRACEFS; else, when --sysfs names
// a tree inside a capture with a tracefs capture (<root>/sys/kernel/tracing/events), that; else,
// with --sysfs, <root>/sys/kernel/tracing all the same (a foreign tree never mixes with the
// running kernel's tracepoint ids: the missing events/ is then a located error); else empty,
// meaning the live tracefs.
std::string tracefs_root(const CommonOptions& options, const std::filesystem::path& devices_dir);

// The tree the common options select: --sysfs / $PMUCAT_SYSFS, else the live /sys, with the
// vendor JSON events of the model common/vendor.h chooses (a capture's recorded CPU identifier
// counts when neither --cpuid nor $PMUCAT_CPUID is given). Reads nothing about any PMU (the
// devices folder is listed when first needed; see Catalog::open), and chooses the vendor model
// when first needed too (Catalog::with_vendor's deferred form).
// First checks what the options name: --events-dir (else a non-empty $PMUCAT_EVENTS_DIR) must
// be a directory (an option-events-dir-missing error, which the tools exit 2 on); --cpuid (else
// $PMUCAT_CPUID) not in a form perf writes gets a warning on `printer` (cpuid_form.h).
Expected<snap::OpenedTree> open_tree(const CommonOptions& options, DiagnosticPrinter& printer);

// Has `printer` report, as warnings, the problems the vendor catalog of `catalog` meets while the
// tool runs, each once, before any later diagnostic: files that do not parse, skipped events, and
// an identifier from --cpuid, $PMUCAT_CPUID or a capture that no mapfile row matches
// (cpuid-unmatched, with the nearest rows); with --verbose also its notes (a cache entry passed
// over for its JSON). Only what the tool's own lookups read is reported;
// nothing more is read for it. The Watch must end before `catalog` does.
[[nodiscard]] DiagnosticPrinter::Watch report_vendor_problems(DiagnosticPrinter& printer,
                                                              const Catalog& catalog,
                                                              const CommonOptions& options);

}  // namespace cli
PMUCAT_END_NAMESPACE
