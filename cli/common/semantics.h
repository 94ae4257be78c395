// --perf-semantics[=VERSION]: which perf a tool imitates bit for bit, and so which vendor table
// set it reads. A pure decision from the option's text and the version of the perf on PATH, and
// the impure wrapper that asks that perf.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "common/options.h"
#include "pmucat/encode.h"
#include "pmucat/expected.h"
#include "pmucat/perf_profile.h"

namespace CLI {
class App;
}  // namespace CLI

PMUCAT_BEGIN_NAMESPACE
namespace cli {

// The option as given: absent, bare (`--perf-semantics`), or with a value.
struct PerfSemanticsOption {
  bool given = false;
  std::string value;  // empty, or the bare flag's "6.1": perf 6.1
};

// What the bare flag means: perf 6.1, what it meant before a version could be named, so scripts
// written for it keep their results.
inline constexpr PerfRelease kBarePerfSemantics = PerfRelease::v6_1;

// `--perf-semantics[=6.1|6.12|auto]`, a flag (`--perf-semantics 6.12` leaves 6.12 an
// argument): add_to() adds it to an app, parsed() says how it was given.
class PerfSemanticsFlag {
 public:
  void add_to(CLI::App& app);
  PerfSemanticsOption parsed() const;

 private:
  bool given_ = false;  // set while parsing: no pointer into an App that may be gone
  std::string value_;
};

// The release the option names: nullopt when not given (pmucat's semantics), 6.1 when bare,
// the named one, or for `auto` the release of the perf on PATH (`perf_on_path`: what its
// `perf --version` printed, nullopt when there is no perf). The error says what is wrong.
Expected<std::optional<PerfRelease>, std::string> resolve_perf_semantics(
    const PerfSemanticsOption& option, const std::optional<std::string>& perf_on_path);

// The same, running `perf --version` only for `auto`.
Expected<std::optional<PerfRelease>, std::string> resolve_perf_semantics(
    const PerfSemanticsOption& option);

// After parsing: resolves `flag` into `version` and makes `common` read that release's tables.
// Returns the exit status (usage, the error printed on stderr for `tool`) when it is wrong.
std::optional<int> resolve_semantics_option(const PerfSemanticsFlag& flag, CommonOptions& common,
                                            std::optional<PerfRelease>& version,
                                            std::string_view tool);

}  // namespace cli
PMUCAT_END_NAMESPACE
