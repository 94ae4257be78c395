// A section of a doc generated from a table in the code (the diagnostic ids in docs/grammar.md,
// the perf releases in docs/perf-compat.md): between a begin marker and an end marker, checked
// against what the table says, rewritten in place with PMUCAT_UPDATE_DOCS=1.
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

#include "pmucat/version.h"
#include "support/files.h"

PMUCAT_BEGIN_NAMESPACE
namespace testing {

// A table cell's text with its '|' escaped, so that it stays one cell.
inline std::string escape_cell(std::string_view text) {
  std::string out;
  for (char c : text) {
    if (c == '|') out += '\\';
    out += c;
  }
  return out;
}

// `doc`'s section from `begin` to `end` (both included) must read `expected`, which starts with
// `begin` and ends with `end`.
inline void expect_generated_section(const std::filesystem::path& doc, std::string_view begin,
                                     std::string_view end, const std::string& expected) {
  std::string text = read_text(doc);
  ASSERT_FALSE(text.empty()) << doc;
  const std::size_t from = text.find(begin);
  const std::size_t to = text.find(end);
  ASSERT_NE(from, std::string::npos) << doc << " has no generated section";
  ASSERT_NE(to, std::string::npos) << doc << " has no end of its generated section";
  const std::string current = text.substr(from, to + end.size() - from);
  if (current != expected && std::getenv("PMUCAT_UPDATE_DOCS") != nullptr) {
    text.replace(from, current.size(), expected);
    std::ofstream(doc, std::ios::binary) << text;
    return;
  }
  EXPECT_EQ(current, expected) << "the generated section of " << doc
                               << " is out of date; run this test with PMUCAT_UPDATE_DOCS=1";
}

}  // namespace testing
PMUCAT_END_NAMESPACE
