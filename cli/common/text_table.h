// Aligned plain-text columns, as `ls -l` prints them.
#pragma once

#include <string>
#include <vector>

#include "pmucat/version.h"

PMUCAT_BEGIN_NAMESPACE
namespace cli {

class TextTable {
 public:
  enum class Align { left, right };

  // A table whose columns are aligned as given; a row may have fewer cells than columns.
  explicit TextTable(std::vector<Align> alignment);

  void add_row(std::vector<std::string> cells);

  // Every row, cells separated by two spaces, each line starting with `indent` and without
  // trailing blanks.
  std::string render(const std::string& indent = {}) const;

 private:
  std::vector<Align> alignment_;
  std::vector<std::vector<std::string>> rows_;
};

}  // namespace cli
PMUCAT_END_NAMESPACE
