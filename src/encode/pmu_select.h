// Which PMUs a `pmu/terms/` name selects, by semantics.
#pragma once

#include <string_view>
#include <vector>

#include "pmucat/catalog.h"
#include "pmucat/encode.h"

PMUCAT_BEGIN_NAMESPACE
namespace encode_detail {

// The exact PMU if it exists, else its instances: with Behaviour::pmu_globs_and_hex_instances
// newer perf's rule (Catalog::match_pmus: hex suffixes longer than two digits, globs), else
// perf 6.1's: the name plus an optional '_' and a decimal-only suffix (`uncore_` may be left
// out), no globs.
std::vector<const Pmu*> select_pmus(const Catalog& catalog, std::string_view pattern,
                                    Profile semantics);

// perf 6.1's instance rule for one PMU name (without the exact-name case).
bool decimal_instance_of(std::string_view pmu_name, std::string_view pattern);

// How perf 6.1's lexer reads the name before `/terms/`.
enum class KeywordLexerToken {
  kernel_event,  // cycles-ct, cycles-t, mem-loads, mem-loads-aux, mem-stores, topdown-*,
                 // tx-capacity-*, el-capacity-*: always an event name
  name,          // [a-zA-Z_*?[\]][a-zA-Z0-9_*?.[\]!]*: an event name when a PMU has that event
  other,         // anything else (a hyphenated name): a PMU name
};
KeywordLexerToken keyword_lexer_token(std::string_view name);

}  // namespace encode_detail
PMUCAT_END_NAMESPACE
