// When to colour output: --color=auto|always|never, NO_COLOR, and whether a stream is a terminal.
#pragma once

#include <cstdio>
#include <optional>
#include <string_view>

#include "pmucat/version.h"

PMUCAT_BEGIN_NAMESPACE
namespace cli {

enum class ColorMode { automatic, always, never };

// Parses "auto", "always" or "never"; nullopt for anything else.
std::optional<ColorMode> parse_color_mode(std::string_view text);

// The decision itself, free of the environment: `always` and `never` win; `auto` colours a
// terminal unless NO_COLOR is set to a non-empty value (https://no-color.org).
bool decide_color(ColorMode mode, bool is_terminal, bool no_color_set);

// decide_color() for a real stream, reading isatty() and the NO_COLOR variable.
bool stream_wants_color(ColorMode mode, std::FILE* stream);

// ANSI sequences used by the tools (empty strings when colour is off keep call sites simple).
struct Palette {
  bool enabled = false;
  std::string_view bold() const { return enabled ? "\x1b[1m" : ""; }
  std::string_view red() const { return enabled ? "\x1b[1;31m" : ""; }
  std::string_view green() const { return enabled ? "\x1b[32m" : ""; }
  std::string_view dim() const { return enabled ? "\x1b[2m" : ""; }
  std::string_view reset() const { return enabled ? "\x1b[0m" : ""; }
};

}  // namespace cli
PMUCAT_END_NAMESPACE
