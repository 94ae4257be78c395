// In-memory PMUs for the CLI unit tests (no sysfs tree needed).
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "pmucat/catalog.h"

PMUCAT_BEGIN_NAMESPACE
namespace testing {

using NamedText = std::pair<std::string, std::string>;  // file name, contents

// A PMU with the given format and event files (parsed with the library's parsers). `cpus`
// makes it a core PMU, `cpumask` an uncore one; empty leaves the file out.
Pmu make_pmu(const std::string& name, std::uint32_t type, const std::vector<NamedText>& formats,
             const std::vector<NamedText>& events, const std::string& cpus = {},
             const std::string& cpumask = {});

// AMD Zen 4 `cpu` (type 4): event is split over config:0-7,32-35.
Pmu amd_cpu_pmu();
// POWER9 `hv_24x7`: core/chip share config:16-31, events need `?` parameters.
Pmu hv_24x7_pmu();

}  // namespace testing
PMUCAT_END_NAMESPACE
