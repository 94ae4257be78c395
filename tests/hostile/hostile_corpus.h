// The hostile-tree corpus: the trees real sysfs and careless captures produce (symlink loops,
// dangling PMU links, FIFOs, sockets and directories where files belong, unreadable links,
// 1 MiB files, NUL bytes, invalid UTF-8 names, bit 1000, empty files, CRLF, garbage, overflowing
// types), built at test time in a temporary directory. One PMU per case, so each case can be
// checked for its own diagnostic while every other PMU and event must still work.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "pmucat/version.h"
#include "support/scratch_dir.h"

PMUCAT_BEGIN_NAMESPACE
namespace hostile {

// What the tools must say about one hostile entry, and what must still work beside it.
struct HostileCase {
  std::string label;  // gtest-friendly name
  std::string pmu;    // the PMU the case lives in (its own; named hx_<label>)
  std::string entry;  // the entry at fault, relative to the devices dir
  // Acceptable diagnostic ids: the first is pmucheck's rule id, the others the library's more
  // specific parser ids for the same problem (`format-empty` is rule `format-syntax`).
  std::vector<std::string> ids;
  bool located = false;  // content is at fault: the diagnostic must give line:col
  // A spec on the case's own PMU that must still encode, and its config; empty when the case
  // breaks the whole PMU (no directory, no type).
  std::string usable_spec;
  std::uint64_t usable_config = 0;
};

// A corpus tree in a new temporary directory, removed with this object.
class HostileTree {
 public:
  HostileTree();
  HostileTree(const HostileTree&) = delete;
  HostileTree& operator=(const HostileTree&) = delete;

  const std::filesystem::path& devices() const { return devices_; }
  const std::vector<HostileCase>& cases() const { return cases_; }
  // Name of a healthy PMU (type 42, formats event/umask, events ok=0x3c and plain=0x12 files
  // without a trailing newline) that every run must still read.
  static constexpr const char* kGoodPmu = "good";

  // Adds a PMU of `event_count` events (e000000 = event=0x0, ...) named `name`.
  void add_big_pmu(const std::string& name, unsigned event_count) const;

 private:
  testing::ScratchDir root_{"hostile"};
  std::filesystem::path devices_;
  std::vector<HostileCase> cases_;
};

}  // namespace hostile
PMUCAT_END_NAMESPACE
