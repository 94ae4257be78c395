#include "pmustat/report.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <iterator>
#include <string_view>

#include "common/json.h"

PMUCAT_BEGIN_NAMESPACE
namespace cli {
namespace {

// The text of one report, built in place with inlined appends: -I formats every event each
// interval, and out-of-line appends cost more than the numbers (docs/count.md, "Cost").
using Text = fmt::memory_buffer;

// resize() and one memcpy: fmt's append() is out of line and copies in a loop.
[[gnu::always_inline]] inline void put(Text& out, std::string_view text) {
  const std::size_t at = out.size();
  out.resize(at + text.size());
  std::memcpy(out.data() + at, text.data(), text.size());
}
void put(Text& out, char c) {
  out.push_back(c);
}
void put_spaces(Text& out, std::size_t count) {
  for (std::size_t i = 0; i < count; ++i) out.push_back(' ');
}

// Standard error, whole: perf stat writes its counts there, so a command's own output on
// standard output stays apart. A failed write (a closed descriptor) loses nothing pmustat
// needs: its exit status is the command's.
void emit(std::string_view text) {
  std::fwrite(text.data(), 1, text.size(), stderr);
  std::fflush(stderr);
}

// Fixed-point numbers without fmt's format-string parse.
template <typename Buffer>
void append_u64(Buffer& out, std::uint64_t value) {
  const fmt::format_int text(value);
  const std::size_t at = out.size();
  out.resize(at + text.size());
  std::memcpy(out.data() + at, text.data(), text.size());
}

// `value` with `decimals` (0 or 2) digits after the point, rounded half away from zero.
template <typename Buffer>
void append_fixed(Buffer& out, double value, int decimals) {
  const double scale = decimals == 2 ? 100.0 : 1.0;
  if (!std::isfinite(value) || std::fabs(value) * scale >= 9e15) {
    if (decimals == 2) {
      fmt::format_to(std::back_inserter(out), "{:.2f}", value);
    } else {
      fmt::format_to(std::back_inserter(out), "{:.0f}", value);
    }
    return;
  }
  const auto units = static_cast<std::uint64_t>(std::llround(std::fabs(value) * scale));
  if (value < 0 && units != 0) out.push_back('-');
  append_u64(out, decimals == 2 ? units / 100 : units);
  if (decimals == 2) {
    out.push_back('.');
    out.push_back(static_cast<char>('0' + units % 100 / 10));
    out.push_back(static_cast<char>('0' + units % 10));
  }
}

void append_padded(Text& out, std::string_view text, std::size_t width) {
  if (text.size() < width) put_spaces(out, width - text.size());
  put(out, text);
}

// `value` as append_fixed writes it, right-aligned in `width` columns (0: not aligned).
void append_fixed_padded(Text& out, double value, int decimals, std::size_t width) {
  fmt::basic_memory_buffer<char, 32> number;
  append_fixed(number, value, decimals);
  append_padded(out, std::string_view(number.data(), number.size()), width);
}

// perf stat's number, appended to `out`: a count (or the mean of counts, -r) without decimals,
// one with a unit scale (task-clock's msec, an event's .scale) with two; right-aligned in
// `width` columns (0: not aligned).
void append_number(Text& out, double value, const CountEvent& event, std::size_t width) {
  append_fixed_padded(out, value, event.scale == 1.0 ? 0 : 2, width);
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

// perf stat's columns (perf 7.3): counts, event name, the metric after `#`, the interval's time.
constexpr std::size_t kCountsWidth = 18;
constexpr std::size_t kNameWidth = 32;
constexpr std::size_t kMetricWidth = 38;
constexpr std::size_t kIntervalWidth = 16;
constexpr std::size_t kPerCoreWidth = 18;  // `S0-D0-C1`
constexpr std::size_t kPerSocketWidth = 6;

// The aggregation column perf stat prints first: `CPU3` (-A), `S0-D0-C1` and the CPUs summed
// (--per-core), `S0` and the CPUs summed (--per-socket).
void append_cpu(Text& out, const ReportOptions& options, const EventValue& value) {
  if (options.aggregation == Aggregation::global || value.cpu < 0) return;
  fmt::basic_memory_buffer<char, 32> label;
  const auto to = std::back_inserter(label);
  std::size_t width = 6;  // `CPU` and the number in 3
  if (options.aggregation == Aggregation::per_cpu || value.place.socket < 0) {
    fmt::format_to(to, "CPU{}", value.cpu);
  } else if (options.aggregation == Aggregation::per_core) {
    fmt::format_to(to, "S{}-D{}-C{}", value.place.socket, value.place.die, value.place.core);
    width = kPerCoreWidth;
  } else {
    fmt::format_to(to, "S{}", value.place.socket);
    width = kPerSocketWidth;
  }
  const std::string_view label_text(label.data(), label.size());
  const bool summed = options.aggregation != Aggregation::per_cpu;
  if (options.separator) {
    put(out, label_text);
    put(out, *options.separator);
    if (summed) {
      append_u64(out, value.cpus);
      put(out, *options.separator);
    }
    return;
  }
  put(out, label_text);
  if (label_text.size() < width) put_spaces(out, width - label_text.size());
  put(out, ' ');
  if (summed) {
    append_padded(out, fmt::format_int(value.cpus).str(), 4);
    put(out, ' ');
  }
}

// A metric's value and what perf stat names it with: `%8.1f` and "UNIT  NAME" for a metric
// with a ScaleUnit, `%8.2f` and its name without one.
void append_metric_value(Text& out, const MetricReading& metric) {
  const double value = metric.value.value_or(0);
  if (metric.unit.empty()) {
    fmt::format_to(std::back_inserter(out), "{:8.2f}", value);
  } else {
    fmt::format_to(std::back_inserter(out), "{:8.1f}", value);
  }
}
void append_metric_label(Text& out, const MetricReading& metric) {
  if (!metric.unit.empty()) {
    put(out, metric.unit);
    put(out, "  ");
  }
  put(out, metric.name);
}

// The metric column of a text line: ` # VALUE UNIT  NAME` padded to its width, or blank for a
// metric without a value (perf stat leaves it blank too; the Trust section says why).
void append_metric_column(Text& out, const MetricReading* metric) {
  const std::size_t start = out.size();
  if (metric != nullptr && metric->value) {
    put(out, " # ");
    append_metric_value(out, *metric);
    put(out, ' ');
    append_metric_label(out, *metric);
  }
  const std::size_t used = out.size() - start;
  if (used < kMetricWidth) put_spaces(out, kMetricWidth - used);
}

// A metric's fields of a -x line: its value (perf stat keeps only the leading digits and point
// of `%8.1f`, so nan and negative values are empty) and its label; both empty without a value.
void append_metric_fields(Text& out, std::string_view sep, const MetricReading* metric) {
  put(out, sep);
  if (metric != nullptr && metric->value) {
    fmt::basic_memory_buffer<char, 64> number;
    if (metric->unit.empty()) {
      fmt::format_to(std::back_inserter(number), "{:.2f}", *metric->value);
    } else {
      fmt::format_to(std::back_inserter(number), "{:.1f}", *metric->value);
    }
    std::size_t digits = 0;
    while (digits < number.size() &&
           (std::isdigit(static_cast<unsigned char>(number[digits])) || number[digits] == '.')) {
      ++digits;
    }
    put(out, std::string_view(number.data(), digits));
    put(out, sep);
    append_metric_label(out, *metric);
  } else {
    put(out, sep);
  }
}

// The percentage perf stat's -x prints for the running time: 100 * running / enabled in
// integers, so 2 of 3 is 66.00.
std::uint64_t percent_running_whole(const EventValue& value) {
  if (value.enabled == 0 || value.running == value.enabled) return 100;
  return 100 * value.running / value.enabled;
}

// One value as perf stat prints it, text or -x's fields, appended to `out`, with the metrics
// hosted on its line (the first there, each other on a line of its own below it). `spread` is the
// relative spread of -r's runs, when there were several.
void append_value_line(Text& out, const ReportOptions& options, const CountEvent& event,
                       const EventValue& value, std::optional<double> shown,
                       std::string_view prefix, std::optional<double> spread,
                       std::span<const MetricReading* const> metrics) {
  put(out, prefix);
  append_cpu(out, options, value);
  const MetricReading* first_metric = metrics.empty() ? nullptr : metrics.front();
  if (options.separator) {
    // value, unit, event, [spread,] running time, percent running, metric value, metric unit
    const std::string_view sep = *options.separator;
    if (shown) {
      append_number(out, *shown, event, 0);
    } else {
      put(out, no_value(value));
    }
    put(out, sep);
    put(out, event.unit);
    put(out, sep);
    put(out, event.name);
    if (spread) {
      put(out, sep);
      append_fixed(out, *spread, 2);
      put(out, '%');
    }
    put(out, sep);
    append_u64(out, value.running);
    put(out, sep);
    append_u64(out, percent_running_whole(value));
    put(out, ".00");
    append_metric_fields(out, sep, first_metric);
    for (std::size_t m = 1; m < metrics.size(); ++m) {
      put(out, '\n');
      put(out, prefix);
      append_cpu(out, options, value);
      for (int pad = 0; pad < 4; ++pad) put(out, sep);
      append_metric_fields(out, sep, metrics[m]);
    }
    put(out, '\n');
    return;
  }
  if (shown) {
    append_number(out, *shown, event, kCountsWidth);
  } else {
    append_padded(out, no_value(value), kCountsWidth);
  }
  put(out, ' ');
  put(out, event.unit);
  if (event.unit.size() < options.unit_width)
    put_spaces(out, options.unit_width - event.unit.size());
  put(out, ' ');
  put(out, event.name);
  if (event.name.size() < kNameWidth) put_spaces(out, kNameWidth - event.name.size());
  append_metric_column(out, first_metric);
  for (std::size_t m = 1; m < metrics.size(); ++m) {
    put(out, '\n');
    put(out, prefix);
    append_cpu(out, options, value);
    if (options.aggregation == Aggregation::per_cpu) put_spaces(out, 8);
    put_spaces(out, kCountsWidth + kNameWidth + options.unit_width + 2);
    append_metric_column(out, metrics[m]);
  }
  if (spread && *spread != 0) {
    put(out, "  ( +-");
    fmt::format_to(std::back_inserter(out), "{:6.2f}", *spread);
    put(out, "% )");
  }
  if (value.running != value.enabled) {
    put(out, "  (");
    append_fixed(out, percent_running(value), 2);
    put(out, "%)");
  }
  put(out, '\n');
}

// The metrics perf stat prints after `#` on each value's line: with counts summed over every
// CPU (no -A, --per-core or --per-socket), each metric on the line of the first value of its
// event. The rest (none, or all when per CPU, core or socket, where pmustat computes metrics
// over the sums) have lines of their own after the counts.
struct MetricPlaces {
  std::vector<std::vector<const MetricReading*>> on_value;  // per value
  std::vector<const MetricReading*> own_line;
};

MetricPlaces place_metrics(const ReportOptions& options, const Reading& reading,
                           std::span<const MetricReading> metrics) {
  MetricPlaces places;
  places.on_value.resize(reading.values.size());
  for (std::size_t m = 0; m < metrics.size(); ++m) {
    const MetricReading& metric = metrics[m];
    const std::optional<std::size_t> event =
        m < options.metric_events.size() ? options.metric_events[m] : std::nullopt;
    std::size_t host = reading.values.size();
    if (options.aggregation == Aggregation::global && event) {
      for (std::size_t v = 0; v < reading.values.size(); ++v) {
        if (reading.values[v].event == *event) {
          host = v;
          break;
        }
      }
    }
    if (host < reading.values.size()) {
      places.on_value[host].push_back(&metric);
    } else {
      places.own_line.push_back(&metric);
    }
  }
  return places;
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

// The line of a metric with no event's line to sit on (per CPU, core or socket, where pmustat
// computes metrics over the sums; or no event): its value where a count goes, its unit, its
// name. With -x: a comment line (pmumetric and perf's readers skip `#` lines)
// `# metric,VALUE,UNIT,NAME`.
void append_metric_line(Text& out, const ReportOptions& options, const MetricReading& metric,
                        std::string_view prefix) {
  if (options.separator) {
    const std::string_view sep = *options.separator;
    put(out, "# metric");
    put(out, sep);
    put(out, prefix);
    if (metric.value) {
      append_fixed(out, *metric.value, 2);
    } else {
      put(out, "<not computed>");
    }
    put(out, sep);
    put(out, metric.unit);
    put(out, sep);
    put(out, metric.name);
    put(out, '\n');
    return;
  }
  put(out, prefix);
  if (metric.value) {
    append_fixed_padded(out, *metric.value, 2, 18);
  } else {
    append_padded(out, "<not computed>", 18);
  }
  put(out, ' ');
  put(out, metric.unit);
  if (metric.unit.size() < 5) put_spaces(out, 5 - metric.unit.size());
  put(out, metric.name);
  put(out, '\n');
}

// The grades worth a reader's attention, one line each: every value's that is not `exact`.
std::string trust_section(std::span<const CountEvent> events, const Reading& reading,
                          std::span<const MetricReading> metrics) {
  std::string text;
  const auto append_grades = [&](std::string_view what, std::span<const Trust> grades) {
    if (exact(grades)) return;
    for (const Trust& trust : grades) {
      text += fmt::format("   {}: {} [{}]: {}\n", what, to_string(level_of(trust.grade)),
                          to_string(trust.grade),
                          trust.reason.empty() ? summary_of(trust.grade) : trust.reason);
    }
  };
  for (const MetricReading& metric : metrics) append_grades(metric.name, metric.trust);
  for (const EventValue& value : reading.values) {
    const std::string& name = events[value.event].name;
    append_grades(value.cpu >= 0 ? fmt::format("{} (CPU{})", name, value.cpu) : name, value.trust);
  }
  return text.empty() ? text : " Trust:\n" + text + "\n";
}

// perf stat -I's column header, printed before the first interval and every 26th after it.
constexpr std::size_t kIntervalHeaderEvery = 26;

void append_interval_header(Text& out, const ReportOptions& options) {
  const auto to = std::back_inserter(out);
  fmt::format_to(to, "#{:>{}}", "time", kIntervalWidth - 1);
  switch (options.aggregation) {
    case Aggregation::per_cpu:
      fmt::format_to(to, " {:<6}", "cpu");
      break;
    case Aggregation::per_core:
      fmt::format_to(to, " {:<{}} ctrs", "core", kPerCoreWidth);
      break;
    case Aggregation::per_socket:
      fmt::format_to(to, " {:<{}} ctrs", "socket", kPerSocketWidth);
      break;
    case Aggregation::global:
      break;
  }
  fmt::format_to(to, " {:>{}} {:>{}} events\n", "counts", kCountsWidth, "unit", options.unit_width);
}

// perf stat's footer: the time elapsed (with -r, the mean, its spread and relative spread), and
// for one run of a command, the command's user and system time.
void append_elapsed(Text& out, const ReportOptions& options) {
  const auto to = std::back_inserter(out);
  const std::span<const double> runs = options.elapsed_seconds;
  double mean = 0;
  double m2 = 0;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const double delta = runs[i] - mean;
    mean += delta / static_cast<double>(i + 1);
    m2 += delta * (runs[i] - mean);
  }
  put(out, '\n');
  if (runs.size() <= 1) {
    fmt::format_to(to, " {:17.9f} seconds time elapsed", mean);
    if (options.command_times) {
      fmt::format_to(to, "\n\n {:17.9f} seconds user\n {:17.9f} seconds sys\n",
                     options.command_times->user_seconds, options.command_times->system_seconds);
    }
  } else {
    const double n = static_cast<double>(runs.size());
    const double spread = std::sqrt(m2 / (n - 1) / n);
    fmt::format_to(to, " {:17.9f} +- {:.9f} seconds time elapsed", mean, spread);
    if (mean != 0 && spread != 0) fmt::format_to(to, "  ( +-{:6.2f}% )", 100.0 * spread / mean);
  }
  put(out, "\n\n");
}

}  // namespace

std::size_t unit_width_of(std::span<const CountEvent> events) {
  std::size_t width = 4;
  for (const CountEvent& event : events) {
    if (!event.refused) width = std::max(width, event.unit.size());
  }
  return width;
}

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
  Text text;
  if (!options.separator) {
    put(text, fmt::format("\n Performance counter stats for '{}'{}:\n\n", options.target,
                          repeated ? fmt::format(" ({} runs)", runs.size()) : std::string()));
  }
  const MetricPlaces places = place_metrics(options, last, metrics);
  for (std::size_t i = 0; i < last.values.size(); ++i) {
    const EventValue& value = last.values[i];
    const Spread spread = spread_of(runs, i);
    append_value_line(text, options, events[value.event], value,
                      repeated ? spread.mean : value.value, std::string_view(),
                      repeated ? std::optional<double>(spread.percent) : std::nullopt,
                      places.on_value[i]);
  }
  if (!places.own_line.empty() && !options.separator) put(text, '\n');
  for (const MetricReading* metric : places.own_line) {
    append_metric_line(text, options, *metric, std::string_view());
  }
  if (!options.separator) {
    append_elapsed(text, options);
    put(text, trust_section(events, last, metrics));
  }
  emit(std::string_view(text.data(), text.size()));
}

void print_interval(const ReportOptions& options, std::span<const CountEvent> events,
                    const Reading& reading, std::span<const MetricReading> metrics, double seconds,
                    std::size_t interval_number) {
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
  Text text;
  // One allocation for the interval's lines: a -x line of a count is some 60 bytes, a text line
  // some 110.
  text.reserve((reading.values.size() + metrics.size()) * (prefix.size() + 128));
  if (!options.separator && interval_number % kIntervalHeaderEvery == 0) {
    append_interval_header(text, options);
  }
  const MetricPlaces places = place_metrics(options, reading, metrics);
  for (std::size_t v = 0; v < reading.values.size(); ++v) {
    const EventValue& value = reading.values[v];
    append_value_line(text, options, events[value.event], value, value.value, prefix, std::nullopt,
                      places.on_value[v]);
  }
  for (const MetricReading* metric : places.own_line) {
    append_metric_line(text, options, *metric, prefix);
  }
  emit(std::string_view(text.data(), text.size()));
}

}  // namespace cli
PMUCAT_END_NAMESPACE
