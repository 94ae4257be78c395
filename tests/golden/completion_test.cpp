// The bash completion script (cli/completion/pmucat.bash) of all seven tools, driven the way bash
// drives it.
#include <gtest/gtest.h>

#include <regex>
#include <set>
#include <sstream>

#include "pmucat/version.h"
#include "support/tools.h"

PMUCAT_BEGIN_NAMESPACE
namespace testing {
namespace {

// The completions bash would offer for `line` (the cursor at its end), one per line.
std::string complete(const std::string& line, const std::string& tree = "-") {
  const std::string script =
      "source cli/completion/pmucat.bash\n"
      "read -ra COMP_WORDS <<< " +
      shell_quote(line) + "\n" +
      (line.back() == ' ' ? std::string("COMP_WORDS+=('')\n") : std::string()) +
      "COMP_CWORD=$((${#COMP_WORDS[@]} - 1))\n"
      "COMP_LINE=" +
      shell_quote(line) +
      "\n"
      "_${COMP_WORDS[0]}\n"
      "printf '%s\\n' \"${COMPREPLY[@]}\" | sort\n";
  const CommandResult result = run_tool_command("bash -c " + shell_quote(script), tree);
  EXPECT_EQ(result.status, 0) << result.err;
  EXPECT_EQ(result.err, "");
  return result.out;
}

TEST(Completion, Options) {
  EXPECT_EQ(complete("pmuls --fo"), "--formats\n");
  EXPECT_EQ(complete("pmuencode --de"), "--decode\n--detailed\n");
  EXPECT_EQ(complete("pmuls --color a"), "always\nauto\n");
}

TEST(Completion, PmuNamesFromTheSysfsOption) {
  EXPECT_EQ(complete("pmuls --sysfs fixtures/sysfs/amd-zen4 --pmu amd_l"), "amd_l3\n");
}

TEST(Completion, PmuNamesFromTheEnvironment) {
  EXPECT_EQ(complete("pmuls --pmu amd_l", "amd-zen4"), "amd_l3\n");
}

TEST(Completion, SpecStartsWithAPmu) {
  const std::string out = complete("pmuencode --sysfs fixtures/sysfs/amd-zen4 amd_l");
  EXPECT_EQ(out, "amd_l3/\n");
}

TEST(Completion, SpecOffersEventsAndFormatsOfThePmu) {
  const std::string out = complete("pmuencode cpu/", "amd-zen4");
  EXPECT_NE(out.find("cpu/event=\n"), std::string::npos) << out;
  EXPECT_NE(out.find("cpu/umask=\n"), std::string::npos) << out;
  EXPECT_EQ(out.find(".unit"), std::string::npos) << out;
  EXPECT_EQ(out.find(".scale"), std::string::npos) << out;
  const std::string after_comma = complete("pmuencode cpu/event=0x1,uma", "amd-zen4");
  EXPECT_EQ(after_comma, "cpu/event=0x1,umask=\n");
}

TEST(Completion, DecodeTakesAPmuThenWords) {
  EXPECT_EQ(complete("pmuencode --decode amd_l", "amd-zen4"), "amd_l3\n");
  EXPECT_EQ(complete("pmuencode --decode cpu config1", "amd-zen4"), "config1=\n");
}

// The long options `text` (a --help) names.
std::set<std::string> long_options(const std::string& text) {
  std::set<std::string> options;
  const std::regex option("(^|[ ,\\[])(--[a-z][a-z0-9-]*)");
  for (auto it = std::sregex_iterator(text.begin(), text.end(), option);
       it != std::sregex_iterator(); ++it) {
    options.insert((*it)[2]);
  }
  return options;
}

std::set<std::string> lines(const std::string& text) {
  std::set<std::string> result;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) result.insert(line);
  return result;
}

TEST(Completion, EveryToolIsCompletedWithEveryOptionOfItsHelp) {
  for (const char* tool : kTools) {
    const CommandResult help = run_tool_command(std::string(tool) + " --help", "-");
    ASSERT_EQ(help.status, 0) << tool;
    // The options part, not the examples (pmudata's name options of its subcommands).
    const std::set<std::string> documented =
        long_options(help.out.substr(0, help.out.find("\nExamples:")));
    ASSERT_TRUE(documented.count("--help")) << tool << ":\n" << help.out;
    const std::set<std::string> offered = lines(complete(std::string(tool) + " --"));
    for (const std::string& option : documented) {
      EXPECT_TRUE(offered.count(option)) << tool << " does not complete " << option;
    }
  }
}

TEST(Completion, CommonOptionValuesInEveryTool) {
  for (const char* tool : kTools) {
    EXPECT_EQ(complete(std::string(tool) + " --color n"), "never\n") << tool;
  }
  for (const char* tool : {"pmuls", "pmuencode", "pmucheck", "pmusnap", "pmudata"}) {
    EXPECT_EQ(complete(std::string(tool) + " --sysfs fixtures/sysfs/amd-z"),
              "fixtures/sysfs/amd-zen4\nfixtures/sysfs/amd-zen6\n")
        << tool;
  }
}

TEST(Completion, PmucheckValues) {
  EXPECT_EQ(complete("pmucheck --format j"), "json\njunit\n");
  EXPECT_EQ(complete("pmucheck --pmu amd_l", "amd-zen4"), "amd_l3\n");
  EXPECT_EQ(complete("pmucheck --disable format-wide-r"), "format-wide-range\n");
}

TEST(Completion, PmudiffTakesTrees) {
  EXPECT_EQ(complete("pmudiff fixtures/sysfs/diff/snb-ep-2"), "fixtures/sysfs/diff/snb-ep-2013\n");
}

TEST(Completion, PmudataSubcommandsThenFiles) {
  for (const char* command : {"info", "check", "convert"}) {
    const CommandResult help = run_tool_command(std::string("pmudata ") + command + " --help", "-");
    const std::set<std::string> offered =
        lines(complete(std::string("pmudata ") + command + " --"));
    for (const std::string& option :
         long_options(help.out.substr(0, help.out.find("\nExamples:")))) {
      EXPECT_TRUE(offered.count(option))
          << "pmudata " << command << " does not complete " << option;
    }
  }
  EXPECT_EQ(complete("pmudata c"), "check\nconvert\n");
  EXPECT_EQ(complete("pmudata convert --to"), "--to\n");
  EXPECT_EQ(complete("pmudata convert --t"), "--to\n--tracefs\n");
  EXPECT_EQ(complete("pmudata convert --to p"), "pb\npbtxt\nperf\npipe\npprof\n");
  EXPECT_EQ(complete("pmudata info fixtures/sysfs/REA"), "fixtures/sysfs/README.md\n");
}

}  // namespace
}  // namespace testing
PMUCAT_END_NAMESPACE
