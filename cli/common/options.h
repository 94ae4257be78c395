// The values of the options every tool shares. Apart from app.h (which adds them to a CLI11 app)
// so code that only reads them does not include CLI11, whose headers give every translation unit
// static validators to construct at start-up.
#pragma once

#include <string>

namespace pmucat::cli {

struct CommonOptions {
  std::string sysfs;  // --sysfs DIR|FILE.tar.gz, else $PMUCAT_SYSFS, else empty (live /sys)
  std::string color = "auto";
  bool json = false;
};

}  // namespace pmucat::cli
