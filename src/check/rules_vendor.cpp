// Rules over the vendor JSON events a catalog merges with sysfs (pmucheck --cpuid): the model's
// own load problems, Units no PMU of the tree takes, JSON events a PMU cannot encode, and sysfs
// aliases whose JSON namesake encodes differently. They run only when the catalog has a vendor
// catalog and a CPU identifier: without a model there is nothing to compare.
#include <fmt/core.h>

#include <algorithm>
#include <array>
#include <fstream>
#include <map>

#include "catalog/vendor_catalog.h"
#include "context.h"
#include "pmucat/diagnostic_ids.h"
#include "pmucat/encode.h"

PMUCAT_BEGIN_NAMESPACE
namespace check::detail {
namespace {

// The config words a term list sets on `pmu`, and why it cannot be encoded there (if so).
struct Encoding {
  std::array<std::uint64_t, kConfigWords> words{};
  std::vector<std::string> params;   // `term=?` fields, left 0 in `words`
  std::vector<Diagnostic> problems;  // located in the term string
};

std::optional<unsigned> whole_word(std::string_view name) {
  for (unsigned word = 0; word < kConfigWords; ++word) {
    if (name == config_word_name(word)) return word;
  }
  return std::nullopt;
}

// What perf 6.1 does with the terms of an alias on this PMU, as far as the config words go:
// format fields scatter their values, config..config3 set whole words, and perf's other terms
// (period=, name=, ...) leave the words alone.
Encoding encode_on(const Pmu& pmu, const TermList& terms, std::string_view file,
                   std::string_view text) {
  Encoding encoding;
  auto problem = [&](const Term& term, std::string message) {
    encoding.problems.push_back(make_diagnostic(Severity::note, "", file, text, term.offset,
                                                term.length, std::move(message)));
  };
  for (const Term& term : terms.terms) {
    if (const auto word = whole_word(term.name)) {
      if (term.kind == TermValueKind::number) encoding.words[*word] = term.value;
      continue;
    }
    if (is_special_term(term.name)) continue;
    const Format* format = pmu.find_format(term.name);
    if (format == nullptr) {
      problem(term, fmt::format("PMU '{}' has no format/{}", pmu.name(), term.name));
      continue;
    }
    const FormatSpec& spec = format->spec;
    switch (term.kind) {
      case TermValueKind::param:
        encoding.params.push_back(term.name);
        continue;
      case TermValueKind::string:
        problem(term, fmt::format("field '{}' takes a number, not '{}'", term.name, term.text));
        continue;
      case TermValueKind::none:
      case TermValueKind::number:
        break;
    }
    if (term.value > spec.max_value()) {
      problem(term, fmt::format("value {:#x} does not fit field '{}' ({}:{}, {} bits)", term.value,
                                term.name, config_word_name(spec.word), bits_text(spec.mask),
                                spec.width()));
      continue;
    }
    if (!spec.word_supported()) {
      problem(term, fmt::format("field '{}' is in {}, which perf_event_attr does not have",
                                term.name, config_word_name(spec.word)));
      continue;
    }
    encoding.words[spec.word] |= scatter_bits(term.value, spec.mask);
  }
  std::sort(encoding.params.begin(), encoding.params.end());
  return encoding;
}

std::string words_text(const Encoding& encoding) {
  std::string out = fmt::format("config={:#x}", encoding.words[0]);
  for (unsigned word = 1; word < kConfigWords; ++word) {
    if (encoding.words[word] != 0) {
      out += fmt::format(",{}={:#x}", config_word_name(word), encoding.words[word]);
    }
  }
  for (const std::string& param : encoding.params) out += fmt::format(",{}=?", param);
  return out;
}

// The line of `file` a JSON event's location points at, for the caret (read only for findings).
std::string line_at(const SourceRange& range) {
  std::ifstream in(range.file, std::ios::binary);
  const std::uint64_t start =
      range.offset - std::min<std::uint64_t>(range.offset, range.column - 1);
  std::string line;
  if (!in.seekg(static_cast<std::streamoff>(start)) || !std::getline(in, line)) return {};
  if (!line.empty() && line.back() == '\r') line.pop_back();
  return line;
}

Diagnostic defined_here(const VendorEvent& vendor, std::string message) {
  Diagnostic note;
  note.severity = Severity::note;
  note.range = vendor.location;
  note.range.length = 1;
  note.source_line = line_at(vendor.location);
  note.message = std::move(message);
  return note;
}

std::string unit_text(const VendorEvent& vendor) {
  return vendor.unit.empty() ? std::string("no Unit: the core PMU")
                             : fmt::format("Unit '{}'", vendor.unit);
}

void check_json_event(PmuContext& context, const Event& event) {
  const VendorEvent& vendor = *event.vendor;
  std::vector<Diagnostic> problems;
  if (event.error) {
    Diagnostic why = *event.error;
    why.severity = Severity::note;
    set_id(why, "");  // a note of the finding: no id of its own
    problems.push_back(std::move(why));
  } else {
    problems = encode_on(context.pmu(), event.terms, event.path, event.text).problems;
  }
  if (problems.empty()) return;
  const std::string prefix =
      fmt::format("vendor JSON event '{}' ({}) cannot be encoded on PMU '{}'", vendor.name,
                  unit_text(vendor), context.pmu().name());
  Diagnostic diagnostic;
  if (problems.size() == 1) {
    // One problem: point at the term, as the sysfs rules do in an events/ file.
    diagnostic = std::move(problems.front());
    diagnostic.message = prefix + ": " + diagnostic.message;
  } else {
    diagnostic = make_diagnostic(Severity::error, "", event.path, event.text, 0, event.text.size(),
                                 fmt::format("{}: {} problems", prefix, problems.size()));
    diagnostic.notes = std::move(problems);
  }
  diagnostic.severity = Severity::error;
  diagnostic.hint =
      "perf lists the event on this PMU but cannot open it: the JSON table and the driver's "
      "format/ disagree";
  diagnostic.notes.push_back(defined_here(vendor, "the JSON event is defined here"));
  context.add(DiagId::vendor_event_unencodable, std::move(diagnostic));
}

void check_merged_event(PmuContext& context, const Event& event) {
  if (event.error || event.terms.terms.empty()) return;  // the sysfs rules report the file
  const VendorEvent& vendor = *event.vendor;
  const Encoding sysfs = encode_on(context.pmu(), event.terms, event.path, event.text);
  if (!sysfs.problems.empty()) return;  // event-unknown-term and friends say why
  const std::string json_file = fmt::format("{}[{}]", vendor.location.file, vendor.name);
  auto json_terms = parse_terms(vendor.terms, json_file, TermSyntax::event_file);
  if (!json_terms) return;  // perf drops such an event and never merges it
  const Encoding json = encode_on(context.pmu(), *json_terms, json_file, vendor.terms);
  if (json.problems.empty() && json.words == sysfs.words && json.params == sysfs.params) return;

  const std::string_view sysfs_text =
      std::string_view(event.text).substr(0, std::min(event.text.find('\n'), event.text.size()));
  Diagnostic diagnostic = make_diagnostic(
      Severity::warning, "", event.path, event.text, 0, sysfs_text.size(),
      json.problems.empty()
          ? fmt::format("sysfs event '{}' encodes to {}, its vendor JSON namesake to {}; perf 6.1 "
                        "uses the sysfs one",
                        event.name, words_text(sysfs), words_text(json))
          : fmt::format("sysfs event '{}' encodes to {}, its vendor JSON namesake cannot be "
                        "encoded on PMU '{}'; perf 6.1 uses the sysfs one",
                        event.name, words_text(sysfs), context.pmu().name()));
  Diagnostic json_side =
      make_diagnostic(Severity::note, "", json_file, vendor.terms, 0, vendor.terms.size(),
                      fmt::format("the JSON event's terms ({})", unit_text(vendor)));
  diagnostic.notes.push_back(std::move(json_side));
  for (const Diagnostic& problem : json.problems) diagnostic.notes.push_back(problem);
  diagnostic.notes.push_back(defined_here(vendor, "the JSON event is defined here"));
  diagnostic.hint =
      "the descriptions perf shows come from the JSON event, the encoding from sysfs: one of the "
      "two is stale";
  context.add(DiagId::vendor_event_encoding_differs, std::move(diagnostic));
}

Finding tree_finding(const Catalog& catalog, std::string rule, Diagnostic diagnostic) {
  Finding finding;
  if (const Rule* known = find_rule(rule)) diagnostic.severity = known->severity;
  set_id(diagnostic, rule);
  finding.rule = std::move(rule);
  finding.group = Group::tree;
  finding.file = relative_to(diagnostic.range.file, catalog.devices_dir());
  finding.diagnostic = std::move(diagnostic);
  return finding;
}

// The Units of the model no PMU of the tree takes, with perf 6.1's attach rule (the catalog's).
void check_units(const Catalog& catalog, const VendorModel& model, std::vector<Finding>& out) {
  struct Unit {
    const VendorEvent* first = nullptr;  // in table order
    std::size_t events = 0;
  };
  std::map<std::string_view, Unit> units;
  for (const VendorEvent& event : model.events) {
    if (event.pmu.empty()) continue;  // core events: the core PMU always exists for perf
    Unit& unit = units[event.pmu];
    if (unit.first == nullptr) unit.first = &event;
    ++unit.events;
  }
  std::vector<::pmucat::detail::PmuAttachment> pmus;
  for (const Pmu& pmu : catalog.pmus()) {
    pmus.push_back(::pmucat::detail::attachment_of(pmu.name(), pmu.attributes()));
  }
  for (const auto& [pmu_name, unit] : units) {
    const VendorEvent& first = *unit.first;  // clang 14 cannot capture a structured binding
    const bool taken = std::any_of(pmus.begin(), pmus.end(), [&first](const auto& pmu) {
      return ::pmucat::detail::attaches(first, pmu);
    });
    if (taken) continue;
    Diagnostic diagnostic = defined_here(
        *unit.first,
        fmt::format("Unit '{}' ({} vendor JSON event{}, first '{}') maps to PMU '{}', which "
                    "this tree does not have",
                    unit.first->unit, unit.events, unit.events == 1 ? "" : "s", unit.first->name,
                    pmu_name));
    diagnostic.hint =
        "perf offers none of these events here: the box is absent on this part, or its driver "
        "is not loaded";
    out.push_back(tree_finding(catalog, std::string(to_string(DiagId::vendor_unit_unmatched)),
                               std::move(diagnostic)));
  }
}

}  // namespace

bool vendor_rules_apply(const Catalog& catalog) {
  const VendorOptions& options = catalog.vendor_options();
  return !options.events_dir.empty() && !options.cpuid.empty();
}

std::vector<Finding> check_vendor_catalog(const Catalog& catalog) {
  std::vector<Finding> findings;
  if (!vendor_rules_apply(catalog)) return findings;
  for (const Diagnostic& diagnostic : catalog.vendor_diagnostics()) {
    // The index cache's notes (an entry not used) are about this user's cache, not the tree.
    if (diagnostic.severity == Severity::note &&
        diagnostic.code == DiagId::vendor_index_unreadable) {
      continue;
    }
    const std::optional<DiagId> rule = classify_library_diagnostic(diagnostic);
    std::string id =
        rule ? std::string(to_string(*rule))
             : (diagnostic.id.empty() ? std::string(to_string(DiagId::library_diagnostic))
                                      : diagnostic.id);
    findings.push_back(tree_finding(catalog, std::move(id), diagnostic));
  }
  if (const VendorModel* model = catalog.vendor_model()) check_units(catalog, *model, findings);
  return findings;
}

void check_vendor_events(PmuContext& context) {
  for (const Event& event : context.pmu().events()) {
    if (!event.vendor) continue;
    if (event.source == EventSource::json) check_json_event(context, event);
    if (event.source == EventSource::both) check_merged_event(context, event);
  }
}

}  // namespace check::detail
PMUCAT_END_NAMESPACE
