// The exit statuses every pmucat tool uses: one table for all six (docs/cli.md, the EXIT STATUS
// section of each man page and of each --help).
#pragma once

#include "pmucat/version.h"

PMUCAT_BEGIN_NAMESPACE
namespace cli {

enum class ExitCode : int {
  success = 0,   // everything asked for was done (pmucheck: no errors; pmudiff: no ABI break)
  rejected = 1,  // the input was rejected: bad spec, unknown PMU or event named on the command
                 // line, findings in a tree (pmucheck), an ABI break (pmudiff), a malformed
                 // perf.data (pmudata), a capture that is not faithful (pmusnap)
  usage = 2,     // bad command line, or an I/O error: unreadable tree or file, unwritable output,
                 // anything unexpected (see run_main)
  io = usage,    // the same status, for call sites that report an I/O failure
};

// The process exit status for `code`.
constexpr int to_int(ExitCode code) {
  return static_cast<int>(code);
}

}  // namespace cli
PMUCAT_END_NAMESPACE
