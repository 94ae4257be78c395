#include "pmuencode/metrics_cli.h"

#include <fmt/format.h>

#include <cstdlib>
#include <string>

#include "common/exit_codes.h"
#include "common/json.h"
#include "common/output_buffer.h"
#include "pmucat/version.h"
#include "pmuencode/output.h"

PMUCAT_BEGIN_NAMESPACE
namespace cli {

std::optional<MetricLiterals> literals_from(const std::vector<std::string>& items,
                                            DiagnosticPrinter& printer) {
  MetricLiterals literals = host_metric_literals();
  for (const std::string& item : items) {
    const auto eq = item.find('=');
    double value = 0;
    const char* begin = eq == std::string::npos ? nullptr : item.c_str() + eq + 1;
    char* end = nullptr;
    if (begin != nullptr) value = std::strtod(begin, &end);
    if (begin == nullptr || end == begin || *end != '\0' ||
        !literals.set(std::string_view(item).substr(0, eq), value)) {
      printer.error(fmt::format(
          "--literal '{}': expected NAME=VALUE with NAME one of smt_on, num_cpus, num_cores, "
          "num_dies, num_packages, core_wide, system_tsc_freq, num_cpus_online, has_pmem, slots, "
          "target_cpu",
          item));
      return std::nullopt;
    }
  }
  return literals;
}

int run_metrics(const Catalog& catalog, const MetricsCliOptions& options,
                const EncodeOptions& encode_options, DiagnosticPrinter& printer) {
  MetricExpandOptions expand_options;
  expand_options.semantics = encode_options.semantics;
  expand_options.no_group = options.no_group;
  expand_options.no_merge = options.no_merge;
  expand_options.no_threshold = options.no_threshold;
  expand_options.nmi_watchdog = nmi_watchdog_on(options.nmi_watchdog);
  auto literals = literals_from(options.literals, printer);
  if (!literals) return to_int(ExitCode::usage);
  expand_options.literals = *literals;
  if (catalog.vendor_metrics().empty()) {
    if (const VendorModel* model = catalog.vendor_model()) {
      printer.error(
          fmt::format("no metrics: the vendor catalog's model {} has none", model->directory));
    } else {
      printer.error(
          "no metrics: the vendor catalog has no model for this CPU and no common table (give "
          "--cpuid and --events-dir)");
    }
    return to_int(ExitCode::rejected);
  }
  const auto table = metric_definitions(catalog);
  // has_event(): whether the event parses on this catalog's PMUs, as perf 6.12 asks.
  expand_options.event_parses = [&](std::string_view event) {
    return encode(catalog, event, encode_options).has_value();
  };
  auto expansion = expand_metric_table(table, options.names, expand_options);
  if (!expansion) {
    printer.print(expansion.error());
    return to_int(ExitCode::rejected);
  }
  if (options.perf_only) {
    std::string out;
    for (const auto& list : expansion->event_lists) {
      out += list;
      out += '\n';
    }
    write_stdout(out);
    return to_int(ExitCode::success);
  }
  auto encoded = encode_metrics(catalog, std::move(*expansion), encode_options);
  if (!encoded) {
    printer.print(encoded.error());
    return to_int(ExitCode::rejected);
  }
  for (const EncodedEvent& event : encoded->events) {
    for (const Diagnostic& warning : event.warnings) printer.print(warning);
  }
  if (options.plan) return run_plan(catalog, encoded->events, *options.plan, printer);
  const auto& exp = encoded->expansion;
  if (options.json) {
    Json lists = Json::array();
    for (std::size_t i = 0; i < exp.event_lists.size(); ++i) {
      Json events = Json::array();
      for (std::size_t e = encoded->list_begin[i]; e < encoded->list_begin[i + 1]; ++e) {
        events.push_back(e);
      }
      lists.push_back(Json{{"events", exp.event_lists[i]}, {"attrs", events}});
    }
    Json metrics = Json::array();
    for (std::size_t m = 0; m < exp.metrics.size(); ++m) {
      const auto& metric = exp.metrics[m];
      Json ids = Json::array();
      for (std::size_t i = 0; i < metric.ids.size(); ++i) {
        ids.push_back(Json{{"id", metric.ids[i]}, {"attrs", encoded->id_events[m][i]}});
      }
      Json item{{"MetricName", metric.name}};
      if (metric.modifier) item["modifier"] = *metric.modifier;
      item["MetricExpr"] = metric.expr;
      if (!metric.unit.empty()) item["ScaleUnit"] = metric.unit;
      item["references"] = metric.references;
      item["grouped"] = metric.grouped;
      item["event_list"] = metric.event_list;
      item["ids"] = std::move(ids);
      metrics.push_back(std::move(item));
    }
    Json attrs = Json::array();
    for (const EncodedEvent& event : encoded->events) attrs.push_back(encoded_to_json(event));
    Json doc{{"event_lists", std::move(lists)},
             {"metrics", std::move(metrics)},
             {"attrs", std::move(attrs)}};
    write_stdout(dump_json(doc));
    return to_int(ExitCode::success);
  }
  std::string out;
  for (std::size_t i = 0; i < exp.event_lists.size(); ++i) {
    out += fmt::format("# metric events: {}\n", exp.event_lists[i]);
    out += render_attr_dumps(encoded->events, encoded->list_begin[i], encoded->list_begin[i + 1]);
  }
  for (const auto& metric : exp.metrics) {
    out += fmt::format("# metric {}{}{}: {} (events of list {})\n", metric.name,
                       metric.modifier ? ":" : "", metric.modifier.value_or(""), metric.expr,
                       metric.event_list + 1);
  }
  write_stdout(out);
  return to_int(ExitCode::success);
}

}  // namespace cli
PMUCAT_END_NAMESPACE
