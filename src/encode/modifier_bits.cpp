// The attr bits perf derives from event modifiers (parse_modifiers reads them, in parser/).
#include "pmucat/encode.h"
#include "pmucat/spec.h"

PMUCAT_BEGIN_NAMESPACE

void apply_modifiers(const Modifiers& modifiers, Attr& attr, Profile semantics) {
  // perf before 7.3 counts the host only unless G or H say otherwise; 7.3 leaves that to
  // `perf kvm`, so an event counts the guest too unless G/H exclude it.
  const bool host_by_default = !semantics.has(Behaviour::no_default_exclude_guest);
  if (modifiers == Modifiers{}) {
    // No modifier string: perf's event_attr_init default.
    attr.exclude_guest = host_by_default;
    return;
  }
  // A modifier string recomputes every exclusion from scratch, as perf 6.1 does.
  const bool levels = modifiers.user || modifiers.kernel || modifiers.hypervisor;
  attr.exclude_user = levels && !modifiers.user;
  attr.exclude_kernel = levels && !modifiers.kernel;
  attr.exclude_hv = levels && !modifiers.hypervisor;
  const bool guest_host = modifiers.guest_only || modifiers.host_only;
  if (guest_host) {
    attr.exclude_host = !modifiers.host_only;
    attr.exclude_guest = !modifiers.guest_only;
  } else {
    // Only `u` and `p` imply excluding the guest where the host is the default (`k`, `h` do
    // not).
    attr.exclude_host = false;
    attr.exclude_guest = host_by_default && (modifiers.user || modifiers.precise > 0);
  }
  attr.precise_ip = modifiers.precise;
  attr.exclude_idle = modifiers.exclude_idle;
  attr.pinned = modifiers.pinned;
  attr.exclusive = modifiers.exclusive;
  if (modifiers.sample_read) attr.sample_type |= sample::read;
}

PMUCAT_END_NAMESPACE
