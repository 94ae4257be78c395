// The rule registry: ids, severities and rationales. docs/rules.md documents each with an example.
#include <algorithm>
#include <array>

#include "pmucat/check.h"

namespace pmucat::check {
namespace {

constexpr Severity kError = Severity::error;
constexpr Severity kWarning = Severity::warning;
constexpr Severity kNote = Severity::note;

constexpr std::array kRules = {
    Rule{"catalog-stray-entry", kWarning, Group::tree, true,
         "an entry of the devices directory is not a PMU directory, so perf ignores it"},
    Rule{"capture-manifest-invalid", kError, Group::tree, true,
         "a pmusnap capture whose manifest cannot be read may hide files it could not capture"},
    Rule{"file-unreadable", kError, Group::attributes, true,
         "a file that cannot be read hides part of the PMU from every tool"},
    Rule{"file-too-large", kError, Group::attributes, true,
         "sysfs files are small; a huge file is corrupt and perf would truncate it"},
    Rule{"file-not-regular", kError, Group::attributes, true,
         "a directory or device where a sysfs attribute file belongs cannot be read as one"},
    Rule{"file-nul-byte", kError, Group::attributes, true,
         "a NUL byte ends the text early for C readers such as perf"},
    Rule{"pmu-dir-unreadable", kError, Group::attributes, true,
         "a PMU directory that cannot be listed hides the whole PMU"},
    Rule{"pmu-type-missing", kWarning, Group::attributes, true,
         "perf skips a PMU directory without a readable `type` file"},
    Rule{"pmu-type-invalid", kError, Group::attributes, true,
         "`type` must be a decimal number; perf reads `0x2e` as type 0"},
    Rule{"pmu-type-trailing", kWarning, Group::attributes, true,
         "text after the type number is ignored by perf's fscanf and hints at a corrupt file"},
    Rule{"type-duplicate", kError, Group::attributes, true,
         "two PMUs with one type number make perf_event_open reach the wrong driver"},
    Rule{"pmu-attribute-invalid", kError, Group::attributes, true,
         "a numeric PMU attribute (nr_addr_filters, perf_event_mux_interval_ms) that is not a "
         "number"},
    Rule{"cpumask-invalid", kError, Group::cpumask, true,
         "`cpumask`/`cpus` must be kernel CPU lists; perf picks the CPUs to open events on from "
         "them"},
    Rule{"pmu-name-suffix", kWarning, Group::pmu_name, true,
         "a PMU name ending in `_` and one or two hex digits with a letter is not an instance "
         "suffix, so the base name does not select it"},
    Rule{"pmu-name-charset", kWarning, Group::pmu_name, true,
         "PMU names are `[A-Za-z0-9._-]`; other bytes (invalid UTF-8, blanks) cannot be written "
         "in perf's event spec"},
    Rule{"format-syntax", kError, Group::format, true,
         "a format file that does not parse makes perf 6.1 drop the whole PMU"},
    Rule{"format-bit-out-of-range", kError, Group::format, true,
         "bits >= 64 do not exist in a config word; perf drops them (6.1 writes out of bounds)"},
    Rule{"format-reversed-range", kError, Group::format, true,
         "`a-b` with a > b is an empty field for perf"},
    Rule{"format-zero-end-range", kWarning, Group::format, true,
         "`a-0` means the single bit a to perf, which is rarely what the author meant"},
    Rule{"format-overlap", kWarning, Group::format, true,
         "ranges of one format file overlap; perf ORs them, so the field is narrower than written"},
    Rule{"format-multiple-terms", kWarning, Group::format, true,
         "several `configN:` terms in one file: perf 6.1 uses the first, newer perf the last"},
    Rule{"format-unsupported-word", kError, Group::format, true,
         "perf_event_attr has config..config3 only; a field in another word cannot be used"},
    Rule{"format-noncanonical-word", kWarning, Group::format, true,
         "`config0`/`config01` are read as config/config1 but are not the ABI spelling"},
    Rule{"format-name-charset", kWarning, Group::format, true,
         "format names are `[A-Za-z0-9._-]`; a term with other bytes cannot be written in an "
         "event spec"},
    Rule{"format-whitespace", kNote, Group::format, true,
         "blanks inside a format term are tolerated by perf but not by stricter readers"},
    Rule{"format-stray-text", kWarning, Group::format, true,
         "perf's format lexer skips unknown bytes silently; stray text means a corrupt file"},
    Rule{"format-field-overlap", kWarning, Group::format, true,
         "two fields share bits; setting both in one event corrupts each other (intentional "
         "aliases aside)"},
    Rule{"format-alias", kNote, Group::format, true,
         "two fields cover exactly the same bits: an intentional alias such as hv_24x7 core/chip"},
    Rule{"format-flag-wide", kWarning, Group::format, true,
         "a flag-like name (edge, inv, en, ...) spanning several bits is usually a driver typo, "
         "like SNB-EP `occ_edge=config:14-51`"},
    Rule{"format-wide-range", kNote, Group::format, false,
         "a single range wider than 32 bits in a field that is not a whole-word filter"},
    Rule{"terms-syntax", kError, Group::events, true,
         "an event file that does not parse is dropped by perf (`Cannot parse alias`)"},
    Rule{"event-empty", kWarning, Group::events, true, "an empty event file is skipped by perf"},
    Rule{"event-unknown-term", kError, Group::events, true,
         "a term that is neither in format/ nor a perf built-in makes the event unusable"},
    Rule{"event-param-unknown", kError, Group::events, true,
         "`term=?` asks the user for a field the PMU does not have"},
    Rule{"event-value-overflow", kError, Group::events, true,
         "a value wider than its field is rejected by perf (`value too big for format`)"},
    Rule{"event-term-repeated", kError, Group::events, true,
         "perf ORs a repeated term (`event=0x7,event=0x8` is 0xf), which is never what was meant"},
    Rule{"event-overlapping-terms", kError, Group::events, true,
         "the event sets two fields that share bits, so their values mix"},
    Rule{"event-bare-multibit", kWarning, Group::events, true,
         "a bare term means 1; newer perf rejects it on a multi-bit field (`no value assigned`)"},
    Rule{"event-value-not-number", kError, Group::events, true,
         "a format field takes a number or `?`, not a string"},
    Rule{"terms-uppercase-hex", kWarning, Group::events, true,
         "the ABI says lowercase hex; uppercase digits are accepted by perf but flagged"},
    Rule{"event-decimal-value", kWarning, Group::events, true,
         "the ABI says 0x-prefixed hex; a decimal value >= 10 reads differently to anyone who "
         "assumes hex"},
    Rule{"terms-leading-zero", kWarning, Group::events, true,
         "`010` is ten to perf, eight to a C programmer"},
    Rule{"terms-stray-byte", kWarning, Group::events, true,
         "perf's lexer drops unknown bytes (`event=+1` is 1), hiding corrupt files"},
    Rule{"terms-whitespace", kNote, Group::events, true,
         "blanks between terms are tolerated by perf but not part of the ABI"},
    Rule{"terms-event-file-too-long", kWarning, Group::events, true,
         "perf 6.1 reads only 255 bytes of an event file and corrupts what follows"},
    Rule{"scale-syntax", kError, Group::metadata, true,
         "perf reads a `.scale` that is not a C float as 0, then silently uses 1.0"},
    Rule{"scale-zero", kWarning, Group::metadata, true,
         "a scale of 0 is indistinguishable from no scale: perf uses 1.0"},
    Rule{"scale-negative", kWarning, Group::metadata, true,
         "a negative scale turns counts negative"},
    Rule{"scale-plus-sign", kWarning, Group::metadata, true,
         "a leading `+` is accepted by strtod but by few other readers"},
    Rule{"scale-too-long", kWarning, Group::metadata, true,
         "perf reads at most 127 bytes of a scale"},
    Rule{"unit-empty", kError, Group::metadata, true,
         "an empty `.unit` makes perf 6.1 read before its buffer"},
    Rule{"unit-nonprintable", kError, Group::metadata, true,
         "a `.unit` with control bytes corrupts perf's output columns"},
    Rule{"unit-too-long", kWarning, Group::metadata, true, "perf keeps only 31 bytes of a unit"},
    Rule{"flag-content", kWarning, Group::metadata, true,
         "`.per-pkg`/`.snapshot` should hold `1` (or `0`); perf only checks that the file exists"},
    Rule{"event-orphan-metadata", kError, Group::metadata, true,
         "a `.unit`/`.scale`/`.per-pkg`/`.snapshot` file whose base event does not exist"},
    Rule{"event-name-mixed-case", kError, Group::names, true,
         "perf >= 6.10 probes only the all-lower and all-upper file names, so it never finds "
         "mixed-case events"},
    Rule{"event-name-legacy-case", kWarning, Group::names, true,
         "a mixed-case legacy cache name (`L1-dcache-load-misses`); perf matches it through its "
         "legacy encoding"},
    Rule{"event-name-case-collision", kError, Group::names, true,
         "event names compare case-insensitively; two that differ only in case are ambiguous"},
    Rule{"event-name-charset", kWarning, Group::names, true,
         "event names are `[A-Za-z0-9._-]`; other bytes break perf's event-spec lexer"},
    Rule{"live-foreign-tree", kError, Group::tree, true,
         "--live opens events by the tree's type numbers on the running kernel, which only means "
         "something when the tree is the running kernel's own"},
    Rule{"live-encode-failed", kError, Group::live, true,
         "the event cannot even be turned into a perf_event_attr"},
    Rule{"live-open-failed", kError, Group::live, true,
         "the kernel refuses to open an event it advertises"},
    Rule{"live-read-failed", kError, Group::live, true, "the event opened but cannot be read"},
    Rule{"live-needs-parameter", kNote, Group::live, true,
         "the event has `?` parameters, so it cannot be opened without user values"},
};

}  // namespace

std::string_view to_string(Group group) {
  switch (group) {
    case Group::tree:
      return "tree";
    case Group::attributes:
      return "attributes";
    case Group::cpumask:
      return "cpumask";
    case Group::pmu_name:
      return "pmu-name";
    case Group::format:
      return "format";
    case Group::events:
      return "events";
    case Group::metadata:
      return "metadata";
    case Group::names:
      return "event-names";
    case Group::live:
      return "live";
  }
  return "unknown";
}

std::span<const Rule> rules() {
  return kRules;
}

const Rule* find_rule(std::string_view id) {
  auto it = std::find_if(kRules.begin(), kRules.end(), [&](const Rule& r) { return r.id == id; });
  return it == kRules.end() ? nullptr : &*it;
}

std::vector<std::string> unknown_rule_ids(const Options& options) {
  std::vector<std::string> unknown;
  for (const auto* list : {&options.disabled, &options.enabled}) {
    for (const auto& id : *list) {
      if (find_rule(id) == nullptr) unknown.push_back(id);
    }
  }
  return unknown;
}

}  // namespace pmucat::check
