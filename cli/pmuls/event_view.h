// One sysfs event as pmuls shows it: the `pmu/name/` form perf accepts, its `?` parameters, and
// the config words it encodes to.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "pmucat/attr.h"
#include "pmucat/catalog.h"
#include "pmucat/diagnostic.h"

PMUCAT_BEGIN_NAMESPACE
namespace cli {

struct EventView {
  const Event* event = nullptr;
  std::string perf_name;            // `cpu/mem-loads/`, `hv_24x7/PM_PB_CYC,chip=?/`
  std::vector<std::string> params;  // names of the `?` terms, in file order
  // The encoding with every parameter taken as 0; absent when the event cannot be encoded.
  std::optional<ConfigWords> config;
  std::optional<Diagnostic> error;  // why it could not be read or encoded
};

// Describes `event` of `pmu`. Never fails: problems land in `error`.
EventView view_event(const Pmu& pmu, const Event& event);

// `config=0x3c` followed by ` configN=0x..` for each non-zero later word.
std::string encoding_text(const ConfigWords& config);

// `cpumask=0,56`, `cpus=0-15`, or `-` when the PMU has neither file.
std::string cpus_text(const PmuAttributes& attributes);

}  // namespace cli
PMUCAT_END_NAMESPACE
