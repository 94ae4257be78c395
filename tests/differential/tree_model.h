// A plain model of a sysfs PMU tree for the differential test: what the spec generator needs to
// know (field widths, event terms, parameters), read from disk with a deliberately small reader
// of its own so that a bug in the library's catalog cannot hide itself by shaping the specs.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "pmucat/version.h"

PMUCAT_BEGIN_NAMESPACE
namespace differential {

struct FieldModel {
  unsigned word = 0;       // 0 = config, 1 = config1, ...
  std::uint64_t mask = 0;  // bits of `word`
  std::string text;        // file content without the trailing newline
  unsigned width() const;  // popcount of mask
  std::uint64_t max_value() const;
};

struct EventTermModel {
  std::string name;
  std::string value;  // as written ("0x3c", "16", "?"); empty for a bare term
};

struct EventModel {
  std::string text;                   // file content without the trailing newline
  std::vector<EventTermModel> terms;  // empty when the text is not a plain term list
  std::optional<std::string> unit;
  std::optional<std::string> scale;
  // Names of `?` parameters.
  std::vector<std::string> params() const;
};

struct PmuModel {
  std::string name;
  std::optional<std::string> type_text;      // `type` file content, trailing newline removed
  std::map<std::string, FieldModel> fields;  // format/ files that parsed as config[N]:bits
  std::map<std::string, EventModel> events;  // events/ files (metadata attached, not listed)
  std::optional<std::string> cpumask;
  std::map<std::string, std::string> caps;  // caps/ files (trailing newline removed)
};

struct TreeModel {
  std::vector<PmuModel> pmus;  // sorted by name
};

// Parses `config[N]:a-b,c` (well-formed files only; anything else gives nullopt).
std::optional<FieldModel> parse_field(const std::string& text);

// Splits `a=b,c` into terms (nothing fancy: whitespace trimmed, empty items ignored).
std::vector<EventTermModel> split_event_terms(const std::string& text);

// Reads a devices folder (`<dir>/<pmu>/...`), following symlinks. Unreadable parts are skipped.
TreeModel read_tree(const std::filesystem::path& devices_dir);

// Writes the model as a devices folder under `devices_dir` (created; must not exist), every file
// ending with '\n' like the kernel prints it.
void write_tree(const TreeModel& tree, const std::filesystem::path& devices_dir);

// `dir/bus/event_source/devices` when that exists, else `dir` itself.
std::filesystem::path devices_folder(const std::filesystem::path& dir);

}  // namespace differential
PMUCAT_END_NAMESPACE
