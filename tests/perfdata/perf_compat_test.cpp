// Files we write are read by the real perf on PATH (Debian 12's 6.1, Debian 13's 6.12) with
// nothing on stderr; perf's own files survive our read -> write. Skipped when `perf` is not
// installed.
#include <gtest/gtest.h>

#include <regex>

#include "model_builder.h"
#include "pmucat/perf_profile.h"
#include "pmucat/perfdata.h"
#include "support/files.h"
#include "support/scratch_dir.h"
#include "support/tools.h"

PMUCAT_BEGIN_NAMESPACE
namespace {

using testing::run_command;
using testing::ScratchDir;

class PerfCompat : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!testing::have_perf()) GTEST_SKIP() << "perf is not installed";
  }
  // Runs `perf <tool> -i file` and expects success with an empty stderr.
  std::string perf_ok(const std::string& tool, const std::filesystem::path& file) {
    const auto r = run_command("perf " + tool + " -i '" + file.string() + "'");
    EXPECT_EQ(r.status, 0) << "perf " << tool << ": " << r.err;
    EXPECT_EQ(r.err, "") << "perf " << tool;
    return r.out;
  }
  // The installed perf's release row, when it is one the table knows.
  static std::optional<ReleaseInfo> perf_release() {
    const auto release = parse_perf_release(run_command("perf --version").out);
    if (!release) return std::nullopt;
    return info(*release);
  }
  static bool contains(const std::string& text, const char* pattern) {
    return std::regex_search(text, std::regex(pattern));
  }
};

TEST_F(PerfCompat, OurFilesOpenCleanly) {
  ScratchDir dir;
  for (std::uint32_t events : {1u, 2u}) {
    test::ModelSpec spec;
    spec.events = events;
    spec.samples = 4;
    const auto model = test::demo_model(spec);
    const auto path = dir / ("ours" + std::to_string(events) + ".data");
    ASSERT_FALSE(write_perf_data(path, model, {}));
    const auto evlist = perf_ok("evlist -v", path);
    // perf 6.12 names the type after its number: `type: 1 (software)`.
    EXPECT_TRUE(contains(evlist, R"(event0: type: 1( \(software\))?, size: 128)")) << evlist;
    const auto header = perf_ok("report --header-only -I", path);
    EXPECT_NE(header.find("# hostname : testhost"), std::string::npos) << header;
    EXPECT_NE(header.find("# pmu mappings: software = 1, cpu = 4"), std::string::npos);
    EXPECT_NE(header.find("# nrcpus avail : 2"), std::string::npos);
    EXPECT_NE(header.find("# total memory : 1048576 kB"), std::string::npos);
    EXPECT_NE(header.find("# node0 cpu list : 0-1"), std::string::npos);
    const auto script = perf_ok("script", path);
    EXPECT_TRUE(contains(script, "demo +4242")) << script;
    EXPECT_NE(script.find("event0:"), std::string::npos) << script;
    if (events == 2) {
      EXPECT_NE(script.find("event1:"), std::string::npos) << script;
      EXPECT_NE(header.find("# group: {event0,event1}"), std::string::npos) << header;
    }
    const auto report = perf_ok("report --stdio", path);
    EXPECT_NE(report.find("# Samples: 4"), std::string::npos) << report;
  }
}

TEST_F(PerfCompat, PipeModeOpensCleanly) {
  ScratchDir dir;
  test::ModelSpec spec;
  spec.mode = PerfDataMode::pipe;
  const auto model = test::demo_model(spec);
  const auto path = dir / "pipe.data";
  ASSERT_FALSE(write_perf_data(path, model, options_like(model)));
  perf_ok("report --header-only", path);
  const auto script = perf_ok("script", path);
  EXPECT_NE(script.find("400010"), std::string::npos) << script;
  perf_ok("report --stdio", path);
}

TEST_F(PerfCompat, PerfInjectReproducesOurFileByteForByte) {
  // We write attrs of WriterOptions' default size (perf 6.1's layout); a perf that writes
  // another size rewrites every attr.
  const auto release = perf_release();
  if (!release || release->attr_size != WriterOptions{}.attr_size) {
    GTEST_SKIP() << "perf inject of this perf writes its own layout, not perf 6.1's";
  }
  ScratchDir dir;
  test::ModelSpec spec;
  spec.events = 2;
  auto model = test::demo_model(spec);
  // perf inject rewrites CMDLINE with its own command line and keeps only build ids of DSOs
  // with hits, so those two are left out of the comparison.
  model.features.erase(feature::cmdline);
  model.features.erase(feature::build_id);
  const auto ours = dir / "ours.data";
  const auto copy = dir / "copy.data";
  ASSERT_FALSE(write_perf_data(ours, model, {}));
  const auto r = run_command("perf inject -i '" + ours.string() + "' -o '" + copy.string() + "'");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err, "");
  EXPECT_EQ(testing::read_bytes(ours), testing::read_bytes(copy));
}

TEST_F(PerfCompat, PerfRecordedFileSurvivesOurReadAndWrite) {
  ScratchDir dir;
  const auto recorded = dir / "recorded.data";
  const auto rec =
      run_command("perf record -q -e cpu-clock -o '" + recorded.string() +
                  "' -- /bin/sh -c 'i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done'");
  if (rec.status != 0) GTEST_SKIP() << "perf record is not permitted here: " << rec.err;
  const auto original = read_perf_data(recorded);
  ASSERT_TRUE(original) << original.error().message;
  EXPECT_EQ(original->mode, PerfDataMode::file);
  ASSERT_EQ(original->events.size(), 1u);
  EXPECT_EQ(original->events[0].name, "cpu-clock");
  // The attr size the release table gives for the installed perf (128 before config3, 136 after).
  if (const auto release = perf_release()) {
    EXPECT_EQ(original->events[0].attr.size, release->attr_size);
  }

  const auto rewritten = dir / "rewritten.data";
  ASSERT_FALSE(write_perf_data(rewritten, *original, options_like(*original)));
  const auto again = read_perf_data(rewritten);
  ASSERT_TRUE(again);
  EXPECT_EQ(*again, *original);

  const auto script_a = run_command("perf script -i '" + recorded.string() + "'");
  const auto script_b = run_command("perf script -i '" + rewritten.string() + "'");
  ASSERT_EQ(script_a.status, 0) << script_a.err;
  ASSERT_EQ(script_b.status, 0) << script_b.err;
  EXPECT_EQ(script_a.out, script_b.out);
  EXPECT_EQ(script_a.err, script_b.err);
  EXPECT_FALSE(script_a.out.empty());
}

TEST_F(PerfCompat, PerfPipeRecordingSurvivesOurReadAndWrite) {
  ScratchDir dir;
  const auto recorded = dir / "piped.data";
  const auto rec =
      run_command("perf record -q -e cpu-clock -o - -- /bin/true > '" + recorded.string() + "'");
  if (rec.status != 0) GTEST_SKIP() << "perf record is not permitted here: " << rec.err;
  const auto original = read_perf_data(recorded);
  ASSERT_TRUE(original) << original.error().message;
  EXPECT_EQ(original->mode, PerfDataMode::pipe);
  EXPECT_EQ(original->pipe_end_marker, std::optional<std::uint64_t>(feature::last));
  const auto rewritten = dir / "rewritten.data";
  ASSERT_FALSE(write_perf_data(rewritten, *original, options_like(*original)));
  EXPECT_EQ(testing::read_bytes(recorded), testing::read_bytes(rewritten));
}

}  // namespace
PMUCAT_END_NAMESPACE
