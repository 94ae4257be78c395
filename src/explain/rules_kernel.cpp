// What the running kernel's sysctls and release refuse: a sampling frequency above
// perf_event_max_sample_rate, and attr fields newer than the release. A kernel rejects a flag
// bit it does not know (EINVAL) and a non-zero byte past the attr size it knows (E2BIG). The table
// is the release each field the encoder or perf's tool defaults can set first appeared in, from the
// history of include/uapi/linux/perf_event.h (docs/explain.md#kernel-limits-and-release).
#include <fmt/core.h>

#include <algorithm>
#include <array>

#include "explain/rules.h"
#include "pmucat/version.h"

PMUCAT_BEGIN_NAMESPACE
namespace explain_detail {
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

namespace {

// A sampling frequency the kernel refuses (EINVAL above perf_event_max_sample_rate). A `freq=`
// term reaches the kernel as written; perf record's own frequency (-F, or its 4000 Hz default)
// is lowered to the limit by perf, with a line saying so.
void sample_rate(EventContext& context) {
  const Attr& attr = context.event.attr;
  if (!attr.freq || attr.sample_freq == 0) return;
  if (!context.facts.max_sample_rate) {
    context.unknown.insert("perf_event_max_sample_rate");
    return;
  }
  const std::uint64_t max = *context.facts.max_sample_rate;
  if (attr.sample_freq <= max) return;
  // A built-in event (cpu-clock/freq=.../) keeps its terms only in the canonical string.
  const auto& terms = context.event.settings.special_terms;
  const std::string_view perf = context.event.perf_string;
  const bool from_term = std::any_of(terms.begin(), terms.end(),
                                     [](const Term& term) { return term.name == "freq"; }) ||
                         perf.find("/freq=") != std::string_view::npos ||
                         perf.find(",freq=") != std::string_view::npos;
  const std::string fact = fmt::format("perf_event_max_sample_rate = {}", max);
  if (!from_term) {
    Reason& reason = context.add(
        DiagId::explain_sample_rate_too_high, Severity::warning,
        fmt::format("perf record samples at {} Hz, above perf_event_max_sample_rate ({} Hz): "
                    "perf lowers it to {} Hz",
                    attr.sample_freq, max, max),
        fmt::format("info: Using a maximum frequency rate of {} Hz", max),
        "ask for a lower rate (-F), or raise kernel.perf_event_max_sample_rate (the kernel "
        "lowers it again when sampling interrupts take too long)");
    reason.facts.push_back(fact);
    return;
  }
  Reason& reason = context.add(
      DiagId::explain_sample_rate_too_high, Severity::error,
      fmt::format("freq={} is above perf_event_max_sample_rate ({} Hz): the kernel refuses the "
                  "event (EINVAL), and perf does not lower a frequency given as a term",
                  attr.sample_freq, max),
      context.options.scope == Scope::task
          ? fmt::format("Invalid event ({}) in per-thread mode, enable system wide with '-a'.",
                        context.event.spec)
          : perf_syscall_error(22, "Invalid argument", context.event.spec),
      fmt::format("freq={} or lower, or raise kernel.perf_event_max_sample_rate", max));
  reason.facts.push_back(fact);
}

}  // namespace

void kernel_rules(EventContext& context) {
  sample_rate(context);
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

}  // namespace explain_detail
PMUCAT_END_NAMESPACE
