// The per-event metadata files: events/<name>.unit, .scale, .per-pkg, .snapshot.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "pmucat/diagnostic.h"
#include "pmucat/expected.h"
#include "pmucat/version.h"

PMUCAT_BEGIN_NAMESPACE

enum class MetadataSuffix : unsigned char { none, unit, scale, per_pkg, snapshot };

// The suffix of an events/ file name, `none` for an event file. As in perf, a name is a
// metadata file only when it is longer than the suffix (".unit" alone is an event named ".unit").
MetadataSuffix metadata_suffix(std::string_view file_name);

// The base event name of a metadata file name ("foo.scale" -> "foo"); the name itself otherwise.
std::string_view metadata_base_name(std::string_view file_name);

// `.unit`: the text with one trailing '\n' removed. An empty unit is an error (perf 6.1 reads
// before the buffer); a unit over 31 bytes or with non-printable bytes gets a lint in `lints`.
struct Unit {
  std::string text;
  std::vector<Diagnostic> lints;
};
Expected<Unit> parse_unit(std::string_view text, std::string_view file);

// `.scale`: a C-locale floating point number (decimal or scientific), surrounding whitespace and
// one trailing '\n' allowed. Anything else (perf silently reads such text as 0, then 1.0) is an
// error pointing at the first bad byte.
struct Scale {
  double value = 1.0;  // what perf multiplies by: a written 0 reads as 1.0 (and gets a lint)
  std::string text;    // trimmed, as written
  std::vector<Diagnostic> lints;
};
Expected<Scale> parse_scale(std::string_view text, std::string_view file);

// `.per-pkg` / `.snapshot`: perf treats existence as true. Content other than `1` (or `0`, which
// perf still reads as true) is a lint; this never fails.
struct Flag {
  bool value = true;
  std::vector<Diagnostic> lints;
};
Flag parse_flag(std::string_view text, std::string_view file);

PMUCAT_END_NAMESPACE
