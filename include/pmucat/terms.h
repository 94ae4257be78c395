// The event-term grammar shared by sysfs `events/<name>` files and perf's `pmu/terms/` syntax:
// term[=value][,term[=value]]...
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "pmucat/diagnostic.h"
#include "pmucat/expected.h"
#include "pmucat/version.h"

PMUCAT_BEGIN_NAMESPACE

enum class TermValueKind : std::uint8_t {
  none,    // bare `inv`: means 1
  number,  // `event=0x3c`, `cmask=3`
  param,   // `core=?`: supplied by the user of the event
  string,  // `event=foo` (alias reference), `call-graph=fp`, `name='my name'`
};

// How a number was spelled; validators warn on some of these, encoders ignore it.
enum class NumberStyle : std::uint8_t {
  none,              // not a number
  decimal,           // 16, 010 (perf reads 010 as ten)
  hex,               // 0x3c, 0x3C (digits may be upper case)
  hex_upper_digits,  // 0xAB: accepted by perf, flagged by validators
};

struct Term {
  std::string name;  // as written; field names are case-sensitive
  TermValueKind kind = TermValueKind::none;
  std::uint64_t value = 1;  // the number, or 1 for a bare term, 0 for param/string
  std::string text;         // string value without quotes; "?" for a param
  NumberStyle style = NumberStyle::none;
  std::uint32_t offset = 0;        // byte offset of the name in the parsed text
  std::uint32_t length = 0;        // bytes of the whole item (`name=value`)
  std::uint32_t value_offset = 0;  // byte offset of the value (== offset for a bare term)
  std::uint32_t value_length = 0;  // bytes of the value as written (0 for a bare term)
  friend bool operator==(const Term&, const Term&) = default;
};

// A Term whose strings view other storage: the parsed text, or a Term (TermView::of). Cheap to
// copy; valid only while that storage lives. What the allocation-free paths work on.
struct TermView {
  std::string_view name;
  TermValueKind kind = TermValueKind::none;
  std::uint64_t value = 1;
  std::string_view text;
  NumberStyle style = NumberStyle::none;
  std::uint32_t offset = 0;
  std::uint32_t length = 0;
  std::uint32_t value_offset = 0;
  std::uint32_t value_length = 0;

  static TermView of(const Term& term);
  Term to_term() const;
  friend bool operator==(const TermView&, const TermView&) = default;
};

struct TermList {
  std::vector<Term> terms;
  std::vector<Diagnostic> lints;  // tolerated oddities (stray bytes, uppercase hex, ...)
  friend bool operator==(const TermList&, const TermList&) = default;
};

enum class TermSyntax : std::uint8_t {
  event_file,    // contents of events/<name>: lints for what the sysfs ABI does not have
  command_line,  // the part between slashes of `pmu/.../`: same grammar (quoted strings such as
                 // name='a,b', @driver terms), none of the sysfs ABI lints
};

// Parses a term list. `file` names the text in diagnostics ("<spec>" for the command line);
// `base_offset` is added to every offset so a caller can parse a slice of a larger string and
// still point into the whole. An empty (or all-blank) text gives an empty list.
// Diagnostics' line, column and source_line describe the slice: pass them through
// rebase_diagnostic(d, whole_text) to point into the whole string before rendering.
// Grammar, lints and error ids: docs/grammar.md section 2.
Expected<TermList> parse_terms(std::string_view text, std::string_view file,
                               TermSyntax syntax = TermSyntax::event_file,
                               std::uint32_t base_offset = 0);

// The release-dependent rules of perf's term lexer (a Profile gives them; the defaults are perf
// 6.1's, which the sysfs event-file lints also use).
struct TermLexing {
  // perf 6.12's name rule: a name may start with a digit and hold '-', and a value that goes on
  // past its digits with name bytes is one name (`cpu=0-1`, `name=12abc`).
  bool digit_led_names = false;
  // perf 7.3's one term_name rule: a name holds `!` with `:` (a metric-id such as
  // `cpu!1cycles:kHh`), where perf 6.12's two rules took either but not both in one name.
  bool bang_in_term_names = false;
  friend bool operator==(const TermLexing&, const TermLexing&) = default;
};

// parse_terms without building owning Terms: appends views into `text` to `out` (whose capacity
// a caller can keep across calls) and lints to `lints`. Allocates nothing on success unless a
// lint is reported or `out` must grow. Same grammar, offsets and diagnostics as parse_terms.
// `lexing`: the perf release's lexer rules (perf 6.1's by default).
Expected<std::size_t> parse_term_views(std::string_view text, std::string_view file,
                                       TermSyntax syntax, std::uint32_t base_offset,
                                       std::vector<TermView>& out, std::vector<Diagnostic>& lints,
                                       TermLexing lexing = {});

// Offset of the first '/' at or after `start` that is not inside a '...' or "..." string (the
// slash closing `pmu/terms/`), or std::string_view::npos. An unterminated quote runs to the end.
std::size_t find_terms_end(std::string_view spec, std::size_t start = 0);

// Prints terms in the canonical form the parser reads back to the same names, kinds and values:
// numbers as lowercase `0x..` hex, bare terms bare, params as `?`, strings quoted when needed.
std::string print_terms(std::span<const Term> terms);

// Prints one value the way print_terms does (`0x3c`, `?`, `fp`, `'a,b'`; empty for a bare term).
std::string print_term_value(const Term& term);

PMUCAT_END_NAMESPACE
