#include "reference_encoder.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <map>
#include <set>

#include "pmucat/version.h"

PMUCAT_BEGIN_NAMESPACE
namespace differential {
namespace {

std::optional<std::uint64_t> parse_value(const std::string& text) {
  if (text.empty()) return 1;  // a bare term
  const bool hex = text.starts_with("0x");
  const std::string digits = hex ? text.substr(2) : text;
  if (digits.empty() || digits.size() > (hex ? 16U : 20U)) return std::nullopt;
  for (char c : digits) {
    if (hex ? std::isxdigit(static_cast<unsigned char>(c)) == 0
            : std::isdigit(static_cast<unsigned char>(c)) == 0) {
      return std::nullopt;
    }
  }
  try {
    return std::stoull(digits, nullptr, hex ? 16 : 10);
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

std::optional<unsigned> config_word(const std::string& name) {
  if (name == "config") return 0;
  if (name == "config1") return 1;
  if (name == "config2") return 2;
  if (name == "config3") return 3;
  return std::nullopt;
}

std::string lower(std::string text) {
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

const EventModel* find_event(const PmuModel& pmu, const std::string& name) {
  for (const auto& [event_name, event] : pmu.events) {
    if (lower(event_name) == lower(name)) return &event;
  }
  return nullptr;
}

// Deposits the low bits of `value` into the set bits of `mask`, lowest first (written here
// rather than taken from the library, so the check stays independent).
std::uint64_t deposit(std::uint64_t value, std::uint64_t mask) {
  std::uint64_t word = 0;
  for (unsigned bit = 0; bit < 64 && mask != 0; ++bit) {
    if ((mask >> bit & 1) == 0) continue;
    if ((value & 1) != 0) word |= std::uint64_t{1} << bit;
    value >>= 1;
  }
  return word;
}

struct Words {
  ConfigWords assigned{};  // config=/config1=... (applied first)
  std::array<bool, 4> has_assigned{};
  ConfigWords fields{};
  ConfigWords field_masks{};  // bits the fields own (replaced over a default)
};

// A caps file read the way perf reads it (scanf "%d" or "%x"), or nullopt.
std::optional<unsigned> read_cap(const PmuModel& pmu, const std::string& name, bool hex) {
  const auto found = pmu.caps.find(name);
  if (found == pmu.caps.end()) return std::nullopt;
  unsigned hex_value = 0;
  int decimal_value = 0;
  const int matched = hex ? std::sscanf(found->second.c_str(), "%x", &hex_value)
                          : std::sscanf(found->second.c_str(), "%d", &decimal_value);
  if (matched != 1) return std::nullopt;
  return hex ? hex_value : static_cast<unsigned>(decimal_value);
}

// The period bit of `bits` perf picks: the highest one <= 3, else the lowest one above.
unsigned period_near_three(unsigned bits) {
  std::optional<unsigned> below;
  for (unsigned bit = 0; bit < 32; ++bit) {
    if ((bits >> bit & 1U) == 0) continue;
    if (bit <= 3) below = bit;
    if (bit >= 3) return below.value_or(bit);
  }
  return below.value_or(0);
}

// perf's default config for `intel_pt` (docs/perf-compat.md), or nullopt for any other PMU.
std::optional<ConfigWords> default_config(const PmuModel& pmu) {
  if (pmu.name != "intel_pt") return std::nullopt;
  std::vector<std::pair<std::string, std::uint64_t>> terms{{"tsc", 1}};
  unsigned mtc_periods = 0;
  if (read_cap(pmu, "mtc", false).value_or(1) != 0) {
    mtc_periods = read_cap(pmu, "mtc_periods", true).value_or(0);
    if (mtc_periods != 0) {
      terms.emplace_back("mtc", 1);
      terms.emplace_back("mtc_period", period_near_three(mtc_periods));
    }
  }
  if (read_cap(pmu, "psb_cyc", false).value_or(1) != 0 && mtc_periods != 0) {
    if (const unsigned psb = read_cap(pmu, "psb_periods", true).value_or(0); psb != 0) {
      terms.emplace_back("psb_period", period_near_three(psb));
    }
  }
  if (pmu.fields.count("pt") != 0 && pmu.fields.count("branch") != 0) {
    terms.emplace_back("pt", 1);
    terms.emplace_back("branch", 1);
  }
  ConfigWords words{};
  for (const auto& [name, value] : terms) {
    const auto field = pmu.fields.find(name);
    if (field == pmu.fields.end() || field->second.word > 3) return ConfigWords{};
    words[field->second.word] |= deposit(value & field->second.max_value(), field->second.mask);
  }
  return words;
}

// Applies one term; false for anything pmucat must reject.
bool apply(const PmuModel& pmu, const std::string& name, std::uint64_t value, Words& words) {
  if (const auto word = config_word(name)) {
    words.assigned[*word] = value;
    words.has_assigned[*word] = true;
    return true;
  }
  const auto field = pmu.fields.find(name);
  if (field == pmu.fields.end() || field->second.word > 3) return false;
  if (value > field->second.max_value()) return false;
  words.fields[field->second.word] |= deposit(value, field->second.mask);
  words.field_masks[field->second.word] |= field->second.mask;
  return true;
}

// The alias' own value must parse and fit its field even when the user overrides it: the
// event file is wrong either way.
bool value_fits(const PmuModel& pmu, const std::string& name, const std::string& text) {
  const auto value = parse_value(text);
  if (!value) return false;
  const auto field = pmu.fields.find(name);
  return field == pmu.fields.end() || *value <= field->second.max_value();
}

std::optional<AttrWords> encode_one(const SpecCase& spec_case, const PmuModel& pmu) {
  if (!pmu.type_text) return std::nullopt;
  const auto type = parse_value(*pmu.type_text);
  if (!type || *type > 0xffffffffU) return std::nullopt;
  std::map<std::string, std::uint64_t> user;
  for (const auto& term : spec_case.user_terms) {
    const auto equals = term.find('=');
    const std::string name = term.substr(0, equals);
    const auto value = parse_value(equals == std::string::npos ? "" : term.substr(equals + 1));
    if (!value || !user.emplace(name, *value).second) return std::nullopt;  // repeated field
  }
  Words words;
  std::set<std::string> consumed;
  if (!spec_case.alias.empty()) {
    const EventModel* event = find_event(pmu, spec_case.alias);
    if (event == nullptr || event->terms.empty()) return std::nullopt;
    for (const auto& term : event->terms) {
      std::optional<std::uint64_t> value;
      if (const auto given = user.find(term.name); given != user.end()) {
        value = given->second;  // fills a `?` parameter, or overrides the alias' value
        consumed.insert(term.name);
      } else if (term.value == "?") {
        return std::nullopt;  // missing parameter
      } else {
        value = parse_value(term.value);
      }
      if (term.value != "?" && !value_fits(pmu, term.name, term.value)) return std::nullopt;
      if (!value || !apply(pmu, term.name, *value, words)) return std::nullopt;
    }
  }
  for (const auto& [name, value] : user) {
    if (consumed.count(name) == 0 && !apply(pmu, name, value, words)) return std::nullopt;
  }
  AttrWords result;
  result.type = static_cast<std::uint32_t>(*type);
  // A PMU with a default config starts from it, and its fields replace their bits.
  const auto defaults = default_config(pmu);
  for (unsigned w = 0; w < 4; ++w) {
    const std::uint64_t base =
        words.has_assigned[w] ? words.assigned[w] : (defaults ? (*defaults)[w] : 0);
    result.config[w] = (defaults ? base & ~words.field_masks[w] : base) | words.fields[w];
  }
  return result;
}

}  // namespace

std::vector<const PmuModel*> select_pmus(const std::string& name, const TreeModel& tree) {
  std::vector<const PmuModel*> pmus;
  for (const auto& pmu : tree.pmus) {
    if (pmu.name == name) return {&pmu};
  }
  for (const auto& pmu : tree.pmus) {
    const std::string prefix = name + "_";
    if (!pmu.name.starts_with(prefix)) continue;
    const std::string suffix = pmu.name.substr(prefix.size());
    // An instance suffix is decimal, or hex of more than two digits (newer perf's rule, which
    // catalog.h documents for pmucat).
    const bool decimal = std::all_of(suffix.begin(), suffix.end(), [](char c) {
      return std::isdigit(static_cast<unsigned char>(c)) != 0;
    });
    const bool hex = suffix.size() > 2 && std::all_of(suffix.begin(), suffix.end(), [](char c) {
                       return std::isxdigit(static_cast<unsigned char>(c)) != 0;
                     });
    if (!suffix.empty() && (decimal || hex)) {
      pmus.push_back(&pmu);
    }
  }
  return pmus;
}

std::optional<std::vector<AttrWords>> reference_encode(const SpecCase& spec_case,
                                                       const TreeModel& tree) {
  const auto pmus = select_pmus(spec_case.pmu, tree);
  if (pmus.empty()) return std::nullopt;
  std::vector<AttrWords> attrs;
  for (const PmuModel* pmu : pmus) {
    const auto words = encode_one(spec_case, *pmu);
    if (!words) return std::nullopt;
    attrs.push_back(*words);
  }
  std::sort(attrs.begin(), attrs.end());
  attrs.erase(std::unique(attrs.begin(), attrs.end()), attrs.end());
  return attrs;
}

}  // namespace differential
PMUCAT_END_NAMESPACE
