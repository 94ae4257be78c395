#include "pmuencode/metrics_cli.h"

#include <fmt/format.h>

#include <cstdio>
#include <cstring>
#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>
#include <string>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#include "common/app.h"
#include "common/exit_codes.h"
#include "common/json.h"
#include "pmuencode/output.h"

namespace pmucat::cli {

namespace {

std::optional<std::string> read_small(const std::filesystem::path& path) {
  std::ifstream in(path);
  if (!in) return std::nullopt;
  std::string text;
  std::getline(in, text);
  return text;
}

// A CPU list (`0-3,8`) -> the highest CPU + 1, or nullopt.
std::optional<double> max_cpu_plus_one(const std::string& list) {
  long best = -1;
  std::stringstream ss(list);
  std::string part;
  while (std::getline(ss, part, ',')) {
    const auto dash = part.find('-');
    const std::string last = dash == std::string::npos ? part : part.substr(dash + 1);
    char* end = nullptr;
    const long v = std::strtol(last.c_str(), &end, 10);
    if (end != last.c_str() && v > best) best = v;
  }
  if (best < 0) return std::nullopt;
  return static_cast<double>(best + 1);
}

std::vector<long> cpus_of(const std::string& list) {
  std::vector<long> out;
  std::stringstream ss(list);
  std::string part;
  while (std::getline(ss, part, ',')) {
    const auto dash = part.find('-');
    const long a = std::strtol(part.c_str(), nullptr, 10);
    const long b = dash == std::string::npos ? a : std::strtol(part.c_str() + dash + 1, nullptr, 10);
    for (long c = a; c <= b && c - a < 65536; ++c) out.push_back(c);
  }
  return out;
}

double tsc_frequency(const std::filesystem::path& root) {
#if defined(__x86_64__) || defined(__i386__)
  unsigned a = 0;
  unsigned b = 0;
  unsigned c = 0;
  unsigned d = 0;
  __cpuid(0, a, b, c, d);
  const unsigned level = a;
  char vendor[13] = {};
  std::memcpy(vendor, &b, 4);
  std::memcpy(vendor + 4, &d, 4);
  std::memcpy(vendor + 8, &c, 4);
  if (std::string_view(vendor).find("Intel") == std::string_view::npos) return 0;
  if (level >= 0x15) {
    __cpuid_count(0x15, 0, a, b, c, d);
    if (a != 0 && b != 0 && c != 0) return static_cast<double>(c) * b / a;
  }
  std::ifstream in(root / "proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("model name", 0) != 0) continue;
    const auto at = line.find(" @ ", 11);
    if (at == std::string::npos) continue;
    double ghz = 0;
    if (std::sscanf(line.c_str() + at, " @ %lfGHz", &ghz) == 1) return ghz * 1e9;
  }
  return 0;
#else
  (void)root;
  return 0;
#endif
}

}  // namespace

MetricLiterals host_metric_literals(const std::filesystem::path& root) {
  MetricLiterals lit;
  const auto cpu = root / "sys/devices/system/cpu";
  const auto present = read_small(cpu / "present");
  if (present) lit.num_cpus = max_cpu_plus_one(*present);
  // perf's topology: the distinct core/die/package CPU lists of the online CPUs.
  std::set<std::string> cores;
  std::set<std::string> dies;
  std::set<std::string> packages;
  bool any_thread_siblings = false;
  if (auto online = read_small(cpu / "online")) {
    for (long c : cpus_of(*online)) {
      const auto topo = cpu / fmt::format("cpu{}", c) / "topology";
      if (auto s = read_small(topo / "core_cpus_list")) {
        cores.insert(*s);
      } else if (auto t = read_small(topo / "thread_siblings_list")) {
        cores.insert(*t);
      }
      if (auto s = read_small(topo / "die_cpus_list")) dies.insert(*s);
      if (auto s = read_small(topo / "package_cpus_list")) {
        packages.insert(*s);
      } else if (auto t = read_small(topo / "core_siblings_list")) {
        packages.insert(*t);
      }
      if (auto t = read_small(topo / "thread_siblings_list")) {
        if (cpus_of(*t).size() > 1) any_thread_siblings = true;
      }
    }
  }
  if (!cores.empty()) lit.num_cores = static_cast<double>(cores.size());
  if (!dies.empty()) lit.num_dies = static_cast<double>(dies.size());
  if (!packages.empty()) lit.num_packages = static_cast<double>(packages.size());
  if (auto active = read_small(cpu / "smt/active")) {
    lit.smt_on = std::strtol(active->c_str(), nullptr, 10) == 1 ? 1.0 : 0.0;
  } else {
    lit.smt_on = any_thread_siblings ? 1.0 : 0.0;
  }
  lit.core_wide = 0;  // perf stat without -a: never core-wide
  lit.system_tsc_freq = tsc_frequency(root);
  return lit;
}

bool host_nmi_watchdog(const std::filesystem::path& root) {
  const auto text = read_small(root / "proc/sys/kernel/nmi_watchdog");
  return text && std::strtol(text->c_str(), nullptr, 10) != 0;
}

int run_metrics(const Catalog& catalog, const MetricsCliOptions& options,
                const EncodeOptions& encode_options, DiagnosticPrinter& printer) {
  MetricExpandOptions expand_options;
  expand_options.no_group = options.no_group;
  expand_options.no_merge = options.no_merge;
  expand_options.nmi_watchdog = options.nmi_watchdog.empty() ? host_nmi_watchdog()
                                                             : options.nmi_watchdog == "on";
  expand_options.literals = host_metric_literals();
  for (const std::string& item : options.literals) {
    const auto eq = item.find('=');
    double value = 0;
    const char* begin = eq == std::string::npos ? nullptr : item.c_str() + eq + 1;
    char* end = nullptr;
    if (begin != nullptr) value = std::strtod(begin, &end);
    if (begin == nullptr || end == begin || *end != '\0' ||
        !expand_options.literals.set(std::string_view(item).substr(0, eq), value)) {
      printer.error(fmt::format(
          "--literal '{}': expected NAME=VALUE with NAME one of smt_on, num_cpus, num_cores, "
          "num_dies, num_packages, core_wide, system_tsc_freq",
          item));
      return to_int(ExitCode::usage);
    }
  }
  if (catalog.vendor_metrics().empty()) {
    printer.error(
        "no metrics: the vendor catalog has no model for this CPU (give --cpuid and "
        "--events-dir)");
    return to_int(ExitCode::rejected);
  }
  const auto table = metric_definitions(catalog);
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
    Json doc{{"event_lists", std::move(lists)}, {"metrics", std::move(metrics)},
             {"attrs", std::move(attrs)}};
    write_stdout(dump_json(doc));
    return to_int(ExitCode::success);
  }
  std::string out;
  for (std::size_t i = 0; i < exp.event_lists.size(); ++i) {
    out += fmt::format("# metric events: {}\n", exp.event_lists[i]);
    const std::span<const EncodedEvent> all = encoded->events;
    out += render_attr_dumps(
        all.subspan(encoded->list_begin[i], encoded->list_begin[i + 1] - encoded->list_begin[i]));
  }
  for (const auto& metric : exp.metrics) {
    out += fmt::format("# metric {}{}{}: {} (events of list {})\n", metric.name,
                       metric.modifier ? ":" : "", metric.modifier.value_or(""), metric.expr,
                       metric.event_list + 1);
  }
  write_stdout(out);
  return to_int(ExitCode::success);
}

}  // namespace pmucat::cli
