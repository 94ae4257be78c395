// The front end all seven tools share (cli/common): --version, --help, usage errors, colour and
// NO_COLOR, --sysfs with a pmusnap .tar.gz, one diagnostic id for one condition, and no tool
// ending on an uncaught exception. Each tool runs as a user would run it, from the repository
// root on the fixture trees.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "pmucat/version.h"
#include "support/scratch_dir.h"
#include "support/tools.h"

PMUCAT_BEGIN_NAMESPACE
namespace testing {
namespace {

namespace fs = std::filesystem;

std::string describe(const std::string& command, const CommandResult& result) {
  return "$ " + command + "\nstatus " + std::to_string(result.status) + "\nstdout:\n" +
         result.out.substr(0, 2000) + "\nstderr:\n" + result.err.substr(0, 2000);
}

CommandResult run(const std::string& command) {
  return run_tool_command(command, "-");
}

TEST(FrontEnd, VersionPrintsThePackageVersionAndExitsZeroEverywhere) {
  std::string first;
  for (const char* tool : kTools) {
    const std::string command = std::string(tool) + " --version";
    const CommandResult result = run(command);
    EXPECT_EQ(result.status, 0) << describe(command, result);
    EXPECT_EQ(result.err, "") << describe(command, result);
    EXPECT_TRUE(result.out.starts_with("pmucat ")) << describe(command, result);
    if (first.empty()) first = result.out;
    EXPECT_EQ(result.out, first) << "every tool prints the same version";
  }
}

TEST(FrontEnd, HelpHasExamplesEnvironmentAndExitStatusEverywhere) {
  for (const char* tool : kTools) {
    const std::string command = std::string(tool) + " --help";
    const CommandResult result = run(command);
    EXPECT_EQ(result.status, 0) << describe(command, result);
    EXPECT_EQ(result.err, "") << describe(command, result);
    for (const char* section :
         {"Examples:\n  $ ", "EXIT STATUS\n  0  success\n  1  input rejected: ", "\n  2  usage",
          "NO_COLOR", "--color", "--version"}) {
      EXPECT_NE(result.out.find(section), std::string::npos) << section << " missing in\n"
                                                             << describe(command, result);
    }
  }
}

// An option is shown as it is typed: CLI11's `--flag{default}` is not how any flag is given.
TEST(FrontEnd, HelpShowsOptionsAsTheyAreTyped) {
  for (const char* tool : kTools) {
    const std::string command = std::string(tool) + " --help";
    const CommandResult result = run(command);
    std::istringstream lines(result.out);
    std::string line;
    while (std::getline(lines, line)) {
      if (!line.starts_with("  -")) continue;
      // The names, up to the value's type (which may list a set of values in braces).
      const std::string names = line.substr(2, line.find(' ', 2) - 2);
      EXPECT_EQ(names.find('{'), std::string::npos) << line << "\n" << describe(command, result);
    }
    if (std::string(tool) == "pmuls" || std::string(tool) == "pmuencode") {
      EXPECT_NE(result.out.find("--perf-semantics[=VERSION]  "), std::string::npos)
          << describe(command, result);
    }
  }
}

TEST(FrontEnd, UsageErrorsExitTwoEverywhere) {
  for (const char* tool : kTools) {
    for (const std::string& arguments :
         {std::string("--no-such-option"), std::string("--color=sometimes")}) {
      const std::string command = std::string(tool) + " " + arguments;
      const CommandResult result = run(command);
      EXPECT_EQ(result.status, 2) << describe(command, result);
      EXPECT_NE(result.err.find(std::string(tool) + ": error: "), std::string::npos)
          << describe(command, result);
      EXPECT_NE(result.err.find("--help"), std::string::npos) << describe(command, result);
      EXPECT_EQ(result.out, "") << describe(command, result);
    }
  }
}

// The tools that take --sysfs read a capture as they read the directory it was taken from.
TEST(FrontEnd, SysfsTakesAPmusnapTarballInEveryToolThatReadsATree) {
  ScratchDir scratch;
  ASSERT_FALSE(scratch.path().empty());
  const std::string tree = "fixtures/sysfs/amd-zen4";
  const std::string tarball = scratch / "zen4.tar.gz";
  ASSERT_EQ(run("tar -czf " + shell_quote(tarball) + " -C " + tree + " .").status, 0);
  const std::string data = scratch / "events.data";
  ASSERT_EQ(
      run("pmuencode --sysfs " + tree + " -o " + shell_quote(data) + " cpu/event=0x76/").status, 0);

  const std::vector<std::string> commands = {
      "pmuls --sysfs SYSFS",
      "pmuls --sysfs SYSFS --formats --pmu cpu",
      "pmuencode --sysfs SYSFS 'cpu/event=0x423,inv,cmask=0x3/'",
      "pmuencode --sysfs SYSFS --decode cpu config=0x76",
      "pmucheck --sysfs SYSFS --format ktap --pmu cpu",
      "pmudata info --sysfs SYSFS " + shell_quote(data),
  };
  for (const std::string& pattern : commands) {
    const auto with = [&pattern](const std::string& sysfs) {
      std::string command = pattern;
      command.replace(command.find("SYSFS"), 5, sysfs);
      return command;
    };
    const CommandResult from_dir = run(with(tree));
    const CommandResult from_tarball = run(with(shell_quote(tarball)));
    EXPECT_NE(from_dir.status, 2) << describe(with(tree), from_dir);
    EXPECT_EQ(from_tarball.status, from_dir.status) << describe(with(tarball), from_tarball);
    EXPECT_EQ(from_tarball.out, from_dir.out) << describe(with(tarball), from_tarball);
  }

  const std::string copy = scratch / "copy";
  const std::string snap = "pmusnap --sysfs " + shell_quote(tarball) + " " + shell_quote(copy);
  const CommandResult snapped = run(snap);
  EXPECT_EQ(snapped.status, 0) << describe(snap, snapped);
  EXPECT_TRUE(fs::exists(fs::path(copy) / "bus/event_source/devices/amd_l3/type"));

  const std::string diff = "pmudiff " + shell_quote(tarball) + " " + tree;
  const CommandResult diffed = run(diff);
  EXPECT_EQ(diffed.status, 0) << describe(diff, diffed);
}

// PMUCAT_SYSFS is the default of --sysfs in every tool that takes it, a capture included.
TEST(FrontEnd, PmucatSysfsTakesATarballToo) {
  ScratchDir scratch;
  const std::string tarball = scratch / "zen4.tar.gz";
  ASSERT_EQ(run("tar -czf " + shell_quote(tarball) + " -C fixtures/sysfs/amd-zen4 .").status, 0);
  const std::string command = "PMUCAT_SYSFS=" + shell_quote(tarball) + " pmuls --pmu amd_l3";
  const CommandResult result = run(command);
  EXPECT_EQ(result.status, 0) << describe(command, result);
  EXPECT_EQ(result.out, run("pmuls --sysfs fixtures/sysfs/amd-zen4 --pmu amd_l3").out);
}

TEST(FrontEnd, AnUnknownPmuHasOneDiagnosticIdInEveryTool) {
  for (const std::string& command : {
           std::string("pmuls --sysfs fixtures/sysfs/intel-spr --pmu nosuch"),
           std::string("pmuencode --sysfs fixtures/sysfs/intel-spr 'nosuch/event=0x1/'"),
           std::string("pmuencode --sysfs fixtures/sysfs/intel-spr --pmu nosuch event=0x1"),
           std::string("pmuencode --sysfs fixtures/sysfs/intel-spr --decode nosuch config=0x1"),
           std::string("pmucheck --sysfs fixtures/sysfs/intel-spr --pmu nosuch"),
       }) {
    const CommandResult result = run(command);
    EXPECT_EQ(result.status, 1) << describe(command, result);
    EXPECT_NE(result.err.find("unknown PMU 'nosuch'"), std::string::npos)
        << describe(command, result);
    EXPECT_NE(result.err.find("[pmu-unknown]"), std::string::npos) << describe(command, result);
  }
}

TEST(FrontEnd, AnUnknownEventHasTheLibrarysId) {
  const std::string command = "pmuls --sysfs fixtures/sysfs/intel-spr --event no-such-event";
  const CommandResult result = run(command);
  EXPECT_EQ(result.status, 1) << describe(command, result);
  EXPECT_NE(result.err.find("[event-unknown]"), std::string::npos) << describe(command, result);
  const CommandResult encoded = run("pmuencode --sysfs fixtures/sysfs/intel-spr no-such-event");
  EXPECT_NE(encoded.err.find("[event-unknown]"), std::string::npos) << encoded.err;
}

// On a terminal every tool colours (its report or its diagnostics) unless NO_COLOR is set to a
// non-empty value; --color=always wins over NO_COLOR (https://no-color.org). The terminal is a
// pseudo-terminal made for the test; nothing that exists under /dev is written to.
TEST(FrontEnd, NoColorTurnsColourOffOnATerminalInEveryTool) {
  const int probe = posix_openpt(O_RDWR | O_NOCTTY);
  if (probe < 0) GTEST_SKIP() << "no pseudo-terminals here (posix_openpt failed)";
  close(probe);
  ScratchDir scratch;
  const std::string data = scratch / "events.data";
  ASSERT_EQ(
      run("pmuencode --sysfs fixtures/sysfs/intel-spr -o " + shell_quote(data) + " cpu/event=0x3c/")
          .status,
      0);
  const std::vector<std::string> commands = {
      "pmuls --sysfs fixtures/sysfs/intel-spr --pmu nosuch",
      "pmuencode --sysfs fixtures/sysfs/intel-spr 'cpu/event=0x100/'",
      "pmucheck --sysfs fixtures/sysfs/broken/names/devices --format text",
      "pmudiff fixtures/sysfs/no-such-tree fixtures/sysfs/amd-zen4",
      "pmusnap --sysfs fixtures/sysfs/no-such-tree " + shell_quote(scratch / "never"),
      "pmudata info --sysfs fixtures/sysfs/no-such-tree " + shell_quote(data),
  };
  for (const std::string& command : commands) {
    const CommandResult coloured = run_on_terminal(command, "");
    EXPECT_NE(coloured.out.find("\x1b["), std::string::npos) << "no colour on a terminal:\n"
                                                             << describe(command, coloured);
    const CommandResult plain = run_on_terminal(command, "NO_COLOR=1");
    EXPECT_EQ(plain.out.find("\x1b["), std::string::npos) << "colour despite NO_COLOR:\n"
                                                          << describe(command, plain);
    EXPECT_EQ(plain.status, coloured.status) << describe(command, plain);
    const CommandResult empty = run_on_terminal(command, "NO_COLOR=");
    EXPECT_NE(empty.out.find("\x1b["), std::string::npos) << "an empty NO_COLOR does not count:\n"
                                                          << describe(command, empty);
    const std::string forced = command.substr(0, command.find(' ')) + " --color=always" +
                               command.substr(command.find(' '));
    const CommandResult always = run_on_terminal(forced, "NO_COLOR=1");
    EXPECT_NE(always.out.find("\x1b["), std::string::npos) << "--color=always loses to NO_COLOR:\n"
                                                           << describe(forced, always);
  }
}

// `pmudata check DIR` aborted on an uncaught std::ios_base::failure (exit 134). Whatever a tool
// makes of such an input, it says so and exits with a status of the table.
TEST(FrontEnd, NoToolEndsOnAnUncaughtException) {
  ScratchDir scratch;
  const std::string command = "pmudata check " + shell_quote(scratch.path().string());
  const CommandResult result = run(command);
  EXPECT_TRUE(result.status == 1 || result.status == 2) << describe(command, result);
  EXPECT_NE(result.err, "") << describe(command, result);
}

}  // namespace
}  // namespace testing
PMUCAT_END_NAMESPACE
