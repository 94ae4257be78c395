// The pieces of the vendor JSON differential test that need no perf: a CPU identifier perf's
// rules send to a given mapfile row, and a sysfs tree made for a model's JSON events (the core
// PMU and every uncore PMU its Units map to, with format files for every term those events use,
// at the kernel's bit positions where we know them).
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "pmucat/vendor_events.h"
#include "tree_model.h"

PMUCAT_BEGIN_NAMESPACE
namespace differential {

// An x86 identifier (`Vendor-Family-Model-Stepping`, model and stepping in upper-case hex as
// perf prints them) whose first matching row of `mapfile` is `row`: the lowest stepping, then
// the lowest model, that does. nullopt when no family-6/any-family identifier reaches the row
// (the row's vendor and family are read as the literal text before its first two '-').
std::optional<std::string> x86_cpuid_for_row(const Mapfile& mapfile, const MapfileRow& row);

enum class CpuVendor : std::uint8_t { intel, amd };
CpuVendor vendor_of_cpuid(const std::string& cpuid);

// One generated tree and what was invented for it.
struct VendorTree {
  TreeModel tree;
  // `pmu/term` for every format whose bit positions are not a kernel fact we know (a term no
  // layout table has, or one whose JSON values do not fit the known bits): placed on free bits.
  std::vector<std::string> invented;
  // Hybrid core PMUs (`cpu_core`, `cpu_atom`): they get a `cpus` file instead of a cpumask,
  // which write_tree does not write (see write_vendor_tree).
  std::set<std::string> hybrid;
};

// The core PMU name an event of `pmu` (VendorEvent::pmu) belongs to: `cpu` for an event without
// Unit, the hybrid PMU as written.
std::string core_pmu_for(const std::string& pmu);
bool is_core_pmu(const std::string& pmu);

// The PMU directory names an event's mapped PMU gets in the tree: one unnumbered PMU for units
// real machines have once (`uncore_pcu`, `amd_l3`, ...), else `<pmu>_0` and `<pmu>_1`.
std::vector<std::string> instance_names(const std::string& pmu);

// Builds the tree for `events` of a model of `vendor`. Types: `cpu` / `cpu_core` 4, every other
// PMU a distinct type above 10000 (so perf's real opens cannot reach a host PMU of that type).
VendorTree make_vendor_tree(const std::vector<VendorEvent>& events, CpuVendor vendor);

// write_tree() plus the hybrid `cpus` files.
void write_vendor_tree(const VendorTree& tree, const std::filesystem::path& devices_dir);

// `a=b,c` split into (name, value) pairs, values as written ("" for a bare term).
std::vector<std::pair<std::string, std::string>> split_terms(const std::string& terms);

// The JSON tree the models and events are taken from: $PMUCAT_EVENTS_DIR, else the one the
// build compiled (-DPMUCAT_PMU_EVENTS_DIR or extracted); empty when there is none.
std::filesystem::path events_dir();
// What pmucat's catalog reads: $PMUCAT_EVENTS_DIR, else the compiled index the build made from
// that JSON tree (what the tools use), else the JSON tree.
std::filesystem::path catalog_events_dir();

// The x86 mapfile.csv of events_dir(), or nullopt when there is none.
std::optional<Mapfile> read_x86_mapfile();
// The x86 model directories in mapfile order, each once; a placeholder ("no_events_dir") that
// the tests skip when there is no events dir (the test list is made before any test runs).
std::vector<std::string> model_directories();

}  // namespace differential
PMUCAT_END_NAMESPACE
