// pmudiff's model: what changed between two trees, and which changes break existing users.
#include <fmt/core.h>

#include <algorithm>
#include <map>
#include <set>

#include "pmucat/check.h"
#include "pmucat/encode.h"

namespace pmucat::diff {
namespace {

using Config = std::array<std::uint64_t, 4>;

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
  Change change{ChangeKind::changed, Subject::event, old_pmu.name(), a.name, trimmed(a.text),
                trimmed(b.text),     old_config,     new_config,     false,  ""};
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
      out.push_back({ChangeKind::removed, Subject::event, old_pmu.name(), a.name, trimmed(a.text),
                     "", encoding_of(old_pmu, a), std::nullopt, false, "event removed"});
    } else {
      compare_event(old_pmu, a, new_pmu, *b, out);
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
    case Subject::format:
      return "format";
    case Subject::event:
      return "event";
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
    compare_formats(*a, *b, result.changes);
    compare_events(*a, *b, result.changes);
  }
  return result;
}

}  // namespace pmucat::diff
