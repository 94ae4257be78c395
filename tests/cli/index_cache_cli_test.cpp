// The tools over a JSON events directory with the index cache ($XDG_CACHE_HOME): the same output
// as without it, and a warm run that opens no JSON file; pmuls --compile-index.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <string>
#include <thread>

#include "pmucat/version.h"
#include "support/files.h"
#include "support/scratch_dir.h"
#include "support/tools.h"

PMUCAT_BEGIN_NAMESPACE
namespace testing {
namespace {

namespace fs = std::filesystem;

// Checked out with the repository: old enough for the cache to publish its entry.
const std::string kJson = "fixtures/pmu-events/arch";
const std::string kEncode = "pmuencode --sysfs fixtures/sysfs/intel-spr --events-dir " + kJson +
                            " --cpuid GenuineIntel-6-8F-8 inst_retired.any cpu/l1d.replacement/u";

bool has_stamp(const fs::path& cache) {
  std::error_code error;
  for (const auto& entry : fs::directory_iterator(cache / "pmucat/vendor-index", error)) {
    if (entry.path().extension() == ".stamp") return true;
  }
  return false;
}

TEST(IndexCacheCli, AWarmRunReadsNoJsonAndPrintsTheSame) {
  const ScratchDir scratch("index-cache-cli");
  const std::string env = "XDG_CACHE_HOME=" + shell_quote(scratch.path().string()) + " ";
  // Without a cache directory: the JSON parsed on every run.
  const CommandResult direct = run_tool_command("env -u HOME -u XDG_CACHE_HOME " + kEncode, "-");
  ASSERT_EQ(direct.status, 0) << direct.err;
  const CommandResult cold = run_tool_command(env + kEncode, "-");
  EXPECT_EQ(cold.status, 0);
  EXPECT_EQ(cold.out, direct.out);
  EXPECT_EQ(cold.err, direct.err);
  if (!has_stamp(scratch.path())) GTEST_SKIP() << kJson << " was written too recently to cache";

  const CommandResult warm = run_tool_command(env + kEncode, "-");
  EXPECT_EQ(warm.status, 0);
  EXPECT_EQ(warm.out, direct.out);
  EXPECT_EQ(warm.err, direct.err);
  if (run_command("strace -V").status != 0) GTEST_SKIP() << "strace is not installed";
  const fs::path log = scratch.path() / "strace.log";
  const CommandResult traced = run_tool_command(
      env + "strace -f -qq -e trace=open,openat -o " + shell_quote(log.string()) + " " + kEncode,
      "-");
  EXPECT_EQ(traced.out, direct.out);
  const std::string opened = read_text(log);
  EXPECT_NE(opened.find(".pmuidx"), std::string::npos) << opened;
  EXPECT_EQ(opened.find(".json"), std::string::npos) << opened;
}

TEST(IndexCacheCli, AnUnusableCacheDirectoryChangesNothing) {
  const ScratchDir scratch("index-cache-cli");
  write_text(scratch.path() / "file", "x");
  const CommandResult direct = run_tool_command("env -u HOME -u XDG_CACHE_HOME " + kEncode, "-");
  const CommandResult unusable = run_tool_command(
      "XDG_CACHE_HOME=" + shell_quote((scratch.path() / "file").string()) + " " + kEncode, "-");
  EXPECT_EQ(unusable.status, 0);
  EXPECT_EQ(unusable.out, direct.out);
  EXPECT_EQ(unusable.err, direct.err);
}

// A damaged entry changes no answer and, by default, no message; --verbose says why it was passed
// over, as a note.
TEST(IndexCacheCli, ADamagedEntryIsANoteUnderVerboseOnly) {
  const ScratchDir scratch("index-cache-cli");
  // A copy the cache will publish however fresh the checkout: it compiles only files whose
  // last change is older than its settle time (VendorIndexCache::Options::settle, 2 s).
  const fs::path json = scratch.path() / "arch";
  fs::copy(kJson, json, fs::copy_options::recursive);
  std::this_thread::sleep_for(std::chrono::milliseconds(2500));
  const std::string encode = "pmuencode --sysfs fixtures/sysfs/intel-spr --events-dir " +
                             shell_quote(json.string()) +
                             " --cpuid GenuineIntel-6-8F-8 inst_retired.any cpu/l1d.replacement/u";
  const fs::path cache = scratch.path() / "cache";
  fs::create_directory(cache);
  const std::string env = "XDG_CACHE_HOME=" + shell_quote(cache.string()) + " ";
  const CommandResult direct = run_tool_command("env -u HOME -u XDG_CACHE_HOME " + encode, "-");
  ASSERT_EQ(direct.status, 0) << direct.err;
  ASSERT_EQ(run_tool_command(env + encode, "-").status, 0);
  ASSERT_TRUE(has_stamp(cache));
  // The cache rebuilds a damaged entry, so each run gets one damaged afresh.
  const auto damage_entry = [&cache] {
    fs::path entry;
    for (const auto& file : fs::recursive_directory_iterator(cache / "pmucat")) {
      if (file.path().extension() == ".pmuidx") entry = file.path();
    }
    ASSERT_FALSE(entry.empty());
    std::string bytes = read_text(entry);
    ASSERT_GT(bytes.size(), 64U);
    bytes[bytes.size() / 2] = static_cast<char>(bytes[bytes.size() / 2] ^ 0x04);
    write_text(entry, bytes);
  };

  damage_entry();
  const CommandResult quiet = run_tool_command(env + encode, "-");
  EXPECT_EQ(quiet.status, 0);
  EXPECT_EQ(quiet.out, direct.out);
  EXPECT_EQ(quiet.err, direct.err);
  damage_entry();
  const CommandResult verbose = run_tool_command(env + encode + " --verbose", "-");
  EXPECT_EQ(verbose.status, 0);
  EXPECT_EQ(verbose.out, direct.out);
  EXPECT_NE(verbose.err.find("note:"), std::string::npos) << verbose.err;
  EXPECT_NE(verbose.err.find("vendor-index-unreadable"), std::string::npos) << verbose.err;
}

TEST(IndexCacheCli, PmulsCompileIndex) {
  const ScratchDir scratch("compile-index-cli");
  const std::string out = shell_quote((scratch.path() / "index").string());
  const CommandResult compiled =
      run_tool_command("pmuls --events-dir " + kJson + " --compile-index " + out, "-");
  ASSERT_EQ(compiled.status, 0) << compiled.err;
  EXPECT_NE(compiled.out.find("1 architectures, 1 models"), std::string::npos) << compiled.out;
  EXPECT_TRUE(fs::exists(scratch.path() / "index/pmucat-index.version"));
  // Again: the earlier index is replaced.
  EXPECT_EQ(run_tool_command("pmuls --events-dir " + kJson + " --compile-index " + out, "-").status,
            0);

  // The index gives what the JSON gives, but for the JSON files' paths, relative in an index.
  const std::string list =
      " --sysfs fixtures/sysfs/intel-spr --cpuid GenuineIntel-6-8F-8 --pmu cpu";
  const CommandResult from_json = run_tool_command("pmuls --events-dir " + kJson + list, "-");
  const CommandResult from_index = run_tool_command("pmuls --events-dir " + out + list, "-");
  EXPECT_EQ(from_index.status, 0);
  EXPECT_EQ(from_index.out, from_json.out);

  // Refused: a symlink, a non-index directory, no JSON tree, an index as the source.
  fs::create_symlink(scratch.path() / "index", scratch.path() / "link");
  const CommandResult link = run_tool_command("pmuls --events-dir " + kJson + " --compile-index " +
                                                  shell_quote((scratch.path() / "link").string()),
                                              "-");
  EXPECT_EQ(link.status, 2);
  EXPECT_NE(link.err.find("vendor-index-unreadable"), std::string::npos) << link.err;
  EXPECT_TRUE(fs::is_symlink(scratch.path() / "link"));
  EXPECT_EQ(run_tool_command("pmuls --events-dir " + kJson + " --compile-index " +
                                 shell_quote(scratch.path().string()),
                             "-")
                .status,
            2);
  EXPECT_EQ(run_tool_command("env -u PMUCAT_EVENTS_DIR pmuls --compile-index " + out, "-").status,
            2);
  EXPECT_EQ(run_tool_command("pmuls --events-dir " + out + " --compile-index " +
                                 shell_quote((scratch.path() / "again").string()),
                             "-")
                .status,
            2);
}

}  // namespace
}  // namespace testing
PMUCAT_END_NAMESPACE
