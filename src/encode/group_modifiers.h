// Event groups in encode(): a group's `}:mods` combined with each member's attr as perf 6.1 does.
#pragma once

#include <optional>
#include <string_view>

#include "parser/spec_views.h"
#include "pmucat/attr.h"
#include "pmucat/diagnostic.h"
#include "pmucat/encode.h"
#include "pmucat/spec.h"

namespace pmucat::encode_detail {

// Applies `group`'s modifiers to a member whose own modifiers are `member` and whose attr already
// carries them. As perf 6.1's group modifiers: the exclusion and precise bits start from the
// member's (`{cycles:k}:u` counts user and kernel; `{cycles:p}:p` is precise 2); `S` replaces
// the member's own; `D` and `e` set pinned/exclusive on the leader only. Fails (modifier-group-
// precise, under the group's modifiers) when a member's precise level would pass 3.
std::optional<Diagnostic> apply_group_modifiers(const spec_detail::SpecGroupView& group,
                                                const Modifiers& member, bool leader, Tool tool,
                                                std::string_view spec, Attr& attr);

}  // namespace pmucat::encode_detail
