// Golden-output tests: each line of cases.txt is `name | tree | command`; the command runs from
// the repository root with PMUCAT_SYSFS=fixtures/sysfs/<tree>, and its stdout, stderr and exit
// status must equal expected/<name>.txt. Run with PMUCAT_UPDATE_GOLDEN=1 to rewrite the files.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "pmucat/version.h"
#include "support/files.h"
#include "support/tools.h"

PMUCAT_BEGIN_NAMESPACE
namespace testing {
namespace {

struct GoldenCase {
  std::string name;
  std::string tree;
  std::string command;
};

std::string trim(const std::string& text) {
  const auto begin = text.find_first_not_of(" \t");
  if (begin == std::string::npos) return {};
  const auto end = text.find_last_not_of(" \t\r");
  return text.substr(begin, end - begin + 1);
}

std::string golden_dir() {
  return source_dir() + "/tests/golden";
}

std::vector<GoldenCase> load_cases() {
  std::vector<GoldenCase> cases;
  std::ifstream file(golden_dir() + "/cases.txt");
  std::string line;
  while (std::getline(file, line)) {
    if (trim(line).empty() || trim(line)[0] == '#') continue;
    const auto first = line.find(" | ");
    const auto second = line.find(" | ", first + 3);
    if (first == std::string::npos || second == std::string::npos) {
      cases.push_back({"malformed_line", "-", line});
      continue;
    }
    cases.push_back({trim(line.substr(0, first)), trim(line.substr(first + 3, second - first - 3)),
                     trim(line.substr(second + 3))});
  }
  return cases;
}

std::string render(const GoldenCase& golden, const CommandResult& result) {
  std::string text = "# tree: " + golden.tree + "\n$ " + golden.command + "\n" + result.out;
  if (!result.out.empty() && result.out.back() != '\n') text += "\n[no newline at end]\n";
  if (!result.err.empty()) {
    text += "--- stderr\n" + result.err;
    if (result.err.back() != '\n') text += "\n[no newline at end]\n";
  }
  text += "--- exit " + std::to_string(result.status) + "\n";
  return text;
}

class Golden : public ::testing::TestWithParam<GoldenCase> {};

TEST_P(Golden, OutputMatches) {
  const GoldenCase& golden = GetParam();
  ASSERT_NE(golden.name, "malformed_line") << "cases.txt: " << golden.command;
  const CommandResult result = run_tool_command(golden.command, golden.tree);
  const std::string actual = render(golden, result);
  const std::string path = golden_dir() + "/expected/" + golden.name + ".txt";
  const char* update = std::getenv("PMUCAT_UPDATE_GOLDEN");
  if (update != nullptr && std::string(update) == "1") {
    write_text(path, actual);
    GTEST_SKIP() << "rewrote " << path;
  }
  ASSERT_TRUE(std::filesystem::exists(path))
      << path << " is missing; run with PMUCAT_UPDATE_GOLDEN=1 to create it. Output:\n"
      << actual;
  EXPECT_EQ(read_text(path), actual) << "run with PMUCAT_UPDATE_GOLDEN=1 to accept the new output";
}

INSTANTIATE_TEST_SUITE_P(Cases, Golden, ::testing::ValuesIn(load_cases()),
                         [](const ::testing::TestParamInfo<GoldenCase>& param_info) {
                           std::string name = param_info.param.name;
                           for (char& c : name) {
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           }
                           return name;
                         });

TEST(GoldenFiles, CaseNamesAreUniqueAndEveryFileHasACase) {
  std::set<std::string> names;
  for (const GoldenCase& golden : load_cases()) {
    EXPECT_TRUE(names.insert(golden.name).second) << "duplicate case " << golden.name;
  }
  EXPECT_GE(names.size(), 20u);
  for (const auto& entry : std::filesystem::directory_iterator(golden_dir() + "/expected")) {
    EXPECT_TRUE(names.count(entry.path().stem().string()) == 1)
        << entry.path() << " has no case in cases.txt";
  }
}

// `$ pmuls ...` / `$ pmuencode ...` lines in `text`.
std::vector<std::string> example_commands(const std::string& text) {
  std::vector<std::string> commands;
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) {
    const std::string trimmed = trim(line);
    if (trimmed.rfind("$ pmuls", 0) == 0 || trimmed.rfind("$ pmuencode", 0) == 0) {
      commands.push_back(trimmed.substr(2));
    }
  }
  return commands;
}

void expect_examples_are_cases(const std::string& where, const std::string& text) {
  std::set<std::string> commands;
  for (const GoldenCase& golden : load_cases()) commands.insert(golden.command);
  const auto examples = example_commands(text);
  EXPECT_FALSE(examples.empty()) << where << " has no examples";
  for (const std::string& example : examples) {
    EXPECT_EQ(commands.count(example), 1u)
        << where << ": example without a golden case: " << example;
  }
}

TEST(Examples, HelpExamplesAreGoldenCases) {
  for (const char* tool : {"pmuls", "pmuencode"}) {
    const CommandResult help = run_tool_command(std::string(tool) + " --help", "-");
    ASSERT_EQ(help.status, 0) << help.err;
    EXPECT_EQ(help.err, "");
    expect_examples_are_cases(std::string(tool) + " --help", help.out);
  }
}

// One `$ command` of a --help and the lines that describe it.
struct HelpExample {
  std::string command;
  std::string description;
};

std::vector<HelpExample> help_examples(const std::string& help) {
  std::vector<HelpExample> examples;
  std::istringstream lines(help);
  std::string line;
  bool in_examples = false;
  while (std::getline(lines, line)) {
    const std::string trimmed = trim(line);
    if (trimmed.rfind("$ ", 0) == 0) {
      in_examples = true;
      examples.push_back({trimmed.substr(2), ""});
    } else if (in_examples && !trimmed.empty() && line.rfind("      ", 0) == 0) {
      examples.back().description += " " + trimmed;
    } else {
      in_examples = false;
    }
  }
  return examples;
}

int expected_exit(const std::string& case_name) {
  const std::string text = read_text(golden_dir() + "/expected/" + case_name + ".txt");
  const auto at = text.rfind("--- exit ");
  return at == std::string::npos ? -1 : std::atoi(text.c_str() + at + 9);
}

// Examples that cannot run from the repository on the bundled fixtures alone: each needs what a
// user has and the repository does not (perf, a workload, a perf.data), or writes outside it.
const std::set<std::string>& examples_not_run() {
  static const std::set<std::string> commands{
      "pmudata info perf.data",
      "pmudata info --sysfs /sys perf.data",
      "pmudata convert perf.data out.pb",
      "pmudata convert out.pb back.data",
      "pmudata convert --to pipe perf.data piped.data",
      "pmudata convert perf.data out.pprof",
      "pmudata check perf.data",
      "pmudata convert out.pb - | perf script -i -",
      "perf stat -x, -M TopdownL1 -o counts.csv ./app; pmumetric -M TopdownL1 counts.csv",
      "pmusnap /tmp/my-machine.tar.gz",
      "pmusnap --sysfs fixtures/sysfs/intel-spr /tmp/spr-copy",
      "pmucheck --sysfs /tmp/my-machine.tar.gz",
      "pmucheck --write-baseline known.txt; pmucheck --baseline known.txt",
  };
  return commands;
}

// Every example of every tool's --help runs from the repository root on the bundled fixtures
// (a golden case pins its output) and succeeds: exit 0, or 1 where the example says it shows a
// rejection ("exit 1"). An example a user cannot paste and run is a defect.
TEST(Examples, EveryHelpExampleRunsAndSucceeds) {
  std::map<std::string, std::string> case_of;
  for (const GoldenCase& golden : load_cases()) case_of.emplace(golden.command, golden.name);
  std::size_t run = 0;
  for (const char* tool :
       {"pmuls", "pmuencode", "pmucheck", "pmudiff", "pmusnap", "pmudata", "pmumetric"}) {
    const CommandResult help = run_tool_command(std::string(tool) + " --help", "-");
    ASSERT_EQ(help.status, 0) << help.err;
    const auto examples = help_examples(help.out);
    EXPECT_FALSE(examples.empty()) << tool << " --help has no examples";
    for (const HelpExample& example : examples) {
      if (examples_not_run().count(example.command) != 0) continue;
      const auto found = case_of.find(example.command);
      if (found == case_of.end()) {
        ADD_FAILURE() << tool << " --help: example without a golden case: " << example.command;
        continue;
      }
      ++run;
      const int status = expected_exit(found->second);
      const bool says_rejection = example.description.find("exit 1") != std::string::npos;
      EXPECT_TRUE(status == 0 || (status == 1 && says_rejection))
          << tool << " --help: `" << example.command << "` exits " << status << " (golden case "
          << found->second << ")";
    }
  }
  EXPECT_GE(run, 30u);
}

TEST(Examples, DocumentedExamplesAreGoldenCases) {
  for (const char* doc : {"docs/cli.md", "docs/man/pmuls.1.md", "docs/man/pmuencode.1.md"}) {
    const std::string text = read_text(source_dir() + "/" + doc);
    ASSERT_FALSE(text.empty()) << doc;
    expect_examples_are_cases(doc, text);
  }
}

}  // namespace
}  // namespace testing
PMUCAT_END_NAMESPACE
