// Event spec -> perf_event_attr, with perf's semantics (see docs/perf-compat.md for where
// pmucat deliberately differs, and EncodeOptions::semantics to get perf's behaviour instead).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "pmucat/attr.h"
#include "pmucat/catalog.h"
#include "pmucat/diagnostic.h"
#include "pmucat/expected.h"
#include "pmucat/perf_profile.h"
#include "pmucat/spec.h"
#include "pmucat/version.h"

PMUCAT_BEGIN_NAMESPACE

enum class Tool : std::uint8_t {
  stat,    // like `perf stat`: only config*, name, metric-id, period, percore are usable terms
  record,  // like `perf record`: every special term applies to the attr
};

// Whether the kernel takes a core PMU's type in bits 32-63 of a hardware or cache event's config
// (perf's "extended type", PERF_PMU_TYPE_SHIFT), which matters on machines with several core
// PMUs (Intel hybrid `cpu_core`/`cpu_atom`). perf 6.12 asks the running kernel once; the answer is
// the kernel's, not the tree's, so a caller encoding for another machine says it here.
enum class ExtendedType : std::uint8_t {
  // One hardware event per core PMU, with its type (`cycles` -> cpu_core's and cpu_atom's), as
  // perf 6.1 always built it on hybrid trees.
  supported,
  // perf 6.12 when its probe fails: a hardware event once, without a PMU type; a cache event
  // still once per core PMU, without one. Ignored under perf 6.1 semantics (6.1 never asks).
  unsupported,
};

// Asks the running kernel as perf 6.12 does: supported when `catalog` has more than one core PMU
// and the kernel opens `cycles` with each one's type (for this thread, retrying with
// exclude_kernel, then exclude_guest). A single core PMU, or any refusal, is unsupported.
ExtendedType probe_extended_type(const Catalog& catalog);

struct EncodeOptions {
  // The behaviours to follow: pmucat's own (the default), or a perf release's bit for bit
  // (Profile::perf, from include/pmucat/perf_releases.def; docs/perf-compat.md).
  Profile semantics = Profile::pmucat();
  Tool tool = Tool::record;
  // PMU for terms_only/raw specs; empty means Catalog::core_pmu().
  std::string default_pmu;
  // The tracefs root (holding events/) for tracepoint specs (`sched:sched_switch`); empty means
  // the running kernel's (Tracefs::open_live()). Read only when a spec names a tracepoint.
  std::string tracefs;
  // Last, so that brace-initialised options of earlier releases keep their meaning.
  ExtendedType extended_type = ExtendedType::supported;
};

// What perf keeps next to the attr (evsel state) rather than in it.
struct EventSettings {
  std::optional<std::string> name;         // name=
  std::optional<std::string> metric_id;    // metric-id=
  std::optional<std::uint64_t> percore;    // percore=
  std::optional<std::uint64_t> nr;         // nr=
  std::optional<std::string> call_graph;   // call-graph=fp|dwarf|lbr|no
  std::optional<std::string> branch_type;  // branch_type= as written
  std::vector<std::string> driver_config;  // @cfg terms
  // The effective special terms other than config words (one per name, the last one given, from
  // the alias or the user), in order: perf applies them again over its tool defaults
  // (apply_tool_defaults() in pmucat/tool_defaults.h).
  std::vector<Term> special_terms;
  // `P`: perf record opens the event with precise_ip 3 first and lowers it until the open
  // succeeds; the spec's attr keeps precise_ip 0 (apply_tool_defaults() sets the 3).
  bool precise_max = false;
  // `R`: perf stat opens no counter for the event; its value is a retirement latency (the
  // vendor table's, or perf record's samples with --record-tpebs). The attr is the one sampled.
  bool retire_latency = false;
  // `X`: perf 7.3 keeps the event where it was written when it regroups a list (topdown events).
  bool no_regroup = false;
  friend bool operator==(const EventSettings&, const EventSettings&) = default;
};

struct EncodedEvent {
  std::string spec;   // the spec text this attr came from
  std::string pmu;    // the PMU instance used
  std::string event;  // the sysfs event (alias) name used, empty when none
  // What the spec determines: type, config words, modifier bits and (Tool::record) the special
  // terms' fields; no tool defaults. size is 136 (pmucat) or 128 (perf 6.1 semantics). See
  // docs/perf-compat.md.
  Attr attr;
  EventSettings settings;
  std::string perf_string;           // canonical spec that `perf stat -e` accepts for the same attr
  std::vector<Diagnostic> warnings;  // e.g. a format word this kernel ABI lacks
  // Event groups (`{a,b}:mods`, `name{a,b}`): the index in encode()'s result of this attr's group
  // leader (its own index for the leader); nullopt for an event outside any group.
  std::optional<std::size_t> group_leader;
  std::string group_name;  // `name{...}`'s name; empty when unnamed or outside a group
  // The group's `}:mods`, canonical (already applied to attr; kept so the group's perf string
  // can be printed); empty when none or outside a group.
  std::string group_modifiers;
  friend bool operator==(const EncodedEvent&, const EncodedEvent&) = default;
};

// Encodes a comma-separated spec list. One EncodedEvent per resulting attr: a PMU pattern or an
// event name present on several PMUs gives several. Errors point into `spec` ("<spec>") or into
// the sysfs event file that caused them.
Expected<std::vector<EncodedEvent>> encode(const Catalog& catalog, std::string_view spec,
                                           const EncodeOptions& options = {});

// Which catalog entries an Encoder::encode_one() attr came from (pointers into the catalog).
struct EncodedSource {
  const Pmu* pmu = nullptr;      // nullptr for perf's built-in events (`cycles`, `cpu-clock`)
  const Event* event = nullptr;  // the sysfs event (alias) used, or nullptr
};

// The allocation-free fast path of encode() for specs that stand for one attr: the same parser,
// target resolution and encoding core, without the strings of EncodedEvent. Keep one per thread
// and reuse it: its buffers keep their capacity, so on a warm catalog encode_one() allocates
// nothing unless it fails (building the diagnostic). EventSettings (name=, call-graph=, ...) and
// format-unsupported-word warnings are not reported: use encode() for those.
// It remembers what it looked up in the catalog (the PMU a name is, each PMU's terms, type and
// default config, the event aliases it used), so a repeated spec costs only its parse and
// encoding; it grows with the PMUs and events used, not with the number of calls.
class Encoder {
 public:
  explicit Encoder(const Catalog& catalog, EncodeOptions options = {});
  Encoder(Encoder&&) noexcept;
  Encoder& operator=(Encoder&&) noexcept;
  ~Encoder();

  // Encodes `spec` into `out` (overwritten; equal to encode()'s attr for the same spec). A spec
  // that stands for several attrs (a list, a PMU with several instances, an event on several
  // PMUs) fails with id `encode-several-attrs`: use encode() for it.
  Expected<EncodedSource> encode_one(std::string_view spec, Attr& out);

 private:
  struct State;
  std::unique_ptr<State> state_;
};

// Encodes already-parsed terms on one PMU (the pure core; no spec syntax). `spec_text` is the
// text the term offsets point into, for diagnostics.
Expected<EncodedEvent> encode_terms(const Pmu& pmu, const TermList& terms,
                                    const Modifiers& modifiers, std::string_view spec_text,
                                    const EncodeOptions& options = {});

// The attr encode_terms() gives (or its error), without the names, settings, warnings and
// canonical perf string around it: for tools that encode every event of a tree and show only
// the config words.
Expected<Attr> encode_terms_attr(const Pmu& pmu, const TermList& terms, const Modifiers& modifiers,
                                 std::string_view spec_text, const EncodeOptions& options = {});

// True for a term perf handles itself rather than through format/ (config..config4, period,
// name, call-graph, @cfg, ...): such a term in an events/ file needs no format file.
bool is_special_term(std::string_view name);

// Applies modifiers to an attr the way perf does (u/k/h exclusions, precise_ip, G/H, D, I, e, S);
// whether no modifier, `u` or `p` exclude the guest depends on `semantics`.
void apply_modifiers(const Modifiers& modifiers, Attr& attr, Profile semantics = {});

PMUCAT_END_NAMESPACE
