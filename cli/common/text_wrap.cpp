#include "common/text_wrap.h"

#include <sys/ioctl.h>
#include <unistd.h>

#include <charconv>
#include <cstdlib>

#include "pmucat/version.h"

PMUCAT_BEGIN_NAMESPACE
namespace cli {
namespace {

constexpr std::size_t kDefaultColumns = 80;
// perf keeps two columns free at the right edge of the terminal.
constexpr std::size_t kRightMargin = 2;

bool is_blank(char c) {
  return c == ' ' || c == '\t' || c == '\r';
}

}  // namespace

std::vector<std::string> wrap_words(std::string_view text, std::size_t width) {
  std::vector<std::string> lines;
  std::string line;
  bool line_open = false;  // a forced break opens a line even before its first word
  std::size_t i = 0;
  while (i < text.size()) {
    if (text[i] == '\n') {
      lines.push_back(std::move(line));
      line.clear();
      line_open = true;
      ++i;
      continue;
    }
    if (is_blank(text[i])) {
      ++i;
      continue;
    }
    std::size_t end = i;
    while (end < text.size() && text[end] != '\n' && !is_blank(text[end])) ++end;
    const std::string_view word = text.substr(i, end - i);
    if (!line.empty() && width != 0 && line.size() + 1 + word.size() > width) {
      lines.push_back(std::move(line));
      line.clear();
    }
    if (!line.empty()) line += ' ';
    line += word;
    line_open = true;
    i = end;
  }
  if (line_open) lines.push_back(std::move(line));
  return lines;
}

std::size_t description_columns(std::optional<std::string_view> columns_env,
                                std::optional<std::size_t> terminal_width) {
  if (columns_env) {
    std::size_t columns = 0;
    const char* begin = columns_env->data();
    const char* end = begin + columns_env->size();
    auto [stop, error] = std::from_chars(begin, end, columns);
    if (error == std::errc() && stop == end && columns > 0) return columns;
  }
  const std::size_t width =
      terminal_width && *terminal_width > 0 ? *terminal_width : kDefaultColumns;
  return width > kRightMargin ? width - kRightMargin : width;
}

std::size_t output_description_columns() {
  std::optional<std::string_view> columns_env;
  if (const char* value = std::getenv("COLUMNS")) columns_env = value;
  std::optional<std::size_t> terminal_width;
  winsize size{};
  if (isatty(STDOUT_FILENO) == 1 && ioctl(STDOUT_FILENO, TIOCGWINSZ, &size) == 0 &&
      size.ws_col > 0) {
    terminal_width = size.ws_col;
  }
  return description_columns(columns_env, terminal_width);
}

}  // namespace cli
PMUCAT_END_NAMESPACE
