#include "common/text_table.h"

#include <algorithm>
#include <utility>

#include "pmucat/version.h"

PMUCAT_BEGIN_NAMESPACE
namespace cli {

TextTable::TextTable(std::vector<Align> alignment) : alignment_(std::move(alignment)) {}

void TextTable::add_row(std::vector<std::string> cells) {
  rows_.push_back(std::move(cells));
}

std::string TextTable::render(const std::string& indent) const {
  std::vector<std::size_t> widths(alignment_.size(), 0);
  for (const auto& row : rows_) {
    for (std::size_t i = 0; i < row.size() && i < widths.size(); ++i) {
      widths[i] = std::max(widths[i], row[i].size());
    }
  }
  std::string out;
  for (const auto& row : rows_) {
    std::string line = indent;
    for (std::size_t i = 0; i < row.size(); ++i) {
      if (i > 0) line += "  ";
      const std::size_t width = i < widths.size() ? widths[i] : row[i].size();
      const std::size_t pad = width - std::min(width, row[i].size());
      const bool right = i < alignment_.size() && alignment_[i] == Align::right;
      if (right) line.append(pad, ' ');
      line += row[i];
      if (!right) line.append(pad, ' ');
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line;
    out += '\n';
  }
  return out;
}

}  // namespace cli
PMUCAT_END_NAMESPACE
