#include "pmustat/report.h"

#include <fmt/format.h>

#include <cmath>
#include <cstdio>
#include <iterator>
#include <string_view>

#include "common/json.h"

PMUCAT_BEGIN_NAMESPACE
namespace cli {
namespace {

// Standard error, whole: perf stat writes its counts there, so a command's own output on
// standard output stays apart. A failed write (a closed descriptor) loses nothing pmustat
// needs: its exit status is the command's.
void emit(const std::string& text) {
  std::fwrite(text.data(), 1, text.size(), stderr);
  std::fflush(stderr);
}

// Fixed-point numbers without fmt's format-string parse: -I prints every event each interval,
// and the format strings were most of pmustat's own time there (docs/count.md, "Cost").
void append_u64(std::string& out, std::uint64_t value) {
  const fmt::format_int text(value);
  out.append(text.data(), text.size());
}

// `value` with `decimals` (0 or 2) digits after the point, rounded half away from zero.
std::string fixed(double value, int decimals) {
  const double scale = decimals == 2 ? 100.0 : 1.0;
  if (!std::isfinite(value) || std::fabs(value) * scale >= 9e15) {
    return decimals == 2 ? fmt::format("{:.2f}", value) : fmt::format("{:.0f}", value);
  }
  const bool negative = value < 0;
  const auto units = static_cast<std::uint64_t>(std::llround(std::fabs(value) * scale));
  std::string text = negative && units != 0 ? "-" : "";
  append_u64(text, decimals == 2 ? units / 100 : units);
  if (decimals == 2) {
    text += '.';
    text += static_cast<char>('0' + units % 100 / 10);
    text += static_cast<char>('0' + units % 10);
  }
  return text;
}

void append_padded(std::string& out, std::string_view text, std::size_t width) {
  if (text.size() < width) out.append(width - text.size(), ' ');
  out += text;
}

// perf stat's number, appended to `out`: a count (or the mean of counts, -r) without decimals,
// one with a unit scale (task-clock's msec, an event's .scale) with two; right-aligned in
// `width` columns (0: not aligned).
void append_number(std::string& out, double value, const CountEvent& event, std::size_t width) {
  append_padded(out, fixed(value, event.scale == 1.0 ? 0 : 2), width);
}

std::string_view no_value(const EventValue& value) {
  for (const Trust& trust : value.trust) {
    if (trust.grade == TrustGrade::not_supported || trust.grade == TrustGrade::uncore_per_task) {
      return "<not supported>";
    }
  }
  return "<not counted>";
}

double percent_running(const EventValue& value) {
  return value.enabled == 0 ? 0.0 : 100.0 * value.running_fraction();
}

bool exact(std::span<const Trust> trust) {
  return trust.size() == 1 && trust.front().grade == TrustGrade::exact;
}

// Mean and the relative spread perf stat -r prints: the standard deviation of the mean, as a
// percentage of it.
struct Spread {
  std::optional<double> mean;
  double percent = 0;
  std::size_t counted = 0;
};

// Welford's running mean and variance, as perf stat's update_stats keeps them: no sum of squares
// to cancel when the counts are large.
Spread spread_of(std::span<const Reading> runs, std::size_t value_index) {
  Spread spread;
  double mean = 0;
  double m2 = 0;
  for (const Reading& run : runs) {
    if (value_index >= run.values.size() || !run.values[value_index].value) continue;
    const double value = *run.values[value_index].value;
    ++spread.counted;
    const double delta = value - mean;
    mean += delta / static_cast<double>(spread.counted);
    m2 += delta * (value - mean);
  }
  if (spread.counted == 0) return spread;
  spread.mean = mean;
  const double n = static_cast<double>(spread.counted);
  if (spread.counted > 1 && mean != 0) {
    spread.percent = 100.0 * std::sqrt(m2 / (n - 1) / n) / std::fabs(mean);
  }
  return spread;
}

// The aggregation column perf stat prints first: `CPU3` (-A), `S0-D0-C1` and the CPUs summed
// (--per-core), `S0` and the CPUs summed (--per-socket).
void append_cpu(std::string& out, const ReportOptions& options, const EventValue& value) {
  if (options.aggregation == Aggregation::global || value.cpu < 0) return;
  std::string label;
  if (options.aggregation == Aggregation::per_cpu || value.place.socket < 0) {
    label = fmt::format("CPU{}", value.cpu);
  } else if (options.aggregation == Aggregation::per_core) {
    label = fmt::format("S{}-D{}-C{}", value.place.socket, value.place.die, value.place.core);
  } else {
    label = fmt::format("S{}", value.place.socket);
  }
  const bool summed = options.aggregation != Aggregation::per_cpu;
  if (options.separator) {
    out += label;
    out += *options.separator;
    if (summed) {
      append_u64(out, value.cpus);
      out += *options.separator;
    }
    return;
  }
  out += label;
  if (label.size() < 7) out.append(7 - label.size(), ' ');
  if (summed) {
    append_padded(out, fmt::format_int(value.cpus).str(), 4);
    out += ' ';
  }
}

// One value as perf stat prints it, text or -x's fields, appended to `out` (no string of its
// own: -I prints every event each interval).
void append_value_line(std::string& out, const ReportOptions& options, const CountEvent& event,
                       const EventValue& value, std::optional<double> shown,
                       std::string_view prefix, double spread_percent, bool repeated) {
  out += prefix;
  append_cpu(out, options, value);
  if (options.separator) {
    // value, unit, event, running time, percent running, metric value, metric unit
    const std::string& sep = *options.separator;
    if (shown) {
      append_number(out, *shown, event, 0);
    } else {
      out += no_value(value);
    }
    out += sep;
    out += event.unit;
    out += sep;
    out += event.name;
    out += sep;
    append_u64(out, value.running);
    out += sep;
    out += fixed(percent_running(value), 2);
    out += sep;
    out += sep;
    out += '\n';
    return;
  }
  if (shown) {
    append_number(out, *shown, event, 18);
  } else {
    append_padded(out, no_value(value), 18);
  }
  out += ' ';
  out += event.unit;
  if (event.unit.size() < 5) out.append(5 - event.unit.size(), ' ');
  out += event.name;
  if (shown && value.running < value.enabled) {
    out += "  (";
    out += fixed(percent_running(value), 2);
    out += "%)";
  }
  if (repeated && shown) {
    out += "  ( +- ";
    out += fixed(spread_percent, 2);
    out += "% )";
  }
  out += '\n';
}

Json grades_json(std::span<const Trust> trust) {
  Json grades = Json::array();
  for (const Trust& grade : trust) {
    grades.push_back({{"id", std::string(to_string(grade.grade))},
                      {"level", std::string(to_string(level_of(grade.grade)))},
                      {"reason", grade.reason}});
  }
  return grades;
}

Json value_json(const CountEvent& event, const EventValue& value, std::optional<double> shown) {
  Json out;
  out["event"] = event.name;
  out["pmu"] = event.encoded.pmu;
  if (value.cpu >= 0) out["cpu"] = value.cpu;
  if (value.cpus > 0 && value.place.socket >= 0) {
    out["socket"] = value.place.socket;
    if (value.place.core >= 0) {
      out["die"] = value.place.die;
      out["core"] = value.place.core;
    }
    out["cpus"] = value.cpus;
  }
  out["value"] = shown ? Json(*shown) : Json(nullptr);
  out["unit"] = event.unit;
  out["raw"] = value.raw;
  out["enabled-ns"] = value.enabled;
  out["running-ns"] = value.running;
  out["running-percent"] = percent_running(value);
  out["lost"] = value.lost;
  if (!event.refused_errno.empty()) out["errno"] = event.refused_errno;
  out["grades"] = grades_json(value.trust);
  return out;
}

Json metric_json(const MetricReading& metric) {
  Json out;
  out["metric"] = metric.name;
  out["value"] = metric.value ? Json(*metric.value) : Json(nullptr);
  out["unit"] = metric.unit;
  out["grades"] = grades_json(metric.trust);
  return out;
}

// A metric's line: its value where a count goes, its unit, its name; perf stat prints metrics
// after `#` beside their events, pmustat a line each after the counts. With -x: a comment line
// (pmumetric and perf's readers skip `#` lines) `# metric,VALUE,UNIT,NAME`.
void append_metric_line(std::string& out, const ReportOptions& options, const MetricReading& metric,
                        std::string_view prefix) {
  if (options.separator) {
    const std::string& sep = *options.separator;
    out += "# metric";
    out += sep;
    out += prefix;
    out += metric.value ? fixed(*metric.value, 2) : std::string("<not computed>");
    out += sep;
    out += metric.unit;
    out += sep;
    out += metric.name;
    out += '\n';
    return;
  }
  out += prefix;
  append_padded(out, metric.value ? fixed(*metric.value, 2) : std::string("<not computed>"), 18);
  out += ' ';
  out += metric.unit;
  if (metric.unit.size() < 5) out.append(5 - metric.unit.size(), ' ');
  out += metric.name;
  out += '\n';
}

// The grades worth a reader's attention, one line each: every value's that is not `exact`.
std::string trust_section(std::span<const CountEvent> events, const Reading& reading,
                          std::span<const MetricReading> metrics) {
  std::string text;
  for (const MetricReading& metric : metrics) {
    if (exact(metric.trust)) continue;
    for (const Trust& trust : metric.trust) {
      text +=
          fmt::format("   {}: {} [{}]: {}\n", metric.name, to_string(level_of(trust.grade)),
                      to_string(trust.grade),
                      trust.reason.empty() ? std::string(summary_of(trust.grade)) : trust.reason);
    }
  }
  for (const EventValue& value : reading.values) {
    if (exact(value.trust)) continue;
    for (const Trust& trust : value.trust) {
      const std::string where = value.cpu >= 0 ? fmt::format(" (CPU{})", value.cpu) : "";
      text +=
          fmt::format("   {}{}: {} [{}]: {}\n", events[value.event].name, where,
                      to_string(level_of(trust.grade)), to_string(trust.grade),
                      trust.reason.empty() ? std::string(summary_of(trust.grade)) : trust.reason);
    }
  }
  return text.empty() ? text : " Trust:\n" + text + "\n";
}

}  // namespace

std::string describe_target(const CountTarget& target, std::span<const pid_t> pids) {
  switch (target.kind) {
    case CountTarget::Kind::all_cpus:
      return "system wide";
    case CountTarget::Kind::cpus:
      return fmt::format("CPU(s) {}", fmt::join(target.cpus, ","));
    case CountTarget::Kind::threads:
      if (!pids.empty()) return fmt::format("process id '{}'", fmt::join(pids, ","));
      return fmt::format("thread id '{}'", fmt::join(target.threads, ","));
    case CountTarget::Kind::command:
      break;
  }
  return fmt::format("{}", fmt::join(target.command, " "));
}

void print_totals(const ReportOptions& options, std::span<const CountEvent> events,
                  std::span<const Reading> runs,
                  std::span<const std::vector<MetricReading>> run_metrics) {
  const Reading& last = runs.back();
  const std::span<const MetricReading> metrics =
      run_metrics.empty() ? std::span<const MetricReading>() : run_metrics.back();
  const bool repeated = runs.size() > 1;
  double elapsed = 0;
  for (double seconds : options.elapsed_seconds) elapsed += seconds;
  if (!options.elapsed_seconds.empty())
    elapsed /= static_cast<double>(options.elapsed_seconds.size());
  if (options.json) {
    Json out;
    out["target"] = options.target;
    out["runs"] = runs.size();
    out["elapsed-seconds"] = elapsed;
    Json values = Json::array();
    for (std::size_t i = 0; i < last.values.size(); ++i) {
      const Spread spread = spread_of(runs, i);
      Json value = value_json(events[last.values[i].event], last.values[i],
                              repeated ? spread.mean : last.values[i].value);
      if (repeated) value["spread-percent"] = spread.percent;
      values.push_back(std::move(value));
    }
    out["events"] = std::move(values);
    Json metric_values = Json::array();
    for (const MetricReading& metric : metrics) metric_values.push_back(metric_json(metric));
    out["metrics"] = std::move(metric_values);
    emit(dump_json(out));
    return;
  }
  std::string text;
  if (!options.separator) {
    text += fmt::format("\n Performance counter stats for '{}'{}:\n\n", options.target,
                        repeated ? fmt::format(" ({} runs)", runs.size()) : std::string());
  }
  for (std::size_t i = 0; i < last.values.size(); ++i) {
    const EventValue& value = last.values[i];
    const Spread spread = spread_of(runs, i);
    append_value_line(text, options, events[value.event], value,
                      repeated ? spread.mean : value.value, std::string_view(), spread.percent,
                      repeated);
  }
  if (!metrics.empty() && !options.separator) text += '\n';
  for (const MetricReading& metric : metrics) {
    append_metric_line(text, options, metric, std::string_view());
  }
  if (!options.separator) {
    text += fmt::format("\n{:>18.9f} seconds time elapsed\n\n", elapsed);
    text += trust_section(events, last, metrics);
  }
  emit(text);
}

void print_interval(const ReportOptions& options, std::span<const CountEvent> events,
                    const Reading& reading, std::span<const MetricReading> metrics,
                    double seconds) {
  if (options.json) {
    Json out;
    out["interval"] = seconds;
    Json values = Json::array();
    for (const EventValue& value : reading.values) {
      values.push_back(value_json(events[value.event], value, value.value));
    }
    out["events"] = std::move(values);
    Json metric_values = Json::array();
    for (const MetricReading& metric : metrics) metric_values.push_back(metric_json(metric));
    out["metrics"] = std::move(metric_values);
    std::string line = out.dump();
    line += '\n';
    emit(line);
    return;
  }
  const std::string prefix = options.separator
                                 ? fmt::format("{:.9f}{}", seconds, *options.separator)
                                 : fmt::format("{:>16.9f} ", seconds);
  std::string text;
  for (const EventValue& value : reading.values) {
    append_value_line(text, options, events[value.event], value, value.value, prefix, 0, false);
  }
  for (const MetricReading& metric : metrics) append_metric_line(text, options, metric, prefix);
  emit(text);
}

}  // namespace cli
PMUCAT_END_NAMESPACE
