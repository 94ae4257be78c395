// The options that name something outside the command line, run as processes: what names
// nothing usable is said, never silently dropped (docs/robustness.md, "Never silent: options").
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "pmucat/snapshot.h"
#include "support/files.h"
#include "support/scratch_dir.h"
#include "support/tools.h"

PMUCAT_BEGIN_NAMESPACE
namespace testing {
namespace {

namespace fs = std::filesystem;

const std::string kExplain =
    "pmuencode --sysfs fixtures/sysfs/intel-spr --no-events-dir --explain --json --host-root ";

TEST(OptionsCli, HostRootTakesAPmusnapCaptureAsItsDirectory) {
  const ScratchDir scratch("host-root-capture");
  const fs::path source = PMUCAT_SOURCE_DIR;
  const fs::path tarball = scratch.path() / "capture.tar.gz";
  snap::CaptureOptions options;
  options.host_root = source / "fixtures/host/perf-user";
  ASSERT_TRUE(snap::capture(source / "fixtures/sysfs/intel-spr", tarball, options).has_value());
  const CommandResult captured =
      run_tool_command(kExplain + shell_quote(tarball.string()) + " cycles", "-");
  EXPECT_EQ(captured.err, "");
  const CommandResult directory =
      run_tool_command(kExplain + "fixtures/host/perf-user cycles", "-");
  const auto host = nlohmann::json::parse(captured.out, nullptr, false);
  const auto expected = nlohmann::json::parse(directory.out, nullptr, false);
  ASSERT_FALSE(host.is_discarded()) << captured.out << captured.err;
  ASSERT_FALSE(expected.is_discarded()) << directory.out;
  // The capture holds proc/sys/kernel: those facts are the directory's.
  for (const char* fact :
       {"perf_event_paranoid", "nmi_watchdog", "perf_event_max_sample_rate", "kernel_release"}) {
    EXPECT_EQ(host["host"][fact], expected["host"][fact]) << fact;
  }
  EXPECT_EQ(host["host"]["perf_event_paranoid"], 1);
}

TEST(OptionsCli, HostRootThatIsAFifoOrAPlainFileIsAUsageError) {
  const ScratchDir scratch("host-root-fifo");
  make_fifo(scratch.path() / "fifo");
  write_text(scratch.path() / "notes.txt", "not a root\n");
  for (const char* name : {"fifo", "notes.txt", "missing"}) {
    const std::string root = (scratch.path() / name).string();
    const CommandResult result = run_tool_command(kExplain + shell_quote(root) + " cycles", "-");
    EXPECT_EQ(result.status, 2) << name << ": " << result.err;
    EXPECT_NE(result.err.find("[host-root-unusable]"), std::string::npos) << result.err;
    EXPECT_NE(result.err.find(root), std::string::npos) << result.err;
    EXPECT_EQ(result.out, "") << name;
  }
}

// A directory that exists but holds no table (no <arch>/mapfile.csv, no compiled index) would
// give sysfs events only, as a missing one would: the same usage error, in every tool.
TEST(OptionsCli, AnEventsDirWithoutTablesIsAUsageError) {
  const ScratchDir scratch("events-dir-empty");
  fs::create_directories(scratch.path() / "x86");
  write_text(scratch.path() / "x86/notes.txt", "no mapfile here\n");
  const std::string dir = shell_quote(scratch.path().string());
  const std::string options =
      " --sysfs fixtures/sysfs/intel-spr --events-dir " + dir + " --cpuid GenuineIntel-6-8F-8 ";
  for (const std::string& command :
       {"pmuls" + options, "pmuencode" + options + "cycles", "pmumetric" + options + "/dev/null"}) {
    const CommandResult result = run_tool_command(command, "-");
    EXPECT_EQ(result.status, 2) << command << ": " << result.err;
    EXPECT_NE(result.err.find("holds no <arch>/mapfile.csv"), std::string::npos) << result.err;
    EXPECT_NE(result.err.find("[option-events-dir-missing]"), std::string::npos) << result.err;
  }
  // The repository's own small tree holds one: it is taken.
  EXPECT_EQ(run_tool_command("pmuencode --sysfs fixtures/sysfs/intel-spr --events-dir "
                             "fixtures/pmu-events/arch --cpuid GenuineIntel-6-8F-8 cycles",
                             "-")
                .status,
            0);
}

// The vendor JSON problems a lookup meets are reported once per file, however many lookups.
TEST(OptionsCli, AJsonFileThatDoesNotParseIsReportedOncePerRun) {
  const CommandResult result = run_tool_command(
      "pmuencode --sysfs fixtures/sysfs/intel-spr --events-dir tests/pmu_events/data/arch --cpuid "
      "GenuineIntel-6-8F-8 --perf cycles unknown.one unknown.two",
      "-");
  EXPECT_EQ(result.status, 1);
  const std::string id = "[vendor-json-syntax]";
  const std::size_t first = result.err.find(id);
  ASSERT_NE(first, std::string::npos) << result.err;
  EXPECT_EQ(result.err.find(id, first + 1), std::string::npos) << result.err;
  EXPECT_NE(result.err.find("zz-broken.json:"), std::string::npos) << result.err;
  // Before the errors it may explain.
  EXPECT_LT(first, result.err.find("unknown.one")) << result.err;
}

}  // namespace
}  // namespace testing
PMUCAT_END_NAMESPACE
