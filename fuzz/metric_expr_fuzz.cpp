// metric_expr::parse of a metric expression, under perf 6.1's and perf 6.12's rules; an accepted
// one prints back (to_string) to text that parses to the same tree and the same text again,
// evaluates without crashing to the same result, and computes the same ids in the same order.
// Errors point inside the text and render.
#include <cmath>
#include <cstring>
#include <string>
#include <string_view>

#include "fuzz_target.h"
#include "pmucat/diagnostic.h"
#include "pmucat/metric_expr.h"

namespace {

namespace mx = pmucat::metric_expr;

bool same_result(const mx::Result& a, const mx::Result& b) {
  if (a.status != b.status || a.name != b.name) return false;
  if (a.status != mx::Status::value) return true;
  return (std::isnan(a.value) && std::isnan(b.value)) || a.value == b.value;
}

mx::Context fuzz_context() {
  mx::Context context;
  // Every id has a value derived from its name, so that each operator sees varied operands.
  context.lookup = [](std::string_view name) -> std::optional<mx::IdValue> {
    if (name.size() % 5 == 0) return std::nullopt;
    return mx::IdValue{static_cast<double>(pmucat::metric_expr::perf_id_hash(name) % 1000) - 3,
                       static_cast<int>(name.size())};
  };
  for (int i = 0; i < mx::literal_count; ++i) context.literals.values[i] = i % 2;
  context.runtime = 3;
  return context;
}

// One text in one metric-expression dialect.
void check(std::string_view text, pmucat::MetricDialect rules) {
  auto expr = mx::parse(text, "<fuzz>", rules);
  if (!expr) {
    PMUCAT_FUZZ_CHECK(!expr.error().id.empty());
    PMUCAT_FUZZ_CHECK(expr.error().range.offset <= text.size());
    PMUCAT_FUZZ_CHECK(!pmucat::render(expr.error(), {.color = true}).empty());
    return;
  }
  for (const mx::Node& node : expr->nodes) {
    PMUCAT_FUZZ_CHECK(node.offset + node.length <= text.size());
  }
  const std::string printed = mx::to_string(*expr);
  auto again = mx::parse(printed, "<printed>", rules);
  PMUCAT_FUZZ_CHECK(again.has_value());
  PMUCAT_FUZZ_CHECK(mx::to_string(*again) == printed);
  PMUCAT_FUZZ_CHECK(again->nodes.size() == expr->nodes.size());
  const mx::Context context = fuzz_context();
  PMUCAT_FUZZ_CHECK(same_result(mx::evaluate(*expr, context), mx::evaluate(*again, context)));
  auto ids1 = mx::compute_ids(*expr, context.literals, context.runtime, rules);
  auto ids2 = mx::compute_ids(*again, context.literals, context.runtime, rules);
  PMUCAT_FUZZ_CHECK(ids1.has_value() == ids2.has_value());
  if (ids1) {
    PMUCAT_FUZZ_CHECK(ids1->keys() == ids2->keys());
    PMUCAT_FUZZ_CHECK(ids1->keys().size() == ids1->size());
  } else {
    PMUCAT_FUZZ_CHECK(!pmucat::render(ids1.error()).empty());
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  for (pmucat::MetricDialect dialect :
       {pmucat::MetricDialect::of_6_1, pmucat::MetricDialect::of_6_12}) {
    check(text, dialect);
  }
  return 0;
}
