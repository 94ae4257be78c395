// What changed for one CPU between two vendor table sets: the events and metrics of its model as
// two kernel releases' tables have them (pmudiff --tables, docs/catalog.md).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "pmucat/vendor_events.h"
#include "pmucat/version.h"

PMUCAT_BEGIN_NAMESPACE

enum class VendorChange : std::uint8_t {
  added,      // only the newer tables have it
  removed,    // only the older tables have it
  renamed,    // an event gone under one name and come under another, same PMU, same encoding
  reencoded,  // an event of the same name and PMU whose terms mean other values
  changed,    // a metric of the same name and PMU with another expression
};
std::string_view to_string(VendorChange change);

// One event's change. Terms are VendorEvent::terms as each side's tables spell them.
struct VendorEventChange {
  VendorChange kind = VendorChange::added;
  std::string pmu;        // VendorEvent::pmu (empty: the core PMU)
  std::string name;       // the name in the newer tables (removed: in the older)
  std::string old_name;   // renamed: the name before
  std::string old_terms;  // removed, renamed, reencoded
  std::string new_terms;  // added, renamed, reencoded
};

// One metric's change.
struct VendorMetricChange {
  VendorChange kind = VendorChange::added;
  std::string pmu;
  std::string name;
  std::string old_expr;  // removed, changed
  std::string new_expr;  // added, changed
};

struct VendorModelDiff {
  std::vector<VendorEventChange> events;    // by PMU, then name
  std::vector<VendorMetricChange> metrics;  // by PMU, then name
  std::size_t events_unchanged = 0;
  std::size_t metrics_unchanged = 0;
};

// The changes from `before` to `after` (either may be an empty model: no model for the CPU).
// Events are keyed by PMU and name (the first of duplicates, as perf uses), metrics by PMU and
// name. Terms are compared as values, so a respelt number (`umask=0x01` under 6.1's rules,
// `umask=1` under 6.12's) is no change; an event removed under one name and added under another
// with the same PMU and terms is one rename.
VendorModelDiff diff_vendor_models(const VendorModel& before, const VendorModel& after);

PMUCAT_END_NAMESPACE
