// Counts for metric evaluation from a perf.data written by `perf stat record`: its STAT records
// (raw count, time enabled, time running per event id, CPU and thread), mapped to event names by
// the file's EVENT_DESC feature or its EVENT_UPDATE name records.
#pragma once

#include <string_view>

#include "pmucat/metric_counts.h"
#include "pmucat/perfdata.h"
#include "pmucat/version.h"

PMUCAT_BEGIN_NAMESPACE

// One count per event: its STAT records summed over CPUs and threads (the last record of each
// id, CPU and thread counts: perf stat record writes cumulative counts, once per interval).
// Times are kept so evaluation scales multiplexed counts as perf does, unless the file's
// STAT_CONFIG says perf ran with --no-scale. A STAT record whose id names no event, or whose
// payload is short, is a diagnostic "counts-garbled" naming its byte offset; the rest is kept.
CountsRead read_stat_perf_data(const PerfData& data, std::string_view file);

PMUCAT_END_NAMESPACE
