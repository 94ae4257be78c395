#include "comparison.h"

#include <fmt/format.h>

#include <algorithm>

#include "diff_env.h"
#include "pmucat/builtin_events.h"
#include "reference_encoder.h"

PMUCAT_BEGIN_NAMESPACE
namespace differential {
namespace {

// Every term name the spec brings to a PMU: the user's terms and the alias' terms.
std::vector<std::string> used_term_names(const SpecCase& spec_case, const PmuModel& pmu) {
  std::vector<std::string> names;
  const auto open = spec_case.spec.find('/');
  const auto close = spec_case.spec.rfind('/');
  if (open != std::string::npos && close > open) {
    const auto terms = split_event_terms(spec_case.spec.substr(open + 1, close - open - 1));
    for (const auto& term : terms) names.push_back(term.name);
  }
  if (const auto event = pmu.events.find(spec_case.alias); event != pmu.events.end()) {
    for (const auto& term : event->second.terms) names.push_back(term.name);
  }
  return names;
}

bool same(const OurResult& a, const OurResult& b) {
  return a.accepted() == b.accepted() && a.attrs == b.attrs;
}

std::string describe(const OurResult& result) {
  return result.accepted() ? describe(result.attrs) : "rejected: " + result.error;
}

// perf 6.1 expands a PMU name only to instances with a decimal suffix: true when the name is
// no PMU's own and every instance newer perf (and pmucat) selects has a hex suffix instead.
bool only_hex_instances(const std::string& name, const TreeModel& tree) {
  const auto selected = select_pmus(name, tree);
  if (selected.empty()) return false;
  return std::none_of(selected.begin(), selected.end(), [&](const PmuModel* pmu) {
    if (pmu->name == name) return true;
    const std::string suffix = pmu->name.substr(name.size() + 1);  // after `name_`
    return std::all_of(suffix.begin(), suffix.end(), [](char c) { return c >= '0' && c <= '9'; });
  });
}

}  // namespace

std::string describe(const std::vector<AttrWords>& attrs) {
  std::string text;
  for (const auto& words : attrs) text += (text.empty() ? "" : " + ") + to_string(words);
  return text.empty() ? "no attr" : text;
}

OurResult encode_words(const Catalog& catalog, const std::string& spec, Profile semantics,
                       const std::string& tracefs) {
  EncodeOptions options;
  options.tracefs = tracefs;
  options.semantics = semantics;
  options.tool = Tool::stat;
  // perf 6.12 asks this machine's kernel whether it takes extended types; so does pmucat here
  // (perf 6.1 semantics never ask).
  if (semantics != Profile::perf(PerfRelease::v6_1))
    options.extended_type = probe_extended_type(catalog);
  OurResult result;
  auto encoded = encode(catalog, spec, options);
  if (!encoded) {
    result.error = encoded.error().message;
    return result;
  }
  for (const auto& event : *encoded) {
    result.attrs.push_back(AttrWords{event.attr.type, event.attr.config, event.attr.bp_type});
  }
  std::sort(result.attrs.begin(), result.attrs.end());
  result.attrs.erase(std::unique(result.attrs.begin(), result.attrs.end()), result.attrs.end());
  if (result.attrs.empty()) result.error = "no attr";
  return result;
}

std::string expected_divergence(const SpecCase& spec_case, const TreeModel& tree) {
  // Each is something perf 6.1 cannot do that later perf does: against perf 6.12 there is none.
  if (oracle_perf_version() != PerfRelease::v6_1) return {};
  if (spec_case.pmu.find('-') != std::string::npos) return "perf61-hyphenated-pmu-name";
  if (only_hex_instances(spec_case.pmu, tree)) return "perf61-decimal-instance-suffix";
  for (const PmuModel* pmu : select_pmus(spec_case.pmu, tree)) {
    for (const auto& name : used_term_names(spec_case, *pmu)) {
      const auto field = pmu->fields.find(name);
      if (name == "config3" || (field != pmu->fields.end() && field->second.word >= 3)) {
        return "perf61-no-config3";
      }
    }
  }
  return {};
}

std::vector<Profile> semantics_matching_oracle() {
  if (oracle_perf_version() == kPmucatBaseRelease) return {oracle_semantics(), Profile::pmucat()};
  return {oracle_semantics()};
}

bool counted_without_attr(const PerfResult& perf) {
  return oracle_perf_version() != PerfRelease::v6_1 && !perf.accepted() &&
         perf.output.find("Performance counter stats for") != std::string::npos;
}

bool only_tool_event_attrs(const OurResult& ours) {
  return ours.accepted() &&
         std::all_of(ours.attrs.begin(), ours.attrs.end(),
                     [](const AttrWords& attr) { return attr.type == 1 && attr.config[0] == 9; });
}

OurResult as_perf_prints(const OurResult& ours) {
  if (oracle_perf_version() == PerfRelease::v6_1) return ours;
  OurResult shown = ours;
  for (AttrWords& words : shown.attrs) words.config[3] = 0;
  std::sort(shown.attrs.begin(), shown.attrs.end());
  shown.attrs.erase(std::unique(shown.attrs.begin(), shown.attrs.end()), shown.attrs.end());
  return shown;
}

Comparison compare_with_perf(const SpecCase& spec_case, const TreeModel& tree,
                             const PerfResult& perf, const OurResult& ours_full) {
  const OurResult ours = as_perf_prints(ours_full);
  const bool agree =
      perf.accepted() == ours.accepted() && (!perf.accepted() || perf.attrs == ours.attrs);
  const std::string divergence = expected_divergence(spec_case, tree);
  if (!divergence.empty() && perf.accepted()) {
    return {Verdict::disagree, fmt::format("perf was expected to reject this ({}) but built {}",
                                           divergence, describe(perf.attrs))};
  }
  if (agree) return {divergence.empty() ? Verdict::agree : Verdict::documented, divergence};
  return {Verdict::disagree,
          fmt::format("perf {} | pmucat {}",
                      perf.accepted() ? describe(perf.attrs) : "rejected: " + perf.error,
                      describe(ours))};
}

namespace {

// A hardware or hardware-cache event name as perf lists it (or one of its listed spellings).
bool is_legacy_event_name(const std::string& name) {
  for (const BuiltinEvent& event : builtin_events()) {
    if (event.kind != BuiltinKind::hardware && event.kind != BuiltinKind::hw_cache) continue;
    if (event.name == name) return true;
    if (std::find(event.aliases.begin(), event.aliases.end(), name) != event.aliases.end()) {
      return true;
    }
  }
  return false;
}

// perf 6.12 and 7.3 read a legacy name in the terms (`cpu/L1-dcache-loads/`) as the legacy event
// when the PMU's sysfs event of that name is spelled in mixed case (perf-compat difference 19).
bool mixed_case_legacy_alias(const SpecCase& spec_case) {
  // Compared with the base release's semantics (7.3), whatever perf is the oracle.
  if (spec_case.alias.empty()) return false;
  const std::string& name = spec_case.alias;
  const bool lower =
      std::none_of(name.begin(), name.end(), [](char c) { return c >= 'A' && c <= 'Z'; });
  const bool upper =
      std::none_of(name.begin(), name.end(), [](char c) { return c >= 'a' && c <= 'z'; });
  return !lower && !upper && is_legacy_event_name(name);
}

}  // namespace

Comparison compare_semantics(const SpecCase& spec_case, const TreeModel& tree,
                             const Catalog& catalog, const OurResult& perf_semantics,
                             const OurResult& default_semantics) {
  if (mixed_case_legacy_alias(spec_case)) {
    if (default_semantics.accepted()) {
      return {Verdict::documented, "perf612-mixed-case-legacy-name"};
    }
    return {Verdict::disagree,
            "the sysfs event should be used by default, got " + describe(default_semantics)};
  }
  if (const std::string divergence = expected_divergence(spec_case, tree); !divergence.empty()) {
    // perf 6.1 cannot be the oracle here: check pmucat against the reference encoder instead.
    const auto expected = reference_encode(spec_case, tree);
    OurResult reference;
    if (expected) reference.attrs = *expected;
    if (same(reference, default_semantics)) return {Verdict::documented, divergence};
    return {Verdict::disagree,
            fmt::format("{}: reference {} | pmucat default {}", divergence,
                        expected ? describe(*expected) : "rejects", describe(default_semantics))};
  }
  if (spec_case.kind == CaseKind::repeated_field) {
    if (!default_semantics.accepted()) return {Verdict::documented, "repeated-field-rejected"};
    return {Verdict::disagree, "a repeated user field should be an error by default, got " +
                                   describe(default_semantics)};
  }
  if (spec_case.kind == CaseKind::alias_same_field) {
    if (!reference_encode(spec_case, tree)) {
      // The alias itself is unusable (e.g. its own value is over the field's maximum).
      if (!default_semantics.accepted()) return {Verdict::agree, {}};
      return {Verdict::disagree,
              "the reference rejects this, pmucat default built " + describe(default_semantics)};
    }
    const std::string equivalent = override_equivalent(spec_case, tree);
    if (equivalent.empty()) return {Verdict::agree, {}};
    const OurResult expected = encode_words(catalog, equivalent, oracle_semantics());
    if (same(expected, default_semantics)) {
      return {same(perf_semantics, default_semantics) ? Verdict::agree : Verdict::documented,
              "user-term-overrides-alias"};
    }
    return {Verdict::disagree,
            fmt::format("override: expected {} (as {}) | pmucat default {}", describe(expected),
                        equivalent, describe(default_semantics))};
  }
  if (same(perf_semantics, default_semantics)) return {Verdict::agree, {}};
  return {Verdict::disagree, fmt::format("perf semantics {} | default semantics {}",
                                         describe(perf_semantics), describe(default_semantics))};
}

}  // namespace differential
PMUCAT_END_NAMESPACE
