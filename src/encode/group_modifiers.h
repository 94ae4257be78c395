// Event groups in encode(): a group's `}:mods` combined with each member's attr as perf does.
#pragma once

#include <optional>
#include <string_view>

#include "parser/spec_views.h"
#include "pmucat/attr.h"
#include "pmucat/diagnostic.h"
#include "pmucat/encode.h"
#include "pmucat/spec.h"

PMUCAT_BEGIN_NAMESPACE
namespace encode_detail {

// Applies `group`'s modifiers to a member whose own modifiers are `member` and whose attr already
// carries them. As perf's group modifiers: the exclusion and precise bits start from the
// member's (`{cycles:k}:u` counts user and kernel; `{cycles:p}:p` is precise 2); `S` replaces
// the member's own; `D` and `e` set pinned/exclusive on the leader only. Except under perf 6.1
// semantics, a group's `p` excludes the guest even for a member that chose `:G` (perf 6.12).
// Fails (modifier-group-precise, under the group's modifiers) when a member's precise level
// would pass 3.
std::optional<Diagnostic> apply_group_modifiers(const spec_detail::SpecGroupView& group,
                                                const Modifiers& member, bool leader,
                                                const EncodeOptions& options, std::string_view spec,
                                                Attr& attr);

// The first group of `views` whose name perf's lexer (of `semantics`' perf) would not read as a
// name, as a spec-group-name error under the name's text.
std::optional<Diagnostic> check_group_names(const spec_detail::SpecViews& views,
                                            std::string_view spec, Profile semantics);

}  // namespace encode_detail
PMUCAT_END_NAMESPACE
