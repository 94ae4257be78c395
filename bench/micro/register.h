// Benchmarks that need run-time input (the tree path) are registered by these functions from
// main(); the parser benchmarks need none and use BENCHMARK() directly.
#pragma once

#include <filesystem>

#include "pmucat/version.h"

PMUCAT_BEGIN_NAMESPACE
namespace bench {

// Catalog open, one-PMU load, full load, find_event on a warm catalog.
void register_catalog_benchmarks(const std::filesystem::path& devices_dir);
// Cold encode (open + encode) and decode on a warm PMU (cold_encode_bench.cpp).
void register_encode_benchmarks(const std::filesystem::path& devices_dir);
// Steady-state Encoder::encode_one and encode() on a warm catalog (encode_bench.cpp).
void register_warm_encode_benchmarks(const std::filesystem::path& devices_dir);
// perf.data record writing (records/s, bytes/s).
void register_perfdata_benchmarks();

}  // namespace bench
PMUCAT_END_NAMESPACE
