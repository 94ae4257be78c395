// Metric evaluation: metric expressions over counts, references, ScaleUnit and thresholds.
#include "pmucat/metric_eval.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <unordered_map>

#include "parser/char_class.h"
#include "pmucat/diagnostic_ids.h"
#include "pmucat/suggest.h"

PMUCAT_BEGIN_NAMESPACE

namespace {

using char_class::ascii_lower;

// The tool events perf 6.1 gives metrics in seconds (stat-shadow.c prepare_metric).
double tool_event_scale(std::string_view id) {
  const std::string name = ascii_lower(id);
  if (name == "duration_time") {
    return 1e-9;
  }
  if (name == "user_time" || name == "system_time") {
    return 1e-6;
  }
  return 1.0;
}

}  // namespace

std::string_view to_string(ThresholdState state) {
  switch (state) {
    case ThresholdState::none:
      return "none";
    case ThresholdState::met:
      return "met";
    case ThresholdState::not_met:
      return "not met";
    case ThresholdState::unknown:
      return "unknown";
  }
  return "?";
}

std::string_view to_string(NotComputed why) {
  switch (why) {
    case NotComputed::computed:
      return "computed";
    case NotComputed::missing_event:
      return "missing event";
    case NotComputed::not_counted:
      return "not counted";
    case NotComputed::not_supported:
      return "not supported";
    case NotComputed::missing_literal:
      return "missing literal";
    case NotComputed::division_by_zero:
      return "division by zero";
    case NotComputed::metric_failed:
      return "referenced metric not computed";
    case NotComputed::reference_cycle:
      return "reference cycle";
    case NotComputed::too_deep:
      return "reference chain too deep";
    case NotComputed::bad_expression:
      return "bad expression";
  }
  return "?";
}

ScaleUnit parse_scale_unit(std::string_view text) {
  // strtod in the C locale: leading white space, an optional sign, a decimal number.
  std::size_t start = 0;
  while (start < text.size() &&
         (text[start] == ' ' || text[start] == '\t' || text[start] == '\n')) {
    ++start;
  }
  std::size_t number = start;
  if (number < text.size() && text[number] == '+') {
    ++number;
  }
  double scale = 0;
  const auto [end, ec] = std::from_chars(text.data() + number, text.data() + text.size(), scale);
  if (ec != std::errc{} || end == text.data() + number) {
    return ScaleUnit{0, std::string(text)};  // no number: strtod returns 0, end = text
  }
  return ScaleUnit{scale, std::string(text.substr(static_cast<std::size_t>(end - text.data())))};
}

// ---- the evaluator ----------------------------------------------------------------------------

struct MetricEvaluator::Impl {
  std::span<const VendorMetric> metrics;
  std::vector<Expected<metric_expr::Expr>> exprs;
  std::vector<std::optional<Expected<metric_expr::Expr>>> thresholds;
  std::vector<ScaleUnit> scale_units;
  std::unordered_map<std::string, std::size_t> by_name;  // lower-cased name -> first metric
};

namespace {

// One evaluation over one set of counts: ids resolved once, referenced metrics memoized.
class Evaluation {
 public:
  Evaluation(const MetricEvaluator::Impl& impl, const Counts& counts, const EvalOptions& options)
      : impl_(impl),
        counts_(counts),
        options_(options),
        results_(impl.metrics.size()),
        state_(impl.metrics.size(), State::fresh),
        depth_(impl.metrics.size(), 0),
        deepest_(impl.metrics.size(), 0) {}

  // The metric with the metrics it references computed first, depth first in the order its
  // expression names them (then those its threshold names), with the walk on the heap: a chain
  // of metrics each naming the next costs no stack. A metric whose references go deeper than
  // kMaxMetricChain levels is not computed, whichever metric was asked for first.
  const MetricValue& metric(std::size_t index) {
    if (state_[index] != State::fresh) {
      return result(index);
    }
    struct Step {
      std::size_t metric;
      std::vector<std::size_t> references;
      std::size_t next = 0;
      bool threshold = false;  // computed: now the threshold's references
    };
    std::vector<Step> steps;
    const auto enter = [&](std::size_t metric) {
      state_[metric] = State::active;
      stack_.push_back(metric);
      steps.push_back(Step{metric, references(impl_.exprs[metric]), 0, false});
    };
    enter(index);
    while (!steps.empty()) {
      Step& step = steps.back();
      if (step.next < step.references.size()) {
        const std::size_t next = step.references[step.next++];
        if (state_[next] == State::fresh) {
          enter(next);
        }
        continue;  // active: a cycle, which the lookup reports; done: computed
      }
      const std::size_t metric = step.metric;
      if (!step.threshold) {
        if (measure_depth(metric, step.references)) {
          compute(metric);
        }
        stack_.pop_back();
        state_[metric] = State::done;
        // After the metric is done: a threshold usually names the metric itself.
        if (result(metric).computed && impl_.thresholds[metric]) {
          step.threshold = true;
          step.references = references(*impl_.thresholds[metric]);
          step.next = 0;
          continue;
        }
      } else {
        evaluate_threshold(metric);
      }
      steps.pop_back();
    }
    return result(index);
  }

 private:
  enum class State : std::uint8_t { fresh, active, done };

  MetricValue& result(std::size_t index) {
    std::optional<MetricValue>& slot = results_[index];
    if (!slot) slot.emplace();
    return *slot;
  }

  // The levels of `metric`'s deepest chain of references (its `references` are done, or
  // active in a cycle, which does not count); false, with the metric not computed and the
  // chain named, past kMaxMetricChain.
  bool measure_depth(std::size_t metric, const std::vector<std::size_t>& references) {
    std::size_t deepest = metric;
    std::size_t below = 0;
    for (const std::size_t reference : references) {
      if (state_[reference] == State::done && depth_[reference] > below) {
        below = depth_[reference];
        deepest = reference;
      }
    }
    depth_[metric] = below + 1;
    deepest_[metric] = deepest;
    if (depth_[metric] <= kMaxMetricChain) {
      return true;
    }
    std::string chain;
    std::size_t at = metric;
    for (std::size_t level = 0; level < depth_[metric]; ++level) {
      const std::size_t left = depth_[metric] - level;
      if (level == 3 && left > 3) {
        chain += fmt::format("... ({} more) -> ", left - 3);
        while (depth_[at] > 3) {
          at = deepest_[at];
        }
        level = depth_[metric] - 4;
        continue;
      }
      chain += impl_.metrics[at].name;
      if (left > 1) {
        chain += " -> ";
      }
      at = deepest_[at];
    }
    MetricValue& out = result(metric);
    out.metric = &impl_.metrics[metric];
    out.why = out.cause = NotComputed::too_deep;
    out.subject = chain;
    out.reason = fmt::format("its chain of metric references is {} levels deep, more than {}: {}",
                             depth_[metric], kMaxMetricChain, chain);
    return false;
  }

  // What the lookup found for an id that has no value: kept to explain the failure.
  struct Failure {
    NotComputed why = NotComputed::missing_event;
    std::string subject;
    std::string reason;
    NotComputed cause = why;
  };

  // The metric a metric-expression id names, if any.
  std::optional<std::size_t> metric_named(std::string_view id) const {
    const auto found = impl_.by_name.find(ascii_lower(id));
    if (found == impl_.by_name.end()) {
      return std::nullopt;
    }
    return found->second;
  }

  // The metrics `expr` names, in the order evaluation looks its ids up.
  std::vector<std::size_t> references(const Expected<metric_expr::Expr>& expr) const {
    std::vector<std::size_t> out;
    if (!expr) {
      return out;
    }
    for (const metric_expr::Node& node : expr->nodes) {
      if (node.kind != metric_expr::NodeKind::id &&
          node.kind != metric_expr::NodeKind::source_count &&
          node.kind != metric_expr::NodeKind::aggr_nr) {
        continue;
      }
      const std::optional<std::size_t> metric =
          node.name.find('?') == std::string::npos
              ? metric_named(node.name)
              : metric_named(metric_expr::substitute_runtime(node.name, options_.runtime));
      if (metric) {
        out.push_back(*metric);
      }
    }
    return out;
  }

  metric_expr::Context context(std::optional<Failure>& failure) {
    metric_expr::Context ctx;
    ctx.literals = options_.literals;
    ctx.runtime = options_.runtime;
    ctx.lookup = [this, &failure](std::string_view name) -> std::optional<metric_expr::IdValue> {
      return lookup(name, failure);
    };
    ctx.event_exists = options_.event_exists;
    return ctx;
  }

  std::optional<metric_expr::IdValue> lookup(std::string_view name,
                                             std::optional<Failure>& failure) {
    if (const std::optional<std::size_t> metric = metric_named(name)) {
      const std::size_t index = *metric;
      if (state_[index] == State::fresh) {
        // metric() computes every reference first; a name it did not find is an event.
        return std::nullopt;
      }
      if (state_[index] == State::active) {
        std::string cycle;
        const auto from = std::find(stack_.begin(), stack_.end(), index);
        for (auto it = from; it != stack_.end(); ++it) {
          cycle += impl_.metrics[*it].name;
          cycle += " -> ";
        }
        cycle += impl_.metrics[index].name;
        failure = Failure{NotComputed::reference_cycle, cycle,
                          fmt::format("metrics reference each other: {}", cycle),
                          NotComputed::reference_cycle};
        return std::nullopt;
      }
      const MetricValue& value = result(index);
      if (!value.computed) {
        if (value.why == NotComputed::reference_cycle || value.why == NotComputed::too_deep) {
          failure = Failure{value.why, value.subject, value.reason, value.cause};
        } else {
          failure = Failure{
              NotComputed::metric_failed, impl_.metrics[index].name,
              fmt::format("metric '{}' not computed: {}", impl_.metrics[index].name, value.reason),
              value.cause};
        }
        return std::nullopt;
      }
      return metric_expr::IdValue{value.raw_value, 1};
    }
    const auto cached = events_.find(std::string(name));
    if (cached != events_.end()) {
      if (!cached->second.first) {
        failure = cached->second.second;
      }
      return cached->second.first;
    }
    std::optional<metric_expr::IdValue> value;
    Failure why;
    const Count* count = counts_.find(name);
    if (count == nullptr) {
      why = Failure{NotComputed::missing_event, std::string(name),
                    fmt::format("event '{}' missing from the counts", name),
                    NotComputed::missing_event};
    } else if (const std::optional<double> input = metric_input_value(*count)) {
      // aggr_nr(): the lines or records summed into the count (CPUs with -A, perf.data), as
      // perf 7.3 counts the CPUs it aggregates; a line perf already aggregated is one.
      value =
          metric_expr::IdValue{*input * tool_event_scale(name), 1,
                               static_cast<int>(std::min<std::uint32_t>(count->lines, 1u << 30))};
    } else if (count->status == CountStatus::not_supported) {
      why = Failure{NotComputed::not_supported, std::string(name),
                    fmt::format("event '{}' not supported", count->event),
                    NotComputed::not_supported};
    } else {
      why = Failure{NotComputed::not_counted, std::string(name),
                    fmt::format("event '{}' not counted", count->event), NotComputed::not_counted};
    }
    events_.emplace(std::string(name), std::make_pair(value, why));
    if (!value) {
      failure = why;
    }
    return value;
  }

  void compute(std::size_t index) {
    MetricValue& out = result(index);
    const VendorMetric& metric = impl_.metrics[index];
    out.metric = &metric;
    const Expected<metric_expr::Expr>& expr = impl_.exprs[index];
    if (!expr) {
      out.why = out.cause = NotComputed::bad_expression;
      out.reason = fmt::format("MetricExpr does not parse: {}", expr.error().message);
      out.diagnostic = expr.error();
      return;
    }
    std::optional<Failure> failure;
    const metric_expr::Result result = metric_expr::evaluate(*expr, context(failure));
    if (!result.ok()) {
      // The first id that failed may be one of a branch not taken (`cpu-clock if #target_cpu
      // else task-clock`): the reason is the id the result misses (its lookup is cached).
      if (result.status == metric_expr::Status::missing_id && failure &&
          failure->subject != result.name) {
        std::optional<Failure> own;
        lookup(result.name, own);
        if (own) failure = std::move(own);
      }
      explain(out, result, failure);
      return;
    }
    out.computed = true;
    out.raw_value = result.value;
    if (!metric.scale_unit.empty()) {
      out.value = result.value * impl_.scale_units[index].scale;
      out.unit = impl_.scale_units[index].unit;
    } else {
      out.value = result.value;
    }
  }

  void evaluate_threshold(std::size_t index) {
    MetricValue& out = result(index);
    if (const auto& condition = impl_.thresholds[index]) {
      out.threshold = ThresholdState::unknown;
      if (*condition) {
        std::optional<Failure> ignored;
        const metric_expr::Result met = metric_expr::evaluate(**condition, context(ignored));
        if (met.ok()) {
          out.threshold = met.value != 0 ? ThresholdState::met : ThresholdState::not_met;
        }
      }
    }
  }

  static void explain(MetricValue& out, const metric_expr::Result& result,
                      const std::optional<Failure>& failure) {
    explain_why(out, result, failure);
    out.cause = out.why;
    if (out.why == NotComputed::metric_failed && failure) {
      out.cause = failure->cause;
    }
  }

  static void explain_why(MetricValue& out, const metric_expr::Result& result,
                          const std::optional<Failure>& failure) {
    switch (result.status) {
      case metric_expr::Status::missing_id:
        if (failure) {
          out.why = failure->why;
          out.subject = failure->subject;
          out.reason = failure->reason;
        } else {
          out.why = NotComputed::missing_event;
          out.subject = result.name;
          out.reason = fmt::format("event '{}' missing from the counts", result.name);
        }
        return;
      case metric_expr::Status::missing_literal:
        out.why = NotComputed::missing_literal;
        out.subject = result.name;
        out.reason = fmt::format("literal {} not given", result.name);
        return;
      case metric_expr::Status::division_by_zero:
        out.why = NotComputed::division_by_zero;
        out.reason = "division by zero";
        return;
      case metric_expr::Status::value:
        return;
    }
  }

  const MetricEvaluator::Impl& impl_;
  const Counts& counts_;
  const EvalOptions& options_;
  // Per metric of the table, its value once computed (or found not computable): a value is made
  // only for the metrics asked for and those they reference (pmustat -I evaluates a few metrics
  // of a table of hundreds every interval).
  std::vector<std::optional<MetricValue>> results_;
  std::vector<State> state_;
  std::vector<std::size_t> depth_;    // done metrics: the levels of their deepest chain
  std::vector<std::size_t> deepest_;  // the reference that chain goes through (itself: none)
  std::vector<std::size_t> stack_;
  std::unordered_map<std::string, std::pair<std::optional<metric_expr::IdValue>, Failure>> events_;
};

}  // namespace

MetricEvaluator::MetricEvaluator(std::span<const VendorMetric> metrics)
    : impl_(std::make_unique<Impl>()) {
  impl_->metrics = metrics;
  impl_->exprs.reserve(metrics.size());
  for (std::size_t i = 0; i < metrics.size(); ++i) {
    const VendorMetric& metric = metrics[i];
    const std::string file =
        metric.location.file.empty() ? fmt::format("<{}>", metric.name) : metric.location.file;
    // The newest perf's lexer: it knows every literal and function of the older tables.
    constexpr MetricDialect kDialect = Profile::pmucat().metric_dialect();
    impl_->exprs.push_back(metric_expr::parse(metric.expr, file, kDialect));
    if (metric.threshold.empty()) {
      impl_->thresholds.emplace_back();
    } else {
      impl_->thresholds.emplace_back(metric_expr::parse(metric.threshold, file, kDialect));
    }
    impl_->scale_units.push_back(parse_scale_unit(metric.scale_unit));
    impl_->by_name.emplace(ascii_lower(metric.name), i);
  }
}

MetricEvaluator::MetricEvaluator(MetricEvaluator&&) noexcept = default;
MetricEvaluator& MetricEvaluator::operator=(MetricEvaluator&&) noexcept = default;
MetricEvaluator::~MetricEvaluator() = default;

std::span<const VendorMetric> MetricEvaluator::metrics() const {
  return impl_->metrics;
}

std::optional<std::size_t> MetricEvaluator::find(std::string_view name) const {
  const auto found = impl_->by_name.find(ascii_lower(name));
  if (found == impl_->by_name.end()) return std::nullopt;
  if (impl_->metrics[found->second].name == name) return found->second;
  // Another spelling of the name came first: the exact one, if any, further on.
  for (std::size_t i = found->second + 1; i < impl_->metrics.size(); ++i) {
    if (impl_->metrics[i].name == name) return i;
  }
  return std::nullopt;
}

std::vector<MetricValue> MetricEvaluator::evaluate(const Counts& counts,
                                                   const EvalOptions& options) const {
  std::vector<std::size_t> all(impl_->metrics.size());
  for (std::size_t i = 0; i < all.size(); ++i) {
    all[i] = i;
  }
  return evaluate(counts, options, all);
}

std::vector<MetricValue> MetricEvaluator::evaluate(const Counts& counts, const EvalOptions& options,
                                                   std::span<const std::size_t> indices) const {
  Evaluation evaluation(*impl_, counts, options);
  std::vector<MetricValue> out;
  out.reserve(indices.size());
  for (const std::size_t index : indices) {
    out.push_back(evaluation.metric(index));
  }
  return out;
}

Expected<std::vector<std::size_t>> select_metrics(std::span<const VendorMetric> metrics,
                                                  std::span<const std::string> names) {
  std::vector<bool> chosen(metrics.size(), false);
  for (const std::string& name : names) {
    bool any = false;
    for (std::size_t i = 0; i < metrics.size(); ++i) {
      if (perf_metric_matches(metrics[i].name, name) ||
          perf_metric_matches(metrics[i].group, name)) {
        chosen[i] = true;
        any = true;
      }
    }
    if (!any) {
      std::vector<std::string> candidates;
      for (const VendorMetric& metric : metrics) {
        candidates.push_back(metric.name);
        for (std::string& group : metric_group_names(metric)) {
          candidates.push_back(std::move(group));
        }
      }
      Diagnostic error =
          make_file_diagnostic(Severity::error, DiagId::metric_not_found, "<-M>",
                               fmt::format("no metric or metric group '{}' in this model", name));
      if (const auto near = nearest_name(name, candidates)) {
        error.hint = fmt::format("did you mean '{}'?", *near);
      }
      return unexpected(std::move(error));
    }
  }
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < chosen.size(); ++i) {
    if (chosen[i]) {
      out.push_back(i);
    }
  }
  return out;
}

std::vector<MetricValue> evaluate_metrics(std::span<const VendorMetric> metrics,
                                          const Counts& counts, const EvalOptions& options) {
  return MetricEvaluator(metrics).evaluate(counts, options);
}

PMUCAT_END_NAMESPACE
