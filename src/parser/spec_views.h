// The spec list parsed into views of its text: what parse_spec_list() copies into EventSpecs and
// what the allocation-free Encoder uses directly.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "pmucat/diagnostic.h"
#include "pmucat/perf_profile.h"
#include "pmucat/spec.h"
#include "pmucat/terms.h"

PMUCAT_BEGIN_NAMESPACE
namespace spec_detail {

// EventSpec with views into the list text; its terms and lints are ranges of SpecViews' vectors
// (indices, not spans, so that growing those vectors cannot invalidate them).
struct EventSpecView {
  SpecForm form = SpecForm::pmu_terms;
  std::string_view text;
  std::uint32_t offset = 0;
  std::string_view pmu;
  std::uint32_t pmu_offset = 0;
  std::string_view name;
  std::uint64_t raw_config = 0;
  std::uint64_t numeric_type = 0;
  std::uint32_t terms_begin = 0, terms_end = 0;
  std::uint32_t lints_begin = 0, lints_end = 0;
  // Its text fits the string's inline buffer (15 bytes) for perf 6.1's letters; `R` and `X`
  // with all the others and `ppp` may allocate.
  Modifiers modifiers;
  std::optional<std::uint32_t> group;     // index into SpecViews::groups
  std::uint64_t bp_addr = 0, bp_len = 0;  // breakpoint (see EventSpec)
  std::uint8_t bp_type = 0;
  std::string_view tp_system, tp_event;  // tracepoint
};

struct SpecGroupView {
  std::string_view name;
  Modifiers modifiers;
  bool has_modifiers = false;
  std::uint32_t offset = 0, length = 0;
  std::uint32_t first_event = 0, end_event = 0;  // its members: [first_event, end_event) of events
};

// Reusable: clear() keeps the vectors' capacity.
struct SpecViews {
  std::vector<EventSpecView> events;
  std::vector<TermView> terms;
  std::vector<Diagnostic> lints;  // rebased onto the whole list
  std::vector<SpecGroupView> groups;
  // The scanner's last successfully parsed modifiers (their text included). parse_modifiers
  // depends on the text alone, and an Encoder sees the same few modifier strings over and over;
  // clear() keeps it.
  std::optional<Modifiers> last_modifiers;
  // The perf release's term lexer rules (term_lexing_of). Set by the caller; clear() keeps it.
  TermLexing lexing;

  void clear();
  std::span<const TermView> terms_of(const EventSpecView& event) const {
    return std::span<const TermView>(terms).subspan(event.terms_begin,
                                                    event.terms_end - event.terms_begin);
  }
};

// The term lexer rules of `semantics`' perf release.
TermLexing term_lexing_of(const Profile& semantics);

// parse_spec_list() into views (same grammar, same diagnostics); `out` is cleared first.
std::optional<Diagnostic> parse_spec_views(std::string_view text, SpecViews& out);

// parse_spec_views() without the single-pass scanner (what the scanner is tested against).
std::optional<Diagnostic> parse_spec_views_full(std::string_view text, SpecViews& out);

// The single-pass scanner for the common shape `pmu/name[=value],.../mods`: true when it parsed
// `text` into `out` (exactly as parse_spec_views_full would), false when the text needs the
// full parser (`out` then holds a partial result).
bool scan_simple_spec(std::string_view text, SpecViews& out);

// `mem:ADDR[/LEN][:rwx][:mods]` in [begin, end) of `text` (which starts with `mem:`), as perf
// 6.1's lexer and grammar take it, into `spec` (form, bp fields, modifiers).
std::optional<Diagnostic> parse_breakpoint_item(std::string_view text, std::size_t begin,
                                                std::size_t end, EventSpecView& spec);

// perf's PE_VALUE at `pos`: `0x[hex]+` or `[0-9]+` (no octal, `0X` is not hex). Advances `pos`
// past it; nullopt, `pos` unchanged, when no number starts there.
struct ScannedNumber {
  std::uint64_t value = 0;
  bool overflow = false;  // more than 64 bits (value is then meaningless)
};
std::optional<ScannedNumber> scan_number(std::string_view text, std::size_t& pos, std::size_t end);

// True when the item [begin, end) of `text` is a breakpoint (`mem:` prefix).
inline bool is_breakpoint_item(std::string_view text, std::size_t begin, std::size_t end) {
  return end - begin >= 4 && text.substr(begin, 4) == "mem:";
}

// Where the system and event of a `sys[-name]:event` item are, when perf 6.1's lexer reads the
// item as a tracepoint (the event token is not made only of modifier letters: `cycles:u` is an
// event with modifiers, `sched:sched_switch` a tracepoint).
struct TracepointShape {
  std::size_t system_end = 0;  // the ':'
  std::size_t event_begin = 0, event_end = 0;
};
std::optional<TracepointShape> tracepoint_shape(std::string_view text, std::size_t begin,
                                                std::size_t end);

// True for a word perf 6.1's lexer takes as a keyword rather than a name (`cycles`, `read`,
// `LLC`, `r1a`...): such a tracepoint system or event cannot be written.
bool is_perf_keyword(std::string_view token);

// `rHEX` / `r0xHEX` as an event or term name: the value, or nullopt when `name` is not of that
// shape or has more than 16 digits.
std::optional<std::uint64_t> raw_term_value(std::string_view name);

}  // namespace spec_detail
PMUCAT_END_NAMESPACE
