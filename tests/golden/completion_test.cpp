// The bash completion script (cli/completion/pmucat.bash), driven the way bash drives it.
#include <gtest/gtest.h>

#include "run_command.h"

namespace pmucat::testing {
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
  EXPECT_EQ(complete("pmuencode --de"), "--decode\n");
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

}  // namespace
}  // namespace pmucat::testing
