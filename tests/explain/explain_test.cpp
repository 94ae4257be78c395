// explain(): one small tree per reason, each asserting the reason's id; and this machine, which
// has no core PMU, answering `cycles` with explain-no-core-pmu.
#include "pmucat/explain.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "pmucat/tool_defaults.h"
#include "support/temp_tree.h"

namespace {

using pmucat::Catalog;
using pmucat::CounterVerdict;
using pmucat::DiagId;
using pmucat::EncodedEvent;
using pmucat::ExplainOptions;
using pmucat::HostFacts;
using pmucat::Reason;
using pmucat::Scope;
using pmucat::Severity;
using pmucat::Tool;
using pmucat::testing::TempTree;

constexpr std::uint64_t kNoCapabilities = 0;
constexpr std::uint64_t kPerfmon = std::uint64_t{1} << pmucat::kCapPerfmon;

// A sysfs tree under root/sys/bus/event_source/devices, a PMU at a time.
class Host {
 public:
  Host() {
    pmu("software", 1);
    pmu("tracepoint", 2);
  }
  void pmu(std::string_view name, int type) const {
    tree.write(devices(name) + "type", std::to_string(type) + "\n");
  }
  void file(std::string_view pmu_name, std::string_view relative, std::string_view text) const {
    tree.write(devices(pmu_name) + std::string(relative), std::string(text) + "\n");
  }
  // The x86 `cpu` PMU, with an event field and the caps given.
  void core_pmu(bool branches = true) const {
    pmu("cpu", 4);
    file("cpu", "format/event", "config:0-7");
    file("cpu", "format/umask", "config:8-15");
    file("cpu", "caps/max_precise", "2");
    if (branches) file("cpu", "caps/branches", "32");
  }
  void uncore_pmu() const {
    pmu("uncore_imc_0", 20);
    file("uncore_imc_0", "cpumask", "0");
    file("uncore_imc_0", "format/event", "config:0-7");
    file("uncore_imc_0", "format/umask", "config:8-15");
    file("uncore_imc_0", "events/cas_count_read", "event=0x04,umask=0x03");
  }

  Catalog catalog() const { return std::move(*Catalog::open(tree.root())); }

  std::vector<EncodedEvent> encode(std::string_view spec, Tool tool = Tool::stat) const {
    pmucat::EncodeOptions options;
    options.tool = tool;
    options.tracefs = tree.path("sys/kernel/tracing").string();
    const Catalog catalog = this->catalog();
    auto events = pmucat::encode(catalog, spec, options);
    EXPECT_TRUE(events.has_value()) << spec << ": " << pmucat::render(events.error());
    if (!events) return {};
    pmucat::apply_tool_defaults(*events, tool);
    return std::move(*events);
  }

  std::vector<Reason> explain(std::string_view spec, const HostFacts& facts,
                              ExplainOptions options = {}) const {
    const Catalog catalog = this->catalog();
    const std::vector<EncodedEvent> events = encode(spec, options.tool);
    return pmucat::explain(facts, catalog, events, options);
  }

  TempTree tree{"explain"};

 private:
  static std::string devices(std::string_view name) {
    return "sys/bus/event_source/devices/" + std::string(name) + "/";
  }
};

// An unprivileged user on a host whose paranoid level is `paranoid`, kernel 6.12.
HostFacts user_facts(int paranoid, std::uint64_t capabilities = kNoCapabilities) {
  HostFacts facts;
  facts.perf_event_paranoid = paranoid;
  facts.nmi_watchdog = false;
  facts.max_sample_rate = 100000;
  facts.kernel_release = "6.12.9-amd64";
  facts.capabilities = capabilities;
  facts.uid = 1000;
  facts.tracefs = "/sys/kernel/tracing";
  facts.tracefs_mode = 0755;
  facts.tracefs_owner = 0;
  return facts;
}

std::vector<DiagId> ids(const std::vector<Reason>& reasons) {
  std::vector<DiagId> out;
  for (const Reason& reason : reasons) out.push_back(reason.id);
  return out;
}

bool has(const std::vector<Reason>& reasons, DiagId id) {
  return std::any_of(reasons.begin(), reasons.end(),
                     [&](const Reason& reason) { return reason.id == id; });
}

const Reason& find(const std::vector<Reason>& reasons, DiagId id) {
  static const Reason none;
  auto found = std::find_if(reasons.begin(), reasons.end(),
                            [&](const Reason& reason) { return reason.id == id; });
  EXPECT_NE(found, reasons.end()) << "no " << pmucat::to_string(id);
  return found == reasons.end() ? none : *found;
}

std::string describe(const std::vector<Reason>& reasons) {
  std::string out;
  for (const Reason& reason : reasons) {
    out += std::string(pmucat::to_string(reason.id)) + ": " + reason.message + "\n";
  }
  return out;
}

TEST(Explain, NoReasonForAPermittedUserSpaceSoftwareEvent) {
  Host host;
  host.core_pmu();
  const auto reasons = host.explain("cpu-clock:u", user_facts(2));
  EXPECT_TRUE(reasons.empty()) << describe(reasons);
}

TEST(Explain, ParanoidThreeRefusesEverythingWithoutSysAdmin) {
  Host host;
  const auto reasons = host.explain("cpu-clock:u", user_facts(3, kPerfmon));
  ASSERT_EQ(ids(reasons), std::vector{DiagId::explain_paranoid_any}) << describe(reasons);
  EXPECT_EQ(reasons[0].severity, Severity::error);
  EXPECT_NE(reasons[0].perf_says.find("perf_event_paranoid setting is 3"), std::string::npos);
}

TEST(Explain, ParanoidAboveZeroRefusesSystemWideEvents) {
  Host host;
  ExplainOptions options;
  options.scope = Scope::all_cpus;
  const auto reasons = host.explain("cpu-clock:u", user_facts(1), options);
  ASSERT_EQ(ids(reasons), std::vector{DiagId::explain_paranoid_cpu_wide}) << describe(reasons);
  EXPECT_NE(reasons[0].perf_says.find("Access to performance monitoring and observability "
                                      "operations is limited."),
            std::string::npos);
}

TEST(Explain, ParanoidTwoRefusesKernelOnlyAndDowngradesBothModes) {
  Host host;
  EXPECT_EQ(ids(host.explain("cpu-clock:k", user_facts(2))),
            std::vector{DiagId::explain_paranoid_kernel});
  const auto both = host.explain("cpu-clock", user_facts(2));
  ASSERT_EQ(ids(both), std::vector{DiagId::explain_paranoid_user_only}) << describe(both);
  EXPECT_EQ(both[0].severity, Severity::warning);
  EXPECT_TRUE(host.explain("cpu-clock", user_facts(1)).empty());
}

TEST(Explain, RawTracepointSamplesNeedParanoidMinusOne) {
  Host host;
  host.tree.write("sys/kernel/tracing/events/sched/sched_switch/id", "316\n");
  ExplainOptions options;
  options.tool = Tool::record;
  const auto reasons = host.explain("sched:sched_switch:u", user_facts(0), options);
  EXPECT_TRUE(has(reasons, DiagId::explain_paranoid_tracepoint_raw)) << describe(reasons);
  EXPECT_TRUE(host.explain("sched:sched_switch:u", user_facts(-1), options).empty());
  // Counting (perf stat) samples no raw data.
  EXPECT_TRUE(host.explain("sched:sched_switch:u", user_facts(0)).empty());
}

TEST(Explain, CapPerfmonLiftsParanoidAndSaysSo) {
  Host host;
  ExplainOptions options;
  options.scope = Scope::all_cpus;
  const auto reasons = host.explain("cpu-clock:k", user_facts(2, kPerfmon), options);
  ASSERT_EQ(ids(reasons), std::vector{DiagId::explain_capability_overrides}) << describe(reasons);
  EXPECT_EQ(reasons[0].severity, Severity::note);
}

TEST(Explain, UnknownCapabilitiesMakeARefusalAWarning) {
  Host host;
  HostFacts facts = user_facts(2);
  facts.capabilities.reset();
  const auto reasons = host.explain("cpu-clock:k", facts);
  EXPECT_EQ(find(reasons, DiagId::explain_paranoid_kernel).severity, Severity::warning);
  EXPECT_EQ(find(reasons, DiagId::explain_fact_unknown).facts,
            std::vector<std::string>{"capabilities = unknown"});
}

TEST(Explain, UnknownParanoidIsSaid) {
  Host host;
  const auto reasons = host.explain("cpu-clock:k", HostFacts{});
  EXPECT_EQ(find(reasons, DiagId::explain_fact_unknown).facts,
            std::vector<std::string>{"perf_event_paranoid = unknown"});
}

TEST(Explain, HardwareEventWithoutACorePmuIsNotSupported) {
  Host host;
  const auto reasons = host.explain("cycles:u", user_facts(2));
  ASSERT_EQ(ids(reasons), std::vector{DiagId::explain_no_core_pmu}) << describe(reasons);
  EXPECT_EQ(reasons[0].perf_says, "<not supported>      cycles:u");
  host.core_pmu();
  EXPECT_TRUE(host.explain("cycles:u", user_facts(2)).empty());
}

// A stand-in for a spec naming a PMU the tree lacks, as pmuencode --explain passes one.
EncodedEvent absent_pmu_event(std::string spec, std::string pmu) {
  EncodedEvent event;
  event.spec = std::move(spec);
  event.pmu = std::move(pmu);
  return event;
}

TEST(Explain, CorePmuSpecWithoutACorePmuIsExplained) {
  Host host;
  host.uncore_pmu();
  const Catalog catalog = host.catalog();
  const std::vector events{absent_pmu_event("cpu/event=0x3c/", "cpu")};
  const auto reasons = pmucat::explain(user_facts(2), catalog, events, {});
  // Only the missing PMU: a paranoid or counter reason about a stand-in attr would be made up.
  ASSERT_EQ(ids(reasons), std::vector{DiagId::explain_no_core_pmu}) << describe(reasons);
  EXPECT_EQ(reasons[0].severity, Severity::error);
  EXPECT_NE(reasons[0].message.find("no PMU 'cpu'"), std::string::npos) << reasons[0].message;
  EXPECT_NE(reasons[0].perf_says.find("Cannot find PMU `cpu'. Missing kernel support?"),
            std::string::npos);
  EXPECT_EQ(reasons[0].facts,
            std::vector<std::string>{"PMUs = software, tracepoint, uncore_imc_0"});
}

TEST(Explain, OtherAbsentPmuIsExplained) {
  Host host;
  host.core_pmu();
  const Catalog catalog = host.catalog();
  const std::vector events{absent_pmu_event("uncore_imx/event=0x1/", "uncore_imx"),
                           absent_pmu_event("cpu_core/event=0x3c/", "cpu_core")};
  const auto reasons = pmucat::explain(user_facts(1), catalog, events, {});
  ASSERT_EQ(ids(reasons), (std::vector{DiagId::explain_pmu_absent, DiagId::explain_pmu_absent}))
      << describe(reasons);
  EXPECT_EQ(reasons[0].event, 0u);
  EXPECT_NE(reasons[0].message.find("no PMU 'uncore_imx'"), std::string::npos);
  // The host has a core PMU, by another name: the fix names it.
  EXPECT_EQ(reasons[1].event, 1u);
  EXPECT_NE(reasons[1].fix.find("'cpu'"), std::string::npos) << reasons[1].fix;
}

TEST(Explain, UncoreAtParanoidOneNeedsThePrivilegeNeverPerTask) {
  Host host;
  host.uncore_pmu();
  const auto reasons = host.explain("uncore_imc_0/cas_count_read/", user_facts(1));
  const Reason& refused = find(reasons, DiagId::explain_paranoid_cpu_wide);
  EXPECT_EQ(refused.severity, Severity::error);
  EXPECT_EQ(refused.fix.find("count per task"), std::string::npos) << refused.fix;
  EXPECT_NE(refused.fix.find("perf_event_paranoid=0 (or -1)"), std::string::npos) << refused.fix;
  EXPECT_NE(refused.fix.find("CAP_PERFMON"), std::string::npos) << refused.fix;
  // The uncore reason's own advice (-a) says that it needs the same privilege.
  const Reason& uncore = find(reasons, DiagId::explain_uncore_per_task);
  EXPECT_NE(uncore.fix.find("perf_event_paranoid=0 (or -1) or CAP_PERFMON"), std::string::npos)
      << uncore.fix;
  // At Debian's level CAP_PERFMON does not lift it.
  const auto debian = host.explain("uncore_imc_0/cas_count_read/", user_facts(3));
  EXPECT_NE(find(debian, DiagId::explain_uncore_per_task).fix.find("CAP_SYS_ADMIN"),
            std::string::npos);
  // Privileged or at level 0: the advice is -a alone.
  const auto allowed = host.explain("uncore_imc_0/cas_count_read/", user_facts(0));
  EXPECT_EQ(find(allowed, DiagId::explain_uncore_per_task).fix.find("paranoid"), std::string::npos);
  // A core event counted -a still has per task as a way out.
  host.core_pmu();
  ExplainOptions options;
  options.scope = Scope::all_cpus;
  const auto core = host.explain("cpu/event=0x3c/u", user_facts(1), options);
  EXPECT_NE(find(core, DiagId::explain_paranoid_cpu_wide).fix.find("count per task"),
            std::string::npos);
}

TEST(Explain, UncoreEventPerTask) {
  Host host;
  host.uncore_pmu();
  const auto reasons = host.explain("uncore_imc_0/cas_count_read/", user_facts(-1));
  ASSERT_EQ(ids(reasons), std::vector{DiagId::explain_uncore_per_task}) << describe(reasons);
  ExplainOptions options;
  options.scope = Scope::all_cpus;
  EXPECT_TRUE(host.explain("uncore_imc_0/cas_count_read/", user_facts(-1), options).empty());
  // Without privileges an uncore event is CPU-wide, which paranoid 1 refuses.
  EXPECT_TRUE(has(host.explain("uncore_imc_0/cas_count_read/", user_facts(1), options),
                  DiagId::explain_paranoid_cpu_wide));
}

TEST(Explain, HybridPmuCountsOnlyOnItsCpus) {
  Host host;
  host.pmu("cpu_atom", 10);
  host.file("cpu_atom", "cpus", "16-23");
  host.file("cpu_atom", "format/event", "config:0-7");
  const auto reasons = host.explain("cpu_atom/event=0x3c/u", user_facts(2));
  ASSERT_EQ(ids(reasons), std::vector{DiagId::explain_hybrid_cpus}) << describe(reasons);
  EXPECT_EQ(reasons[0].severity, Severity::warning);
  ExplainOptions options;
  options.scope = Scope::cpus;
  options.cpus = {0, 1};
  EXPECT_EQ(find(host.explain("cpu_atom/event=0x3c/u", user_facts(0), options),
                 DiagId::explain_hybrid_cpus)
                .severity,
            Severity::error);
  options.cpus = {16};
  EXPECT_TRUE(host.explain("cpu_atom/event=0x3c/u", user_facts(0), options).empty());
}

TEST(Explain, AttrFieldNewerThanTheKernel) {
  Host host;
  host.pmu("spe", 30);
  host.file("spe", "format/event", "config:0-7");
  host.file("spe", "format/filter", "config3:0-7");
  HostFacts facts = user_facts(-1);
  facts.kernel_release = "6.1.0-18-amd64";
  const auto reasons = host.explain("spe/event=1,filter=2/", facts);
  ASSERT_EQ(ids(reasons), std::vector{DiagId::explain_attr_too_new}) << describe(reasons);
  EXPECT_NE(reasons[0].message.find("config3"), std::string::npos);
  facts.kernel_release = "6.3.0";
  EXPECT_TRUE(host.explain("spe/event=1,filter=2/", facts).empty());
}

TEST(Explain, ConfigBitsNoFormatCovers) {
  Host host;
  host.pmu("acme", 40);
  host.file("acme", "format/event", "config:0-7");
  const auto reasons = host.explain("acme/config=0x10001/", user_facts(-1));
  ASSERT_EQ(ids(reasons), std::vector{DiagId::explain_config_unformatted}) << describe(reasons);
  EXPECT_EQ(reasons[0].perf_says,
            "WARNING: event 'N/A' not valid (bits 16 of config '10001' not supported by "
            "kernel)!");
}

TEST(Explain, PreciseAboveMaxPrecise) {
  Host host;
  host.core_pmu();
  const auto reasons = host.explain("cpu/event=0x3c/ppp", user_facts(-1));
  ASSERT_EQ(ids(reasons), std::vector{DiagId::explain_precise_too_high}) << describe(reasons);
  EXPECT_EQ(reasons[0].perf_says,
            "'precise' request may not be supported. Try removing 'p' modifier.");
  EXPECT_TRUE(host.explain("cpu/event=0x3c/pp", user_facts(-1)).empty());
}

TEST(Explain, BranchSamplingWithoutCapsBranches) {
  Host host;
  host.core_pmu(/*branches=*/false);
  ExplainOptions options;
  options.tool = Tool::record;
  const auto reasons = host.explain("cpu/event=0x3c,branch_type=any/u", user_facts(-1), options);
  ASSERT_EQ(ids(reasons), std::vector{DiagId::explain_branches_unsupported}) << describe(reasons);
}

TEST(Explain, ExclusionBitsOnAPmuThatRefusesThem) {
  Host host;
  host.pmu("msr", 9);
  host.file("msr", "format/event", "config:0-63");
  host.file("msr", "events/tsc", "event=0x00");
  const auto reasons = host.explain("msr/tsc/u", user_facts(-1));
  ASSERT_EQ(ids(reasons), std::vector{DiagId::explain_exclude_rejected}) << describe(reasons);
  EXPECT_EQ(reasons[0].perf_says, "<not supported>      msr/tsc/u");
  EXPECT_TRUE(host.explain("msr/tsc/", user_facts(-1)).empty());
}

TEST(Explain, TracefsTheUserCannotRead) {
  Host host;
  host.tree.write("sys/kernel/tracing/events/sched/sched_switch/id", "316\n");
  HostFacts facts = user_facts(-1);
  facts.tracefs_mode = 0700;
  const auto reasons = host.explain("sched:sched_switch", facts);
  ASSERT_EQ(ids(reasons), std::vector{DiagId::explain_tracefs_denied}) << describe(reasons);
  EXPECT_NE(reasons[0].perf_says.find(
                "No permissions to read /sys/kernel/tracing/events/sched/sched_switch"),
            std::string::npos);
  facts.uid = 0;
  EXPECT_TRUE(host.explain("sched:sched_switch", facts).empty());
}

TEST(Explain, SamplingFrequencyAboveTheKernelsMaximum) {
  Host host;
  ExplainOptions options;
  options.tool = Tool::record;
  HostFacts facts = user_facts(-1);
  facts.max_sample_rate = 1000;
  // A freq= term reaches the kernel as written.
  const auto term = host.explain("cpu-clock/freq=2000/u", facts, options);
  ASSERT_EQ(ids(term), std::vector{DiagId::explain_sample_rate_too_high}) << describe(term);
  EXPECT_EQ(term[0].severity, Severity::error);
  EXPECT_EQ(term[0].perf_says,
            "Invalid event (cpu-clock/freq=2000/u) in per-thread mode, enable system wide with "
            "'-a'.");
  // perf record's 4000 Hz default is lowered by perf itself.
  const auto fallback = host.explain("cpu-clock:u", facts, options);
  ASSERT_EQ(ids(fallback), std::vector{DiagId::explain_sample_rate_too_high});
  EXPECT_EQ(fallback[0].severity, Severity::warning);
  facts.max_sample_rate = 100000;
  EXPECT_TRUE(host.explain("cpu-clock/freq=2000/u", facts, options).empty());
}

TEST(Explain, NmiWatchdogHoldsACoreCounter) {
  Host host;
  host.core_pmu();
  HostFacts facts = user_facts(-1);
  facts.nmi_watchdog = true;
  EXPECT_EQ(ids(host.explain("cpu/event=0x3c/", facts)), std::vector{DiagId::explain_nmi_watchdog});
}

TEST(Explain, CounterVerdictsFromThePlanner) {
  Host host;
  host.core_pmu();
  ExplainOptions options;
  options.counters = {CounterVerdict{0, false, 0.5, "8 events for 4 counters"}};
  const auto reasons = host.explain("cpu/event=0x3c/", user_facts(-1), options);
  ASSERT_EQ(ids(reasons), std::vector{DiagId::explain_counters_taken}) << describe(reasons);
  EXPECT_EQ(reasons[0].perf_says, "(50.00%) after the count");
  options.counters = {CounterVerdict{0, true, 0, "group of 6 for 4 counters"}};
  EXPECT_EQ(host.explain("cpu/event=0x3c/", user_facts(-1), options)[0].severity, Severity::error);
}

TEST(Explain, KernelVersionFromTheRelease) {
  EXPECT_EQ(pmucat::parse_kernel_version("6.1.0-18-amd64"), (pmucat::KernelVersion{6, 1}));
  EXPECT_EQ(pmucat::parse_kernel_version("6.18.44-fc-v1147"), (pmucat::KernelVersion{6, 18}));
  EXPECT_EQ(pmucat::parse_kernel_version("5.4"), (pmucat::KernelVersion{5, 4}));
  EXPECT_FALSE(pmucat::parse_kernel_version("linux"));
  EXPECT_FALSE(pmucat::parse_kernel_version("6"));
}

// This machine (a VM: software, tracepoint, breakpoint, msr, uprobe) has no core PMU.
TEST(ExplainLive, CyclesOnThisMachine) {
  auto catalog = Catalog::open("/sys/bus/event_source/devices");
  if (!catalog) GTEST_SKIP() << "no /sys/bus/event_source/devices";
  if (catalog->core_pmu() != nullptr) GTEST_SKIP() << "this machine has a core PMU";
  auto events = pmucat::encode(*catalog, "cycles", {});
  ASSERT_TRUE(events.has_value()) << pmucat::render(events.error());
  const HostFacts facts = pmucat::read_host_facts("/");
  EXPECT_TRUE(facts.perf_event_paranoid.has_value());
  EXPECT_TRUE(facts.kernel_release.has_value());
  const auto reasons = pmucat::explain(facts, *catalog, *events, {});
  EXPECT_TRUE(has(reasons, DiagId::explain_no_core_pmu)) << describe(reasons);
}

}  // namespace
