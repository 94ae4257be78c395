// A group's modifiers on its members, as perf's parse_events__modifier_group leaves them.
#include "encode/group_modifiers.h"

#include <fmt/format.h>

#include "encode/legacy_events.h"
#include "parser/spec_diagnostics.h"
#include "pmucat/diagnostic_ids.h"

PMUCAT_BEGIN_NAMESPACE
namespace encode_detail {

std::optional<Diagnostic> apply_group_modifiers(const spec_detail::SpecGroupView& group,
                                                const Modifiers& member, bool leader,
                                                const EncodeOptions& options, std::string_view spec,
                                                Attr& attr) {
  if (!group.has_modifiers) return std::nullopt;
  const Modifiers& mods = group.modifiers;
  // perf 6.12 (and pmucat) exclude the guest for a group's `p` before looking at G/H, so a
  // member's own `:G` no longer keeps it counting the guest (`{cycles:G}:p`); only the group's
  // own G re-includes it. perf 6.1 let any G/H choice win.
  // perf 7.3 excludes the guest only for G/H, never by default or for `u`/`p`.
  const bool host_by_default = !options.semantics.has(Behaviour::no_default_exclude_guest);
  const bool precise_excludes_guest =
      host_by_default && options.semantics.has(Behaviour::precise_group_excludes_guest);
  if (precise_excludes_guest && mods.precise > 0) attr.exclude_guest = true;
  // Privilege levels: a member that excludes no level first excludes all three; then each of
  // u/k/h re-includes its own (`{cycles:k}:u` counts user and kernel).
  if (mods.user || mods.kernel || mods.hypervisor) {
    if (!(attr.exclude_user || attr.exclude_kernel || attr.exclude_hv)) {
      attr.exclude_user = attr.exclude_kernel = attr.exclude_hv = true;
    }
    if (mods.user) attr.exclude_user = false;
    if (mods.kernel) attr.exclude_kernel = false;
    if (mods.hypervisor) attr.exclude_hv = false;
  }
  // Guest/host: a member that chose G or H itself keeps its choice as the starting point.
  bool chose_guest_host = member.guest_only || member.host_only;
  if (mods.guest_only || mods.host_only) {
    if (!chose_guest_host) attr.exclude_guest = attr.exclude_host = true;
    chose_guest_host = true;
    if (mods.guest_only) attr.exclude_guest = false;
    if (mods.host_only) attr.exclude_host = false;
  }
  // `u` and `p` imply exclude_guest unless G/H were chosen (by the member or the group).
  if (host_by_default && !chose_guest_host && (mods.user || mods.precise > 0)) {
    attr.exclude_guest = true;
  }
  const unsigned precise = attr.precise_ip + mods.precise;
  if (precise > 3) {
    const std::size_t mods_at = group.offset + group.length - mods.text.size();
    Diagnostic d = spec_detail::spec_error(
        DiagId::modifier_group_precise, spec, mods_at, mods.text.size(),
        fmt::format("the group's modifiers raise a member's precise level to {} (at most 3)",
                    precise));
    d.hint = "perf adds a group's 'p's to each member's own";
    return d;
  }
  attr.precise_ip = static_cast<std::uint8_t>(precise);
  if (mods.exclude_idle) attr.exclude_idle = true;
  // The member's own `S` is replaced by the group's (perf keeps one sample_read per evsel).
  if (mods.sample_read && options.tool == Tool::record) {
    attr.sample_type |= sample::read;
  } else {
    attr.sample_type &= ~sample::read;
  }
  if (leader) {
    if (mods.pinned) attr.pinned = true;
    if (mods.exclusive) attr.exclusive = true;
  }
  return std::nullopt;
}

std::optional<Diagnostic> check_group_names(const spec_detail::SpecViews& views,
                                            std::string_view spec, Profile semantics) {
  for (const spec_detail::SpecGroupView& group : views.groups) {
    auto problem = group_name_problem(group.name, semantics.lexer(),
                                      !semantics.has(Behaviour::builtin_names_any_case));
    if (!problem) continue;
    Diagnostic d =
        spec_detail::spec_error(DiagId::spec_group_name, spec, group.offset + problem->offset,
                                problem->length, std::move(problem->message));
    d.hint = "a group name is a plain word such as g1 (pmucat uses it as the leader's name)";
    return d;
  }
  return std::nullopt;
}

}  // namespace encode_detail
PMUCAT_END_NAMESPACE
