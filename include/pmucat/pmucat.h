// Umbrella header of the core component (CMake pmucat::core, pkg-config pmucat-core): every
// header of io, attr, parser, vendor, vendor_index, catalog and encode (decode included), which
// need fmt only. The other components have their own headers: check.h, diff.h, snapshot.h,
// capture_manifest.h (pmucat::check), perfdata*.h (pmucat::perfdata) and perfdata_proto.h
// (pmucat::proto). Configure checks that this list is exactly the core component's headers
// (cmake/PmucatComponents.cmake).
#pragma once

#include "pmucat/attr.h"
#include "pmucat/builtin_events.h"
#include "pmucat/catalog.h"
#include "pmucat/cpuid_form.h"
#include "pmucat/decode.h"
#include "pmucat/diagnostic.h"
#include "pmucat/diagnostic_ids.h"
#include "pmucat/diagnostic_json.h"
#include "pmucat/encode.h"
#include "pmucat/encode_on_pmus.h"
#include "pmucat/expected.h"
#include "pmucat/format.h"
#include "pmucat/hwmon.h"
#include "pmucat/metadata.h"
#include "pmucat/metric_counts.h"
#include "pmucat/metric_eval.h"
#include "pmucat/metric_expr.h"
#include "pmucat/metrics.h"
#include "pmucat/output_file.h"
#include "pmucat/perf_profile.h"
#include "pmucat/planner.h"
#include "pmucat/pmu_attribute_files.h"
#include "pmucat/small_vector.h"
#include "pmucat/spec.h"
#include "pmucat/stat_defaults.h"
#include "pmucat/suggest.h"
#include "pmucat/sysfs_root.h"
#include "pmucat/terms.h"
#include "pmucat/tool_defaults.h"
#include "pmucat/tracefs.h"
#include "pmucat/vendor_diff.h"
#include "pmucat/vendor_events.h"
#include "pmucat/vendor_index.h"
#include "pmucat/vendor_index_cache.h"
#include "pmucat/vendor_index_install.h"
#include "pmucat/version.h"
