// Word wrapping for descriptions, and the width to wrap them to, decided as `perf list` does.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "pmucat/version.h"

PMUCAT_BEGIN_NAMESPACE
namespace cli {

// Splits `text` into lines of at most `width` characters, breaking at blanks (spaces, tabs);
// runs of blanks collapse into one space, a line break in `text` always starts a new line, and a
// word longer than `width` stands alone on its line, unbroken. A width of 0 means no limit: the
// words of each line of `text` joined by single spaces. Empty text gives no lines.
std::vector<std::string> wrap_words(std::string_view text, std::size_t width);

// The width `perf list` wraps descriptions to: $COLUMNS when it holds a positive number, else
// the terminal's width less 2 when stdout is a terminal, else 78 (perf's 80 less 2). Pure: the
// caller reads the environment and the terminal.
std::size_t description_columns(std::optional<std::string_view> columns_env,
                                std::optional<std::size_t> terminal_width);

// description_columns() for this process: $COLUMNS, and stdout's terminal width when it is one.
std::size_t output_description_columns();

}  // namespace cli
PMUCAT_END_NAMESPACE
