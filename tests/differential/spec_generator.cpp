#include "spec_generator.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <numeric>
#include <set>

#include "pmucat/version.h"

PMUCAT_BEGIN_NAMESPACE
namespace differential {
namespace {

bool chance(Rng& rng, double probability) {
  return std::bernoulli_distribution(probability)(rng);
}

std::uint64_t uniform(Rng& rng, std::uint64_t low, std::uint64_t high) {
  return std::uniform_int_distribution<std::uint64_t>(low, high)(rng);
}

template <class T>
const T& pick(Rng& rng, const std::vector<T>& items) {
  return items[uniform(rng, 0, items.size() - 1)];
}

// Values spread over the whole range: small ones, the maximum, and random bit patterns.
std::uint64_t random_value(Rng& rng, std::uint64_t max) {
  switch (uniform(rng, 0, 3)) {
    case 0:
      return uniform(rng, 0, std::min<std::uint64_t>(max, 16));
    case 1:
      return max;
    default:
      return rng() & max;
  }
}

std::string write_value(Rng& rng, std::uint64_t value) {
  return chance(rng, 0.3) ? fmt::format("{}", value) : fmt::format("{:#x}", value);
}

std::string join(const std::vector<std::string>& items) {
  std::string text;
  for (const auto& item : items) text += (text.empty() ? "" : ",") + item;
  return text;
}

std::string make_spec(const std::string& pmu, const std::vector<std::string>& terms) {
  return fmt::format("{}/{}/", pmu, join(terms));
}

const FieldModel* find_field(const PmuModel& pmu, const std::string& name) {
  const auto found = pmu.fields.find(name);
  return found == pmu.fields.end() ? nullptr : &found->second;
}

// `name=value` for every `?` parameter of the event, each value within its field.
std::vector<std::string> param_terms(Rng& rng, const PmuModel& pmu, const EventModel& event) {
  std::vector<std::string> terms;
  for (const auto& param : event.params()) {
    const FieldModel* field = find_field(pmu, param);
    const std::uint64_t value = field != nullptr ? random_value(rng, field->max_value()) : 1;
    terms.push_back(fmt::format("{}={}", param, write_value(rng, value)));
  }
  return terms;
}

std::vector<std::string> field_names(const PmuModel& pmu) {
  std::vector<std::string> names;
  for (const auto& [name, field] : pmu.fields) names.push_back(name);
  return names;
}

std::vector<std::string> event_names(const PmuModel& pmu) {
  std::vector<std::string> names;
  for (const auto& [name, event] : pmu.events) {
    if (!event.terms.empty()) names.push_back(name);
  }
  return names;
}

// Fields an alias sets with a plain value (not `?`, not a built-in like config=).
std::vector<std::string> fields_set_by(const PmuModel& pmu, const EventModel& event) {
  std::vector<std::string> names;
  for (const auto& term : event.terms) {
    if (term.value != "?" && find_field(pmu, term.name) != nullptr) names.push_back(term.name);
  }
  return names;
}

// The prefix that selects several instances (`uncore_imc` for `uncore_imc_0..3`), or empty.
std::string instance_prefix(const TreeModel& tree, const PmuModel& pmu) {
  const auto underscore = pmu.name.rfind('_');
  if (underscore == std::string::npos || underscore + 1 == pmu.name.size()) return {};
  const std::string prefix = pmu.name.substr(0, underscore);
  const std::string suffix = pmu.name.substr(underscore + 1);
  if (!std::all_of(suffix.begin(), suffix.end(), [](char c) { return std::isxdigit(c) != 0; })) {
    return {};
  }
  int siblings = 0;
  for (const auto& other : tree.pmus) {
    if (other.name.starts_with(prefix + "_") &&
        other.name.find('_', prefix.size() + 1) == std::string::npos) {
      ++siblings;
    }
  }
  return siblings > 1 ? prefix : std::string{};
}

std::string random_word(Rng& rng, unsigned min_length, unsigned max_length,
                        const std::string& alphabet) {
  std::string word;
  const auto length = uniform(rng, min_length, max_length);
  for (std::uint64_t i = 0; i < length; ++i) word += alphabet[uniform(rng, 0, alphabet.size() - 1)];
  return word;
}

FieldModel random_field(Rng& rng, bool with_config3) {
  FieldModel field;
  field.word = static_cast<unsigned>(uniform(rng, 0, with_config3 && chance(rng, 0.3) ? 3 : 2));
  const auto ranges = uniform(rng, 1, 3);
  for (std::uint64_t r = 0; r < ranges; ++r) {
    const auto first = uniform(rng, 0, 63);
    const auto last =
        std::min<std::uint64_t>(63, first + uniform(rng, 0, chance(rng, 0.2) ? 40 : 9));
    for (auto bit = first; bit <= last; ++bit) field.mask |= std::uint64_t{1} << bit;
  }
  // The text lists the merged runs of the mask, ascending, as the kernel's drivers write them.
  std::vector<std::string> items;
  for (unsigned bit = 0; bit < 64;) {
    if ((field.mask >> bit & 1) == 0) {
      ++bit;
      continue;
    }
    unsigned last = bit;
    while (last + 1 < 64 && (field.mask >> (last + 1) & 1) != 0) ++last;
    items.push_back(last == bit ? fmt::format("{}", bit) : fmt::format("{}-{}", bit, last));
    bit = last + 1;
  }
  field.text =
      fmt::format("config{}:{}", field.word == 0 ? "" : fmt::format("{}", field.word), join(items));
  return field;
}

EventModel random_event(Rng& rng, const PmuModel& pmu) {
  std::vector<std::string> names = field_names(pmu);
  std::shuffle(names.begin(), names.end(), rng);
  names.resize(uniform(rng, 1, std::min<std::size_t>(4, names.size())));
  EventModel event;
  for (const auto& name : names) {
    const FieldModel& field = pmu.fields.at(name);
    EventTermModel term{name, ""};
    if (chance(rng, 0.15)) {
      term.value = "?";
    } else if (field.width() == 1 && chance(rng, 0.5)) {
      term.value.clear();  // bare flag
    } else {
      const std::uint64_t value = chance(rng, 0.05) && field.width() < 64
                                      ? field.max_value() + 1
                                      : random_value(rng, field.max_value());
      term.value = chance(rng, 0.05) ? fmt::format("0x{:X}", value) : write_value(rng, value);
    }
    event.terms.push_back(term);
  }
  if (chance(rng, 0.05)) event.terms.push_back({"config", write_value(rng, rng() & 0xffff)});
  if (chance(rng, 0.03)) event.terms.push_back({"qnosuch", "0x1"});
  std::vector<std::string> items;
  for (const auto& term : event.terms) {
    items.push_back(term.value.empty() ? term.name : term.name + "=" + term.value);
  }
  event.text = join(items);
  if (chance(rng, 0.2))
    event.unit = pick(rng, std::vector<std::string>{"MiB", "Joules", "C", "ns"});
  if (chance(rng, 0.2)) {
    event.scale = pick(rng, std::vector<std::string>{"6.103515625e-5",
                                                     "2.3283064365386962890625e-10", "0.5", "4"});
  }
  return event;
}

SpecCase alias_case(Rng& rng, const PmuModel& pmu, const std::string& pmu_name, CaseKind kind) {
  std::vector<std::string> eligible;
  for (const auto& name : event_names(pmu)) {
    if (kind != CaseKind::alias_same_field || !fields_set_by(pmu, pmu.events.at(name)).empty()) {
      eligible.push_back(name);
    }
  }
  const std::string alias = pick(rng, eligible);
  const EventModel& event = pmu.events.at(alias);
  SpecCase result{"", kind, pmu_name, alias, param_terms(rng, pmu, event), ""};
  if (kind == CaseKind::alias_same_field) {
    const auto candidates = fields_set_by(pmu, event);
    result.field = pick(rng, candidates);
    const std::uint64_t value = random_value(rng, pmu.fields.at(result.field).max_value());
    result.user_terms.push_back(fmt::format("{}={}", result.field, write_value(rng, value)));
  } else if (kind == CaseKind::alias_other_field) {
    std::set<std::string> taken;
    for (const auto& term : event.terms) taken.insert(term.name);
    for (const auto& name : field_names(pmu)) {
      if (taken.count(name) == 0 && chance(rng, 0.5)) {
        const auto value = random_value(rng, pmu.fields.at(name).max_value());
        result.user_terms.push_back(fmt::format("{}={}", name, write_value(rng, value)));
      }
    }
  }
  std::vector<std::string> terms{alias};
  terms.insert(terms.end(), result.user_terms.begin(), result.user_terms.end());
  result.spec = make_spec(pmu_name, terms);
  return result;
}

SpecCase random_case(Rng& rng, const TreeModel& tree, const PmuModel& pmu) {
  const auto names = field_names(pmu);
  const bool has_events = !event_names(pmu).empty();
  bool has_settable_alias = false;
  for (const auto& name : event_names(pmu)) {
    has_settable_alias |= !fields_set_by(pmu, pmu.events.at(name)).empty();
  }
  const std::string prefix = instance_prefix(tree, pmu);
  while (true) {
    const auto kind = static_cast<CaseKind>(uniform(rng, 2, 10));
    const std::string& field_name = pick(rng, names);
    const FieldModel& field = pmu.fields.at(field_name);
    switch (kind) {
      case CaseKind::fields: {
        std::vector<std::string> terms;
        for (const auto& name : names) {
          if (chance(rng, 0.5)) {
            const auto value = random_value(rng, pmu.fields.at(name).max_value());
            terms.push_back(fmt::format("{}={}", name, write_value(rng, value)));
          }
        }
        return {make_spec(pmu.name, terms), kind, pmu.name, "", terms, ""};
      }
      case CaseKind::field_max:
      case CaseKind::field_over: {
        if (kind == CaseKind::field_over && field.width() >= 64) continue;
        const auto value = field.max_value() + (kind == CaseKind::field_over ? 1 : 0);
        const std::vector<std::string> terms{
            fmt::format("{}={}", field_name, write_value(rng, value))};
        return {make_spec(pmu.name, terms), kind, pmu.name, "", terms, field_name};
      }
      case CaseKind::alias_other_field:
        if (!has_events) continue;
        return alias_case(rng, pmu, pmu.name, kind);
      case CaseKind::alias_same_field:
        if (!has_settable_alias) continue;
        {
          SpecCase result = alias_case(rng, pmu, pmu.name, kind);
          if (result.field.empty()) continue;
          return result;
        }
      case CaseKind::repeated_field: {
        const std::vector<std::string> terms{
            fmt::format("{}={}", field_name,
                        write_value(rng, random_value(rng, field.max_value()))),
            fmt::format("{}={}", field_name,
                        write_value(rng, random_value(rng, field.max_value())))};
        return {make_spec(pmu.name, terms), kind, pmu.name, "", terms, field_name};
      }
      case CaseKind::raw_config: {
        std::vector<std::string> terms{fmt::format("config={:#x}", rng())};
        if (chance(rng, 0.5)) terms.push_back(fmt::format("config1={:#x}", rng()));
        if (chance(rng, 0.5)) terms.push_back(fmt::format("config2={}", rng() & 0xffff));
        // perf 6.1 has no config3 term (a documented divergence); offer it where the PMU uses
        // that word, as a 6.3+ driver's users would.
        const bool uses_config3 =
            std::any_of(pmu.fields.begin(), pmu.fields.end(),
                        [](const auto& entry) { return entry.second.word == 3; });
        if (uses_config3 && chance(rng, 0.5)) terms.push_back(fmt::format("config3={:#x}", rng()));
        if (chance(rng, 0.5)) terms.push_back(fmt::format("{}=1", field_name));
        std::shuffle(terms.begin(), terms.end(), rng);
        return {make_spec(pmu.name, terms), kind, pmu.name, "", terms, ""};
      }
      case CaseKind::unknown_term: {
        const std::vector<std::string> terms{fmt::format("{}=1", field_name), "qzz_unknown=1"};
        return {make_spec(pmu.name, terms), kind, pmu.name, "", terms, ""};
      }
      case CaseKind::pmu_pattern:
        if (prefix.empty()) continue;
        if (has_events && chance(rng, 0.5)) return alias_case(rng, pmu, prefix, kind);
        {
          const std::vector<std::string> terms{
              fmt::format("{}={}", field_name, random_value(rng, field.max_value()))};
          return {make_spec(prefix, terms), kind, prefix, "", terms, ""};
        }
      default:
        continue;
    }
  }
}

}  // namespace

const char* to_string(CaseKind kind) {
  switch (kind) {
    case CaseKind::event:
      return "event";
    case CaseKind::missing_param:
      return "missing-param";
    case CaseKind::fields:
      return "fields";
    case CaseKind::field_max:
      return "field-max";
    case CaseKind::field_over:
      return "field-over";
    case CaseKind::alias_other_field:
      return "alias+other-field";
    case CaseKind::alias_same_field:
      return "alias+same-field";
    case CaseKind::repeated_field:
      return "repeated-field";
    case CaseKind::raw_config:
      return "raw-config";
    case CaseKind::unknown_term:
      return "unknown-term";
    case CaseKind::pmu_pattern:
      return "pmu-pattern";
  }
  return "?";
}

std::vector<SpecCase> event_cases(const TreeModel& tree, Rng& rng) {
  std::vector<SpecCase> cases;
  for (const auto& pmu : tree.pmus) {
    for (const auto& [name, event] : pmu.events) {
      auto params = param_terms(rng, pmu, event);
      std::vector<std::string> terms{name};
      terms.insert(terms.end(), params.begin(), params.end());
      cases.push_back({make_spec(pmu.name, terms), CaseKind::event, pmu.name, name, params, ""});
      if (!params.empty()) {
        params.pop_back();
        terms.pop_back();
        cases.push_back(
            {make_spec(pmu.name, terms), CaseKind::missing_param, pmu.name, name, params, ""});
      }
    }
  }
  return cases;
}

std::vector<SpecCase> field_limit_cases(const TreeModel& tree, Rng& rng) {
  std::vector<SpecCase> cases;
  std::set<std::string> groups_done;
  for (const auto& pmu : tree.pmus) {
    const std::string prefix = instance_prefix(tree, pmu);
    if (!prefix.empty() && !groups_done.insert(prefix).second) continue;
    for (const auto& [name, field] : pmu.fields) {
      for (const auto kind : {CaseKind::field_max, CaseKind::field_over}) {
        if (kind == CaseKind::field_over && field.width() >= 64) continue;
        const auto value = field.max_value() + (kind == CaseKind::field_over ? 1 : 0);
        const std::vector<std::string> terms{fmt::format("{}={}", name, write_value(rng, value))};
        cases.push_back({make_spec(pmu.name, terms), kind, pmu.name, "", terms, name});
      }
    }
  }
  return cases;
}

std::vector<SpecCase> random_cases(const TreeModel& tree, Rng& rng, unsigned count) {
  std::vector<const PmuModel*> candidates;
  for (const auto& pmu : tree.pmus) {
    if (!pmu.fields.empty() && pmu.type_text) candidates.push_back(&pmu);
  }
  std::vector<SpecCase> cases;
  if (candidates.empty()) return cases;
  for (unsigned i = 0; i < count; ++i)
    cases.push_back(random_case(rng, tree, *pick(rng, candidates)));
  return cases;
}

TreeModel random_tree(Rng& rng, unsigned pmu_count, bool with_config3) {
  const std::string lower = "abcdefghijklmnopqrstuvwxyz";
  const std::string alnum = lower + "0123456789";
  // Dynamic types well above the host's own PMUs: perf really opens the fake attr, and a host
  // PMU of the same type can fail with a fatal error (EFAULT) that stops perf stat before it
  // prints the attrs of a pattern's later instances.
  std::vector<unsigned> types(200);
  std::iota(types.begin(), types.end(), 1000U);
  std::shuffle(types.begin(), types.end(), rng);
  TreeModel tree;
  std::set<std::string> used;
  for (unsigned p = 0; p < pmu_count && tree.pmus.size() + 3 < types.size(); ++p) {
    std::string name = "px" + random_word(rng, 2, 8, alnum);
    if (chance(rng, 0.15)) name += "-" + random_word(rng, 1, 4, lower);
    if (!used.insert(name).second) continue;
    PmuModel pmu;
    pmu.name = name;
    const auto field_count = uniform(rng, 1, 7);
    for (std::uint64_t f = 0; f < field_count; ++f) {
      pmu.fields["q" + random_word(rng, 2, 6, lower)] = random_field(rng, with_config3);
    }
    const auto event_count = uniform(rng, 0, 6);
    for (std::uint64_t e = 0; e < event_count; ++e) {
      std::string event_name = "e" + random_word(rng, 2, 8, alnum + "_");
      if (chance(rng, 0.1)) event_name += "." + random_word(rng, 1, 4, lower);
      pmu.events[event_name] = random_event(rng, pmu);
    }
    if (chance(rng, 0.5)) pmu.cpumask = "0";
    const auto instances = chance(rng, 0.25) ? uniform(rng, 2, 3) : 1;
    for (std::uint64_t i = 0; i < instances; ++i) {
      PmuModel instance = pmu;
      if (instances > 1) instance.name = fmt::format("{}_{}", name, i);
      instance.type_text = fmt::format("{}", types[tree.pmus.size()]);
      tree.pmus.push_back(std::move(instance));
    }
  }
  std::sort(tree.pmus.begin(), tree.pmus.end(),
            [](const PmuModel& a, const PmuModel& b) { return a.name < b.name; });
  return tree;
}

std::string override_equivalent(const SpecCase& spec_case, const TreeModel& tree) {
  std::string pmu_name = spec_case.pmu;
  const PmuModel* pmu = nullptr;
  for (const auto& candidate : tree.pmus) {
    if (candidate.name == pmu_name) pmu = &candidate;
  }
  if (pmu == nullptr || pmu->events.count(spec_case.alias) == 0) return {};
  const std::string prefix = spec_case.field + "=";
  std::vector<std::string> terms;
  std::string user_value;
  for (const auto& term : spec_case.user_terms) {
    if (term.starts_with(prefix)) user_value = term.substr(prefix.size());
  }
  for (const auto& term : pmu->events.at(spec_case.alias).terms) {
    if (term.value == "?") continue;  // supplied by a user term below
    if (term.name == spec_case.field) {
      terms.push_back(prefix + user_value);
    } else {
      terms.push_back(term.value.empty() ? term.name : term.name + "=" + term.value);
    }
  }
  for (const auto& term : spec_case.user_terms) {
    if (!term.starts_with(prefix)) terms.push_back(term);
  }
  return make_spec(pmu_name, terms);
}

}  // namespace differential
PMUCAT_END_NAMESPACE
