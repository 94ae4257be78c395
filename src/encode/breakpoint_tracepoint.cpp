// Breakpoints (`mem:...`) and tracepoints (`sys:event`): attrs that come from no PMU.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <utility>

#include "encode/targets.h"
#include "parser/spec_diagnostics.h"
#include "pmucat/diagnostic_ids.h"
#include "pmucat/suggest.h"

PMUCAT_BEGIN_NAMESPACE
namespace encode_detail {
namespace {

using spec_detail::spec_error;

// The terms perf 6.1 accepts on a tracepoint (config_term_tracepoint); they configure the evsel
// at record time, not the attr the spec determines.
constexpr std::array<std::string_view, 10> kTracepointTerms = {
    "call-graph", "stack-size", "inherit",      "no-inherit", "max-stack",
    "nr",         "overwrite",  "no-overwrite", "aux-output", "aux-sample-size"};

std::string access_letters(std::uint8_t bp_type) {
  std::string letters;
  if ((bp_type & breakpoint_access::read) != 0) letters += 'r';
  if ((bp_type & breakpoint_access::write) != 0) letters += 'w';
  if ((bp_type & breakpoint_access::execute) != 0) letters += 'x';
  return letters;
}

}  // namespace

void encode_builtin(const Target& target, const EventSpecView& event, const EncodeOptions& options,
                    Attr& attr) {
  attr = Attr{};
  attr.size = options.semantics.attr_size();
  if (target.builtin == Target::Builtin::breakpoint) {
    attr.type = static_cast<std::uint32_t>(PerfType::breakpoint);
    attr.bp_type = event.bp_type;
    attr.config[1] = event.bp_addr;
    attr.config[2] = event.bp_len;
  } else {
    attr.type = static_cast<std::uint32_t>(PerfType::tracepoint);
    attr.config[0] = target.tracepoint->id;
    if (options.tool == Tool::record) {
      attr.sample_type = sample::raw | sample::time | sample::cpu | sample::period;
    }
  }
  if (options.tool == Tool::record) attr.sample_period = 1;
  apply_modifiers(event.modifiers, attr, options.semantics);
}

std::string builtin_perf_string(const Target& target, const EventSpecView& event) {
  std::string text;
  if (target.builtin == Target::Builtin::breakpoint) {
    text =
        fmt::format("mem:{:#x}/{}:{}", event.bp_addr, event.bp_len, access_letters(event.bp_type));
  } else {
    text = target.tracepoint->system + ":" + target.tracepoint->event;
    if (!target.terms.empty()) {
      text += '/';
      for (std::size_t i = 0; i < target.terms.size(); ++i) {
        const TermView& term = target.terms[i];
        if (i > 0) text += ',';
        text += term.name;
        if (term.kind != TermValueKind::none) {
          text += '=';
          text += term.kind == TermValueKind::number ? std::to_string(term.value)
                                                     : std::string(term.text);
        }
      }
      text += '/';
    }
  }
  const std::string mods = canonical_modifiers(event.modifiers);
  if (!mods.empty()) text += ":" + mods;
  return text;
}

Expected<std::vector<Tracepoint>> resolve_tracepoints(std::string_view spec,
                                                      const EventSpecView& event,
                                                      std::span<const TermView> terms,
                                                      const EncodeOptions& options) {
  for (const TermView& term : terms) {
    if (options.tool == Tool::stat) {
      auto d = spec_error(DiagId::term_not_in_stat, spec, term.offset, term.name.size(),
                          fmt::format("'{}' is not usable in 'perf stat'", term.name));
      d.hint = "a tracepoint's terms configure sampling: use them with --for record";
      return unexpected(std::move(d));
    }
    bool known = false;
    for (std::string_view name : kTracepointTerms) known = known || term.name == name;
    if (!known) {
      auto d = spec_error(DiagId::term_unknown, spec, term.offset, term.name.size(),
                          fmt::format("unknown term '{}' for a tracepoint", term.name));
      d.hint =
          "valid terms: call-graph, stack-size, inherit, no-inherit, max-stack, nr, "
          "overwrite, no-overwrite, aux-output, aux-sample-size";
      return unexpected(std::move(d));
    }
  }
  auto tracefs = options.tracefs.empty() ? Tracefs::open_live() : Tracefs::open(options.tracefs);
  if (!tracefs) {
    // Located in the spec, with the tracefs problem as the hint.
    const Diagnostic& cause = tracefs.error();
    auto d = spec_error(DiagId::tracepoint_no_tracefs, spec, event.offset, event.name.size(),
                        fmt::format("no tracefs to look up tracepoint '{}' in", event.name));
    d.hint = fmt::format("{}: {}; give one with --tracefs DIR or PMUCAT_TRACEFS", cause.range.file,
                         cause.message);
    return unexpected(std::move(d));
  }
  auto found = tracefs->match(event.tp_system, event.tp_event);
  if (!found) return unexpected(std::move(found).error());
  if (!options.semantics.has(Behaviour::tracepoint_glob_takes_matching_systems) &&
      event.tp_system.find_first_of("*?") != std::string_view::npos) {
    // perf 6.1 fails the whole spec when one system the glob matches has no matching event
    // (add_tracepoint_multi_event's "not found"); pmucat takes the systems that have one.
    auto systems = tracefs->match_systems(event.tp_system);
    if (!systems) return unexpected(std::move(systems).error());
    for (const std::string& system : *systems) {
      const bool has = std::any_of(found->begin(), found->end(),
                                   [&](const Tracepoint& tp) { return tp.system == system; });
      if (has) continue;
      auto d = spec_error(DiagId::tracepoint_unknown, spec, event.offset, event.name.size(),
                          fmt::format("no tracepoint '{}:{}' in {}/events (perf 6.1 needs one "
                                      "in every system the glob matches)",
                                      system, event.tp_event, tracefs->root()));
      return unexpected(std::move(d));
    }
  }
  if (!found->empty()) return found;
  auto d =
      spec_error(DiagId::tracepoint_unknown, spec, event.offset, event.name.size(),
                 fmt::format("unknown tracepoint '{}' in {}/events", event.name, tracefs->root()));
  // A suggestion where it is cheap: the nearest event of a system that exists, else the
  // nearest system.
  auto systems = tracefs->systems();
  if (systems) {
    const std::string system(event.tp_system);
    if (std::find(systems->begin(), systems->end(), system) != systems->end()) {
      auto events = tracefs->events(system);
      if (events) {
        if (auto nearest = nearest_name(event.tp_event, *events)) {
          d.hint = fmt::format("did you mean '{}:{}'?", system, *nearest);
          d.fixit = FixIt{d.range, system + ":" + *nearest};
        }
      }
    } else if (auto nearest = nearest_name(event.tp_system, *systems)) {
      d.hint = fmt::format("no tracepoint system '{}'; did you mean '{}'?", system, *nearest);
    }
  }
  return unexpected(std::move(d));
}

}  // namespace encode_detail
PMUCAT_END_NAMESPACE
