// What the PMU the attr reaches publishes in sysfs, against what the attr asks of it: a core PMU
// at all, cpumask/cpus, exclusion bits, caps/max_precise, caps/branches, format/ coverage; and
// tracefs's permissions for tracepoints (docs/explain.md#pmus).
#include <fmt/core.h>

#include <algorithm>
#include <array>
#include <charconv>

#include "explain/rules.h"
#include "pmucat/version.h"

PMUCAT_BEGIN_NAMESPACE
namespace explain_detail {
namespace {

std::string pmu_names(const Catalog& catalog) {
  std::string names;
  for (const Pmu& pmu : catalog.pmus()) {
    if (!names.empty()) names += ", ";
    names += pmu.name();
  }
  return names.empty() ? "none" : names;
}

void no_core_pmu(EventContext& context) {
  const Attr& attr = context.event.attr;
  if (!is_core_type(attr.type) || context.pmu != nullptr) return;
  const bool record_cycles = context.options.tool == Tool::record &&
                             attr.type == static_cast<std::uint32_t>(PerfType::hardware) &&
                             (attr.config[0] & 0xffffffffu) == 0;
  Reason& reason = context.add(
      DiagId::explain_no_core_pmu, record_cycles ? Severity::warning : Severity::error,
      record_cycles ? "the host has no core PMU (a VM without a virtual PMU), so the kernel has no "
                      "driver for hardware events; perf record samples cpu-clock instead of cycles"
                    : "the host has no core PMU (a VM without a virtual PMU), so the kernel has no "
                      "driver for hardware, cache or raw events and refuses this one (ENOENT)",
      record_cycles ? ""
      : context.options.tool == Tool::stat
          ? fmt::format("<not supported>      {}", context.event.spec)
          : fmt::format("Error:\nThe {} event is not supported.", context.event.spec),
      "count a software event (cpu-clock, task-clock, page-faults) instead, or give the VM a "
      "virtual PMU (KVM: a CPU model with the PMU on; a cloud instance type with a vPMU)");
  reason.facts.push_back("PMUs = " + pmu_names(context.catalog));
}

// Names the kernel's core PMU drivers register: x86's `cpu`, the hybrid ones, Arm's PMUv3/v7.
bool core_pmu_name(std::string_view name) {
  return name == "cpu" || name == "cpu_core" || name == "cpu_atom" || name == "cpu_lowpower" ||
         name.starts_with("armv8_") || name.starts_with("armv7_");
}

// perf 6.1's parse error for a `pmu/.../` spec whose PMU is not in sysfs.
std::string cannot_find_pmu(std::string_view spec, std::string_view pmu) {
  return fmt::format(
      "event syntax error: '{}'\n  \\___ Cannot find PMU `{}'. Missing kernel support?", spec, pmu);
}

// What the CPU-wide count an uncore PMU needs takes where perf_event_paranoid refuses it (level
// 1 and above without CAP_PERFMON, explain-paranoid-cpu-wide): empty where nothing stands in
// the way or the facts are unknown (their own note says so).
std::string privilege_needed(const EventContext& context) {
  const auto& paranoid = context.facts.perf_event_paranoid;
  if (!paranoid || *paranoid < 1) return "";
  // Above 2 (Debian's level) CAP_PERFMON does not lift the limit; CAP_SYS_ADMIN does.
  const bool debian = *paranoid > 2;
  if ((debian ? context.holds(kCapSysAdmin) : context.perfmon_capable()) != Holds::no) return "";
  return fmt::format(
      "; at perf_event_paranoid {} that needs sysctl kernel.perf_event_paranoid=0 (or -1) or {} "
      "first",
      *paranoid, debian ? "CAP_SYS_ADMIN" : "CAP_PERFMON");
}

void uncore_per_task(EventContext& context) {
  if (context.pmu == nullptr || !counts_per_cpu_only(*context.pmu) ||
      context.options.scope != Scope::task) {
    return;
  }
  const PmuAttributes& attributes = context.pmu->attributes();
  const std::string cpumask = attributes.cpumask ? attributes.cpumask->text : "?";
  const bool stat = context.options.tool == Tool::stat;
  Reason& reason = context.add(
      DiagId::explain_uncore_per_task, stat ? Severity::warning : Severity::error,
      stat ? fmt::format("'{}' is an uncore PMU: it counts its whole unit on the CPUs of its "
                         "cpumask ({}), never one task, and the kernel refuses it per task; "
                         "perf stat opens it on those CPUs, so the count is every task's, not "
                         "the workload's",
                         context.pmu->name(), cpumask)
           : fmt::format("'{}' is an uncore PMU: the kernel refuses an uncore event on a task "
                         "(EINVAL); it counts only CPU-wide, on the CPUs of its cpumask ({})",
                         context.pmu->name(), cpumask),
      stat ? "" : perf_syscall_error(22, "Invalid argument", context.event.spec),
      (stat ? "say what it is: count with -a (system-wide), or -C " + cpumask
            : "record it system-wide (-a) or on its CPUs (-C " + cpumask +
                  "), or count it with perf stat") +
          privilege_needed(context));
  reason.facts.push_back("cpumask = " + cpumask);
}

bool contains(const std::vector<std::uint32_t>& sorted, std::uint32_t cpu) {
  return std::binary_search(sorted.begin(), sorted.end(), cpu);
}

void hybrid_cpus(EventContext& context) {
  if (context.pmu == nullptr) return;
  const PmuAttributes& attributes = context.pmu->attributes();
  if (!attributes.cpus || context.pmu->kind() != PmuKind::core) return;
  const CpuList& cpus = *attributes.cpus;
  if (context.options.scope == Scope::cpus) {
    const bool any = std::any_of(context.options.cpus.begin(), context.options.cpus.end(),
                                 [&](std::uint32_t cpu) { return contains(cpus.cpus, cpu); });
    if (any) return;
    Reason& reason = context.add(
        DiagId::explain_hybrid_cpus, Severity::error,
        fmt::format("the PMU '{}' counts only on CPUs {}, and none of the CPUs asked for is "
                    "one of them: it counts nothing",
                    context.pmu->name(), cpus.text),
        "", fmt::format("ask for CPUs among {}, or use the core PMU of those CPUs", cpus.text));
    reason.facts.push_back("cpus = " + cpus.text);
    return;
  }
  Reason& reason = context.add(
      DiagId::explain_hybrid_cpus, Severity::warning,
      fmt::format("the PMU '{}' counts only on CPUs {}: a task that runs elsewhere is not "
                  "counted, and one that never runs there counts nothing",
                  context.pmu->name(), cpus.text),
      fmt::format("<not counted>      {} (when the task never ran on CPUs {})", context.event.spec,
                  cpus.text),
      fmt::format("pin the workload to CPUs {} (taskset -c {}), or add the other core PMUs' "
                  "count (a bare event name counts on every core PMU)",
                  cpus.text, cpus.text));
  reason.facts.push_back("cpus = " + cpus.text);
}

// The exclusion bits perf cannot drop on its own: those a modifier (:u, :k, :h, :I) set.
std::string mode_exclusion_bits(const Attr& attr) {
  std::string bits;
  const auto add = [&](bool set, std::string_view name) {
    if (!set) return;
    if (!bits.empty()) bits += ", ";
    bits += name;
  };
  add(attr.exclude_user, "exclude_user");
  add(attr.exclude_kernel, "exclude_kernel");
  add(attr.exclude_hv, "exclude_hv");
  add(attr.exclude_idle, "exclude_idle");
  // exclude_host and exclude_guest are left out: on EINVAL perf retries without those two
  // (its missing-feature fallback), so they alone never keep the event from opening.
  return bits;
}

void exclude_rejected(EventContext& context) {
  if (context.pmu == nullptr || !rejects_exclude_bits(*context.pmu)) return;
  const std::string bits = mode_exclusion_bits(context.event.attr);
  if (bits.empty()) return;
  Reason& reason = context.add(
      DiagId::explain_exclude_rejected, Severity::error,
      fmt::format("the driver of '{}' counts every mode or none: it refuses any exclude_* bit "
                  "(EINVAL), and this attr sets {}",
                  context.pmu->name(), bits),
      context.options.tool == Tool::stat
          ? fmt::format("<not supported>      {}", context.event.spec)
          : perf_syscall_error(22, "Invalid argument", context.event.spec),
      "drop the modifier (:u, :k, :h, :G, :H): write the event without one");
  reason.facts.push_back("exclude bits = " + bits);
}

std::optional<std::uint64_t> cap_number(const Pmu& pmu, const std::string& name) {
  const auto& caps = pmu.attributes().caps;
  const auto found = caps.find(name);
  if (found == caps.end()) return std::nullopt;
  std::uint64_t value = 0;
  const std::string& text = found->second;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc{}) return std::nullopt;
  return value;
}

void precise_too_high(EventContext& context) {
  const Attr& attr = context.event.attr;
  // `P` asks perf for the highest level that opens; perf lowers it itself.
  if (attr.precise_ip == 0 || context.event.settings.precise_max || context.pmu == nullptr) return;
  const auto max_precise = cap_number(*context.pmu, "max_precise");
  if (!max_precise) {
    context.unknown.insert("caps/max_precise of " + context.pmu->name());
    return;
  }
  if (attr.precise_ip <= *max_precise) return;
  Reason& reason = context.add(
      DiagId::explain_precise_too_high, Severity::error,
      fmt::format("precise_ip is {} (one 'p' per level), above {}'s caps/max_precise {}: the "
                  "kernel refuses it (EOPNOTSUPP)",
                  attr.precise_ip, context.pmu->name(), *max_precise),
      "'precise' request may not be supported. Try removing 'p' modifier.",
      fmt::format("use at most {} 'p' modifier(s), or :P for the highest the PMU takes",
                  *max_precise));
  reason.facts.push_back(fmt::format("caps/max_precise = {}", *max_precise));
}

void branches_unsupported(EventContext& context) {
  const Attr& attr = context.event.attr;
  const bool branch_sampling =
      attr.branch_sample_type != 0 || (attr.sample_type & sample::branch_stack) != 0;
  if (!branch_sampling || context.pmu == nullptr) return;
  const auto& caps = context.pmu->attributes().caps;
  if (caps.empty()) {
    context.unknown.insert("caps/ of " + context.pmu->name());
    return;
  }
  const auto branches = cap_number(*context.pmu, "branches");
  if (branches && *branches > 0) return;
  Reason& reason = context.add(
      DiagId::explain_branches_unsupported, Severity::error,
      fmt::format("the event samples taken branches, but {}'s caps/branches is {}: the PMU "
                  "records no branch stack (EOPNOTSUPP)",
                  context.pmu->name(), branches ? "0" : "missing"),
      fmt::format("{}: PMU Hardware or event type doesn't support branch stack sampling.",
                  context.event.spec),
      "drop -b/-j and branch_type=; on Intel, a host or VM with LBR exposed; use call-graph=fp "
      "or dwarf for call chains instead");
  reason.facts.push_back(branches ? "caps/branches = 0" : "caps/branches = missing");
}

// "16-17,20": the set bits of `bits`, as perf lists them.
std::string bit_list(std::uint64_t bits) {
  std::string out;
  for (unsigned bit = 0; bit < 64;) {
    if (((bits >> bit) & 1u) == 0) {
      ++bit;
      continue;
    }
    unsigned last = bit;
    while (last + 1 < 64 && ((bits >> (last + 1)) & 1u) != 0) ++last;
    if (!out.empty()) out += ',';
    out += last == bit ? fmt::format("{}", bit) : fmt::format("{}-{}", bit, last);
    bit = last + 1;
  }
  return out;
}

void config_unformatted(EventContext& context) {
  if (context.pmu == nullptr) return;
  const Attr& attr = context.event.attr;
  if (context.pmu->type() != attr.type) return;  // a legacy event: no format/ applies
  const std::span<const Format> formats = context.pmu->formats();
  if (formats.empty()) return;
  ConfigWords covered{};
  for (const Format& format : formats) {
    if (format.spec.word < covered.size()) covered[format.spec.word] |= format.spec.mask;
  }
  for (std::size_t word = 0; word < covered.size(); ++word) {
    const std::uint64_t stray = attr.config[word] & ~covered[word];
    if (stray == 0) continue;
    const std::string name = word == 0 ? "config" : fmt::format("config{}", word);
    Reason& reason = context.add(
        DiagId::explain_config_unformatted, Severity::warning,
        fmt::format("bits {} of {} are set, but no format/ file of '{}' covers them: the "
                    "driver may ignore them or refuse the event",
                    bit_list(stray), name, context.pmu->name()),
        fmt::format("WARNING: event '{}' not valid (bits {} of {} '{:x}' not supported by "
                    "kernel)!",
                    context.event.event.empty() ? "N/A" : context.event.event, bit_list(stray),
                    name, attr.config[word]),
        "set only the fields `pmuls --pmu " + context.pmu->name() +
            " --formats` lists; check raw config= values");
    reason.facts.push_back(fmt::format("{} = {:#x}, covered by formats = {:#x}", name,
                                       attr.config[word], covered[word]));
  }
}

// Capabilities that bypass file permission checks.
constexpr unsigned kCapDacOverride = 1;
constexpr unsigned kCapDacReadSearch = 2;

void tracefs_denied(EventContext& context) {
  if (context.event.attr.type != static_cast<std::uint32_t>(PerfType::tracepoint)) return;
  const HostFacts& facts = context.facts;
  if (!facts.tracefs || !facts.tracefs_mode || !facts.tracefs_owner) {
    context.unknown.insert("tracefs permissions");
    return;
  }
  if (!facts.uid) {
    context.unknown.insert("uid");
    return;
  }
  if (*facts.uid == 0 || context.holds(kCapDacOverride) == Holds::yes ||
      context.holds(kCapDacReadSearch) == Holds::yes) {
    return;
  }
  // Entering a directory and reading its entries: r and x for the owner, else for others.
  const std::uint32_t needed = *facts.uid == *facts.tracefs_owner ? 0500u : 0005u;
  if ((*facts.tracefs_mode & needed) == needed) return;
  const std::string_view spec = context.event.spec;
  const std::size_t colon = spec.find(':');
  const std::size_t end = colon == std::string_view::npos ? colon : spec.find(':', colon + 1);
  std::string path = *facts.tracefs + "/events/";
  if (colon != std::string_view::npos) {
    path += spec.substr(0, colon);
    path += '/';
    path += spec.substr(colon + 1, end == std::string_view::npos ? end : end - colon - 1);
  }
  Reason& reason = context.add(
      DiagId::explain_tracefs_denied, Severity::error,
      fmt::format("tracefs ({}) has mode {:04o} and belongs to uid {}: uid {} cannot read the "
                  "tracepoint's id, so perf cannot even parse the event",
                  *facts.tracefs, *facts.tracefs_mode, *facts.tracefs_owner, *facts.uid),
      fmt::format("event syntax error: '{}'\n  \\___ can't access trace events\n"
                  "Error:\tNo permissions to read {}\n"
                  "Hint:\tTry 'sudo mount -o remount,mode=755 {}/'",
                  spec, path, *facts.tracefs),
      fmt::format("sudo mount -o remount,mode=755 {} (and paranoid -1 or CAP_PERFMON for raw "
                  "samples), or run perf as root",
                  *facts.tracefs));
  reason.facts.push_back(
      fmt::format("tracefs mode = {:04o}, owner = {}", *facts.tracefs_mode, *facts.tracefs_owner));
  reason.facts.push_back(fmt::format("uid = {}", *facts.uid));
}

}  // namespace

bool pmu_absent_rules(EventContext& context) {
  const EncodedEvent& event = context.event;
  if (event.pmu.empty() || context.catalog.find_pmu(event.pmu) != nullptr) return false;
  if (!context.catalog.match_pmus(event.pmu).empty()) return false;  // a prefix or a glob
  const Pmu* core = context.catalog.core_pmu();
  if (core == nullptr && core_pmu_name(event.pmu)) {
    Reason& reason = context.add(
        DiagId::explain_no_core_pmu, Severity::error,
        fmt::format("the host has no core PMU (a VM without a virtual PMU): there is no PMU '{}' "
                    "in its sysfs, so perf cannot parse the event (no format/ files give its "
                    "terms a meaning) and the kernel has no driver to count it",
                    event.pmu),
        cannot_find_pmu(event.spec, event.pmu),
        "count a software event (cpu-clock, task-clock, page-faults) instead, or give the VM a "
        "virtual PMU (KVM: a CPU model with the PMU on; a cloud instance type with a vPMU)");
    reason.facts.push_back("PMUs = " + pmu_names(context.catalog));
    return true;
  }
  std::string fix =
      "run pmuls to see the PMUs this host has; load the PMU's driver (modprobe) "
      "or count on a host whose hardware has it";
  if (core != nullptr && core_pmu_name(event.pmu)) {
    fix = fmt::format("write the event for the core PMU this host has: '{}'", core->name());
  }
  Reason& reason = context.add(
      DiagId::explain_pmu_absent, Severity::error,
      fmt::format("the host has no PMU '{}' (no such directory in its sysfs): its driver is not "
                  "loaded or the hardware lacks it, so perf cannot parse the event",
                  event.pmu),
      cannot_find_pmu(event.spec, event.pmu), std::move(fix));
  reason.facts.push_back("PMUs = " + pmu_names(context.catalog));
  return true;
}

void pmu_rules(EventContext& context) {
  no_core_pmu(context);
  uncore_per_task(context);
  hybrid_cpus(context);
  exclude_rejected(context);
  precise_too_high(context);
  branches_unsupported(context);
  config_unformatted(context);
  tracefs_denied(context);
}

}  // namespace explain_detail
PMUCAT_END_NAMESPACE
