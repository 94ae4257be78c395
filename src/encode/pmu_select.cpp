// PMU instance selection: newer perf's rule (the catalog's) and perf 6.1's decimal-only rule.
#include "encode/pmu_select.h"

#include <algorithm>

#include "pmucat/version.h"

PMUCAT_BEGIN_NAMESPACE
namespace encode_detail {

bool decimal_instance_of(std::string_view pmu_name, std::string_view pattern) {
  if (pattern.empty()) return false;
  constexpr std::string_view kUncore = "uncore_";
  if (pmu_name.starts_with(kUncore) && !pattern.starts_with(kUncore)) {
    pmu_name.remove_prefix(kUncore.size());
  }
  if (!pmu_name.starts_with(pattern)) return false;
  std::string_view suffix = pmu_name.substr(pattern.size());
  if (suffix.empty()) return true;
  if (suffix.front() == '_') suffix.remove_prefix(1);
  // Measured with perf 6.1: foo_0, foo_10, qux10 are instances of foo/qux; foo_1a, bar_ff88840,
  // baz_1ff88, zed_0_1 are not, and `foo*` selects nothing.
  return !suffix.empty() &&
         std::all_of(suffix.begin(), suffix.end(), [](char c) { return c >= '0' && c <= '9'; });
}

std::vector<const Pmu*> select_pmus(const Catalog& catalog, std::string_view pattern,
                                    Profile semantics) {
  if (semantics.has(Behaviour::pmu_globs_and_hex_instances)) return catalog.match_pmus(pattern);
  if (const Pmu* exact = catalog.find_pmu(pattern)) return {exact};
  std::vector<const Pmu*> matches;
  for (const Pmu& pmu : catalog.pmus()) {
    if (decimal_instance_of(pmu.name(), pattern)) matches.push_back(&pmu);
  }
  return matches;
}

KeywordLexerToken keyword_lexer_token(std::string_view name) {
  for (std::string_view fixed :
       {"cycles-ct", "cycles-t", "mem-loads", "mem-loads-aux", "mem-stores"}) {
    if (name == fixed) return KeywordLexerToken::kernel_event;
  }
  for (std::string_view prefix : {"topdown-", "tx-capacity-", "el-capacity-"}) {
    if (name.size() > prefix.size() && name.starts_with(prefix) &&
        std::all_of(name.begin() + static_cast<std::ptrdiff_t>(prefix.size()), name.end(),
                    [](char c) { return (c >= 'a' && c <= 'z') || c == '-'; })) {
      return KeywordLexerToken::kernel_event;
    }
  }
  auto alpha = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); };
  auto start = [&](char c) {
    return alpha(c) || c == '_' || c == '*' || c == '?' || c == '[' || c == ']';
  };
  auto rest = [&](char c) { return start(c) || (c >= '0' && c <= '9') || c == '.' || c == '!'; };
  if (!name.empty() && start(name.front()) && std::all_of(name.begin() + 1, name.end(), rest)) {
    return KeywordLexerToken::name;
  }
  return KeywordLexerToken::other;
}

}  // namespace encode_detail
PMUCAT_END_NAMESPACE
