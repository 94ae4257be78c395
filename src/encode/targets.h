// What one parsed event stands for: the (PMU, terms) pairs to encode, or a built-in perf event.
// encode() encodes every target; Encoder::encode_one() encodes the only one. Nothing here
// allocates unless it reports an error.
#pragma once

#include <concepts>
#include <cstddef>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "encode/encode_core.h"
#include "encode/legacy_events.h"
#include "encode/pmu_select.h"
#include "encode/target_lookup.h"
#include "parser/spec_views.h"
#include "pmucat/catalog.h"
#include "pmucat/encode.h"
#include "pmucat/tracefs.h"

PMUCAT_BEGIN_NAMESPACE
namespace encode_detail {

using spec_detail::EventSpecView;

struct Target {
  const Pmu* pmu = nullptr;  // nullptr: the built-in event `legacy`
  LegacyEvent legacy;
  std::span<const TermView> terms;  // valid during the visit only; a built-in event's terms
                                    // (`cycles/period=1000/`) are perf's hard-coded ones only
  std::size_t pmu_offset = 0;       // what a pmu-no-type error underlines
  std::size_t pmu_length = 0;
  bool raw_type = false;      // perf 6.1 gives `rHEX` PERF_TYPE_RAW whatever the PMU's type is
  bool extended_type = true;  // `core`'s type goes into the config (EncodeOptions::extended_type)
  // A built-in hardware or cache event on a hybrid machine: the core PMU it counts on, whose
  // type goes into config bits 32-63 (perf's extended type). A raw event with terms
  // (`r3c/period=1/`): the PMU whose type it gets (hybrid, or pmucat semantics), else nullptr.
  const Pmu* core = nullptr;
  std::string_view name;  // a built-in or raw event: its name as written (`cycles`, `r3c`)
  // pmu == nullptr and not `legacy`: a breakpoint (the spec's bp fields) or one tracepoint.
  enum class Builtin : std::uint8_t { legacy, breakpoint, tracepoint };
  Builtin builtin = Builtin::legacy;
  const Tracepoint* tracepoint = nullptr;  // valid during the visit only
};

// The attr of a breakpoint or tracepoint spec (perf 6.1's parse_events_add_breakpoint and
// evsel__newtp: sample_period 1, and for a tracepoint RAW|TIME|CPU|PERIOD samples, under
// Tool::record; Tool::stat keeps only type, config words, bp fields and modifier bits).
void encode_builtin(const Target& target, const EventSpecView& event, const EncodeOptions& options,
                    Attr& attr);
// A bare event name of `spec` encoded on `pmu` alone, as the spec `pmu/name/mods` is: the PMU's
// event (alias) of that name, with the event's modifiers; diagnostics point into `spec`.
Expected<EncodedEvent> encode_name_on_pmu(const Pmu& pmu, std::string_view spec,
                                          const EventSpecView& event, const EncodeOptions& options);
// `mem:0x1000/4:rw[:mods]` or `sys:event[:mods]`.
std::string builtin_perf_string(const Target& target, const EventSpecView& event);

// The tracepoints a tracepoint spec stands for (sorted by system, event), or its located error
// (no tracefs, unknown tracepoint with a suggestion, unreadable id, a term perf rejects).
Expected<std::vector<Tracepoint>> resolve_tracepoints(std::string_view spec,
                                                      const EventSpecView& event,
                                                      std::span<const TermView> terms,
                                                      const EncodeOptions& options);

// pmu-no-type when the PMU's type is unusable with these semantics.
std::optional<Diagnostic> pmu_type_error(const Target& target, std::string_view spec,
                                         Profile semantics);

// The attr of a built-in or raw event target (`pmu == nullptr`): type, config (with the
// extended type of its core PMU on a hybrid machine), perf's hard-coded terms when it has some
// (`cycles/period=1000/`, through `extras` as for PMU terms) and modifier bits.
std::optional<Diagnostic> encode_legacy(const Target& target, const Modifiers& modifiers,
                                        std::string_view spec, const EncodeOptions& options,
                                        Attr& attr, const CoreExtras& extras = {});

// The canonical spec of such an attr: `cycles:u`, `cpu_core/cycles/u` (one core PMU of a hybrid
// machine), `cycles/period=0x3e8/u` (with hard-coded terms; `printed` are the effective ones).
// With `pmu_terms` (a perf that reads a built-in name among a core PMU's terms:
// Behaviour::legacy_terms) one core PMU's event with terms is `cpu_core/cycles,period=0x3e8/u`.
std::string legacy_perf_string(const Target& target, const Attr& attr,
                               std::span<const TermView> printed, const Modifiers& modifiers,
                               bool pmu_terms);

// True for perf's tool events (`duration_time`, `user_time`, `system_time`): counted by perf
// itself, they take no terms (`duration_time//` only).
bool is_tool_event(std::string_view name);

// `R` (perf 6.12) or `X` (perf 7.3) where the semantics' perf lacks the letter: modifier-unknown
// under it. `end` is where the modifiers end in `spec` (they end the event's or group's text).
std::optional<Diagnostic> newer_modifier_error(const Modifiers& modifiers, std::string_view spec,
                                               std::size_t end, const EncodeOptions& options);

Diagnostic pmu_hyphen_error(const EventSpecView& event, std::string_view spec);
Diagnostic weak_outside_group_error(const EventSpecView& event, std::string_view spec);
Diagnostic unknown_pmu_error(const Catalog& catalog, const EventSpecView& event,
                             std::string_view spec);
Diagnostic unknown_event_error(const Catalog& catalog, const EventSpecView& event,
                               std::string_view spec);
Diagnostic no_default_pmu_error(const EventSpecView& event, std::string_view spec,
                                const EncodeOptions& options);
// A term of a hwmon PMU that names none of its sensors (perf 7.3: "unexpected hwmon event term").
Diagnostic hwmon_term_error(const TermView& term, std::string_view pmu, std::string_view spec);
Diagnostic tool_event_terms_error(const EventSpecView& event, std::string_view spec);
Diagnostic numeric_type_error(const EventSpecView& event, std::string_view spec);
// What the default semantics say when the PMU named exactly rejects the terms and perf 6.1
// would have retried on its numbered namesakes (`foo` -> `foo10`, `foo_2`): `error` gains a
// note naming those that accept the spec.
void note_perf_fallback(Diagnostic& error, std::span<const std::string> accepting,
                        const EventSpecView& event, std::string_view spec);

// What for_each_target calls for a target: a reference to the caller's callable (valid for
// the call only), so that the dispatch lives out of line.
class TargetVisitor {
 public:
  template <class F>
  requires(!std::same_as<std::remove_cvref_t<F>, TargetVisitor>)
      TargetVisitor(F&& f)  // NOLINT(google-explicit-constructor): a lambda converts implicitly
      : object_(const_cast<void*>(static_cast<const void*>(std::addressof(f)))),
        call_([](void* object, const Target& target) -> std::optional<Diagnostic> {
          return (*static_cast<std::remove_reference_t<F>*>(object))(target);
        }) {}
  std::optional<Diagnostic> operator()(const Target& target) const {
    return call_(object_, target);
  }

 private:
  void* object_;
  std::optional<Diagnostic> (*call_)(void*, const Target&);
};

// Calls `visit` for each target of `event` in encode()'s order; stops at the first error.
// `spec` is the whole list, `terms` the event's. `try_visit` encodes a target without keeping
// it: perf's fallback from a PMU that rejects the terms to its numbered namesakes asks it which
// of those accept them. A dispatch on the spec's form (target_dispatch.cpp) whose handlers ask
// options.semantics for behaviours by name; instantiated for DirectLookup and MemoLookup.
template <TargetLookup Lookup>
std::optional<Diagnostic> for_each_target(Lookup& lookup, std::string_view spec,
                                          const EventSpecView& event,
                                          std::span<const TermView> terms,
                                          const EncodeOptions& options, TargetVisitor visit,
                                          TargetVisitor try_visit);
extern template std::optional<Diagnostic> for_each_target<DirectLookup>(
    DirectLookup&, std::string_view, const EventSpecView&, std::span<const TermView>,
    const EncodeOptions&, TargetVisitor, TargetVisitor);
extern template std::optional<Diagnostic> for_each_target<MemoLookup>(MemoLookup&, std::string_view,
                                                                      const EventSpecView&,
                                                                      std::span<const TermView>,
                                                                      const EncodeOptions&,
                                                                      TargetVisitor, TargetVisitor);

}  // namespace encode_detail
PMUCAT_END_NAMESPACE
