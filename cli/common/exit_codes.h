// The exit statuses every pmucat tool uses (documented in docs/man/*.1.md).
#pragma once

namespace pmucat::cli {

enum class ExitCode : int {
  success = 0,   // everything asked for was done
  rejected = 1,  // the input was rejected: bad spec, unknown PMU or event, value too big, ...
  usage = 2,     // bad command line, or the tree could not be read
};

// The process exit status for `code`.
constexpr int to_int(ExitCode code) {
  return static_cast<int>(code);
}

}  // namespace pmucat::cli
