#include "common/color.h"

#include <unistd.h>

#include <cstdlib>

#include "pmucat/version.h"

PMUCAT_BEGIN_NAMESPACE
namespace cli {

std::optional<ColorMode> parse_color_mode(std::string_view text) {
  if (text == "auto") return ColorMode::automatic;
  if (text == "always") return ColorMode::always;
  if (text == "never") return ColorMode::never;
  return std::nullopt;
}

bool decide_color(ColorMode mode, bool is_terminal, bool no_color_set) {
  switch (mode) {
    case ColorMode::always:
      return true;
    case ColorMode::never:
      return false;
    case ColorMode::automatic:
      break;
  }
  return is_terminal && !no_color_set;
}

bool stream_wants_color(ColorMode mode, std::FILE* stream) {
  const char* no_color = std::getenv("NO_COLOR");
  const bool no_color_set = no_color != nullptr && *no_color != '\0';
  return decide_color(mode, isatty(fileno(stream)) == 1, no_color_set);
}

}  // namespace cli
PMUCAT_END_NAMESPACE
