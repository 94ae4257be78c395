// attr fields newer than the running kernel. A kernel rejects a flag bit it does not know
// (EINVAL) and a non-zero byte past the attr size it knows (E2BIG). The table is the release
// each field the encoder or perf's tool defaults can set first appeared in, from the history of
// include/uapi/linux/perf_event.h (docs/explain.md#kernel-release).
#include <fmt/core.h>

#include <array>

#include "explain/rules.h"

namespace pmucat::explain_detail {
namespace {

struct NewField {
  std::string_view name;  // the uapi name
  KernelVersion since;    // the first release that accepts it
  bool past_size;         // a field past the older kernels' attr size (E2BIG), else a flag bit
  bool perf_drops;        // perf retries without it on EINVAL (its missing-feature fallback)
  bool (*is_set)(const Attr&);
};

constexpr std::array kNewFields = {
    NewField{"ksymbol", {5, 1}, false, true, [](const Attr& a) { return a.ksymbol; }},
    NewField{"bpf_event", {5, 1}, false, true, [](const Attr& a) { return a.bpf_event; }},
    NewField{"aux_output", {5, 4}, false, true, [](const Attr& a) { return a.aux_output; }},
    NewField{"aux_sample_size",
             {5, 5},
             true,
             false,
             [](const Attr& a) { return a.aux_sample_size != 0; }},
    NewField{"cgroup", {5, 7}, false, true, [](const Attr& a) { return a.cgroup; }},
    NewField{"text_poke", {5, 9}, false, true, [](const Attr& a) { return a.text_poke; }},
    NewField{"build_id", {5, 12}, false, false, [](const Attr& a) { return a.build_id; }},
    NewField{
        "inherit_thread", {5, 13}, false, false, [](const Attr& a) { return a.inherit_thread; }},
    NewField{
        "remove_on_exec", {5, 13}, false, false, [](const Attr& a) { return a.remove_on_exec; }},
    NewField{"sigtrap", {5, 13}, false, false, [](const Attr& a) { return a.sigtrap; }},
    NewField{"sig_data", {5, 13}, true, false, [](const Attr& a) { return a.sig_data != 0; }},
    NewField{"config3", {6, 3}, true, false, [](const Attr& a) { return a.config[3] != 0; }},
};

}  // namespace

void kernel_rules(EventContext& context) {
  const Attr& attr = context.event.attr;
  const std::optional<std::string>& release = context.facts.kernel_release;
  const std::optional<KernelVersion> version =
      release ? parse_kernel_version(*release) : std::nullopt;
  for (const NewField& field : kNewFields) {
    if (!field.is_set(attr)) continue;
    if (!version) {
      context.unknown.insert("kernel release");
      continue;
    }
    if (*version >= field.since) continue;
    const std::string since = fmt::format("{}.{}", field.since.major, field.since.minor);
    Reason& reason = context.add(
        DiagId::explain_attr_too_new, field.perf_drops ? Severity::note : Severity::error,
        fmt::format("the attr sets {}, which kernels before {} do not know, and this one is {}: "
                    "it refuses the attr ({}){}",
                    field.name, since, *release, field.past_size ? "E2BIG" : "EINVAL",
                    field.perf_drops ? "; perf retries without the field, silently" : ""),
        field.perf_drops  ? ""
        : field.past_size ? perf_syscall_error(7, "Argument list too long", context.event.spec)
                          : perf_syscall_error(22, "Invalid argument", context.event.spec),
        field.perf_drops
            ? "none needed; the event opens without it"
            : fmt::format("drop what sets {}, or run a kernel {} or newer", field.name, since));
    reason.facts.push_back("kernel release = " + *release);
  }
}

}  // namespace pmucat::explain_detail
