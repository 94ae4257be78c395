// The attrs a perf command opens for an encoded event list: encode() gives what the spec
// determines; apply_tool_defaults() adds what `perf stat -e SPEC -- cmd` or
// `perf record -e SPEC -- cmd` (perf 6.1, default options, a workload rather than -a) sets on
// top. See docs/perf-compat.md "What the encoded attr contains".
#pragma once

#include <optional>
#include <span>

#include "pmucat/encode.h"
#include "pmucat/version.h"

PMUCAT_BEGIN_NAMESPACE

// Completes every attr of `events` (one evlist, in order: the first is perf record's tracking
// event) into the attr the tool opens. `events` must come from encode() with the same
// EncodeOptions::tool, so that only the special terms this tool honours are in the attrs and in
// EventSettings::special_terms; EncodedEvent::group_leader says which events form a group and
// which one leads it. Call it once, on encode()'s output: it reads the `S` modifier from the
// READ sample bit, which after a call members of a sample-read group carry too.
//
// Modelled for perf 6.1 on a kernel with every attr feature (>= 6.0): not modelled are the
// side-band `dummy` event perf record opens for BPF events (it is not in perf.data), the tracking
// `dummy` it adds on hybrid machines, the AUX-area/topdown read-sampler rules and the fallbacks
// perf takes after a failed open (cycles -> cpu-clock, precise_ip probing).
void apply_tool_defaults(std::span<EncodedEvent> events, Tool tool);
// The same for the perf of `semantics` where a release's tool sets more (perf 7.3's record sets
// `build_id` on its tracking event: Behaviour::record_sets_build_id). The overload above is
// pmucat's own semantics.
void apply_tool_defaults(std::span<EncodedEvent> events, Tool tool, Profile semantics);

// Whether `tool` can open `events` at all: perf 6.12 (and pmucat semantics) refuse to record one
// of perf's tool events (`duration_time`, `user_time`, `system_time`: "event is not supported"),
// which only perf stat counts; perf 6.1 recorded their software dummy attr. An error naming the
// first such event (event-tool-not-recordable), or nullopt.
std::optional<Diagnostic> check_tool_can_open(std::span<const EncodedEvent> events, Tool tool,
                                              Profile semantics);

PMUCAT_END_NAMESPACE
