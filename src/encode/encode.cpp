// encode(): a spec list -> one EncodedEvent per (event, PMU instance).
#include "pmucat/encode.h"

#include <fmt/format.h>

#include <algorithm>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "encode/encode_terms.h"
#include "encode/group_modifiers.h"
#include "encode/targets.h"
#include "encode/topdown_groups.h"
#include "parser/spec_diagnostics.h"
#include "parser/spec_views.h"
#include "pmucat/diagnostic_ids.h"

PMUCAT_BEGIN_NAMESPACE
namespace {

using encode_detail::Target;

Expected<EncodedEvent> encode_target(const Target& target, std::string_view spec,
                                     const spec_detail::EventSpecView& event,
                                     const EncodeOptions& options) {
  if (target.pmu == nullptr && target.builtin != Target::Builtin::legacy) {
    EncodedEvent encoded;
    encoded.spec = std::string(event.text);
    encode_detail::encode_builtin(target, event, options, encoded.attr);
    encoded.perf_string = encode_detail::builtin_perf_string(target, event);
    if (target.tracepoint != nullptr) {
      encoded.event = target.tracepoint->system + ":" + target.tracepoint->event;
      for (const TermView& term : target.terms) {
        if (term.name == "call-graph") encoded.settings.call_graph = std::string(term.text);
      }
    }
    return encoded;
  }
  if (target.pmu == nullptr) {
    EncodedEvent encoded;
    std::vector<TermView> printed_specials;
    if (auto error = encode_detail::encode_legacy(
            target, event.modifiers, spec, options, encoded.attr,
            encode_detail::CoreExtras{&encoded.settings, &printed_specials, &encoded.warnings})) {
      return unexpected(std::move(*error));
    }
    encoded.spec = std::string(event.text);
    encoded.event = std::string(target.name);
    if (target.core != nullptr) encoded.pmu = target.core->name();
    encoded.perf_string =
        encode_detail::legacy_perf_string(target, encoded.attr, printed_specials, event.modifiers,
                                          options.semantics.has(Behaviour::legacy_terms));
    encoded.settings.precise_max = event.modifiers.max_precise;
    return encoded;
  }
  if (auto error = encode_detail::pmu_type_error(target, spec, options.semantics)) {
    return unexpected(std::move(*error));
  }
  auto encoded =
      encode_detail::encode_term_views(*target.pmu, target.terms, event.modifiers, spec, options);
  if (!encoded) return encoded;
  encoded->spec = std::string(event.text);
  if (target.raw_type) encoded->attr.type = static_cast<std::uint32_t>(PerfType::raw);
  return encoded;
}

// What encode() remembers of each attr while a group is open.
struct MemberInfo {
  std::size_t event = 0;      // index in SpecViews::events
  bool uncore_alias = false;  // perf 6.1's use_uncore_alias: a bare event name on an uncore PMU
};

// perf 6.1's is_same_uncore_block: the names agree up to their last '_' (uncore_imc_0/_1).
bool same_uncore_block(std::string_view a, std::string_view b) {
  const std::size_t end_a = a.rfind('_');
  const std::size_t end_b = b.rfind('_');
  return end_a != std::string_view::npos && end_a == end_b &&
         a.substr(0, end_a) == b.substr(0, end_b);
}

// The leader of each attr in out[first, end): the first one, except that perf 6.1 splits a group
// whose members are all bare uncore event names of one uncore block into one group per PMU
// instance (`{cas_count_read,cas_count_write}` on uncore_imc_0..3: four groups of two), members
// going round-robin to the leaders.
void set_leaders(std::vector<EncodedEvent>& out, const std::vector<MemberInfo>& info,
                 std::size_t first, std::size_t end) {
  for (std::size_t i = first; i < end; ++i) out[i].group_leader = first;
  std::vector<std::size_t> leaders;
  bool collecting = true;
  for (std::size_t i = first; i < end; ++i) {
    if (!info[i].uncore_alias || !same_uncore_block(out[first].pmu, out[i].pmu)) return;
    if (!collecting) continue;
    if (i != first && out[i].pmu == out[first].pmu) {
      collecting = false;
      continue;
    }
    leaders.push_back(i);
  }
  if (leaders.size() == end - first) return;
  std::size_t next = 0;
  for (std::size_t i = first; i < end; ++i) {
    if (next >= leaders.size()) next = 0;
    out[i].group_leader = leaders[next++];
  }
}

// Closes a group whose attrs are out[first, end): leaders, name, then the group's modifiers (after
// the leaders, as perf applies them: `D` and `e` go to every leader).
// perf 6.1 warns "events in group from different hybrid PMUs!" and opens such a group as
// written; the kernel cannot schedule its events together. The warning goes on the leader.
void warn_hybrid_mix(const spec_detail::SpecGroupView& group, std::string_view spec,
                     std::span<const Pmu* const> hybrid, std::size_t first,
                     std::vector<EncodedEvent>& out) {
  std::vector<std::string> cores;
  for (std::size_t i = first; i < out.size(); ++i) {
    const bool on_core = std::any_of(hybrid.begin(), hybrid.end(),
                                     [&](const Pmu* core) { return core->name() == out[i].pmu; });
    if (on_core && std::find(cores.begin(), cores.end(), out[i].pmu) == cores.end()) {
      cores.push_back(out[i].pmu);
    }
  }
  if (cores.size() < 2 || first == out.size()) return;
  std::sort(cores.begin(), cores.end());
  Diagnostic d = make_diagnostic(
      Severity::warning, DiagId::group_hybrid_pmus, spec_detail::kSpecFile, spec, group.offset,
      group.length,
      fmt::format("events in group from different hybrid PMUs ({}): perf opens them as one group, "
                  "which the kernel cannot schedule together",
                  fmt::join(cores, ", ")));
  d.hint = fmt::format(
      "write one group per core PMU, each member on that PMU ({}/cycles/ ...): "
      "newer perf splits such groups itself",
      cores.front());
  out[*out[first].group_leader].warnings.push_back(std::move(d));
}

std::optional<Diagnostic> close_group(const spec_detail::SpecViews& views,
                                      const spec_detail::SpecGroupView& group,
                                      const std::vector<MemberInfo>& info, std::string_view spec,
                                      const EncodeOptions& options, std::size_t first,
                                      std::span<const Pmu* const> hybrid,
                                      std::vector<EncodedEvent>& out) {
  const std::size_t end = out.size();
  if (options.semantics.has(Behaviour::regroups_lists)) {
    // One group for now: the list's regrouping (sort_and_regroup) splits it by PMU.
    for (std::size_t i = first; i < end; ++i) out[i].group_leader = first;
  } else {
    set_leaders(out, info, first, end);
    warn_hybrid_mix(group, spec, hybrid, first, out);
  }
  for (std::size_t i = first; i < end; ++i) {
    EncodedEvent& member = out[i];
    member.group_name = std::string(group.name);
    if (group.has_modifiers) member.group_modifiers = canonical_modifiers(group.modifiers);
    member.settings.retire_latency |= group.modifiers.retire_latency;
    member.settings.no_regroup |= group.modifiers.no_regroup;
    if (auto problem = encode_detail::apply_group_modifiers(
            group, views.events[info[i].event].modifiers, member.group_leader == i, options, spec,
            member.attr)) {
      return problem;
    }
  }
  return std::nullopt;
}

}  // namespace

Expected<EncodedEvent> encode_detail::encode_name_on_pmu(const Pmu& pmu, std::string_view spec,
                                                         const spec_detail::EventSpecView& event,
                                                         const EncodeOptions& options) {
  // The term `pmu/name/` holds: the bare name, which the PMU reads as its event of that name.
  TermView reference;
  reference.name = event.name;
  reference.offset = event.offset;
  reference.length = static_cast<std::uint32_t>(event.name.size());
  reference.value_offset = reference.offset;
  Target target;
  target.pmu = &pmu;
  target.terms = std::span<const TermView>(&reference, 1);
  target.pmu_offset = event.offset;
  target.pmu_length = event.name.size();
  return encode_target(target, spec, event, options);
}

Expected<std::vector<EncodedEvent>> encode(const Catalog& catalog, std::string_view spec,
                                           const EncodeOptions& options) {
  spec_detail::SpecViews views;
  views.lexing = spec_detail::term_lexing_of(options.semantics);
  if (auto error = spec_detail::parse_spec_views(spec, views)) {
    return unexpected(std::move(*error));
  }
  if (auto error = encode_detail::check_group_names(views, spec, options.semantics)) {
    return unexpected(std::move(*error));
  }
  std::vector<EncodedEvent> out;
  std::vector<MemberInfo> info;  // parallel to out
  encode_detail::DirectLookup lookup(catalog);
  // Where the open group's attrs start in `out`.
  std::size_t group_first = 0;
  for (std::size_t e = 0; e < views.events.size(); ++e) {
    const spec_detail::EventSpecView& event = views.events[e];
    if (event.group && views.groups[*event.group].first_event == e) group_first = out.size();
    auto error = encode_detail::for_each_target(
        lookup, spec, event, views.terms_of(event), options,
        [&](const Target& target) -> std::optional<Diagnostic> {
          auto encoded = encode_target(target, spec, event, options);
          if (!encoded) return std::move(encoded).error();
          encoded->settings.retire_latency = event.modifiers.retire_latency;
          encoded->settings.no_regroup = event.modifiers.no_regroup;
          out.push_back(std::move(*encoded));
          const bool uncore_alias = event.group && event.form == SpecForm::event_name &&
                                    target.pmu != nullptr &&
                                    target.pmu->attributes().cpumask.has_value();
          info.push_back(MemberInfo{e, uncore_alias});
          return std::nullopt;
        },
        [&](const Target& target) -> std::optional<Diagnostic> {
          auto encoded = encode_target(target, spec, event, options);
          if (!encoded) return std::move(encoded).error();
          return std::nullopt;
        });
    if (error) return unexpected(std::move(*error));
    if (event.group && views.groups[*event.group].end_event == e + 1) {
      const spec_detail::SpecGroupView& group = views.groups[*event.group];
      if (auto problem = encode_detail::newer_modifier_error(
              group.modifiers, spec, group.offset + group.length, options)) {
        return unexpected(std::move(*problem));
      }
      if (auto problem = close_group(views, views.groups[*event.group], info, spec, options,
                                     group_first, lookup.hybrid_pmus(options.semantics), out)) {
        return unexpected(std::move(*problem));
      }
    }
  }
  if (auto problem = encode_detail::sort_and_regroup(catalog, out, options, spec)) {
    return unexpected(std::move(*problem));
  }
  return out;
}

PMUCAT_END_NAMESPACE
