// pmudiff's model: what changed between two trees, and which changes break existing users.
#include "pmucat/diff.h"

#include <fmt/core.h>

#include <algorithm>
#include <map>
#include <set>

#include "pmucat/encode.h"
#include "pmucat/pmu_attribute_files.h"

PMUCAT_BEGIN_NAMESPACE
namespace diff {
namespace {

using Config = ConfigWords;

std::string trimmed(std::string_view text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ' || text.back() == '\r')) {
    text.remove_suffix(1);
  }
  return std::string(text);
}

// The event's config words with every `?` parameter set to 0, so events that take parameters
// can still be compared on the bits they fix.
std::optional<Config> encoding_of(const Pmu& pmu, const Event& event) {
  if (event.error.has_value()) return std::nullopt;
  TermList terms = event.terms;
  for (Term& term : terms.terms) {
    if (term.kind == TermValueKind::param) {
      term.kind = TermValueKind::number;
      term.value = 0;
    }
  }
  auto encoded = encode_terms(pmu, terms, Modifiers{}, event.text);
  if (!encoded) return std::nullopt;
  return encoded->attr.config;
}

std::set<std::string> parameters_of(const Event& event) {
  std::set<std::string> names;
  for (const Term& term : event.terms.terms) {
    if (term.kind == TermValueKind::param) names.insert(term.name);
  }
  return names;
}

Change make_change(ChangeKind kind, Subject subject, std::string pmu, std::string name,
                   std::string old_text, std::string new_text, bool abi_break = false,
                   std::string reason = "") {
  Change change;
  change.kind = kind;
  change.subject = subject;
  change.pmu = std::move(pmu);
  change.name = std::move(name);
  change.old_text = std::move(old_text);
  change.new_text = std::move(new_text);
  change.abi_break = abi_break;
  change.reason = std::move(reason);
  return change;
}

// A change when `before` and `after` differ; absent means the file does not exist.
std::optional<Change> compare_optional(Subject subject, const std::string& pmu,
                                       const std::string& name,
                                       const std::optional<std::string>& before,
                                       const std::optional<std::string>& after) {
  if (before == after) return std::nullopt;
  ChangeKind kind = !before  ? ChangeKind::added
                    : !after ? ChangeKind::removed
                             : ChangeKind::changed;
  return make_change(kind, subject, pmu, name, before.value_or(""), after.value_or(""));
}

void compare_cpu_lists(const Pmu& old_pmu, const Pmu& new_pmu, std::vector<Change>& out) {
  const PmuAttributes& a = old_pmu.attributes();
  const PmuAttributes& b = new_pmu.attributes();
  auto compare = [&](Subject subject, const std::optional<CpuList>& before,
                     const std::optional<CpuList>& after) {
    // "0-3" and "0,1,2,3" are the same CPUs: only the set (and the file's presence) counts.
    if (before.has_value() == after.has_value() && (!before || before->cpus == after->cpus)) {
      return;
    }
    auto text = [](const std::optional<CpuList>& list) -> std::optional<std::string> {
      if (!list) return std::nullopt;
      return list->text;
    };
    auto change = compare_optional(subject, old_pmu.name(), "", text(before), text(after));
    if (!change) change = make_change(ChangeKind::changed, subject, old_pmu.name(), "", "", "");
    change->reason = "perf opens the PMU's events on other CPUs";
    out.push_back(std::move(*change));
  };
  compare(Subject::cpumask, a.cpumask, b.cpumask);
  compare(Subject::cpus, a.cpus, b.cpus);
}

void compare_attributes(const Pmu& old_pmu, const Pmu& new_pmu, std::vector<Change>& out) {
  const PmuAttributes& a = old_pmu.attributes();
  const PmuAttributes& b = new_pmu.attributes();
  for (const PmuAttributeFile& file : kPmuOptionalAttributes) {
    if (auto change = compare_optional(Subject::attribute, old_pmu.name(), std::string(file.name),
                                       file.text(a), file.text(b))) {
      out.push_back(std::move(*change));
    }
  }
  std::set<std::string> caps;
  for (const auto& [name, value] : a.caps) caps.insert(name);
  for (const auto& [name, value] : b.caps) caps.insert(name);
  for (const std::string& name : caps) {
    auto lookup = [&](const std::map<std::string, std::string>& map) -> std::optional<std::string> {
      auto found = map.find(name);
      if (found == map.end()) return std::nullopt;
      return found->second;
    };
    if (auto change =
            compare_optional(Subject::cap, old_pmu.name(), name, lookup(a.caps), lookup(b.caps))) {
      change->reason = "perf reads caps/ to learn what the PMU supports";
      out.push_back(std::move(*change));
    }
  }
}

std::optional<std::string> scale_text(const Event& event) {
  if (event.scale_text.empty() && !event.scale) return std::nullopt;
  return trimmed(event.scale_text);
}

// Unit and scale change the numbers and labels perf prints for an existing event: breaks.
// .per-pkg and .snapshot change how perf aggregates and reads it: reported, not breaks.
void compare_metadata(const std::string& pmu, const Event& a, const Event& b,
                      std::vector<Change>& out) {
  if (auto change = compare_optional(Subject::unit, pmu, a.name, a.unit, b.unit)) {
    change->abi_break = a.unit.value_or("") != b.unit.value_or("");
    change->reason = change->abi_break ? "perf labels the event's counts differently" : "same unit";
    out.push_back(std::move(*change));
  }
  if (auto change = compare_optional(Subject::scale, pmu, a.name, scale_text(a), scale_text(b))) {
    // perf multiplies counts by the scale, 1.0 when there is none (or it does not parse).
    double before = a.scale.value_or(1.0);
    double after = b.scale.value_or(1.0);
    change->abi_break = before != after;
    change->reason =
        change->abi_break
            ? fmt::format("perf now multiplies the counts by {} instead of {}", after, before)
            : "same scale value";
    out.push_back(std::move(*change));
  }
  auto flag = [&](Subject subject, bool before, bool after, std::string_view meaning) {
    if (before == after) return;
    auto text = [](bool set) -> std::optional<std::string> {
      if (!set) return std::nullopt;
      return std::string("1");
    };
    auto change = compare_optional(subject, pmu, a.name, text(before), text(after));
    change->reason = fmt::format("{} {}", after ? "perf now" : "perf no longer", meaning);
    out.push_back(std::move(*change));
  };
  flag(Subject::per_pkg, a.per_pkg, b.per_pkg, "counts the event once per package");
  flag(Subject::snapshot, a.snapshot, b.snapshot, "reads the event as a snapshot value");
}

void compare_formats(const Pmu& old_pmu, const Pmu& new_pmu, std::vector<Change>& out) {
  std::map<std::string, const Format*> old_formats, new_formats;
  for (const Format& f : old_pmu.formats()) old_formats[f.name] = &f;
  for (const Format& f : new_pmu.formats()) new_formats[f.name] = &f;
  for (const auto& [name, format] : old_formats) {
    auto found = new_formats.find(name);
    if (found == new_formats.end()) {
      out.push_back({ChangeKind::removed, Subject::format, old_pmu.name(), name,
                     trimmed(format->text), "", std::nullopt, std::nullopt, true,
                     "events and users that set this field no longer encode"});
      continue;
    }
    const FormatSpec& a = format->spec;
    const FormatSpec& b = found->second->spec;
    if (a.word == b.word && a.mask == b.mask) continue;
    // Every value the old field held must land on the same bits in the new one.
    bool compatible = a.word == b.word && scatter_bits(a.max_value(), b.mask) == a.mask;
    out.push_back({ChangeKind::changed, Subject::format, old_pmu.name(), name,
                   trimmed(format->text), trimmed(found->second->text), std::nullopt, std::nullopt,
                   !compatible,
                   compatible ? "widened: old values keep their bits"
                              : "old values of this field now land on other bits"});
  }
  for (const auto& [name, format] : new_formats) {
    if (old_formats.count(name) == 0) {
      out.push_back({ChangeKind::added, Subject::format, new_pmu.name(), name, "",
                     trimmed(format->text), std::nullopt, std::nullopt, false, ""});
    }
  }
}

const Event* find_exact(std::span<const Event> events, std::string_view name) {
  for (const Event& event : events) {
    if (iequals(event.name, name)) return &event;
  }
  return nullptr;
}

void compare_event(const Pmu& old_pmu, const Event& a, const Pmu& new_pmu, const Event& b,
                   std::vector<Change>& out) {
  auto old_config = encoding_of(old_pmu, a);
  auto new_config = encoding_of(new_pmu, b);
  bool same_text = trimmed(a.text) == trimmed(b.text);
  bool same_params = parameters_of(a) == parameters_of(b);
  Change change = make_change(ChangeKind::changed, Subject::event, old_pmu.name(), a.name,
                              trimmed(a.text), trimmed(b.text));
  change.old_config = old_config;
  change.new_config = new_config;
  if (old_config && new_config) {
    if (*old_config == *new_config && same_params) {
      if (same_text) return;
      change.reason = "same encoding";
    } else {
      change.abi_break = true;
      change.reason = *old_config == *new_config
                          ? "the `?` parameters changed"
                          : "an existing event name now encodes to other bits";
    }
  } else if (old_config && !new_config) {
    change.abi_break = true;
    change.reason = "the event no longer encodes";
  } else {
    if (same_text) return;
    change.reason = new_config ? "the event now encodes" : "neither version encodes";
  }
  out.push_back(std::move(change));
}

void compare_events(const Pmu& old_pmu, const Pmu& new_pmu, std::vector<Change>& out) {
  auto old_events = old_pmu.events();
  auto new_events = new_pmu.events();
  for (const Event& a : old_events) {
    const Event* b = find_exact(new_events, a.name);
    if (b == nullptr) {
      Change change =
          make_change(ChangeKind::removed, Subject::event, old_pmu.name(), a.name, trimmed(a.text),
                      "", true, "the event name no longer exists on the PMU");
      change.old_config = encoding_of(old_pmu, a);
      out.push_back(std::move(change));
    } else {
      compare_event(old_pmu, a, new_pmu, *b, out);
      compare_metadata(old_pmu.name(), a, *b, out);
    }
  }
  for (const Event& b : new_events) {
    if (find_exact(old_events, b.name) == nullptr) {
      out.push_back({ChangeKind::added, Subject::event, new_pmu.name(), b.name, "", trimmed(b.text),
                     std::nullopt, encoding_of(new_pmu, b), false, ""});
    }
  }
}

std::string type_text(const Pmu& pmu) {
  auto type = pmu.type();
  return type ? fmt::format("{}", *type) : std::string("(none)");
}

}  // namespace

std::string_view to_string(ChangeKind kind) {
  switch (kind) {
    case ChangeKind::added:
      return "added";
    case ChangeKind::removed:
      return "removed";
    case ChangeKind::changed:
      return "changed";
  }
  return "changed";
}

std::string_view to_string(Subject subject) {
  switch (subject) {
    case Subject::pmu:
      return "pmu";
    case Subject::type:
      return "type";
    case Subject::cpumask:
      return "cpumask";
    case Subject::cpus:
      return "cpus";
    case Subject::attribute:
      return "attribute";
    case Subject::cap:
      return "cap";
    case Subject::format:
      return "format";
    case Subject::event:
      return "event";
    case Subject::unit:
      return "unit";
    case Subject::scale:
      return "scale";
    case Subject::per_pkg:
      return "per-pkg";
    case Subject::snapshot:
      return "snapshot";
  }
  return "event";
}

bool Result::has_abi_break() const {
  return std::any_of(changes.begin(), changes.end(), [](const Change& c) { return c.abi_break; });
}

Result compare(const Catalog& old_catalog, const Catalog& new_catalog) {
  Result result;
  std::vector<std::string> names;
  for (const Pmu& pmu : old_catalog.pmus()) names.push_back(pmu.name());
  for (const Pmu& pmu : new_catalog.pmus()) names.push_back(pmu.name());
  std::sort(names.begin(), names.end(),
            [](const std::string& a, const std::string& b) { return natural_less(a, b); });
  names.erase(std::unique(names.begin(), names.end()), names.end());
  for (const std::string& name : names) {
    const Pmu* a = old_catalog.find_pmu(name);
    const Pmu* b = new_catalog.find_pmu(name);
    if (b == nullptr) {
      result.changes.push_back({ChangeKind::removed, Subject::pmu, name, "", type_text(*a), "",
                                std::nullopt, std::nullopt, false, "PMU removed"});
      continue;
    }
    if (a == nullptr) {
      result.changes.push_back({ChangeKind::added, Subject::pmu, name, "", "", type_text(*b),
                                std::nullopt, std::nullopt, false, ""});
      continue;
    }
    if (a->type() != b->type()) {
      result.changes.push_back({ChangeKind::changed, Subject::type, name, "", type_text(*a),
                                type_text(*b), std::nullopt, std::nullopt, false,
                                "dynamic PMU types are not stable across boots"});
    }
    compare_cpu_lists(*a, *b, result.changes);
    compare_attributes(*a, *b, result.changes);
    compare_formats(*a, *b, result.changes);
    compare_events(*a, *b, result.changes);
  }
  return result;
}

}  // namespace diff
PMUCAT_END_NAMESPACE
