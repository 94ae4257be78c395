// apply_tool_defaults(): what perf 6.1's stat and record add to the spec's attr. The facts come
// from perf 6.1's create_perf_stat_counter (stat) and evsel__config / evlist__config (record),
// checked field by field against the real perf (tests/differential, ToolAttrsDiff).
#include "pmucat/tool_defaults.h"

#include <fmt/format.h>

#include <cstddef>
#include <optional>
#include <vector>

#include "encode/special_terms.h"
#include "encode/targets.h"
#include "pmucat/diagnostic_ids.h"

PMUCAT_BEGIN_NAMESPACE
namespace {

using encode_detail::CallchainRequest;
using encode_detail::find_any_special;
using encode_detail::Special;

constexpr std::uint64_t kRecordDefaultFreq = 4000;  // perf record's -F default
constexpr std::uint64_t kDummyConfig = 9;           // PERF_COUNT_SW_DUMMY

struct Layout {
  std::vector<std::size_t> leader;   // each event's group leader (itself outside groups)
  std::vector<std::size_t> members;  // members per leader index (0 for non-leaders)
};

Layout layout_of(std::span<const EncodedEvent> events) {
  Layout layout;
  layout.leader.resize(events.size());
  layout.members.assign(events.size(), 0);
  for (std::size_t i = 0; i < events.size(); ++i) {
    const std::optional<std::size_t>& leader = events[i].group_leader;
    layout.leader[i] = leader && *leader < events.size() ? *leader : i;
    ++layout.members[layout.leader[i]];
  }
  return layout;
}

bool has_term(const EncodedEvent& event, Special wanted) {
  for (const Term& term : event.settings.special_terms) {
    if (find_any_special(term.name) == wanted) return true;
  }
  return false;
}

void apply_stat(EncodedEvent& event, bool leader, bool in_group) {
  Attr& attr = event.attr;
  attr.read_format = read_fmt::total_time_enabled | read_fmt::total_time_running;
  if (in_group) attr.read_format |= read_fmt::id | read_fmt::group;
  attr.inherit = true;
  // perf stat counts: whatever sampling the event came with is cleared.
  attr.sample_period = 0;
  attr.sample_freq = 0;
  attr.freq = false;
  attr.sample_type = sample::identifier;
  attr.disabled = leader;
  attr.enable_on_exec = leader;
}

// The special terms again, over the defaults (perf's evsel__apply_config_terms). They already
// shaped the spec's attr, so applying them a second time changes only what the defaults set.
void reapply_terms(EncodedEvent& event) {
  CallchainRequest callchain;
  EventSettings ignored;
  for (const Term& term : event.settings.special_terms) {
    const std::optional<Special> special = find_any_special(term.name);
    if (!special) continue;
    (void)encode_detail::apply_special(*special, TermView::of(term), Tool::record, event.attr,
                                       &ignored, callchain);
  }
  encode_detail::apply_callchain(callchain, event.attr);
}

void apply_record(EncodedEvent& event, bool tracking, bool leader, std::size_t group_size,
                  Profile semantics) {
  Attr& attr = event.attr;
  const bool sample_read = (attr.sample_type & sample::read) != 0;
  attr.sample_id_all = true;
  attr.inherit = true;
  attr.write_backward = false;
  attr.read_format = read_fmt::lost;
  attr.sample_type |= sample::ip | sample::tid;
  if (sample_read) {
    attr.sample_type |= sample::read | sample::id;
    attr.read_format |= read_fmt::id;
    if (group_size > 1) {
      attr.read_format |= read_fmt::group;
      // perf 7.2 leaves a sample-read group inheritable (newer kernels take it; perf drops it
      // itself where the kernel refuses); 6.12 and 6.1 cleared it.
      if (!semantics.has(Behaviour::sample_read_group_inherits)) attr.inherit = false;
    }
  }
  // A period from the spec (a term, a tracepoint's 1) keeps perf's default frequency away.
  if (attr.sample_period == 0 && !attr.freq) {
    attr.freq = true;
    attr.sample_freq = kRecordDefaultFreq;
  }
  if (attr.freq) attr.sample_type |= sample::period;
  attr.sample_type |= sample::time;
  attr.task = attr.mmap = attr.mmap2 = attr.comm = tracking;
  attr.ksymbol = attr.bpf_event = tracking;
  attr.comm_exec = tracking;
  attr.build_id = tracking && semantics.has(Behaviour::record_sets_build_id);
  attr.disabled = leader;
  attr.enable_on_exec = leader;
  if (event.settings.precise_max) attr.precise_ip = 3;  // the first of perf's tries
  // perf gives every event an ID in read_format (each evsel has a unit or its own CPUs).
  attr.read_format |= read_fmt::id;
  reapply_terms(event);
  if (attr.type == static_cast<std::uint32_t>(PerfType::software) &&
      attr.config[0] == kDummyConfig) {
    attr.sample_type &= ~sample::branch_stack;
  }
}

// Members of a group whose leader samples with `S` stop sampling themselves and copy the
// leader's sample_type (perf's evsel__config_leader_sampling, with the leader as read sampler).
void apply_leader_sampling(std::span<EncodedEvent> events, const Layout& layout) {
  for (std::size_t i = 0; i < events.size(); ++i) {
    const std::size_t leader = layout.leader[i];
    if (leader == i || (events[leader].attr.sample_type & sample::read) == 0) continue;
    Attr& attr = events[i].attr;
    if (!has_term(events[i], Special::period) && !has_term(events[i], Special::freq)) {
      attr.freq = false;
      attr.sample_freq = 0;
      attr.sample_period = 0;
    }
    if (!has_term(events[i], Special::overwrite) && !has_term(events[i], Special::no_overwrite)) {
      attr.write_backward = false;
    }
    attr.sample_type = events[leader].attr.sample_type;
  }
}

// Several events need IDs to tell their samples apart: ID, or IDENTIFIER (and no ID) when their
// sample types differ (evlist__config).
void apply_sample_ids(std::span<EncodedEvent> events) {
  if (events.size() < 2) return;
  bool differ = false;
  for (const EncodedEvent& event : events) {
    differ = differ || event.attr.sample_type != events.front().attr.sample_type;
  }
  for (EncodedEvent& event : events) {
    if (differ) {
      event.attr.sample_type = (event.attr.sample_type & ~sample::id) | sample::identifier;
    } else {
      event.attr.sample_type |= sample::id;
    }
    event.attr.read_format |= read_fmt::id;
  }
}

}  // namespace

void apply_tool_defaults(std::span<EncodedEvent> events, Tool tool) {
  apply_tool_defaults(events, tool, Profile{});
}

void apply_tool_defaults(std::span<EncodedEvent> events, Tool tool, Profile semantics) {
  const Layout layout = layout_of(events);
  for (std::size_t i = 0; i < events.size(); ++i) {
    const bool leader = layout.leader[i] == i;
    const std::size_t group_size = layout.members[layout.leader[i]];
    if (tool == Tool::stat) {
      apply_stat(events[i], leader, events[i].group_leader.has_value() && group_size > 1);
    } else {
      apply_record(events[i], i == 0, leader, group_size, semantics);
    }
  }
  if (tool == Tool::record) {
    apply_leader_sampling(events, layout);
    apply_sample_ids(events);
  }
}

std::optional<Diagnostic> check_tool_can_open(std::span<const EncodedEvent> events, Tool tool,
                                              Profile semantics) {
  if (tool != Tool::record || !semantics.has(Behaviour::tool_events_not_recordable)) {
    return std::nullopt;
  }
  for (const EncodedEvent& event : events) {
    const std::string_view canonical = event.perf_string;
    const std::string_view name = canonical.substr(0, canonical.find_first_of(":/"));
    if (!encode_detail::is_tool_event(name)) continue;
    // Under the name as the user wrote it (the event's own text of the list).
    const std::size_t at = event.spec.find(name);
    Diagnostic d = make_diagnostic(
        Severity::error, DiagId::event_tool_not_recordable, "<spec>", event.spec,
        at == std::string::npos ? 0 : at, at == std::string::npos ? 0 : name.size(),
        fmt::format("perf record cannot record '{}': perf counts its tool events itself, in "
                    "perf stat only (perf 6.12: \"event is not supported\")",
                    name));
    d.hint = "count it with --for stat, or record a software event such as cpu-clock";
    return d;
  }
  return std::nullopt;
}

PMUCAT_END_NAMESPACE
