// --counters PMU=GENERIC[+FIXED], read into a CounterOverride.
#include <charconv>

#include "pmucat/diagnostic_ids.h"
#include "pmucat/planner.h"

PMUCAT_BEGIN_NAMESPACE
namespace {

std::optional<std::uint32_t> count(std::string_view text, std::uint32_t limit) {
  std::uint32_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || error != std::errc{} || end != text.data() + text.size() || value > limit) {
    return std::nullopt;
  }
  return value;
}

}  // namespace

Expected<CounterOverride> parse_counter_override(std::string_view text) {
  auto fail = [&](std::size_t offset, std::size_t length, std::string message) {
    Diagnostic d = make_diagnostic(Severity::error, DiagId::plan_counters_syntax, "<--counters>",
                                   text, offset, length, std::move(message));
    d.hint = "expected PMU=GENERIC[+FIXED], e.g. cpu=8+4 or uncore_cha=4";
    return Unexpected(std::move(d));
  };
  const auto eq = text.find('=');
  if (eq == std::string_view::npos || eq == 0) {
    return fail(0, text.size(), "no PMU name before '='");
  }
  CounterOverride result;
  result.pmu = std::string(text.substr(0, eq));
  const std::string_view counts = text.substr(eq + 1);
  const auto plus = counts.find('+');
  const auto generic = count(counts.substr(0, plus), 32);
  if (!generic) {
    return fail(eq + 1, counts.substr(0, plus).size(), "generic count is not a number 0-32");
  }
  result.generic = *generic;
  if (plus != std::string_view::npos) {
    const auto fixed = count(counts.substr(plus + 1), 16);
    if (!fixed) {
      return fail(eq + 2 + plus, counts.size() - plus - 1, "fixed count is not a number 0-16");
    }
    result.fixed = *fixed;
  }
  return result;
}

PMUCAT_END_NAMESPACE
