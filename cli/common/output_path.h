// The check every tool applies to an output path option before opening it (-o FILE, OUT).
#pragma once

#include <CLI/CLI.hpp>
#include <string>

#include "pmucat/version.h"

PMUCAT_BEGIN_NAMESPACE
namespace cli {

// Rejects an empty path at parse time, so `-o ''` is a usage error (exit 2) like any other bad
// option value; everything else is decided when the path is opened (pmucat/output_file.h).
inline CLI::Validator output_path_check() {
  return CLI::Validator(
      [](const std::string& path) -> std::string {
        return path.empty() ? "the output path is empty (use - for standard output)" : "";
      },
      "", "OUTPUT");
}

}  // namespace cli
PMUCAT_END_NAMESPACE
