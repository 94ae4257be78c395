// pmudiff OLD NEW: what changed between two sysfs PMU trees. Exit 1 when an ABI break is found.
// pmudiff --tables OLD NEW --cpuid ID: what changed for one CPU between two releases' vendor
// tables (its events and metrics).
#include <fmt/core.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "common/app.h"
#include "common/tree.h"
#include "pmucat/diagnostic_ids.h"
#include "pmucat/diff.h"
#include "pmucat/vendor_diff.h"
#include "pmucat/vendor_index.h"
#include "pmucat/vendor_index_install.h"

PMUCAT_BEGIN_NAMESPACE
namespace cli {
namespace {

constexpr const char* kExamples = R"(
  $ pmudiff fixtures/sysfs/diff/snb-ep-2013/devices fixtures/sysfs/diff/snb-ep-today/devices
      every change, ABI breaks marked [ABI break]: here two encodings changed, so exit 1
  $ pmudiff --json fixtures/sysfs/arm64-n1 fixtures/sysfs/arm-neoverse
      as JSON: PMUs, formats, caps and events added, no ABI break (exit 0); OLD and
      NEW may also be pmusnap .tar.gz captures or /sys (pmudiff before.tar.gz /sys)
  $ pmudiff --tables 6.12 7.3 --cpuid GenuineIntel-6-CC-0
      the events and metrics of Panther Lake's model that linux 7.3's tables add, remove,
      rename or re-encode against linux 6.12's (6.12 has no such model: all added)
)";

// One release's model for a CPU, from the table set that release reads.
struct TablesModel {
  std::string tables;  // "linux 7.3"
  std::string model;   // "x86/pantherlake"; empty: no mapfile row matches the CPU
  VendorModel vendor;
};

Expected<TablesModel> load_tables_model(PerfRelease release, const std::string& cpuid) {
  TablesModel out;
  out.tables = std::string(info(release).tables);
  const std::optional<std::string> index =
      installed_vendor_index(release, {executable_dir(), PMUCAT_EVENTS_DIR_FROM_BIN});
  auto missing = [&] {
    return unexpected(
        make_file_diagnostic(Severity::error, DiagId::vendor_index_unreadable, out.tables,
                             fmt::format("this installation has no {} tables (perf {} reads them)",
                                         out.tables, to_string(release))));
  };
  if (!index) return missing();
  std::vector<Diagnostic> notes;
  const std::optional<VendorModelChoice> choice = choose_vendor_model(*index, cpuid, notes);
  if (!choice) return out;
  auto opened = open_vendor_index_model(*index, choice->arch, choice->row.directory);
  if (!opened) return unexpected(std::move(opened).error());
  // The build's newest set serves the releases after it: its rules say whose tables it holds.
  if (info(opened->rules()).tables != info(release).tables) return missing();
  auto model = opened->model();
  if (!model) return unexpected(std::move(model).error());
  out.model = choice->arch + "/" + choice->row.directory;
  out.vendor = std::move(*model);
  return out;
}

std::string side_text(const TablesModel& side) {
  return side.tables + " (" + (side.model.empty() ? std::string("no model") : side.model) + ")";
}

std::string render_tables_text(const std::string& cpuid, const TablesModel& before,
                               const TablesModel& after, const VendorModelDiff& diff) {
  auto count = [](const auto& changes, VendorChange kind) {
    return std::count_if(changes.begin(), changes.end(),
                         [&](const auto& change) { return change.kind == kind; });
  };
  std::string out = fmt::format("CPU {}: {} -> {}\n", cpuid, side_text(before), side_text(after));
  out += fmt::format("events: {} added, {} removed, {} renamed, {} re-encoded, {} unchanged\n",
                     count(diff.events, VendorChange::added),
                     count(diff.events, VendorChange::removed),
                     count(diff.events, VendorChange::renamed),
                     count(diff.events, VendorChange::reencoded), diff.events_unchanged);
  out += fmt::format("metrics: {} added, {} removed, {} changed, {} unchanged\n",
                     count(diff.metrics, VendorChange::added),
                     count(diff.metrics, VendorChange::removed),
                     count(diff.metrics, VendorChange::changed), diff.metrics_unchanged);
  for (const VendorEventChange& change : diff.events) {
    const std::string pmu = change.pmu.empty() ? std::string() : change.pmu + "/";
    switch (change.kind) {
      case VendorChange::added:
        out += fmt::format("+ event {}{} {}\n", pmu, change.name, change.new_terms);
        break;
      case VendorChange::removed:
        out += fmt::format("- event {}{} {}\n", pmu, change.name, change.old_terms);
        break;
      case VendorChange::renamed:
        out += fmt::format("> event {}{} -> {} {}\n", pmu, change.old_name, change.name,
                           change.new_terms);
        break;
      default:
        out += fmt::format("~ event {}{} {} -> {}\n", pmu, change.name, change.old_terms,
                           change.new_terms);
        break;
    }
  }
  for (const VendorMetricChange& change : diff.metrics) {
    const std::string pmu = change.pmu.empty() ? std::string() : change.pmu + "/";
    const char mark = change.kind == VendorChange::added     ? '+'
                      : change.kind == VendorChange::removed ? '-'
                                                             : '~';
    out += fmt::format("{} metric {}{}\n", mark, pmu, change.name);
  }
  return out;
}

std::string render_tables_json(const std::string& cpuid, const TablesModel& before,
                               const TablesModel& after, const VendorModelDiff& diff) {
  using Json = nlohmann::ordered_json;
  auto side = [](const TablesModel& model) {
    Json item = Json::object();
    item["tables"] = model.tables;
    item["model"] = model.model.empty() ? Json(nullptr) : Json(model.model);
    return item;
  };
  Json document = Json::object();
  document["cpuid"] = cpuid;
  document["old"] = side(before);
  document["new"] = side(after);
  Json events = Json::array();
  for (const VendorEventChange& change : diff.events) {
    Json item = Json::object();
    item["change"] = to_string(change.kind);
    item["pmu"] = change.pmu;
    item["name"] = change.name;
    if (change.kind == VendorChange::renamed) item["old_name"] = change.old_name;
    if (!change.old_terms.empty()) item["old_terms"] = change.old_terms;
    if (!change.new_terms.empty()) item["new_terms"] = change.new_terms;
    events.push_back(std::move(item));
  }
  Json metrics = Json::array();
  for (const VendorMetricChange& change : diff.metrics) {
    Json item = Json::object();
    item["change"] = to_string(change.kind);
    item["pmu"] = change.pmu;
    item["name"] = change.name;
    if (!change.old_expr.empty()) item["old_expr"] = change.old_expr;
    if (!change.new_expr.empty()) item["new_expr"] = change.new_expr;
    metrics.push_back(std::move(item));
  }
  document["events"] = std::move(events);
  document["metrics"] = std::move(metrics);
  document["events_unchanged"] = diff.events_unchanged;
  document["metrics_unchanged"] = diff.metrics_unchanged;
  return document.dump(2) + "\n";
}

// An empty OLD or NEW would silently mean "the live tree"; say so instead.
std::string non_empty(const std::string& path) {
  return path.empty() ? "an empty path names no tree" : "";
}

int run(int argc, char** argv) {
  CLI::App app{
      "Compare two sysfs PMU trees (directories or pmusnap .tar.gz captures), or one "
      "CPU's events and metrics in two releases' vendor tables.",
      "pmudiff"};
  CommonOptions common;
  std::string old_path;
  std::string new_path;
  std::vector<std::string> tables;
  std::string cpuid;
  add_common_options(app, common, {.sysfs = false, .catalog = false});
  app.get_option("--json")->description("Print the changes as JSON");
  auto* tables_option =
      app.add_option("--tables", tables,
                     "Compare the vendor tables two perf releases read (OLD NEW: 6.1, 6.12, 7.3) "
                     "for the CPU --cpuid names, instead of two trees")
          ->expected(2);
  app.add_option("--cpuid", cpuid, "The CPU identifier (perf's PERF_CPUID format) for --tables")
      ->needs(tables_option);
  tables_option->needs("--cpuid");
  auto* old_option = app.add_option("OLD", old_path, "The tree before")
                         ->check(CLI::Validator(non_empty, "PATH"))
                         ->excludes(tables_option);
  app.add_option("NEW", new_path, "The tree after")
      ->check(CLI::Validator(non_empty, "PATH"))
      ->needs(old_option)
      ->excludes(tables_option);
  app.footer(help_footer(
      {.examples = kExamples, .rejected = "an ABI break was found", .reads_sysfs = false}));
  if (const auto status = parse_command_line(app, argc, argv)) return *status;
  const bool json = common.json;
  DiagnosticPrinter printer(stderr, stream_wants_color(color_mode(common), stderr), "pmudiff");
  if (!tables.empty()) {
    std::vector<TablesModel> sides;
    for (const std::string& name : tables) {
      const std::optional<PerfRelease> release = parse_perf_release(name);
      if (!release) {
        std::fprintf(stderr, "pmudiff: --tables: unknown perf release '%s' (known: %s)\n",
                     name.c_str(), std::string(known_perf_releases_text()).c_str());
        return to_int(ExitCode::usage);
      }
      auto side = load_tables_model(*release, cpuid);
      if (!side) {
        printer.print(side.error());
        return to_int(ExitCode::io);
      }
      sides.push_back(std::move(*side));
    }
    const VendorModelDiff diff = diff_vendor_models(sides[0].vendor, sides[1].vendor);
    const std::string text = json ? render_tables_json(cpuid, sides[0], sides[1], diff)
                                  : render_tables_text(cpuid, sides[0], sides[1], diff);
    std::fwrite(text.data(), 1, text.size(), stdout);
    return 0;
  }
  if (old_path.empty() || new_path.empty()) {
    std::fputs("pmudiff: OLD and NEW are required (or --tables OLD NEW --cpuid ID)\n", stderr);
    return to_int(ExitCode::usage);
  }
  auto old_tree = open_tree(old_path);
  if (!old_tree) {
    printer.print(old_tree.error());
    return to_int(ExitCode::io);
  }
  auto new_tree = open_tree(new_path);
  if (!new_tree) {
    printer.print(new_tree.error());
    return to_int(ExitCode::io);
  }
  pmucat::diff::Result result = pmucat::diff::compare(old_tree->catalog, new_tree->catalog);
  std::string text = json ? pmucat::diff::render_json(result) : pmucat::diff::render_text(result);
  std::fwrite(text.data(), 1, text.size(), stdout);
  return result.has_abi_break() ? 1 : 0;
}

}  // namespace
}  // namespace cli
PMUCAT_END_NAMESPACE

int main(int argc, char** argv) {
  return pmucat::cli::run_main(argc, argv, "pmudiff", pmucat::cli::run);
}
