// pmumetric [-M NAME,...] COUNTS: a model's metrics computed from counts perf stat gathered
// (perf stat -j or -x, output, or a perf stat record perf.data), as perf 6.1's perf stat -M
// computes them; those it cannot compute are listed with the reason.
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/app.h"
#include "common/json.h"
#include "common/tree.h"
#include "pmucat/diagnostic_ids.h"
#include "pmucat/encode.h"
#include "pmucat/metric_counts.h"
#include "pmucat/metric_counts_perfdata.h"
#include "pmucat/metric_eval.h"
#include "pmucat/metrics.h"
#include "pmucat/perfdata.h"

PMUCAT_BEGIN_NAMESPACE
namespace cli {
namespace {

constexpr const char* kExamples = R"(
  $ pmumetric --events-dir fixtures/pmu-events/arch --cpuid GenuineIntel-6-8F-8 tests/metrics/data/demolake.json
      every metric of the demo model that perf stat -j counts allow, and why the others fail
  $ pmumetric --events-dir fixtures/pmu-events/arch --cpuid GenuineIntel-6-8F-8 --json -M Summary,Uops_Per_Instruction tests/metrics/data/demolake.json
      a metric group and a metric as JSON: value, unit, threshold, or why not computed
      (here some are not, so exit 1)
  $ pmumetric --events-dir fixtures/pmu-events/arch --cpuid GenuineIntel-6-8F-8 --literal num_cores=8 -M Branches tests/metrics/data/demolake.json
      a metric that needs a literal perf reads from the machine (#num_cores)
  $ perf stat -x, -M TopdownL1 -o counts.csv ./app; pmumetric -M TopdownL1 counts.csv
      on the machine that ran perf: its own model, its counts
)";

// perf.data is parsed whole: it is read into memory up to this size.
constexpr std::size_t kMaxPerfData = std::size_t{256} << 20;
// Text counts are read a piece at a time (memory stays flat); past this many bytes the input is
// not a counts file (a device like /dev/zero would never end).
constexpr std::uint64_t kMaxText = std::uint64_t{64} << 30;
constexpr std::size_t kPiece = std::size_t{1} << 16;

// Reads the counts in `path` ("-": standard input): perf.data whole, perf stat text a piece at
// a time through a StatTextReader.
Expected<CountsRead> read_counts(const std::string& path, const std::string& shown) {
  const bool standard_input = path == "-";
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> owned(
      standard_input ? nullptr : std::fopen(path.c_str(), "rb"), &std::fclose);
  std::FILE* file = standard_input ? stdin : owned.get();
  if (file == nullptr) {
    return unexpected(make_file_diagnostic(Severity::error, DiagId::counts_io, shown,
                                           fmt::format("cannot open: {}", std::strerror(errno))));
  }
  const auto read_error = [&] {
    return unexpected(make_file_diagnostic(Severity::error, DiagId::counts_io, shown,
                                           fmt::format("read error: {}", std::strerror(errno))));
  };
  // Reads up to `limit` more bytes into `text`; false on a read error.
  const auto fill = [&](std::string& text, std::size_t limit) {
    const std::size_t start = text.size();
    text.resize(start + limit);
    std::size_t got = 0;
    while (got < limit) {
      const std::size_t n = std::fread(text.data() + start + got, 1, limit - got, file);
      got += n;
      if (n == 0) break;
    }
    text.resize(start + got);
    return !std::ferror(file);
  };
  // Enough of the file to tell its format: its first line that is not blank or a comment
  // (within the longest line a reader looks at).
  const auto decided = [](std::string_view text) {
    for (std::size_t start = 0, end = 0; (end = text.find('\n', start)) != text.npos;
         start = end + 1) {
      const std::string_view line = text.substr(start, end - start);
      const std::size_t first = line.find_first_not_of(" \t\r");
      if (first != std::string_view::npos && line[first] != '#') return true;
    }
    return false;
  };
  std::string head;
  if (!fill(head, kPiece)) return read_error();
  while (!head.starts_with("PERFILE2") && !head.starts_with("2ELIFREP") && !decided(head) &&
         !std::feof(file) && head.size() < kMaxCountsLine) {
    if (!fill(head, kPiece)) return read_error();
  }
  const CountsFormat format = detect_counts_format(head);
  if (format == CountsFormat::perf_data) {
    std::string text = std::move(head);
    while (!std::feof(file)) {
      if (!fill(text, kPiece)) return read_error();
      if (text.size() > kMaxPerfData) {
        return unexpected(make_file_diagnostic(Severity::error, DiagId::counts_io, shown,
                                               "a perf.data larger than 256 MiB: not a counts "
                                               "file pmumetric reads"));
      }
    }
    auto data = parse_perf_data(
        std::span(reinterpret_cast<const std::byte*>(text.data()), text.size()), shown);
    if (!data) {
      return unexpected(data.error());
    }
    return read_stat_perf_data(*data, shown);
  }
  StatTextReader reader(format, shown);
  std::uint64_t total = head.size();
  reader.feed(head);
  std::string piece;
  while (!std::feof(file)) {
    piece.clear();
    if (!fill(piece, kPiece)) return read_error();
    total += piece.size();
    if (total > kMaxText) {
      return unexpected(make_file_diagnostic(Severity::error, DiagId::counts_io, shown,
                                             "larger than 64 GiB: not a counts file"));
    }
    reader.feed(piece);
  }
  return reader.finish();
}

// perf stat prints an event with a unit scale (a sysfs .scale, a JSON ScaleUnit: 64Bytes,
// MiB) multiplied by it; metrics use the count, so the scale the catalog gives the event is
// undone. Names are as perf prints them: `pmu/event/` or a bare event name (first PMU having it).
void apply_catalog_scales(const Catalog& catalog, Counts& counts) {
  for (Count& count : counts.entries()) {
    if (!count.multiplex_scaled || count.unit.empty() || count.unit == "msec" ||
        count.unit == "ns") {
      continue;
    }
    const Event* event = nullptr;
    const std::size_t slash = count.event.find('/');
    if (slash != std::string::npos && count.event.size() > slash + 1 && count.event.back() == '/') {
      if (const Pmu* pmu = catalog.find_pmu(count.event.substr(0, slash))) {
        event = pmu->find_event(
            std::string_view(count.event).substr(slash + 1, count.event.size() - slash - 2));
      }
    } else {
      for (const Pmu& pmu : catalog.pmus()) {
        if ((event = pmu.find_event(count.event)) != nullptr) {
          break;
        }
      }
    }
    if (event != nullptr && event->scale && *event->scale != 0 &&
        event->unit.value_or("") == count.unit) {
      count.unit_scale = *event->scale;
    }
  }
}

// --literal NAME=VALUE: a `#` literal of the expressions.
bool set_literal(metric_expr::Literals& literals, const std::string& assignment,
                 std::string& error) {
  const std::size_t equals = assignment.find('=');
  if (equals == std::string::npos) {
    error = fmt::format("--literal '{}': expected NAME=VALUE (smt_on=1)", assignment);
    return false;
  }
  std::string name = assignment.substr(0, equals);
  if (!name.starts_with('#')) {
    name.insert(0, "#");
  }
  const auto literal = metric_expr::find_literal(name, Profile::pmucat().metric_dialect());
  if (!literal) {
    std::string known;
    for (int i = 0; i < metric_expr::literal_count; ++i) {
      known += fmt::format("{}{}", i == 0 ? "" : ", ",
                           metric_expr::to_string(static_cast<metric_expr::Literal>(i)));
    }
    error = fmt::format("--literal '{}': no literal {} (known: {})", assignment, name, known);
    return false;
  }
  const std::string value = assignment.substr(equals + 1);
  char* end = nullptr;
  errno = 0;
  const double number = std::strtod(value.c_str(), &end);
  if (value.empty() || end != value.c_str() + value.size() || errno != 0) {
    error = fmt::format("--literal '{}': '{}' is not a number", assignment, value);
    return false;
  }
  literals[*literal] = number;
  return true;
}

std::string threshold_text(ThresholdState state) {
  switch (state) {
    case ThresholdState::met:
      return "  [threshold met]";
    case ThresholdState::not_met:
      return "";
    case ThresholdState::unknown:
      return "  [threshold unknown]";
    case ThresholdState::none:
      return "";
  }
  return "";
}

// perf's style: one decimal with a unit ("%8.1f"), two without ("%8.2f").
std::string value_text(const MetricValue& value) {
  if (value.metric->scale_unit.empty()) {
    return fmt::format("{:12.2f}", value.value);
  }
  return fmt::format("{:12.1f} {}", value.value, value.unit);
}

Json value_json(const MetricValue& value) {
  Json out;
  out["name"] = value.metric->name;
  if (!value.metric->pmu.empty()) {
    out["pmu"] = value.metric->pmu;
  }
  out["computed"] = value.computed;
  if (value.computed) {
    out["value"] = value.value;
    out["unit"] = value.unit;
    out["expression-value"] = value.raw_value;
    out["threshold"] = std::string(to_string(value.threshold));
  } else {
    out["why"] = std::string(to_string(value.why));
    out["cause"] = std::string(to_string(value.cause));
    if (!value.subject.empty()) {
      out["subject"] = value.subject;
    }
    out["reason"] = value.reason;
    if (value.diagnostic) {
      out["diagnostic"] = diagnostic_to_json(*value.diagnostic);
    }
  }
  return out;
}

int run(int argc, char** argv) {
  CLI::App app{
      "Compute a CPU model's metrics (perf's -M metrics: IPC, TopDown tma_*, bandwidths) from "
      "counts perf stat gathered: perf stat -j (JSON lines) or -x, (CSV) output, or a perf.data "
      "written by perf stat record. Values are computed as perf 6.1's perf stat -M computes "
      "them: multiplexed counts scaled by enabled/running time, ScaleUnit applied (100% -> "
      "percent); a metric whose events are missing or not counted is listed with the reason, "
      "never given a made-up value.",
      "pmumetric"};
  CommonOptions common;
  std::vector<std::string> metric_names;
  std::vector<std::string> literal_args;
  std::string counts_path;
  add_common_options(app, common, {.vendor_notes = true});
  app.get_option("--json")->description(
      "Print the metrics as JSON: name, value, unit, threshold, or why and reason when not "
      "computed, and the counts file's diagnostics (schema in docs/cli.md)");
  app.add_option("-M,--metrics", metric_names,
                 "Metrics or metric groups to compute, comma-separated, as perf stat -M takes "
                 "them (IPC, TopdownL1, all); every one is listed, computed or not. Default: "
                 "every metric of the model, listing those computed and those whose events are "
                 "in the counts but could not be used")
      ->delimiter(',')
      ->type_name("NAME,...");
  app.add_option("--literal", literal_args,
                 "Value of an expression literal, which perf reads from the machine, with or "
                 "without its #: smt_on=1, num_cpus=64, num_cpus_online, num_cores, num_dies, "
                 "num_packages, core_wide, system_tsc_freq, has_pmem, slots, target_cpu "
                 "(repeatable; wins "
                 "over --host-root; a metric using one not known is not computed)")
      ->type_name("NAME=VALUE");
  std::optional<std::string> host_root;
  app.add_option("--host-root", host_root,
                 "Read the literals from the machine whose root is DIR (sys/devices/system/cpu "
                 "topology, sys/firmware/acpi/tables/NFIT, proc/cpuinfo): / for this machine. "
                 "Default: this machine when neither --sysfs nor --cpuid names another, else "
                 "none (docs/metrics.md, \"Literals\")")
      ->type_name("DIR");
  app.add_option("COUNTS", counts_path,
                 "The counts: a perf stat -j or -x, output file, a perf stat record perf.data, "
                 "or - for standard input (the format is detected)")
      ->required();
  app.footer(help_footer({.examples = kExamples,
                          .rejected = "a metric asked for with -M could not be computed (or, "
                                      "without -M, none could), an unknown metric name, or a "
                                      "counts file with no count in it"}));
  if (const auto status = parse_command_line(app, argc, argv)) {
    return *status;
  }
  DiagnosticPrinter printer(stderr, stream_wants_color(color_mode(common), stderr), "pmumetric");

  EvalOptions options;
  // The literals of the machine the counts came from: --host-root, else this one when the
  // catalog is this machine's too.
  const bool this_machine = common.sysfs.empty() && !common.cpuid &&
                            std::getenv("PMUCAT_SYSFS") == nullptr &&
                            std::getenv("PMUCAT_CPUID") == nullptr;
  if (host_root || this_machine) {
    const std::filesystem::path root = host_root.value_or("/");
    std::error_code ec;
    if (!std::filesystem::is_directory(root, ec)) {
      printer.error(fmt::format("--host-root '{}': not a directory", root.string()));
      return to_int(ExitCode::usage);
    }
    options.literals = evaluation_literals(host_metric_literals(root));
    // #target_cpu is read from the counts below unless given.
    options.literals[metric_expr::Literal::target_cpu].reset();
  }
  for (const std::string& assignment : literal_args) {
    std::string error;
    if (!set_literal(options.literals, assignment, error)) {
      printer.error(error);
      return to_int(ExitCode::usage);
    }
  }

  auto tree = open_tree(common, printer);
  if (!tree) {
    printer.print(tree.error());
    return to_int(ExitCode::io);
  }
  const auto vendor_problems = report_vendor_problems(printer, tree->catalog, common);
  const std::span<const VendorMetric> metrics = tree->catalog.vendor_metrics();
  if (metrics.empty()) {
    printer.error(
        "no metrics: no vendor model for this CPU (give --cpuid and --events-dir, or check the "
        "catalog with pmuls --metrics)");
    return to_int(ExitCode::rejected);
  }
  std::vector<std::size_t> selected;
  if (!metric_names.empty()) {
    auto chosen = select_metrics(metrics, metric_names);
    if (!chosen) {
      printer.print(chosen.error());
      return to_int(ExitCode::rejected);
    }
    selected = std::move(*chosen);
  } else {
    for (std::size_t i = 0; i < metrics.size(); ++i) {
      selected.push_back(i);
    }
  }

  const std::string shown = counts_path == "-" ? "<stdin>" : counts_path;
  auto read = read_counts(counts_path, shown);
  if (!read) {
    printer.print(read.error());
    return to_int(read.error().code == DiagId::counts_io ? ExitCode::io : ExitCode::rejected);
  }
  for (const Diagnostic& diagnostic : read->diagnostics) {
    printer.print(diagnostic);
  }
  if (read->counts.empty()) {
    printer.print(
        make_file_diagnostic(Severity::error, DiagId::counts_empty, shown,
                             fmt::format("no count in this {} file", to_string(read->format))));
    return to_int(ExitCode::rejected);
  }

  apply_catalog_scales(tree->catalog, read->counts);
  // #target_cpu (perf 7.3): 1 when perf stat counted CPUs (-a, -C), whose default events then
  // hold cpu-clock, 0 when it counted a command (task-clock). Unless given, the counts say which.
  if (auto& target_cpu = options.literals[metric_expr::Literal::target_cpu]; !target_cpu) {
    target_cpu =
        read->counts.find("cpu-clock") != nullptr && read->counts.find("task-clock") == nullptr
            ? 1.0
            : 0.0;
  }
  // has_event(EVENT): whether this catalog has the event, as perf 6.12 asks whether it parses.
  options.event_exists = [&catalog = tree->catalog](std::string_view event) {
    return encode(catalog, event, EncodeOptions{}).has_value();
  };
  const MetricEvaluator evaluator(metrics);
  const std::vector<MetricValue> values = evaluator.evaluate(read->counts, options, selected);
  const bool all = metric_names.empty();
  // Without -M, a metric none of whose events were counted is no news: left out.
  const auto shown_value = [&](const MetricValue& value) {
    return value.computed || !all || value.cause != NotComputed::missing_event;
  };
  std::size_t computed = 0;
  std::size_t hidden = 0;
  for (const MetricValue& value : values) {
    computed += value.computed ? 1 : 0;
    hidden += shown_value(value) ? 0 : 1;
  }
  const bool ok = all ? computed > 0 : computed == values.size();

  if (common.json) {
    Json out;
    out["counts"] = {{"file", shown},
                     {"format", std::string(to_string(read->format))},
                     {"events", read->counts.size()}};
    Json list = Json::array();
    for (const MetricValue& value : values) {
      if (shown_value(value)) {
        list.push_back(value_json(value));
      }
    }
    out["metrics"] = std::move(list);
    out["not-shown"] = hidden;
    Json diagnostics = Json::array();
    for (const Diagnostic& diagnostic : read->diagnostics) {
      diagnostics.push_back(diagnostic_to_json(diagnostic));
    }
    out["diagnostics"] = std::move(diagnostics);
    write_stdout(dump_json(out));
    return to_int(ok ? ExitCode::success : ExitCode::rejected);
  }

  std::size_t width = 0;
  for (const MetricValue& value : values) {
    width = std::max(width, value.metric->name.size());
  }
  std::string out;
  for (const MetricValue& value : values) {
    if (!shown_value(value)) {
      continue;
    }
    if (value.computed) {
      out += fmt::format("{:<{}} {}{}\n", value.metric->name, width, value_text(value),
                         threshold_text(value.threshold));
    } else {
      out += fmt::format("{:<{}} {:>12} ({})\n", value.metric->name, width, "not computed",
                         value.reason);
    }
  }
  if (hidden > 0) {
    out += fmt::format(
        "{} of {} metrics not shown: their events are not in the counts (name them with -M to "
        "see which)\n",
        hidden, values.size());
  }
  write_stdout(out);
  return to_int(ok ? ExitCode::success : ExitCode::rejected);
}

}  // namespace
}  // namespace cli
PMUCAT_END_NAMESPACE

int main(int argc, char** argv) {
  return pmucat::cli::run_main(argc, argv, "pmumetric", pmucat::cli::run);
}
