// pmuls: lists the PMUs of a sysfs tree, their events with encodings, and their format fields.
#include <fmt/core.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdlib>
#include <iterator>
#include <string>
#include <vector>

#include "common/app.h"
#include "common/ordered_parallel.h"
#include "common/output_buffer.h"
#include "common/pmu_selection.h"
#include "common/semantics.h"
#include "common/text_wrap.h"
#include "common/tree.h"
#include "pmucat/diagnostic_ids.h"
#include "pmucat/suggest.h"
#include "pmucat/vendor_index.h"
#include "pmucat/vendor_index_cache.h"
#include "pmuls/catalog_json.h"
#include "pmuls/event_filter.h"
#include "pmuls/event_listing.h"
#include "pmuls/listed_events.h"
#include "pmuls/metric_listing.h"
#include "pmuls/pmu_summary.h"
#include "pmuls/register_map.h"

PMUCAT_BEGIN_NAMESPACE
namespace cli {
namespace {

constexpr const char* kExamples = R"(
  $ pmuls
      every PMU: type, kind, cpumask/cpus, number of events and formats
  $ pmuls --pmu cpu
      the events of cpu as cpu/NAME/, with their terms and config words
  $ pmuls --pmu 'uncore_cha_*' --long
      several PMUs by glob, with caps, alias, identifier and other attributes
  $ pmuls --formats --pmu cpu
      cpu's format fields and a bit map of each config word
  $ pmuls --event mem-loads
      one event in full, on every PMU that has it
  $ pmuls --json --pmu cpu
      the same selection as JSON (schema in docs/cli.md)
  $ pmuls --event 'cas_count_*'
      the events whose names match a glob, on every PMU that has one
  $ pmuls --search 'topdown bound'
      the events whose name, topic or description holds both words
  $ pmuls --kind hw,sw,cache,tool
      perf's built-in hardware, software, hardware cache and tool events, as perf list prints
      them, each marked when this tree cannot count it
  $ pmuls --kind all --event 'cache*'
      the built-in and PMU events whose names match a glob
  $ pmuls --events-dir fixtures/pmu-events/arch --cpuid GenuineIntel-6-8F-8 --topic cache -v
      the cache events of the vendor JSON model for that CPU (in the test catalog), with their
      long descriptions
  $ pmuls --events-dir fixtures/pmu-events/arch --cpuid GenuineIntel-6-8F-8 --metrics --details
      the metrics of that model with their descriptions and expressions, as perf list prints
      them
  $ pmuls --events-dir fixtures/pmu-events/arch --cpuid GenuineIntel-6-8F-8 --metric-group TopdownL1
      the metrics of one metric group (--metric-groups lists the groups)
)";

struct Options {
  CommonOptions common;
  std::vector<std::string> pmus;
  std::string event;
  std::vector<std::string> topics;
  std::vector<std::string> search;
  std::vector<std::string> kinds;
  bool deprecated = false;
  bool long_desc = false;
  bool no_desc = false;
  bool formats = false;
  bool long_form = false;
  bool metrics = false;
  bool metric_groups = false;
  std::string metric_group;
  std::string metric;
  bool details = false;
  unsigned jobs = 0;  // 0: one per CPU this process may use, at most kMaxAutomaticJobs
  std::optional<std::string> compile_index;  // --compile-index OUT
  // The perf whose `perf list -j` fields --json carries (--perf-semantics), else pmucat's.
  Profile semantics;
};

// Past a few threads the kernel's shared directory and dentry work, not the CPUs, sets the pace
// of reading a tree.
constexpr unsigned kMaxAutomaticJobs = 4;

// The PMUs that have `name`, each with the event found there (metadata loaded).
std::vector<std::pair<const Pmu*, const Event*>> find_event_everywhere(
    std::span<const Pmu* const> pmus, const std::string& name) {
  std::vector<std::pair<const Pmu*, const Event*>> found;
  for (const Pmu* pmu : pmus) {
    // find_event probes two file names; only a hit pays for reading the directory's metadata.
    if (pmu->find_event(name) == nullptr) continue;
    for (const Event& event : pmu->events()) {
      if (iequals(event.name, name)) {
        found.emplace_back(pmu, &event);
        break;
      }
    }
  }
  return found;
}

Diagnostic unknown_event_error(std::span<const Pmu* const> pmus,
                               std::span<const ListedEvent> listed, const std::string& name) {
  std::vector<std::string> names;
  for (const Pmu* pmu : pmus) {
    for (const Event& event : pmu->events()) names.push_back(event.name);
  }
  for (const ListedEvent& event : listed) {
    names.push_back(event.name);
    for (const std::string& alias : event.aliases) names.push_back(alias);
  }
  std::string hint = "run 'pmuls --pmu PMU' to see the events of a PMU";
  if (auto suggestion = nearest_name(name, names))
    hint = fmt::format("did you mean '{}'?", *suggestion);
  return argument_error(DiagId::event_unknown, "<event>", name, 0, name.size(),
                        listed.empty() ? fmt::format("no PMU has an event named '{}'", name)
                                       : fmt::format("no event is named '{}'", name),
                        std::move(hint));
}

EventFilter event_filter(const Options& options) {
  EventFilter filter;
  filter.topics = parse_topics(options.topics);
  if (is_glob(options.event)) filter.name_glob = options.event;
  filter.words = parse_search_words(options.search);
  filter.deprecated = options.deprecated;
  return filter;
}

// The options that narrowed the listing to nothing, as the command line had them.
Diagnostic no_match_error(std::span<const Pmu* const> pmus, const Options& options) {
  std::string text;
  auto add = [&](std::string_view option, std::string_view value) {
    if (!text.empty()) text += ' ';
    text += fmt::format("{} '{}'", option, value);
  };
  for (const std::string& kind : options.kinds) add("--kind", kind);
  if (is_glob(options.event)) add("--event", options.event);
  for (const std::string& topic : options.topics) add("--topic", topic);
  for (const std::string& words : options.search) add("--search", words);
  std::string hint = "run 'pmuls --pmu PMU' to see the events of a PMU";
  if (!options.topics.empty()) {
    // The topics there are, so a misspelt one is easy to fix.
    std::vector<std::string> topics;
    for (const Pmu* pmu : pmus) {
      for (const Event& event : pmu->events()) {
        const std::string topic(event_topic(event));
        if (!topic.empty() && std::find(topics.begin(), topics.end(), topic) == topics.end())
          topics.push_back(topic);
      }
    }
    std::sort(topics.begin(), topics.end());
    if (topics.empty()) {
      hint =
          "no event has a topic: topics come from the vendor JSON events (see --events-dir "
          "and --cpuid)";
    } else {
      hint.clear();
      for (const std::string& topic : parse_topics(options.topics)) {
        if (std::find(topics.begin(), topics.end(), topic) != topics.end()) continue;
        if (auto suggestion = nearest_name(topic, topics)) {
          hint = fmt::format("did you mean '{}'? ", *suggestion);
          break;
        }
      }
      hint += "the topics are: ";
      for (std::size_t i = 0; i < topics.size(); ++i) hint += (i == 0 ? "" : ", ") + topics[i];
    }
  }
  return argument_error(DiagId::event_no_match, "<options>", text, 0, text.size(),
                        "no event matches", std::move(hint));
}

// --compile-index OUT: the JSON tree of --events-dir (else $PMUCAT_EVENTS_DIR) compiled into an
// index at OUT, which replaces an earlier index there in one rename and nothing else.
int compile_index(const Options& options, DiagnosticPrinter& printer) {
  std::optional<std::string> json_root = options.common.events_dir;
  if (!json_root) {
    if (const char* value = std::getenv("PMUCAT_EVENTS_DIR")) json_root = value;
  }
  if (!json_root || json_root->empty() || options.common.no_events_dir) {
    printer.error("--compile-index needs a JSON tree: --events-dir DIR or $PMUCAT_EVENTS_DIR");
    return to_int(ExitCode::usage);
  }
  if (is_vendor_index(*json_root)) {
    printer.error(fmt::format("{} is a compiled index already, not a JSON tree", *json_root));
    return to_int(ExitCode::usage);
  }
  const auto summary = compile_vendor_index(*json_root, *options.compile_index,
                                            options.common.tables.value_or(kPmucatBaseRelease));
  if (!summary) {
    printer.print(summary.error());
    return to_int(ExitCode::io);
  }
  write_stdout(fmt::format("{}: {} architectures, {} models, {} events, {} metrics, {} bytes\n",
                           *options.compile_index, summary->archs, summary->models, summary->events,
                           summary->metrics, summary->bytes));
  return to_int(ExitCode::success);
}

int run(const Options& options) {
  const ColorMode mode = color_mode(options.common);
  DiagnosticPrinter printer(stderr, stream_wants_color(mode, stderr), "pmuls");
  const Palette stdout_palette{stream_wants_color(mode, stdout)};
  if (options.compile_index) return compile_index(options, printer);

  auto tree = open_tree(options.common, printer);
  if (!tree) {
    printer.print(tree.error());
    return to_int(ExitCode::usage);
  }
  const Catalog* catalog = &tree->catalog;
  const auto vendor_problems = report_vendor_problems(printer, *catalog, options.common);
  MetricListing metric_listing;
  metric_listing.metrics = options.metrics;
  metric_listing.metric_groups = options.metric_groups;
  metric_listing.metric_group = options.metric_group;
  metric_listing.metric = options.metric;
  metric_listing.details = options.details;
  metric_listing.no_desc = options.no_desc;
  metric_listing.json = options.common.json;
  metric_listing.columns = output_description_columns();
  if (wants_metrics(metric_listing)) {
    auto text = render_metric_listing(*catalog, metric_listing);
    if (!text) {
      printer.print(text.error());
      return to_int(ExitCode::rejected);
    }
    write_stdout(*text);
    return to_int(ExitCode::success);
  }
  auto selected = select_pmus(*catalog, options.pmus, options.semantics.has(Behaviour::hwmon_pmus));
  if (!selected) {
    printer.print(selected.error());
    return to_int(ExitCode::rejected);
  }
  const std::vector<const Pmu*>& pmus = *selected;
  const bool whole_tree = options.pmus.empty();
  std::string out;

  const EventFilter filter = event_filter(options);
  // Without --kind the text views list the PMUs' events as they always have; --event NAME falls
  // back to the built-in events when no PMU has the name.
  const bool explicit_kinds = !options.kinds.empty();
  KindSet kinds;
  if (explicit_kinds) {
    kinds = parse_kinds(options.kinds);
  } else {
    kinds.add(ListKind::pmu);
  }

  if (!options.event.empty() && !is_glob(options.event)) {
    std::vector<std::pair<const Pmu*, const Event*>> found;
    if (kinds.has(ListKind::pmu)) found = find_event_everywhere(pmus, options.event);
    std::vector<ListedEvent> listed;
    if (kinds.has_non_pmu() || (!explicit_kinds && found.empty())) {
      listed = builtin_listed_events(*catalog, explicit_kinds ? kinds : KindSet::all_builtins());
    }
    if (kinds.has(ListKind::tracepoint)) {
      auto tracepoints =
          tracepoint_listed_events(tracefs_root(options.common, catalog->devices_dir()));
      if (!tracepoints) {
        printer.print(tracepoints.error());
        return to_int(ExitCode::usage);
      }
      std::move(tracepoints->begin(), tracepoints->end(), std::back_inserter(listed));
    }
    const std::vector<const ListedEvent*> named = find_listed_events(listed, options.event);
    if (found.empty() && named.empty()) {
      Diagnostic error = unknown_event_error(
          kinds.has(ListKind::pmu) ? pmus : std::span<const Pmu* const>{}, listed, options.event);
      // A built-in of a kind --kind left out: say which kind lists it.
      const std::vector<ListedEvent> every =
          builtin_listed_events(*catalog, KindSet::all_builtins());
      if (const auto other = find_listed_events(every, options.event); !other.empty()) {
        error.hint = fmt::format("'{}' is a {} event: add --kind {}", other.front()->name,
                                 other.front()->kind, other.front()->kind);
      }
      printer.print(error);
      return to_int(ExitCode::rejected);
    }
    if (options.common.json) {
      std::vector<Json> items;
      for (const auto& [pmu, event] : found)
        items.push_back(pmu_to_json(*pmu, event, {}, options.semantics));
      Json document = catalog_to_json(*catalog, items);
      if (!named.empty() || kinds.has_non_pmu()) {
        std::vector<ListedEvent> copies;
        for (const ListedEvent* event : named) copies.push_back(*event);
        document["events"] = listed_events_to_json(copies);
      }
      write_stdout(dump_json(document));
      return to_int(ExitCode::success);
    }
    for (const auto& [pmu, event] : found) {
      if (!out.empty()) out += '\n';
      out += render_event_detail(*pmu, *event, printer);
    }
    for (const ListedEvent* event : named) {
      if (!out.empty()) out += '\n';
      out += render_listed_event_detail(*event);
    }
    write_stdout(out);
    return to_int(ExitCode::success);
  }

  // perf list -j lists every kind, and so does --json of the whole tree without --kind: the
  // built-ins come as a member of their own (`events`), so readers of `pmus` see no change.
  if (!explicit_kinds && options.common.json && whole_tree) {
    kinds = KindSet::all_builtins();
    kinds.add(ListKind::pmu);
  }
  const bool text_formats = options.formats && !options.common.json;
  std::vector<ListedEvent> listed;
  if (kinds.has_non_pmu() && !text_formats) {
    for (ListedEvent& event : builtin_listed_events(*catalog, kinds)) {
      if (listed_event_selected(event, filter)) listed.push_back(std::move(event));
    }
  }
  // Tracepoints come after the PMU events in perf list's text, as here.
  if (kinds.has(ListKind::tracepoint) && !text_formats) {
    auto tracepoints =
        tracepoint_listed_events(tracefs_root(options.common, catalog->devices_dir()));
    if (!tracepoints) {
      printer.print(tracepoints.error());
      return to_int(ExitCode::usage);
    }
    for (ListedEvent& event : *tracepoints) {
      if (listed_event_selected(event, filter)) listed.push_back(std::move(event));
    }
  }

  // --event GLOB, --topic, --search, --kind: only the PMUs with an event to show, and an error
  // when nothing is left. The text of --formats lists no events, so they do not narrow it.
  const bool pmu_kind = kinds.has(ListKind::pmu);
  // --kind narrows the text to PMUs with events; --json keeps every PMU (its formats and
  // attributes are data too) unless a filter narrows it.
  const bool filtering =
      (filter.narrows() || (explicit_kinds && !options.common.json)) && !text_formats;
  std::vector<const Pmu*> listed_pmus;
  if (filtering) {
    if (pmu_kind) {
      for (const Pmu* pmu : pmus) {
        if (!listed_events(*pmu, filter).empty()) listed_pmus.push_back(pmu);
      }
    }
    if (listed_pmus.empty() && listed.empty()) {
      printer.print(no_match_error(pmus, options));
      return to_int(ExitCode::rejected);
    }
  }

  if (options.common.json) {
    OutputBuffer stdout_buffer(STDOUT_FILENO);
    const unsigned jobs = options.jobs != 0 ? options.jobs : automatic_jobs(kMaxAutomaticJobs);
    std::string more;
    if (kinds.has_non_pmu()) more = ",\n  \"events\": " + listed_events_json_text(listed);
    std::span<const Pmu* const> printed;
    if (pmu_kind) printed = filtering ? listed_pmus : pmus;
    write_catalog_json(
        *catalog, printed, jobs, filter, options.semantics,
        [&](std::string_view text) { stdout_buffer.append(text); }, more);
    return stdout_buffer.flush() ? to_int(ExitCode::success) : to_int(ExitCode::usage);
  }

  if (options.formats) {
    for (const Pmu* pmu : pmus) {
      // Listing the whole tree, PMUs without formats (software, tracepoint) are noise.
      if (whole_tree && pmu->formats().empty()) continue;
      if (!out.empty()) out += '\n';
      out += fmt::format("{}{}{}: {}\n", stdout_palette.bold(), pmu->name(), stdout_palette.reset(),
                         pmu->type() ? fmt::format("type {}", *pmu->type()) : "no type");
      out += render_formats(pmu->formats(), stdout_palette);
      if (!whole_tree) printer.print_errors_as_warnings(pmu->diagnostics());
      // Bits beyond the 64-bit word are an error in the tree (perf ignores them), shown where
      // the map would otherwise draw a narrower field without a word.
      for (const Format& format : pmu->formats()) {
        for (Diagnostic lint : format.spec.lints) {
          if (lint.code != DiagId::format_bit_out_of_range) continue;
          lint.severity = Severity::error;
          printer.print(lint);
        }
      }
    }
    write_stdout(out);
    return to_int(printer.had_error() ? ExitCode::rejected : ExitCode::success);
  }

  // perf list's order: the built-in events, then the PMUs' events.
  out += render_listed_events(listed);
  if (!pmu_kind) {
    // Nothing more to list.
  } else if (!whole_tree || filtering) {
    EventListing listing;
    listing.long_form = options.long_form;
    listing.descriptions = options.no_desc     ? DescriptionKind::none
                           : options.long_desc ? DescriptionKind::long_form
                                               : DescriptionKind::brief;
    listing.columns = output_description_columns();
    listing.filter = filter;
    for (const Pmu* pmu : filtering ? listed_pmus : pmus) {
      if (!out.empty()) out += '\n';
      // Unfiltered, each PMU is loaded here only: a copy frees its events for the next one.
      const std::optional<Pmu> copy = filtering ? std::nullopt : catalog->unloaded_copy(*pmu);
      out += render_pmu_events(copy ? *copy : *pmu, listing, printer);
    }
  } else {
    out = render_pmu_summary(pmus, options.long_form);
    printer.print_errors_as_warnings(catalog->diagnostics());
    for (const Pmu* pmu : pmus) printer.print_errors_as_warnings(pmu->attributes().diagnostics);
  }
  write_stdout(out);
  return to_int(printer.had_error() ? ExitCode::rejected : ExitCode::success);
}

}  // namespace
}  // namespace cli
PMUCAT_END_NAMESPACE

PMUCAT_BEGIN_NAMESPACE
namespace cli {
namespace {

int parse_and_run(int argc, char** argv) {
  Options options;
  CLI::App app("List the PMUs of a Linux sysfs event_source tree, their events and formats.",
               "pmuls");
  add_common_options(app, options.common, {.vendor_notes = true});
  app.add_option("--pmu", options.pmus,
                 "Show the events of this PMU (name, uncore instance prefix or glob; repeatable)")
      ->type_name("NAME|GLOB");
  app.add_option("--event", options.event,
                 "Show one event (case-insensitive) in full, on every PMU that has it; a glob "
                 "(*, ?, [...]) lists the events whose names it matches")
      ->type_name("NAME|GLOB");
  app.add_option("--topic", options.topics,
                 "List the events of this topic (cache, pipeline, uncore memory, ...: the vendor "
                 "JSON file's; case-insensitive; repeatable or a comma list)")
      ->type_name("TOPIC");
  app.add_option("--search", options.search,
                 "List the events whose name, topic or description holds every one of these "
                 "words (case-insensitive substrings; repeatable)")
      ->type_name("WORDS");
  app.add_option("--kind", options.kinds,
                 "List events of these kinds: hw, sw, tool, cache (perf's built-in events), pmu "
                 "(the PMUs' sysfs and JSON events) or all (comma list or repeatable; default: "
                 "pmu, and every kind for --json of the whole tree)")
      ->type_name("KIND[,KIND]")
      ->check(CLI::Validator(kind_check, ""));
  app.add_flag("--deprecated", options.deprecated,
               "Also list the events the vendor JSON marks deprecated");
  app.add_flag("-v,--long-desc", options.long_desc,
               "Show the long (public) descriptions of vendor JSON events");
  app.add_flag("--no-desc", options.no_desc, "Show no descriptions");
  app.add_flag("--formats", options.formats,
               "Show format fields and a bit map of each config word");
  app.add_flag("-l,--long", options.long_form,
               "Also show caps, alias, identifier and the other PMU attributes");
  app.add_flag("--metrics", options.metrics,
               "List the vendor model's metrics (perf list metrics), sorted by name, each with "
               "its description; with --metric-groups, under each of their groups");
  app.add_flag("--metric-groups", options.metric_groups,
               "List the vendor model's metric groups (perf list metricgroups)");
  app.add_option("--metric-group", options.metric_group,
                 "List the metrics of this metric group (case-insensitive; `No_group` holds the "
                 "metrics without one)")
      ->type_name("GROUP");
  app.add_option("--metric", options.metric,
                 "Show one metric (case-insensitive) in full: expression, groups, scale unit, "
                 "threshold, constraint, where it is defined")
      ->type_name("NAME");
  app.add_flag("--details", options.details,
               "With --metrics or --metric-group, also show each metric's expression");
  app.add_option("-j,--jobs", options.jobs,
                 "Read PMUs for --json on N threads (0, the default: one per CPU, at most 4); "
                 "the output is the same for every N")
      ->check(CLI::Range(0, 256));
  PerfSemanticsFlag perf_semantics_flag;
  perf_semantics_flag.add_to(app);
  app.add_option("--compile-index", options.compile_index,
                 "Compile the JSON tree of --events-dir into a vendor event index at OUT (for "
                 "shipping tables: --events-dir OUT then parses nothing) and list nothing; an "
                 "earlier index at OUT is replaced atomically, anything else there is refused")
      ->type_name("OUT");
  app.footer(help_footer(
      {.examples = kExamples,
       .rejected = "unknown PMU, event, metric or metric group, or no event matches --event GLOB, "
                   "--topic, --search"}));
  if (auto status = parse_command_line(app, argc, argv)) return *status;
  std::optional<PerfRelease> perf_semantics;
  if (auto status =
          resolve_semantics_option(perf_semantics_flag, options.common, perf_semantics, "pmuls")) {
    return *status;
  }
  if (perf_semantics) options.semantics = Profile::perf(*perf_semantics);
  return run(options);
}

}  // namespace
}  // namespace cli
PMUCAT_END_NAMESPACE

int main(int argc, char** argv) {
  return pmucat::cli::run_main(argc, argv, "pmuls", pmucat::cli::parse_and_run);
}
