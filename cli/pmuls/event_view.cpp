#include "pmuls/event_view.h"

#include <fmt/core.h>

#include "pmucat/encode.h"
#include "pmucat/format.h"

PMUCAT_BEGIN_NAMESPACE
namespace cli {

EventView view_event(const Pmu& pmu, const Event& event) {
  EventView view;
  view.event = &event;
  // Built by appending: this runs for every event of pmuls --json on the whole tree.
  std::string& perf_name = view.perf_name;
  perf_name.reserve(pmu.name().size() + event.name.size() + 2);
  perf_name += pmu.name();
  perf_name += '/';
  perf_name += event.name;
  for (const Term& term : event.terms.terms) {
    if (term.kind == TermValueKind::param) {
      view.params.push_back(term.name);
      perf_name += ',';
      perf_name += term.name;
      perf_name += "=?";
    }
  }
  perf_name += '/';
  if (event.error) {
    view.error = event.error;
    return view;
  }
  // Parameters are the user's to give; encoding them as 0 shows the bits the event fixes. Only
  // an event with parameters needs a changed copy of its terms.
  std::optional<TermList> zeroed;
  if (!view.params.empty()) {
    zeroed = event.terms;
    for (Term& term : zeroed->terms) {
      if (term.kind == TermValueKind::param) {
        term.kind = TermValueKind::number;
        term.value = 0;
        term.text.assign(1, '0');  // not `= "0"`: GCC 12 misreports that as -Wrestrict
        term.style = NumberStyle::decimal;
      }
    }
  }
  auto encoded = encode_terms_attr(pmu, zeroed ? *zeroed : event.terms, Modifiers{}, event.text);
  if (encoded) {
    view.config = encoded->config;
  } else {
    Diagnostic error = encoded.error();
    if (error.range.file == "<spec>") error.range.file = event.path;
    view.error = std::move(error);
  }
  return view;
}

std::string encoding_text(const ConfigWords& config) {
  std::string text = fmt::format("config={:#x}", config[0]);
  for (unsigned word = 1; word < config.size(); ++word) {
    if (config[word] != 0) text += fmt::format(" {}={:#x}", config_word_name(word), config[word]);
  }
  return text;
}

std::string cpus_text(const PmuAttributes& attributes) {
  if (attributes.cpumask) return "cpumask=" + attributes.cpumask->text;
  if (attributes.cpus) return "cpus=" + attributes.cpus->text;
  return "-";
}

}  // namespace cli
PMUCAT_END_NAMESPACE
