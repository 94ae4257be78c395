// The ABI namespace (include/pmucat/version.h): every file that declares in namespace pmucat
// opens it with PMUCAT_BEGIN_NAMESPACE, so that all of pmucat lies in the inline namespace
// pmucat::v<major>_<minor>. A declaration in a bare `namespace pmucat {` would be a second
// pmucat::X beside pmucat::v0_1::X (an ambiguity, or a symbol libpmucat.so exports unversioned);
// a public header is where that matters most, and the first place this test looks.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <typeinfo>
#include <vector>

#include "pmucat/diagnostic.h"
#include "pmucat/version.h"

namespace {

namespace fs = std::filesystem;

const fs::path kSource = PMUCAT_SOURCE_DIR;

#define PMUCAT_TEST_STR_(x) #x
#define PMUCAT_TEST_STR(x) PMUCAT_TEST_STR_(x)
const std::string kAbi = PMUCAT_TEST_STR(PMUCAT_ABI_NAMESPACE);

// A namespace definition that names pmucat itself: `namespace pmucat {`, `namespace pmucat::x {`,
// `inline namespace pmucat`, whatever the spacing; not `using namespace pmucat;` nor an alias
// `namespace pm = pmucat;`, and not a comment.
bool opens_bare_pmucat(const std::string& line) {
  static const std::regex pattern(R"(^\s*(inline\s+)?namespace\s+pmucat\b\s*(::|\{|$))");
  return std::regex_search(line, pattern);
}

struct Scan {
  std::vector<std::string> bare;        // "file:line: text"
  std::vector<std::string> unbalanced;  // files whose BEGIN and END counts differ
};

void scan_file(const fs::path& file, const std::string& shown, Scan& scan) {
  std::ifstream in(file);
  std::string line;
  int begins = 0;
  int ends = 0;
  for (unsigned number = 1; std::getline(in, line); ++number) {
    if (opens_bare_pmucat(line)) {
      scan.bare.push_back(shown + ":" + std::to_string(number) + ": " + line);
    }
    if (line.starts_with("PMUCAT_BEGIN_NAMESPACE")) ++begins;
    if (line.starts_with("PMUCAT_END_NAMESPACE")) ++ends;
  }
  if (begins != ends) {
    scan.unbalanced.push_back(shown + ": " + std::to_string(begins) + " PMUCAT_BEGIN_NAMESPACE, " +
                              std::to_string(ends) + " PMUCAT_END_NAMESPACE");
  }
}

bool is_cxx(const fs::path& path) {
  const std::string extension = path.extension().string();
  return extension == ".h" || extension == ".hpp" || extension == ".cpp" || extension == ".cc" ||
         extension == ".inc" || extension == ".def";
}

// Every C++ file under `top` (relative to the source root), but the layering checker's fake
// layouts (tests/repo/layering: trees of another project, never compiled).
Scan scan_tree(const std::string& top) {
  Scan scan;
  const fs::path base = kSource / top;
  if (!fs::is_directory(base)) return scan;
  for (auto entry = fs::recursive_directory_iterator(base);
       entry != fs::recursive_directory_iterator(); ++entry) {
    const std::string relative = fs::relative(entry->path(), kSource).generic_string();
    if (entry->is_directory() && relative == "tests/repo/layering") {
      entry.disable_recursion_pending();
      continue;
    }
    if (!entry->is_regular_file() || !is_cxx(entry->path())) continue;
    // version.h defines the macros, and so spells the namespace out.
    if (relative == "include/pmucat/version.h") continue;
    scan_file(entry->path(), relative, scan);
  }
  return scan;
}

std::string lines(const std::vector<std::string>& items) {
  std::ostringstream out;
  for (const std::string& item : items) out << item << '\n';
  return out.str();
}

TEST(AbiNamespace, DetectorTellsADefinitionFromAUse) {
  EXPECT_TRUE(opens_bare_pmucat("namespace pmucat {"));
  EXPECT_TRUE(opens_bare_pmucat("namespace pmucat{"));
  EXPECT_TRUE(opens_bare_pmucat("  namespace  pmucat::cli {"));
  EXPECT_TRUE(opens_bare_pmucat("inline namespace pmucat {"));
  EXPECT_TRUE(opens_bare_pmucat("namespace pmucat"));
  EXPECT_FALSE(opens_bare_pmucat("using namespace pmucat;"));
  EXPECT_FALSE(opens_bare_pmucat("namespace pm = pmucat;"));
  EXPECT_FALSE(opens_bare_pmucat("// namespace pmucat {"));
  EXPECT_FALSE(opens_bare_pmucat("}  // namespace pmucat"));
  EXPECT_FALSE(opens_bare_pmucat("namespace pmucatx {"));
  EXPECT_FALSE(opens_bare_pmucat("PMUCAT_BEGIN_NAMESPACE"));
}

TEST(AbiNamespace, PublicHeadersOpenPmucatOnlyThroughTheMacro) {
  const Scan scan = scan_tree("include");
  EXPECT_TRUE(scan.bare.empty()) << "open namespace pmucat with PMUCAT_BEGIN_NAMESPACE "
                                    "(include/pmucat/version.h):\n"
                                 << lines(scan.bare);
  EXPECT_TRUE(scan.unbalanced.empty()) << lines(scan.unbalanced);
  // Each public header that opens the namespace includes the macros itself, so that it compiles
  // whatever a consumer included before it.
  std::vector<std::string> missing;
  for (const auto& entry : fs::directory_iterator(kSource / "include/pmucat")) {
    if (entry.path().extension() != ".h" || entry.path().filename() == "version.h") continue;
    std::ifstream in(entry.path());
    std::stringstream text;
    text << in.rdbuf();
    const std::string body = text.str();
    if (body.find("PMUCAT_BEGIN_NAMESPACE") != std::string::npos &&
        body.find("#include \"pmucat/version.h\"") == std::string::npos) {
      missing.push_back(entry.path().filename().string());
    }
  }
  EXPECT_TRUE(missing.empty()) << "include \"pmucat/version.h\" in:\n" << lines(missing);
}

// The library's sources define what the headers declare, so they must be in the same inline
// namespace; the tools, tests, bindings and benchmarks that add to namespace pmucat (pmucat::cli,
// pmucat::testing, forward declarations) too, or pmucat::x would name two namespaces.
TEST(AbiNamespace, NoSourceOpensPmucatBare) {
  Scan all;
  for (const char* top : {"src", "cli", "tests", "python", "bench", "fuzz", "tools", "examples"}) {
    const Scan scan = scan_tree(top);
    all.bare.insert(all.bare.end(), scan.bare.begin(), scan.bare.end());
    all.unbalanced.insert(all.unbalanced.end(), scan.unbalanced.begin(), scan.unbalanced.end());
  }
  EXPECT_TRUE(all.bare.empty()) << "open namespace pmucat with PMUCAT_BEGIN_NAMESPACE "
                                   "(include/pmucat/version.h):\n"
                                << lines(all.bare);
  EXPECT_TRUE(all.unbalanced.empty()) << lines(all.unbalanced);
}

// The namespace's name is the SOVERSION's two numbers (CMake's PMUCAT_SOVERSION), and the types
// of the headers really lie in it (their mangled names say so).
TEST(AbiNamespace, NameFollowsTheSoversion) {
  std::string expected = "v" + std::string(PMUCAT_SOVERSION);
  for (char& c : expected) {
    if (c == '.') c = '_';
  }
  EXPECT_EQ(kAbi, expected);
  EXPECT_EQ(kAbi, "v" + std::to_string(PMUCAT_VERSION_MAJOR) + "_" +
                      std::to_string(PMUCAT_VERSION_MINOR));
  const std::string mangled = typeid(pmucat::Diagnostic).name();
  EXPECT_NE(mangled.find("6pmucat" + std::to_string(kAbi.size()) + kAbi), std::string::npos)
      << mangled;
}

}  // namespace
