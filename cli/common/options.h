// The values of the options every tool shares. Apart from app.h (which adds them to a CLI11 app)
// so code that only reads them does not include CLI11, whose headers give every translation unit
// static validators to construct at start-up.
#pragma once

#include <optional>
#include <string>

#include "pmucat/perf_profile.h"

PMUCAT_BEGIN_NAMESPACE
namespace cli {

struct CommonOptions {
  std::string sysfs;  // --sysfs DIR|FILE.tar.gz, else $PMUCAT_SYSFS, else empty (live /sys)
  // --events-dir DIR (vendor JSON catalogs laid out like the kernel's pmu-events/arch, or a
  // compiled vendor event index of one: pmucat/vendor_index.h); an empty
  // value, like --no-events-dir, means sysfs only. Unset: $PMUCAT_EVENTS_DIR, else the installed
  // catalog (common/vendor.h decides).
  std::optional<std::string> events_dir;
  bool no_events_dir = false;
  std::optional<std::string> cpuid;  // --cpuid ID (perf's PERF_CPUID format); else $PMUCAT_CPUID
  // The built-in table set to read when nothing names a directory: that perf release's
  // (--perf-semantics=VERSION); nullopt: the newest (common/vendor.h).
  std::optional<PerfRelease> tables;
  // --tracefs DIR (a tracefs root holding events/), else $PMUCAT_TRACEFS; unset: tracefs_root()
  // in common/tree.h decides (the capture's, else the live one).
  std::string tracefs;
  std::string color = "auto";
  bool json = false;
  // --verbose: also the notes on the vendor tables (a cache entry passed over for its JSON, and
  // why), which change no answer and so are not printed by default.
  bool verbose = false;
};

}  // namespace cli
PMUCAT_END_NAMESPACE
