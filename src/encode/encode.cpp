// encode(): a spec list -> one EncodedEvent per (event, PMU instance).
#include "pmucat/encode.h"

#include <utility>

#include "encode/encode_terms.h"
#include "encode/group_modifiers.h"
#include "encode/targets.h"
#include "parser/spec_views.h"

namespace pmucat {
namespace {

using encode_detail::Target;

Expected<EncodedEvent> encode_target(const Target& target, std::string_view spec,
                                     const spec_detail::EventSpecView& event,
                                     const EncodeOptions& options) {
  if (target.pmu == nullptr) {
    EncodedEvent encoded;
    encoded.spec = std::string(event.text);
    encoded.event = std::string(event.name);
    encode_detail::encode_legacy(target.legacy, event.modifiers, options.semantics, encoded.attr);
    const std::string mods = canonical_modifiers(event.modifiers);
    encoded.perf_string = mods.empty() ? encoded.event : encoded.event + ":" + mods;
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

// Makes out[first..] (the attrs of `event`, a member of `group`) members of the group: leader
// index, group name and the group's modifiers.
std::optional<Diagnostic> join_group(const spec_detail::SpecGroupView& group,
                                     const spec_detail::EventSpecView& event, std::string_view spec,
                                     const EncodeOptions& options,
                                     std::optional<std::size_t>& leader, std::size_t first,
                                     std::vector<EncodedEvent>& out) {
  for (std::size_t i = first; i < out.size(); ++i) {
    if (!leader) leader = i;
    EncodedEvent& member = out[i];
    member.group_leader = *leader;
    member.group_name = std::string(group.name);
    if (group.has_modifiers) member.group_modifiers = canonical_modifiers(group.modifiers);
    if (auto problem = encode_detail::apply_group_modifiers(group, event.modifiers, i == *leader,
                                                            options.tool, spec, member.attr)) {
      return problem;
    }
  }
  return std::nullopt;
}

}  // namespace

Expected<std::vector<EncodedEvent>> encode(const Catalog& catalog, std::string_view spec,
                                           const EncodeOptions& options) {
  spec_detail::SpecViews views;
  if (auto error = spec_detail::parse_spec_views(spec, views)) {
    return unexpected(std::move(*error));
  }
  std::vector<EncodedEvent> out;
  encode_detail::DirectLookup lookup(catalog);
  // Each group's leader: the first attr its first member gives (perf 6.1 sets the leader before
  // expanding nothing further, so a member on several PMUs adds several members).
  std::vector<std::optional<std::size_t>> leaders(views.groups.size());
  for (const spec_detail::EventSpecView& event : views.events) {
    const std::size_t first = out.size();
    auto error =
        encode_detail::for_each_target(lookup, spec, event, views.terms_of(event), options,
                                       [&](const Target& target) -> std::optional<Diagnostic> {
                                         auto encoded = encode_target(target, spec, event, options);
                                         if (!encoded) return std::move(encoded).error();
                                         out.push_back(std::move(*encoded));
                                         return std::nullopt;
                                       });
    if (error) return unexpected(std::move(*error));
    if (event.group) {
      if (auto problem = join_group(views.groups[*event.group], event, spec, options,
                                    leaders[*event.group], first, out)) {
        return unexpected(std::move(*problem));
      }
    }
  }
  return out;
}

}  // namespace pmucat
