// Metric evaluation: a model's metrics (the vendor tables' MetricExpr, ScaleUnit,
// MetricThreshold) computed from counts (pmucat/metric_counts.h) as perf 6.1's `perf stat -M`
// computes them, or "not computed" with the reason, never a made-up number.
//
//  - Each id of an expression is another metric when a metric of that name exists (perf matches
//    metric names case-insensitively; the referenced metric's value is its expression's,
//    without its ScaleUnit, and is computed once), else an event looked up in the counts by
//    Counts::find (docs/metrics.md, "Matching counts to events"). Reference cycles are reported,
//    not followed.
//  - An event's value is its count scaled for multiplexing (metric_input_value); the tool events
//    `duration_time` (ns) and `user_time`/`system_time` (us) are seconds, as in perf 6.1.
//  - The result is multiplied by ScaleUnit's leading number and takes the rest as its unit
//    ("100%" -> *100, "%"), as perf's perf_pmu__convert_scale.
//  - MetricThreshold, when the metric has one, is evaluated in the same context: met (non-zero),
//    not met, or unknown (it could not be computed).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "pmucat/diagnostic.h"
#include "pmucat/expected.h"
#include "pmucat/metric_counts.h"
#include "pmucat/metric_expr.h"
#include "pmucat/vendor_events.h"
#include "pmucat/version.h"

PMUCAT_BEGIN_NAMESPACE

enum class ThresholdState : std::uint8_t {
  none,     // the metric has no MetricThreshold
  met,      // the threshold expression is non-zero
  not_met,  // it is zero
  unknown,  // it could not be computed
};
std::string_view to_string(ThresholdState state);

// Why a metric has no value.
enum class NotComputed : std::uint8_t {
  computed,          // it has one
  missing_event,     // `subject` is not in the counts
  not_counted,       // `subject` was not counted (<not counted>, running time 0)
  not_supported,     // `subject` could not be opened (<not supported>)
  missing_literal,   // literal `subject` was not given (EvalOptions::literals)
  division_by_zero,  // perf 6.1 prints no value either
  metric_failed,     // the referenced metric `subject` has no value (`reason` says why)
  reference_cycle,   // `subject` is the cycle ("a -> b -> a")
  too_deep,          // `subject` is a chain of references deeper than kMaxMetricChain
  bad_expression,    // the MetricExpr does not parse (`diagnostic`)
};
std::string_view to_string(NotComputed why);

struct MetricValue {
  const VendorMetric* metric = nullptr;  // into the span given to evaluate_metrics
  bool computed = false;
  double value = 0;      // the expression's value times ScaleUnit's number
  double raw_value = 0;  // the expression's value
  std::string unit;      // ScaleUnit without its number ("%", "GB/sec"); empty without ScaleUnit
  ThresholdState threshold = ThresholdState::none;
  NotComputed why = NotComputed::computed;
  NotComputed cause = NotComputed::computed;  // `why`, or for metric_failed the referenced
                                              // metric's own cause (followed to the end)
  std::string subject;                        // the event, literal, metric or cycle `why` names
  std::string reason;  // one line for people: "event 'INST_RETIRED.ANY' missing from the counts"
  std::optional<Diagnostic> diagnostic;  // bad_expression: where the MetricExpr fails
};

struct EvalOptions {
  metric_expr::Literals literals;  // #smt_on, #num_cpus ... (unset: metrics using them fail)
  int runtime = 0;                 // perf's `?` parameter
  // has_event(EVENT): whether the machine has the event (pmumetric asks its catalog). Unset:
  // whether the counts hold it.
  std::function<bool(std::string_view event)> event_exists;
};

// The deepest chain of metrics each referencing the next that is evaluated; a metric deeper
// in a chain is not computed (NotComputed::too_deep), whatever the stack.
inline constexpr std::size_t kMaxMetricChain = 1000;

// ScaleUnit split as perf 6.1 does (strtod on the text): the leading number (0 when there is
// none, as strtod gives) and the rest.
struct ScaleUnit {
  double scale = 1;
  std::string unit;
};
ScaleUnit parse_scale_unit(std::string_view text);

// Parsed metrics, ready to be evaluated on any number of count sets: parse once, evaluate many
// times (the parse is most of the cost of a one-off evaluation).
class MetricEvaluator {
 public:
  // `metrics` must outlive the evaluator. Expressions that do not parse are kept: they evaluate
  // to bad_expression.
  explicit MetricEvaluator(std::span<const VendorMetric> metrics);
  MetricEvaluator(MetricEvaluator&&) noexcept;
  MetricEvaluator& operator=(MetricEvaluator&&) noexcept;
  ~MetricEvaluator();

  std::span<const VendorMetric> metrics() const;
  // The index (into metrics()) of the first metric named exactly `name`, found through the
  // evaluator's index of names rather than a walk of the table.
  std::optional<std::size_t> find(std::string_view name) const;

  // Every metric, in table order.
  std::vector<MetricValue> evaluate(const Counts& counts, const EvalOptions& options) const;
  // The metrics at `indices` (into metrics()), in that order; referenced metrics are computed
  // as needed whether selected or not.
  std::vector<MetricValue> evaluate(const Counts& counts, const EvalOptions& options,
                                    std::span<const std::size_t> indices) const;

  struct Impl;  // the parsed metrics (metric_eval.cpp only)

 private:
  std::unique_ptr<Impl> impl_;
};

// The metrics `-M` names select, as perf 6.1's metricgroup__add_metric: each name is matched to
// every metric's MetricName and MetricGroup (perf_metric_matches; "all" selects all). Indices
// in table order, each once. A name that selects nothing is an error "metric-unknown" with the
// nearest metric or group name as a hint.
Expected<std::vector<std::size_t>> select_metrics(std::span<const VendorMetric> metrics,
                                                  std::span<const std::string> names);

// One-off: parses and evaluates every metric (or the selected `indices` when given).
std::vector<MetricValue> evaluate_metrics(std::span<const VendorMetric> metrics,
                                          const Counts& counts, const EvalOptions& options);

PMUCAT_END_NAMESPACE
