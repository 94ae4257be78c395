// In-memory copies of the PMU trees the perf 6.1 oracle runs used (perf-pmu.md section 4),
// plus the krava PMU of perf's tests/pmu.c and a `cpu` PMU for tests/parse-events.c vectors.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "pmucat/catalog.h"

PMUCAT_BEGIN_NAMESPACE
namespace testing {

using NamedText = std::pair<std::string, std::string>;  // file name, content

// A PMU from file contents; every file must parse (a broken fixture fails the test run).
Pmu make_pmu(const std::string& name, const std::string& type_text,
             const std::vector<NamedText>& formats, const std::vector<NamedText>& events);

// fakepmu, fakehv, c3pmu, hextype, oddfmt, rawpmu exactly as `perf-oracle.sh
// --make-sample-tree` writes them.
Catalog sample_catalog();

// The PMUs of sample_catalog() plus `cpu` (type 4, Intel-like formats and a few events) and
// `pmutest` / `perf-pmu-test` (type 9999, krava01..krava23 and events/test-event).
Catalog extended_catalog();

// The nine krava formats of perf's tests/pmu.c.
std::vector<NamedText> krava_formats();
// The krava terms of perf's tests/pmu.c, as one term list.
inline constexpr const char* kKravaTerms =
    "krava01=15,krava02=170,krava03=1,krava11=27,krava12=1,krava13=2,krava21=119,krava22=11,"
    "krava23=2";

}  // namespace testing
PMUCAT_END_NAMESPACE
