// perf's sort and regrouping of an event list. Since perf 6.12 (Behaviour::regroups_lists)
// a group never spans PMUs: a group whose events are for several PMUs becomes one group per PMU,
// in PMU name order. Since perf 7.2 (Behaviour::topdown_adds_slots) Intel topdown events are
// placed too: the kernel counts the topdown metric events (`topdown-retiring`, ...) only in a
// group led by the `slots` event, so perf adds a `slots` event to a list that has topdown metric
// events and none, and then sorts and regroups the list so that the topdown events and `slots`
// share one group, `slots` first.
#pragma once

#include <optional>
#include <string_view>
#include <vector>

#include "pmucat/catalog.h"
#include "pmucat/diagnostic.h"
#include "pmucat/encode.h"
#include "pmucat/version.h"

PMUCAT_BEGIN_NAMESPACE
namespace encode_detail {

// Rewrites `events` (one spec list as encode() produced it, group leaders as indices into it) as
// the semantics' perf opens it. A list whose groups each hold one PMU's events and that has no
// topdown metric events (or is on a machine whose core PMU, type 4, has no `slots` event) is left
// as it is. The added `slots` is a copy of the first topdown metric event's attr with config
// 0x400 (its modifiers, period, ... as perf copies them). A list perf reorders or regroups (or
// adds `slots` to) gets an `events-regrouped` warning on its first event, located on `spec`, as
// perf warns.
std::optional<Diagnostic> sort_and_regroup(const Catalog& catalog,
                                           std::vector<EncodedEvent>& events,
                                           const EncodeOptions& options, std::string_view spec);

// Whether perf 7.3 opens a `slots` leader beside this attr written alone: a topdown metric event
// on a machine whose type-4 PMU has `slots` (Encoder::encode_one then stands for two attrs).
bool adds_slots(const Catalog& catalog, const Attr& attr, const EncodeOptions& options);

}  // namespace encode_detail
PMUCAT_END_NAMESPACE
