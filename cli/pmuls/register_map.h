// The --formats picture: a PMU's format terms with their bit specs, and a 64-bit map of each
// config word showing which term owns which bit (bit 63 on the left, as data sheets draw it).
#pragma once

#include <span>
#include <string>
#include <vector>

#include "common/color.h"
#include "pmucat/catalog.h"

PMUCAT_BEGIN_NAMESPACE
namespace cli {

// One key per format, distinct within the list: the first letter of the name when free, else
// another of its letters or digits, else any free letter, digit or punctuation mark. Formats
// lower in the register (by word, then lowest bit) choose first. A PMU with more formats than
// key characters gets numbered keys of two (or more) characters, all of one width, and the map
// draws every bit that wide.
std::vector<std::string> assign_format_keys(std::span<const Format> formats);

// The format table (key, name, bits, width, max), one map line per config word used, and a list
// of the bits several formats share (drawn as '#', red when `palette` is on). Bits no format
// owns are '.'. Every line starts with two spaces.
std::string render_formats(std::span<const Format> formats, const Palette& palette);

}  // namespace cli
PMUCAT_END_NAMESPACE
