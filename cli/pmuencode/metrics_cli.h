// pmuencode -M: metrics expanded into the events perf 6.1's `perf stat -M` opens.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "common/diagnostics.h"
#include "pmucat/catalog.h"
#include "pmucat/encode.h"
#include "pmucat/metrics.h"
#include "pmuencode/plan_cli.h"

PMUCAT_BEGIN_NAMESPACE
namespace cli {

struct MetricsCliOptions {
  std::string names;                  // -M
  bool no_group = false;              // --metric-no-group
  bool no_merge = false;              // --metric-no-merge
  bool no_threshold = false;          // --metric-no-threshold (perf 6.12 semantics)
  std::string nmi_watchdog;           // --nmi-watchdog on|off; empty: the host's
  std::vector<std::string> literals;  // --literal NAME=VALUE
  bool json = false;
  bool perf_only = false;              // --perf: the event lists perf parses, one per line
  std::optional<PlanCliOptions> plan;  // --plan: plan the metrics' events instead of printing
};

// The host's metric literals, then each --literal NAME=VALUE over them; nullopt after printing
// a usage error for a malformed item or an unknown name.
std::optional<MetricLiterals> literals_from(const std::vector<std::string>& items,
                                            DiagnosticPrinter& printer);

// Runs -M; returns the exit status.
int run_metrics(const Catalog& catalog, const MetricsCliOptions& options,
                const EncodeOptions& encode_options, DiagnosticPrinter& printer);

}  // namespace cli
PMUCAT_END_NAMESPACE
