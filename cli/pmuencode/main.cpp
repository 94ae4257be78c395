// pmuencode: perf event specs -> struct perf_event_attr, exactly as perf encodes them; and with
// --decode, config words -> the terms and catalog events that produce them.
#include <fmt/core.h>
#include <sys/stat.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cerrno>
#include <cstring>
#include <string>
#include <vector>

#include "common/app.h"
#include "common/output_path.h"
#include "common/pmu_selection.h"
#include "common/semantics.h"
#include "common/tree.h"
#include "pmucat/decode.h"
#include "pmucat/diagnostic_ids.h"
#include "pmucat/explain.h"
#include "pmucat/perfdata.h"
#include "pmucat/perfdata_events.h"
#include "pmucat/stat_defaults.h"
#include "pmucat/tool_defaults.h"
#include "pmuencode/decode_words.h"
#include "pmuencode/encode_specs.h"
#include "pmuencode/explain_cli.h"
#include "pmuencode/metrics_cli.h"
#include "pmuencode/output.h"
#include "pmuencode/plan_cli.h"

PMUCAT_BEGIN_NAMESPACE
namespace cli {
namespace {

constexpr const char* kExamples = R"(
  $ pmuencode 'cpu/event=0x3c,umask=0x1,inv,cmask=3/u'
      the perf_event_attr perf would open, then the canonical spec
  $ pmuencode --pmu cpu 'event=0xc0,umask=0x1'
      bare terms for a PMU given separately (default: the core PMU)
  $ pmuencode mem-loads
      a bare event name: one attr per PMU that has it
  $ pmuencode 'hv_24x7/PM_PB_CYC,chip=0/'
      an event with a '?' parameter, given its value
  $ pmuencode --perf 'uncore_imc/cas_count_read/'
      canonical strings for 'perf stat -e', one per PMU instance
  $ pmuencode --json 'cpu/event=0xd1,umask=0x8/pp'
      JSON: type, config..config3 as unsigned integers, every field set
  $ pmuencode --for record 'cpu/event=0x3c,period=100000/'
      the full attr perf record opens (sample_type, freq, tracking bits, ...)
  $ pmuencode --for stat 'cpu/event=0x3c/,cpu/event=0xc0/u'
      the full attrs perf stat opens for this event list
  $ pmuencode --c 'cpu/event=0x3c/k'
      a C initializer for struct perf_event_attr
  $ pmuencode -o /tmp/pmucat-events.data 'cpu/event=0x3c/'
      write a perf.data file with these attrs and one sample each (perf evlist -v,
      perf report, perf script -i FILE read it; -o - writes it to stdout in pipe mode)
  $ pmuencode --decode cpu config=0x1c3003c
      the reverse: the terms and every catalog event with this encoding
  $ pmuencode --explain --host-root fixtures/host/debian-user cycles 'msr/tsc/u'
      why each event would not open or count on that host (here a Debian user's:
      perf_event_paranoid 3), with perf's own wording and a fix (exit 1: some would
      not count); without --host-root, this machine's /proc and /sys
  $ pmuencode --events-dir tests/pmu_events/data/arch --cpuid GenuineIntel-6-8F-8 -M IPC --perf
      the event lists perf stat -M IPC parses (weak groups, metric-id terms) for a model's
      metrics (here the fictional test model; -M TopdownL1, -M all, IPC:u, ...)
  $ pmuencode --plan --nmi-watchdog off --counters cpu=2+3 'cycles,instructions,r1d1,r4a3,r1d0'
      the counter planner: which counter each event takes, whether they multiplex and at
      what running fraction, and the fewest groups that fit as a perf stat -e string
)";

struct Options {
  CommonOptions common;
  std::string pmu;
  std::vector<std::string> arguments;
  bool perf_only = false;
  bool c_initializer = false;
  bool decode = false;
  PerfSemanticsFlag perf_semantics_flag;
  std::optional<PerfRelease> perf_semantics;  // --perf-semantics[=VERSION], resolved
  std::string for_tool;                     // --for: stat or record; empty: the spec's fields only
  std::string output_file;                  // -o: also write a perf.data file
  std::vector<std::string> argv;            // for the perf.data CMDLINE feature
  MetricsCliOptions metrics;                // -M and its options
  std::string extended_type = "supported";  // --extended-type: supported, unsupported or probe
  bool plan = false;                        // --plan: the counter planner
  std::vector<std::string> counters;        // --counters PMU=GENERIC[+FIXED]
  bool explain = false;                     // --explain
  std::optional<std::string> host_root;     // --host-root DIR (default /)
  bool all_cpus = false;                    // -a, --all-cpus
  std::optional<std::string> cpus;          // --cpu LIST
  unsigned detailed = 0;                    // -d, -dd, -ddd: with --for stat and no SPEC
};

// The events plain `perf stat` (-d, -a, -C) opens, as encode_specs() reports them.
EncodeResult encode_stat_defaults(const Catalog& catalog, const Options& options,
                                  const MetricLiterals& literals,
                                  const EncodeOptions& encode_options) {
  StatDefaultsOptions defaults;
  defaults.detail = options.detailed;
  defaults.cpu_target = options.all_cpus || options.cpus;
  defaults.metrics.nmi_watchdog = nmi_watchdog_on(options.metrics.nmi_watchdog);
  defaults.metrics.literals = literals;
  EncodeResult result;
  auto events = stat_default_events(catalog, defaults, encode_options);
  if (!events) {
    result.errors.push_back(std::move(events.error()));
  } else {
    result.events = std::move(events->events);
  }
  return result;
}

// The explanation's options from the command line, or a usage error.
Expected<ExplainRequest> explain_request(const Options& options) {
  ExplainRequest request;
  request.host_root = options.host_root.value_or("/");
  request.options.tool = options.for_tool == "record" ? Tool::record : Tool::stat;
  if (options.all_cpus) request.options.scope = Scope::all_cpus;
  if (options.cpus) {
    auto cpus = parse_cpu_list(*options.cpus, "--cpu");
    if (!cpus) return unexpected(cpus.error());
    if (cpus->cpus.empty()) {
      return unexpected(
          make_file_diagnostic(Severity::error, DiagId::cpulist_syntax, "--cpu", "no CPU given"));
    }
    request.options.scope = Scope::cpus;
    request.options.cpus = cpus->cpus;
  }
  return request;
}

// The counter planner's verdicts on the events, for --explain: an event whose group never goes
// on, or that multiplexes, with the watchdog the facts say.
Expected<std::vector<CounterVerdict>> counter_verdicts(const Catalog& catalog,
                                                       std::span<const EncodedEvent> events,
                                                       const Options& options,
                                                       const HostFacts& facts,
                                                       DiagnosticPrinter& printer) {
  // Stand-ins for events on an absent PMU take no counter: plan the others, index as given.
  std::vector<EncodedEvent> planned;
  std::vector<std::size_t> index_of;  // planned[k] is events[index_of[k]]
  std::vector<std::optional<std::size_t>> planned_at(events.size());
  for (std::size_t i = 0; i < events.size(); ++i) {
    if (is_absent_pmu_stand_in(catalog, events[i])) continue;
    planned_at[i] = planned.size();
    index_of.push_back(i);
    planned.push_back(events[i]);
  }
  for (EncodedEvent& event : planned) {
    if (event.group_leader) event.group_leader = planned_at[*event.group_leader];
  }
  events = planned;
  PlanBuildOptions build;
  build.nmi_watchdog = facts.nmi_watchdog.value_or(false);
  auto overrides = counter_overrides(catalog, options.counters, printer);
  if (!overrides) return unexpected(std::move(overrides).error());
  build.counters = std::move(*overrides);
  const PlanInput input = build_plan_input(catalog, events, build);
  const Plan plan = plan_counters(input);
  std::vector<CounterVerdict> verdicts;
  for (const PmuPlan& pmu : plan.pmus) {
    if (!pmu.counts_known) continue;
    for (const GroupProblem& problem : pmu.never) {
      if (problem.reopened_ungrouped) continue;  // its events multiplex: the runs say how much
      for (const std::size_t event : input.groups[problem.group].events) {
        if (event < events.size()) {
          verdicts.push_back({.event = index_of[event],
                              .never_scheduled = true,
                              .running_fraction = 0,
                              .why = problem.reason});
        }
      }
    }
    for (const GroupRun& run : pmu.runs) {
      if (run.fraction >= 1.0) continue;
      for (const std::size_t event : run.events) {
        if (event < events.size()) {
          verdicts.push_back(
              {.event = index_of[event],
               .running_fraction = run.fraction,
               .why = fmt::format("{} rotation ticks on {}: {} generic and {} fixed counters",
                                  pmu.rotation_ticks, pmu.counters.pmu, pmu.counters.generic,
                                  pmu.counters.fixed)});
        }
      }
    }
  }
  return verdicts;
}

// The host facts under --host-root: a directory laid out like /, or a pmusnap capture (which
// holds proc/sys/kernel), unpacked while it is read. Anything else is a usage error, since every
// fact would silently be unknown; a directory holding none of the facts gets a warning.
Expected<HostFacts> host_facts_of(const std::string& root, DiagnosticPrinter& printer) {
  const std::string_view what = "<--host-root>";
  const auto unusable = [&](std::string problem) {
    return unexpected(argument_error(
        DiagId::host_root_unusable, what, root, 0, root.size(),
        fmt::format("--host-root '{}' {}", root, problem),
        "give a directory laid out like / (holding proc/sys/kernel), or a pmusnap capture "
        "(.tar.gz) or its unpacked directory"));
  };
  struct stat status {};
  if (::stat(root.c_str(), &status) != 0) {
    return unusable(fmt::format("cannot be read: {}", std::strerror(errno)));
  }
  HostFacts facts;
  std::vector<Diagnostic> problems;
  if (S_ISREG(status.st_mode) && snap::is_tarball(root)) {
    auto unpacked = snap::Unpacked::open(root);
    if (!unpacked) return unexpected(std::move(unpacked).error());
    facts = read_host_facts(unpacked->root(), &problems);
  } else if (S_ISDIR(status.st_mode)) {
    facts = read_host_facts(root, &problems);
  } else {
    return unusable(S_ISREG(status.st_mode)
                        ? "is a file, neither a directory nor a pmusnap capture (.tar.gz)"
                        : "is neither a directory nor a pmusnap capture (.tar.gz)");
  }
  for (const Diagnostic& problem : problems) printer.print(problem);
  if (facts == HostFacts{}) {
    Diagnostic warning =
        make_diagnostic(Severity::warning, DiagId::host_root_no_facts, what, root, 0, root.size(),
                        fmt::format("none of the host facts is readable under --host-root '{}': "
                                    "every one is unknown",
                                    root));
    warning.hint =
        "the facts are proc/sys/kernel/{perf_event_paranoid,nmi_watchdog,"
        "perf_event_max_sample_rate,osrelease}, proc/self/status and sys/kernel/tracing under "
        "the root";
    printer.print(warning);
  }
  return facts;
}

// --explain: why each event would not open or count, from the facts of --host-root.
int run_explain(const Catalog& catalog, const Options& options, std::vector<EncodedEvent> events,
                DiagnosticPrinter& printer) {
  auto request = explain_request(options);
  if (!request) {
    printer.print(request.error());
    return to_int(ExitCode::usage);
  }
  auto read = host_facts_of(request->host_root, printer);
  if (!read) {
    printer.print(read.error());
    return to_int(ExitCode::usage);
  }
  HostFacts facts = std::move(*read);
  // --nmi-watchdog says what the host root would (a capture taken with the watchdog on, say).
  if (!options.metrics.nmi_watchdog.empty()) {
    facts.nmi_watchdog = options.metrics.nmi_watchdog == "on";
  }
  auto verdicts = counter_verdicts(catalog, events, options, facts, printer);
  if (!verdicts) {
    printer.print(verdicts.error());
    return to_int(ExitCode::usage);
  }
  request->options.counters = std::move(*verdicts);
  const std::vector<Reason> reasons = explain(facts, catalog, events, request->options);
  write_stdout(options.common.json ? explanation_json(facts, *request, events, reasons)
                                   : render_explanation(facts, *request, events, reasons));
  return to_int(has_blocking_reason(reasons) ? ExitCode::rejected : ExitCode::success);
}

// Writes the perf.data file -o asks for; attr size 128 (what perf <= 6.2 reads) unless an
// event needs config3 (136) or config4 (144).
bool write_output_file(const Catalog& catalog, const Options& options,
                       std::span<const EncodedEvent> events, DiagnosticPrinter& printer) {
  EventsFileOptions file_options;
  file_options.cmdline = options.argv;
  file_options.samples_per_event = 1;  // so perf report and perf script show every event
  for (const EncodedEvent& event : events) {
    for (std::uint32_t size : {kAttrSizeVer8, kAttrSizeVer9}) {
      if (attr_field_beyond(event.attr, file_options.writer.attr_size).empty()) break;
      file_options.writer.attr_size = size;
    }
  }
  if (auto problem = write_events_perf_data(options.output_file, events, catalog, file_options)) {
    printer.print(*problem);
    return false;
  }
  return true;
}

int run_decode(const Catalog& catalog, const Options& options, DiagnosticPrinter& printer) {
  std::span<const std::string> words = options.arguments;
  std::string pattern = options.pmu;
  if (pattern.empty()) {
    if (words.empty()) {
      printer.error("--decode needs a PMU and config words, e.g. --decode cpu config=0x3c");
      return to_int(ExitCode::usage);
    }
    pattern = words.front();
    words = words.subspan(1);
  }
  if (words.empty()) {
    printer.error("--decode needs at least one config word, e.g. config=0x3c");
    return to_int(ExitCode::usage);
  }
  const std::vector<const Pmu*> pmus = catalog.match_pmus(pattern);
  if (pmus.empty()) {
    printer.print(unknown_pmu_error(catalog, pattern));
    return to_int(ExitCode::rejected);
  }
  auto config = parse_config_words(words);
  if (!config) {
    printer.print(config.error());
    return to_int(ExitCode::rejected);
  }
  std::string out;
  Json items = Json::array();
  for (const Pmu* pmu : pmus) {
    const Decoded decoded = decode(*pmu, *config);
    if (options.common.json) {
      items.push_back(decoded_to_json(*pmu, *config, decoded));
    } else {
      if (!out.empty()) out += '\n';
      out += render_decoded(*pmu, *config, decoded);
    }
  }
  write_stdout(options.common.json ? dump_json(items) : out);
  return to_int(ExitCode::success);
}

PlanCliOptions plan_options(const Options& options) {
  return PlanCliOptions{.counters = options.counters,
                        .nmi_watchdog = options.metrics.nmi_watchdog,
                        .json = options.common.json};
}

int run(const Options& options) {
  const ColorMode mode = color_mode(options.common);
  DiagnosticPrinter printer(stderr, stream_wants_color(mode, stderr), "pmuencode");
  const int output_forms =
      int{options.common.json} + int{options.perf_only} + int{options.c_initializer};
  if (output_forms > 1) {
    printer.error("choose one of --json, --perf and --c");
    return to_int(ExitCode::usage);
  }
  if (options.decode &&
      (options.perf_only || options.c_initializer || !options.output_file.empty())) {
    printer.error("--decode prints terms and events; only --json changes its output");
    return to_int(ExitCode::usage);
  }
  if (options.output_file == "-" && output_forms > 0) {
    printer.error("-o - writes the perf.data to standard output; --json, --perf and --c would too");
    return to_int(ExitCode::usage);
  }
  // `pmuencode --for stat` alone: the events plain `perf stat` opens.
  const bool stat_defaults = options.arguments.empty() && options.metrics.names.empty() &&
                             options.for_tool == "stat" && !options.plan && !options.decode;
  const bool metric_flags =
      options.metrics.no_group || options.metrics.no_merge || options.metrics.no_threshold;
  if (options.metrics.names.empty() && metric_flags) {
    printer.error("--metric-no-group, --metric-no-merge and --metric-no-threshold go with -M");
    return to_int(ExitCode::usage);
  }
  if (options.metrics.names.empty() && !stat_defaults && !options.metrics.literals.empty()) {
    printer.error("--literal goes with -M, or with --for stat and no SPEC");
    return to_int(ExitCode::usage);
  }
  if (options.metrics.names.empty() && !options.plan && !options.explain && !stat_defaults &&
      !options.metrics.nmi_watchdog.empty()) {
    printer.error("--nmi-watchdog goes with -M, --plan, --explain, or --for stat and no SPEC");
    return to_int(ExitCode::usage);
  }
  if (options.plan && options.explain) {
    printer.error("choose one of --plan and --explain (--explain gives the plan's verdicts)");
    return to_int(ExitCode::usage);
  }
  if (!options.plan && !options.explain && !options.counters.empty()) {
    printer.error("--counters goes with --plan or --explain");
    return to_int(ExitCode::usage);
  }
  if (options.plan && (options.perf_only || options.c_initializer || options.decode ||
                       !options.output_file.empty() || !options.for_tool.empty())) {
    printer.error(
        "--plan prints a plan (or JSON with --json): none of --perf, --c, --decode, -o, --for");
    return to_int(ExitCode::usage);
  }
  if (!options.metrics.names.empty() &&
      (!options.arguments.empty() || options.decode || options.c_initializer ||
       !options.output_file.empty() || !options.for_tool.empty())) {
    printer.error("-M expands metrics: give no SPEC, and none of --decode, --c, -o, --for");
    return to_int(ExitCode::usage);
  }
  if (options.explain && (options.decode || options.perf_only || options.c_initializer ||
                          !options.output_file.empty() || !options.metrics.names.empty())) {
    printer.error(
        "--explain prints reasons (or --json); give none of --decode, --perf, --c, -o, -M");
    return to_int(ExitCode::usage);
  }
  if (options.detailed > 0 && !stat_defaults) {
    printer.error("-d goes with --for stat and no SPEC (the events plain perf stat -d opens)");
    return to_int(ExitCode::usage);
  }
  if (!options.explain && !stat_defaults &&
      (options.host_root || options.all_cpus || options.cpus)) {
    printer.error(
        "--host-root goes with --explain; --all-cpus and --cpu with --explain or with --for stat "
        "and no SPEC");
    return to_int(ExitCode::usage);
  }
  if (stat_defaults && !options.explain && options.host_root) {
    printer.error("--host-root goes with --explain");
    return to_int(ExitCode::usage);
  }
  std::optional<MetricLiterals> stat_literals;
  if (stat_defaults) {
    stat_literals = literals_from(options.metrics.literals, printer);
    if (!stat_literals) return to_int(ExitCode::usage);
    if (options.cpus) {
      auto cpus = parse_cpu_list(*options.cpus, "--cpu");
      if (!cpus) {
        printer.print(cpus.error());
        return to_int(ExitCode::usage);
      }
    }
  }
  if (options.all_cpus && options.cpus) {
    printer.error("choose one of --all-cpus and --cpu");
    return to_int(ExitCode::usage);
  }
  if (options.arguments.empty() && options.metrics.names.empty() && !stat_defaults) {
    printer.error(
        "nothing to encode: give an event spec such as 'cpu/event=0x3c/' (or --for stat alone: "
        "the events plain perf stat opens)");
    return to_int(ExitCode::usage);
  }
  auto tree = open_tree(options.common, printer);
  if (!tree) {
    printer.print(tree.error());
    return to_int(ExitCode::usage);
  }
  const Catalog* catalog = &tree->catalog;
  const auto vendor_problems = report_vendor_problems(printer, *catalog, options.common);
  if (options.decode) return run_decode(*catalog, options, printer);

  EncodeOptions encode_options;
  if (options.perf_semantics) encode_options.semantics = Profile::perf(*options.perf_semantics);
  if (options.extended_type == "unsupported") {
    encode_options.extended_type = ExtendedType::unsupported;
  } else if (options.extended_type == "probe") {
    encode_options.extended_type = probe_extended_type(*catalog);
  }
  if (!options.metrics.names.empty()) {
    // perf stat parses the metric events: its term rules apply.
    encode_options.tool = Tool::stat;
    encode_options.tracefs = tracefs_root(options.common, catalog->devices_dir());
    MetricsCliOptions metrics = options.metrics;
    metrics.json = options.common.json;
    metrics.perf_only = options.perf_only;
    if (options.plan) metrics.plan = plan_options(options);
    return run_metrics(*catalog, metrics, encode_options, printer);
  }
  // --plan and --explain look at the attrs perf stat opens (--explain: perf record's with
  // --for record).
  const std::string for_tool =
      (options.explain || options.plan) && options.for_tool.empty() ? "stat" : options.for_tool;
  if (for_tool == "stat") encode_options.tool = Tool::stat;
  // Only a tracepoint (`system:event`, never without a ':') looks in tracefs; working out its
  // root costs a raw event more than encoding it does.
  if (std::any_of(options.arguments.begin(), options.arguments.end(),
                  [](const std::string& spec) { return spec.find(':') != std::string::npos; })) {
    encode_options.tracefs = tracefs_root(options.common, catalog->devices_dir());
  }
  // --explain explains a spec on a PMU the host lacks rather than stopping at it.
  EncodeResult result =
      stat_defaults ? encode_stat_defaults(*catalog, options, *stat_literals, encode_options)
      : options.explain
          ? encode_for_explain(*catalog, options.arguments, options.pmu, encode_options)
          : encode_specs(*catalog, options.arguments, options.pmu, encode_options);
  for (const Diagnostic& error : result.errors) printer.print(error);
  if (!result.errors.empty()) return to_int(ExitCode::rejected);
  for (const EncodedEvent& event : result.events) {
    for (const Diagnostic& warning : event.warnings) printer.print(warning);
  }
  if (options.plan) return run_plan(*catalog, result.events, plan_options(options), printer);
  // Every SPEC argument joins one event list, as repeated -e options do in perf.
  if (!for_tool.empty()) {
    if (auto problem =
            check_tool_can_open(result.events, encode_options.tool, encode_options.semantics)) {
      printer.print(*problem);
      return to_int(ExitCode::rejected);
    }
    apply_tool_defaults(result.events, encode_options.tool, encode_options.semantics);
  }
  if (options.explain) return run_explain(*catalog, options, std::move(result.events), printer);

  if (!options.output_file.empty() &&
      !write_output_file(*catalog, options, result.events, printer)) {
    return to_int(ExitCode::usage);
  }
  if (options.common.json) {
    Json items = Json::array();
    for (const EncodedEvent& event : result.events) items.push_back(encoded_to_json(event));
    write_stdout(dump_json(items));
  } else if (options.perf_only) {
    write_stdout(render_perf_strings(result.events));
  } else if (options.c_initializer) {
    write_stdout(render_c_initializer(result.events));
  } else if (options.output_file.empty()) {
    write_stdout(render_attr_dumps(result.events));
  }
  return to_int(ExitCode::success);
}

}  // namespace
}  // namespace cli
PMUCAT_END_NAMESPACE

PMUCAT_BEGIN_NAMESPACE
namespace cli {
namespace {

// The options of the everyday command lines (`pmuencode [--sysfs DIR] [--cpuid ID]
// [--events-dir DIR] [--perf|--json|--c] [--pmu PMU] SPEC...`), which parse without building the
// rest (parse_command_line_staged). A tree that is not this machine's comes with its CPU
// identifier, so the catalog options are everyday ones.
void add_everyday_options(StagedApp& app, Options& options) {
  app.add_common_options({.general = false});
  app.add_option("--pmu", options.pmu,
                 "PMU for bare terms and raw events (default: cpu, cpu_core, or the first PMU "
                 "with a cpus file); narrows bare event names")
      .type_name("NAME|GLOB");
  app.add_flag("--perf", options.perf_only,
               "Print only the canonical specs, one per line, for perf stat -e");
  app.add_flag("--c", options.c_initializer, "Print a C initializer for struct perf_event_attr");
  app.add_option("SPEC", options.arguments,
                 "Event specs: pmu/terms/mods, event names, bare terms, rHEX; with --decode: "
                 "PMU and config words")
      .type_name("SPEC");
}

void add_all_options(StagedApp& app, Options& options) {
  app.name("pmuencode");
  app.description("Encode perf event specs into struct perf_event_attr, bit for bit as perf does.");
  add_everyday_options(app, options);
  app.add_common_options({.catalog = false, .json = false, .vendor_notes = true});
  app.add_flag("--decode", options.decode,
               "Reverse: PMU config=0x... [config1=0x...] -> terms and matching events");
  app.add(options.perf_semantics_flag);
  app.add_option("--for", options.for_tool,
                 "Print the full attrs this perf command opens (perf 6.1, default options, a "
                 "workload): sample_type, read_format, freq, disabled, inherit, tracking bits. "
                 "stat also rejects the sampling terms perf stat rejects; stat with no SPEC "
                 "prints the events plain perf stat opens (-d, -a). Without --for: only "
                 "what the spec determines, with perf record's meaning of the special terms")
      .type_name("stat|record")
      .check(CLI::IsMember({"stat", "record"}));
  app.add_option("--extended-type", options.extended_type,
                 "Whether the kernel takes a core PMU's type in a hardware or cache event's "
                 "config (hybrid machines; perf 6.12 asks the running kernel): supported (the "
                 "default, what perf 6.1 assumed), unsupported (a hardware event once, no PMU "
                 "type in any legacy event), or probe (ask this machine's kernel as perf 6.12 "
                 "does). perf 6.1 semantics never ask")
      .type_name("supported|unsupported|probe")
      .check(CLI::IsMember({"supported", "unsupported", "probe"}));
  app.add_option("-o,--output", options.output_file,
                 "Also write a perf.data file describing the attrs, with one sample per event "
                 "(the default dump is then not printed); - is standard output, and a FIFO, "
                 "device or - gets pipe mode")
      .type_name("FILE")
      .check(output_path_check());
  app.add_option("-M,--metrics", options.metrics.names,
                 "Expand metrics instead of specs, as perf 6.1's perf stat -M: metric names, "
                 "metric groups (TopdownL1) or all, comma-separated, each optionally :MODIFIERS; "
                 "prints the event lists perf parses and their attrs (--perf: the lists only; "
                 "--json: also which attrs each metric reads). Needs the model's vendor catalog "
                 "(--cpuid, --events-dir)")
      .type_name("NAME[,NAME...]");
  app.add_flag("--metric-no-group", options.metrics.no_group,
               "With -M: no {...}:W weak groups, as perf stat --metric-no-group");
  app.add_flag("--metric-no-merge", options.metrics.no_merge,
               "With -M: no events shared between metrics, as perf stat --metric-no-merge");
  app.add_flag("--metric-no-threshold", options.metrics.no_threshold,
               "With -M: a metric's MetricThreshold adds no events, as perf 6.12's "
               "--metric-no-threshold (perf 6.1 has no thresholds)");
  app.add_option(
         "--nmi-watchdog", options.metrics.nmi_watchdog,
         "With -M: whether the NMI watchdog is on, which ungroups metrics with "
         "MetricConstraint NO_NMI_WATCHDOG; with --plan or --explain: whether a pinned cycles "
         "event holds a counter of each core PMU (default: /proc/sys/kernel/nmi_watchdog, "
         "as perf reads it; --explain: the host root's)")
      .type_name("on|off")
      .check(CLI::IsMember({"on", "off"}));
  app.add_option("--literal", options.metrics.literals,
                 "With -M: the value of a # literal of metric expressions (smt_on, num_cpus, "
                 "num_cores, num_dies, num_packages, core_wide, system_tsc_freq; perf 6.12's "
                 "num_cpus_online, has_pmem, slots; perf 7.3's target_cpu, 0 unless given: 1 "
                 "models perf stat -a or -C), instead of the host's as perf reads it; "
                 "repeatable. Literals decide which if/else branch, and "
                 "so which events, a metric needs")
      .type_name("NAME=VALUE");
  app.add_flag("--plan", options.plan,
               "Plan the counters instead of printing attrs (specs or -M): per PMU instance "
               "which counter each event takes, the groups that can never be scheduled and why, "
               "the multiplexing's running fractions, and a regrouping into the fewest groups "
               "that fit, as a perf stat -e string (docs/planner.md)");
  app.add_option("--counters", options.counters,
                 "With --plan or --explain: the counters of a PMU instance, or of every instance "
                 "of a prefix "
                 "(uncore_cha), when counter.json and the kernel's facts do not say or are "
                 "wrong; repeatable")
      .type_name("PMU=GENERIC[+FIXED]")
      .allow_extra_args(false);
  app.add_flag("--explain", options.explain,
               "Say why each event would not open or would count nothing on a host (paranoid, "
               "capabilities, no core PMU, uncore per task, max_precise, ...), decided from "
               "/proc and /sys without opening anything; perf's wording and a fix beside each "
               "reason (docs/explain.md). Exit status 1 when some event would not count. --for "
               "record explains perf record's attrs (default: perf stat's)");
  app.add_option("--host-root", options.host_root,
                 "With --explain: read the host facts (proc/sys/kernel, proc/self/status, "
                 "sys/kernel/tracing) under DIR, a root laid out like / such as a pmusnap "
                 "capture's directory (default: /)")
      .type_name("DIR");
  app.add_flag("-a,--all-cpus", options.all_cpus,
               "With --explain, or --for stat and no SPEC: the events count system-wide, as "
               "perf's -a");
  app.add_option("--cpu", options.cpus,
                 "With --explain, or --for stat and no SPEC: the events count on these CPUs, as "
                 "perf's -C (0-3,8)")
      .type_name("LIST");
  app.add_flag("-d,--detailed", options.detailed,
               "With --for stat and no SPEC: the events plain perf stat -d opens (-dd, -ddd: "
               "more cache events; perf 7.2 and later: the Default2..Default4 metric groups)");
  app.footer(help_footer(
      {.examples = kExamples,
       .rejected = "a spec, PMU, event or config word was rejected (located diagnostic on "
                   "stderr); --plan: a group can never be scheduled (the plan is printed)"}));
}

int parse_and_run(int argc, char** argv) {
  Options options;
  if (auto status =
          parse_command_line_staged(argc, argv, options, add_everyday_options, add_all_options)) {
    return *status;
  }
  options.argv.assign(argv, argv + argc);
  if (auto status = resolve_semantics_option(options.perf_semantics_flag, options.common,
                                             options.perf_semantics, "pmuencode")) {
    return *status;
  }
  return run(options);
}

}  // namespace
}  // namespace cli
PMUCAT_END_NAMESPACE

int main(int argc, char** argv) {
  return pmucat::cli::run_main(argc, argv, "pmuencode", pmucat::cli::parse_and_run);
}
