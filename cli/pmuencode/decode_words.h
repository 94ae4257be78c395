// pmuencode --decode: `config=0x...` arguments -> config words, and the decoded terms and
// matching events as text or JSON.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>

#include "common/json.h"
#include "pmucat/attr.h"
#include "pmucat/catalog.h"
#include "pmucat/decode.h"
#include "pmucat/expected.h"

PMUCAT_BEGIN_NAMESPACE
namespace cli {

// Parses `config=V` .. `config4=V` (V decimal or 0x hex; words not
// given are 0). A bad argument is an error with a caret into it (file "<decode>").
Expected<ConfigWords> parse_config_words(std::span<const std::string> arguments);

// `pmu/terms/`, the words, each decoded term with its value and bits, bits no format covers,
// and the catalog events with exactly this encoding.
std::string render_decoded(const Pmu& pmu, const ConfigWords& words, const Decoded& decoded);

// {"pmu","type","config".."config4","terms":[{"name","value"}],"residue":{...},"events":[...],
//  "perf"}.
Json decoded_to_json(const Pmu& pmu, const ConfigWords& words, const Decoded& decoded);

}  // namespace cli
PMUCAT_END_NAMESPACE
