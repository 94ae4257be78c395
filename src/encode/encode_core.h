// The one encoder of a PMU's terms (user terms plus at most one event alias) into an attr. Both
// encode()/encode_terms() and the allocation-free Encoder run it; they differ only in what they
// build around the attr.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "encode/legacy_events.h"
#include "encode/term_items.h"
#include "encode/term_table.h"
#include "pmucat/attr.h"
#include "pmucat/catalog.h"
#include "pmucat/diagnostic_ids.h"
#include "pmucat/encode.h"
#include "pmucat/terms.h"

PMUCAT_BEGIN_NAMESPACE
namespace encode_detail {

// A format field's value being assembled (pmucat semantics: alias value, then the user's).
struct FieldValue {
  const Format* format = nullptr;
  std::uint64_t value = 0;
  const Item* user = nullptr;
};

// Buffers the core works in. Reusing one keeps their capacity, so a warm encoding allocates
// nothing.
struct CoreScratch {
  std::vector<Item> items;
  std::vector<FieldValue> fields;
};

// What encode() keeps beside the attr; the fast path passes none of these.
struct CoreExtras {
  EventSettings* settings = nullptr;
  std::vector<TermView>* printed_specials = nullptr;  // effective special terms, in order
  std::vector<Diagnostic>* warnings = nullptr;        // encode_legacy's, when wanted
};

class TermEncoder {
 public:
  // `spec` is the text term offsets point into (for diagnostics). `table`, when given, is `pmu`'s
  // term table for these options (semantics and tool; it remembers the aliases it classified);
  // without one terms are looked up in the catalog.
  TermEncoder(const Pmu& pmu, std::string_view spec, const EncodeOptions& options,
              CoreScratch& scratch, TermTable* table = nullptr);

  // Overwrites `attr` with the encoding of `terms` and `modifiers` on this PMU. `terms` must stay
  // alive while the encoder is used (items() views them).
  std::optional<Diagnostic> run(std::span<const TermView> terms, const Modifiers& modifiers,
                                Attr& attr, const CoreExtras& extras = {});

  // The encoder works on the hard-coded terms of a built-in event (a PMU without formats):
  // diagnostics name it as an event (`unknown term 'x' for event 'cycles'`), and a built-in
  // name is no term of it (perf 6.12 rejects `L1-dcache/cycles/`).
  void encode_builtin_event_terms() {
    owner_kind_ = "event";
    builtin_name_terms_ = false;
  }

  // After run(): the alias used (or nullptr) and the classified terms.
  const Event* alias() const { return alias_; }
  // After run(): the legacy hardware or cache term that set the type and config (perf 6.12's
  // `cpu/cycles/`), and its name as written; nullopt when none.
  const std::optional<LegacyEvent>& legacy_term() const { return legacy_; }
  std::string_view legacy_term_name() const { return legacy_name_; }
  std::span<const Item> items() const { return scratch_.items; }

  // After run(): what encode() attaches as warnings: formats of this PMU in a config word this
  // ABI lacks, and a `config=` term a legacy term after it replaced.
  std::vector<Diagnostic> warnings() const;

 private:
  Diagnostic error_at(const Item& item, bool at_value, DiagId id, std::string message) const;
  // error_at with any id: "" for the notes that point at a term's first use.
  Diagnostic located_at(const Item& item, bool at_value, std::string_view id,
                        std::string message) const;
  Diagnostic unknown_term(const Item& item) const;
  std::string event_file(const Event& event) const;
  Diagnostic reference_note(std::string message) const;

  std::optional<Diagnostic> expand(std::span<const TermView> terms);
  std::optional<Diagnostic> unknown_event_field(const Item& item) const;
  std::optional<Diagnostic> splice_alias(const TermView& reference, std::string_view name);
  TermLookup look_up(std::string_view name) const;
  std::optional<Diagnostic> classify(Item& item) const;
  // With the term's special and format (nullptr when it is special) already looked up.
  std::optional<Diagnostic> classify(Item& item, std::optional<Special> special,
                                     const Format* format) const;
  // Appends a classified item, counting its role.
  void keep(const Item& item);
  void count_role(const Item& item);
  std::optional<Diagnostic> resolve_params();
  Expected<std::uint64_t> field_value(const Item& item) const;
  // field_value()'s value by plain branches: false where field_value() reports a problem (it is
  // then asked for the diagnostic), so the success path builds no Expected.
  bool valid_field_value(const Item& item, std::uint64_t& value) const;
  // apply_fields() (pmucat semantics) on a PMU without a default config, where field values are
  // OR-ed into their words: false (attr untouched) on a problem, which the general path reports.
  bool apply_or_fields(Attr& attr) const;
  std::optional<Diagnostic> apply_config_words(Attr& attr);
  // Whether a term assigning config word 0 follows the legacy term (and so wins over it).
  bool config_set_after_legacy_term() const;
  std::optional<Diagnostic> apply_fields(Attr& attr);
  std::optional<Diagnostic> apply_specials(Attr& attr, const CoreExtras& extras);
  std::optional<Diagnostic> pmu_type(Attr& attr) const;
  // perf 6.12's legacy terms (pmucat semantics too; perf 7.3 reads the names from its tables,
  // builtin_name): a bare hardware (`cycles`) or hardware cache (`L1-dcache-load-misses`) name
  // in the terms is that legacy event unless the PMU has an event of the name (has_event_612:
  // perf 6.12's lookup, or any event for pmucat); cache names only on a core PMU.
  std::optional<LegacyEvent> legacy_term(const TermView& term) const;
  // The built-in event a term's name is: perf 7.3's tables in any case
  // (Behaviour::builtin_names_any_case), else perf 6.12's lexer names.
  std::optional<LegacyEvent> builtin_name(std::string_view name) const;
  // perf 7.3 (Behaviour::builtin_events_in_pmu_terms): a software event's name as a term of the
  // software PMU (type 1, `software/page-faults/`), which the PMU's sysfs directory lists no
  // events for; perf 7.3 reads them from its software table.
  std::optional<LegacyEvent> software_term(const TermView& term) const;
  bool has_event_612(std::string_view name) const;
  // perf 6.12 encodes a format file of several terms with its last (Format::last_term).
  const FormatSpec& spec_of(const Format& format) const {
    return last_format_term_ && !format.last_term.empty() ? format.last_term.front() : format.spec;
  }

  const Pmu& pmu_;
  std::string_view owner_kind_ = "PMU";
  bool builtin_name_terms_ = true;
  std::string_view spec_;
  const EncodeOptions& options_;
  bool has(Behaviour behaviour) const { return options_.semantics.has(behaviour); }
  std::string_view profile_name() const { return options_.semantics.name(); }

  // Behaviour::user_term_overrides_alias: the alias's fields first, then the user's replace
  // them (two passes); else every term is OR-ed in one pass.
  bool overrides_;
  bool last_format_term_;  // Behaviour::last_format_term: spec_of() takes a file's last term
  unsigned words_;         // config words the attr has: 5, 4 or 3 (Behaviour::config4, config3)
  CoreScratch& scratch_;
  TermTable* table_;
  std::vector<Item>& items_;
  const Event* alias_ = nullptr;
  const TermView* alias_reference_ = nullptr;
  // perf 6.12: the legacy event a term named (legacy_term), which replaces the PMU's type
  // and config before the fields are OR-ed in.
  std::optional<LegacyEvent> legacy_;
  std::string_view legacy_name_;
  // How many items came before the legacy term: a `config=` among them is overridden by it (perf
  // assigns terms in order, `cpu/config=2,cycles/` counts cycles).
  std::size_t items_before_legacy_ = 0;
  // Set for PMUs that start from a default config (intel_pt): their fields are then replaced,
  // not OR-ed, as perf does for them.
  std::optional<std::array<std::uint64_t, kConfigWords>> default_config_;
  // How many kept items have each role other than format.
  struct RoleCounts {
    unsigned specials = 0;
    unsigned raw_configs = 0;
    unsigned params = 0;
  };
  RoleCounts counts_;
};

}  // namespace encode_detail
PMUCAT_END_NAMESPACE
