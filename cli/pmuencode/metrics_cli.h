// pmuencode -M: metrics expanded into the events perf 6.1's `perf stat -M` opens.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "common/diagnostics.h"
#include "pmucat/catalog.h"
#include "pmucat/encode.h"
#include "pmucat/metrics.h"

namespace pmucat::cli {

struct MetricsCliOptions {
  std::string names;                  // -M
  bool no_group = false;              // --metric-no-group
  bool no_merge = false;              // --metric-no-merge
  std::string nmi_watchdog;           // --nmi-watchdog on|off; empty: the host's
  std::vector<std::string> literals;  // --literal NAME=VALUE
  bool json = false;
  bool perf_only = false;  // --perf: the event lists perf parses, one per line
};

// The `#` literal values perf 6.1 would use on this host (`root` is `/`): #smt_on from
// sys/devices/system/cpu/smt/active, #num_cpus from .../cpu/present, #num_cores/#num_dies/
// #num_packages from the CPU topology of the online CPUs, #core_wide 0 (perf stat without -a),
// #system_tsc_freq as perf computes it on x86 (0 on a CPU that is not Intel).
MetricLiterals host_metric_literals(const std::filesystem::path& root = "/");

// /proc/sys/kernel/nmi_watchdog is 1.
bool host_nmi_watchdog(const std::filesystem::path& root = "/");

// Runs -M; returns the exit status.
int run_metrics(const Catalog& catalog, const MetricsCliOptions& options,
                const EncodeOptions& encode_options, DiagnosticPrinter& printer);

}  // namespace pmucat::cli
