// perf's hard-coded ("special") terms: config words, period, call-graph, name, ...
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "pmucat/attr.h"
#include "pmucat/diagnostic_ids.h"
#include "pmucat/encode.h"
#include "pmucat/terms.h"

PMUCAT_BEGIN_NAMESPACE
namespace encode_detail {

enum class Special : std::uint8_t {
  config,
  config1,
  config2,
  config3,
  config4,
  period,
  freq,
  time,
  call_graph,
  stack_size,
  max_stack,
  branch_type,
  inherit,
  no_inherit,
  overwrite,
  no_overwrite,
  name,
  metric_id,
  percore,
  aux_output,
  aux_sample_size,
  nr,
  cpu,            // perf 7.3: the CPUs (a number, a CPU list, a PMU's) the event is opened on
  ratio_to_prev,  // perf 7.3: a sampling period as a ratio of the previous group member's
  aux_action,     // perf 7.3: pause or resume an AUX area event from this one
  driver_config,
};

// The special term `name` denotes (`@...` is driver config) in `semantics`: a term a perf
// release added (`config3`, `cpu`, ...) only where that release's behaviour is in it.
std::optional<Special> find_special(std::string_view name, Profile semantics);
// The special term `name` denotes in any release (decode and tool defaults read every term).
std::optional<Special> find_any_special(std::string_view name);

// The config word a config term assigns (0..3), or nullopt for other specials.
std::optional<unsigned> config_word_of(Special special);

// perf stat accepts only config*, name, metric-id, period, percore and (perf 7.3) cpu.
bool usable_in_stat(Special special);

// The keywords perf lists after the format names in its "valid terms" help line.
std::vector<std::string> special_term_names(Tool tool, Profile semantics);

// A special term's value problem; `at_value` says where the caret goes.
struct SpecialError {
  DiagId id;
  std::string message;
  bool at_value = true;
};

// Checks a term's value type the way perf does (`expected numeric value`, ...).
std::optional<SpecialError> check_special(Special special, const TermView& term);

// Call-graph related terms are combined after all terms were seen.
struct CallchainRequest {
  std::optional<std::string_view> mode;  // fp, dwarf, lbr, no (views the term's text)
  std::optional<std::uint64_t> stack_size;
  std::optional<std::uint64_t> max_stack;
};

// Applies a checked special term (other than config words) to the event. `tool` decides whether
// the sampling terms reach the attr (perf stat leaves them out). `settings` may be null when only
// the attr is wanted (the allocation-free path).
std::optional<SpecialError> apply_special(Special special, const TermView& term, Tool tool,
                                          Attr& attr, EventSettings* settings,
                                          CallchainRequest& callchain);

// Turns the call-graph request into attr bits as `perf record` does on x86-64.
void apply_callchain(const CallchainRequest& callchain, Attr& attr);

}  // namespace encode_detail
PMUCAT_END_NAMESPACE
