// perf_event_paranoid and the capabilities that lift it, as kernel 6.12's perf_event_open and
// Debian's patch check them (docs/explain.md#permissions).
#include <fmt/core.h>

#include "explain/rules.h"
#include "pmucat/version.h"

PMUCAT_BEGIN_NAMESPACE
namespace explain_detail {
namespace {

// perf's EACCES/EPERM text, the same for every paranoid refusal (perf 6.1 and 6.12).
std::string perf_access_error(int paranoid) {
  return fmt::format(
      "Access to performance monitoring and observability operations is limited.\n"
      "Consider adjusting /proc/sys/kernel/perf_event_paranoid setting to open\n"
      "access to performance monitoring and observability operations for processes\n"
      "without CAP_PERFMON, CAP_SYS_PTRACE or CAP_SYS_ADMIN Linux capability.\n"
      "[...]\nperf_event_paranoid setting is {}:",
      paranoid);
}

// A refusal that holds unless the process has the capability: an error when it is known not to,
// a warning when the capabilities are unknown.
struct Refusal {
  DiagId id;
  std::string message;
  std::string perf_says;
  std::string fix;
};

void refuse(EventContext& context, Holds capable, Refusal refusal, int paranoid) {
  const bool unknown = capable == Holds::unknown;
  if (unknown) {
    refusal.message += ", unless the process has the capability (its capabilities are unknown)";
    context.unknown.insert("capabilities");
  }
  Reason& reason =
      context.add(refusal.id, unknown ? Severity::warning : Severity::error,
                  std::move(refusal.message), std::move(refusal.perf_says), std::move(refusal.fix));
  reason.facts = {paranoid_fact(paranoid), capability_fact(context.facts)};
}

std::string scope_words(const EventContext& context) {
  if (context.options.scope == Scope::all_cpus) return "a system-wide event (-a)";
  if (context.options.scope == Scope::cpus) return "a per-CPU event (-C)";
  return fmt::format("an event of the uncore PMU '{}', which counts CPU-wide only",
                     context.pmu->name());
}

bool is_tracepoint(const Attr& attr) {
  return attr.type == static_cast<std::uint32_t>(PerfType::tracepoint);
}

}  // namespace

void permission_rules(EventContext& context) {
  if (!context.facts.perf_event_paranoid) {
    context.unknown.insert("perf_event_paranoid");
    return;
  }
  const int paranoid = *context.facts.perf_event_paranoid;
  const Attr& attr = context.event.attr;
  std::vector<std::string> lifted;  // the limits a capability lifts for this event

  // Level 3 (Debian's patch, CONFIG_SECURITY_PERF_EVENTS_RESTRICT): only CAP_SYS_ADMIN opens
  // anything; CAP_PERFMON does not count here.
  if (paranoid > 2) {
    const Holds admin = context.holds(kCapSysAdmin);
    if (admin == Holds::yes) {
      lifted.emplace_back("perf_event_paranoid > 2 refuses every open without CAP_SYS_ADMIN");
    } else {
      refuse(context, admin,
             {DiagId::explain_paranoid_any,
              fmt::format("perf_event_paranoid is {}: the kernel refuses every perf_event_open "
                          "without CAP_SYS_ADMIN (Debian's level; CAP_PERFMON is not enough)",
                          paranoid),
              perf_access_error(paranoid),
              "sysctl kernel.perf_event_paranoid=2 (or lower), or run with CAP_SYS_ADMIN"},
             paranoid);
      return;  // nothing else is reached
    }
  }

  const Holds perfmon = context.perfmon_capable();
  const bool per_cpu_only = context.pmu != nullptr && counts_per_cpu_only(*context.pmu);
  const bool cpu_wide = context.options.scope != Scope::task || per_cpu_only;
  if (paranoid > 0 && cpu_wide) {
    if (perfmon == Holds::yes) {
      lifted.emplace_back("perf_event_paranoid > 0 refuses CPU-wide events");
    } else {
      // An uncore PMU has no per-task count to fall back to (explain-uncore-per-task): only the
      // privilege helps.
      refuse(context, perfmon,
             {DiagId::explain_paranoid_cpu_wide,
              fmt::format("perf_event_paranoid is {}: the kernel refuses {} without CAP_PERFMON "
                          "or CAP_SYS_ADMIN",
                          paranoid, scope_words(context)),
              perf_access_error(paranoid),
              per_cpu_only
                  ? fmt::format("an uncore PMU counts only system-wide, which needs the "
                                "privilege: sysctl kernel.perf_event_paranoid=0 (or -1), or "
                                "grant CAP_PERFMON (setcap cap_perfmon+ep on perf); counting "
                                "per task is no way out for '{}'",
                                context.pmu->name())
                  : "sysctl kernel.perf_event_paranoid=0 (or -1), or grant CAP_PERFMON (setcap "
                    "cap_perfmon+ep on perf), or count per task without -a/-C"},
             paranoid);
    }
  }

  if (paranoid > 1 && !attr.exclude_kernel) {
    // perf retries an event that counts both sides as user-only (:u); one that asks for the
    // kernel alone (:k), or a PMU that refuses exclusion bits, has no such way out.
    const bool no_fallback =
        attr.exclude_user || (context.pmu != nullptr && rejects_exclude_bits(*context.pmu));
    if (perfmon == Holds::yes) {
      lifted.emplace_back("perf_event_paranoid > 1 refuses counting the kernel");
    } else if (no_fallback) {
      refuse(context, perfmon,
             {DiagId::explain_paranoid_kernel,
              fmt::format("perf_event_paranoid is {}: the kernel refuses an event that counts "
                          "kernel mode (exclude_kernel is 0) without CAP_PERFMON or "
                          "CAP_SYS_ADMIN",
                          paranoid),
              perf_access_error(paranoid),
              "count user space only (:u) where the PMU allows it, sysctl "
              "kernel.perf_event_paranoid=1, or grant CAP_PERFMON"},
             paranoid);
    } else {
      const Holds capable = perfmon;
      Reason& reason = context.add(
          DiagId::explain_paranoid_user_only,
          capable == Holds::unknown ? Severity::note : Severity::warning,
          fmt::format("perf_event_paranoid is {}: the kernel refuses counting kernel mode, so "
                      "perf retries with exclude_kernel and exclude_hv and counts user space "
                      "only{}",
                      paranoid,
                      capable == Holds::unknown ? " (unless the process has CAP_PERFMON)" : ""),
          fmt::format("no error: the count is labelled {}:u", context.event.spec),
          "write ':u' to say so, or lower kernel.perf_event_paranoid to 1 (or grant "
          "CAP_PERFMON) to count the kernel too");
      reason.facts = {paranoid_fact(paranoid), capability_fact(context.facts)};
      if (capable == Holds::unknown) context.unknown.insert("capabilities");
    }
  }

  // Raw tracepoint samples (perf record of a tracepoint sets PERF_SAMPLE_RAW) need level -1,
  // except per task for tracepoints marked for any user (the syscalls ones).
  if (paranoid > -1 && is_tracepoint(attr) && (attr.sample_type & sample::raw) != 0) {
    const bool any_user =
        context.options.scope == Scope::task && context.event.spec.starts_with("syscalls:");
    if (!any_user) {
      if (perfmon == Holds::yes) {
        lifted.emplace_back("perf_event_paranoid > -1 refuses raw tracepoint samples");
      } else {
        refuse(context, perfmon,
               {DiagId::explain_paranoid_tracepoint_raw,
                fmt::format("perf_event_paranoid is {}: the kernel refuses a tracepoint event "
                            "that samples its raw data (PERF_SAMPLE_RAW) without CAP_PERFMON",
                            paranoid),
                perf_access_error(paranoid),  // EPERM: the same text as EACCES
                "sysctl kernel.perf_event_paranoid=-1, grant CAP_PERFMON, or count it with perf "
                "stat (no raw samples)"},
               paranoid);
      }
    }
  }

  if (!lifted.empty()) {
    std::string limits;
    for (const std::string& limit : lifted) {
      if (!limits.empty()) limits += "; ";
      limits += limit;
    }
    Reason& reason =
        context.add(DiagId::explain_capability_overrides, Severity::note,
                    fmt::format("a capability lifts what perf_event_paranoid {} would refuse: {}",
                                paranoid, limits),
                    "", "none here; without the capability the event would be refused");
    reason.facts = {paranoid_fact(paranoid), capability_fact(context.facts)};
  }
}

}  // namespace explain_detail
PMUCAT_END_NAMESPACE
