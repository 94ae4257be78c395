#include "pmuls/event_view.h"

#include <fmt/core.h>

#include "pmucat/encode.h"
#include "pmucat/format.h"

namespace pmucat::cli {

EventView view_event(const Pmu& pmu, const Event& event) {
  EventView view;
  view.event = &event;
  std::string suffix;
  for (const Term& term : event.terms.terms) {
    if (term.kind == TermValueKind::param) {
      view.params.push_back(term.name);
      suffix += fmt::format(",{}=?", term.name);
    }
  }
  view.perf_name = fmt::format("{}/{}{}/", pmu.name(), event.name, suffix);
  if (event.error) {
    view.error = event.error;
    return view;
  }
  // Parameters are the user's to give; encoding them as 0 shows the bits the event fixes.
  TermList terms = event.terms;
  for (Term& term : terms.terms) {
    if (term.kind == TermValueKind::param) {
      term.kind = TermValueKind::number;
      term.value = 0;
      term.text.assign(1, '0');  // not `= "0"`: GCC 12 misreports that as -Wrestrict
      term.style = NumberStyle::decimal;
    }
  }
  auto encoded = encode_terms(pmu, terms, Modifiers{}, event.text);
  if (encoded) {
    view.config = encoded->attr.config;
  } else {
    Diagnostic error = encoded.error();
    if (error.range.file == "<spec>") error.range.file = event.path;
    view.error = std::move(error);
  }
  return view;
}

std::string encoding_text(const std::array<std::uint64_t, 4>& config) {
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

}  // namespace pmucat::cli
