// The pmudata tool end to end: info/check/convert output and exit codes (0 ok, 1 rejected,
// 2 usage/I-O). Skipped when the tool has not been built.
#include <gtest/gtest.h>

#include <fstream>

#include "model_builder.h"
#include "pmucat/perfdata.h"
#include "run_command.h"

namespace pmucat {
namespace {

const std::string kTool = PMUCAT_BINARY_DIR "/cli/pmudata/pmudata";

class PmudataCli : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!std::filesystem::exists(kTool)) GTEST_SKIP() << "pmudata not built";
    test::ModelSpec spec;
    spec.events = 2;
    ASSERT_FALSE(write_perf_data(file_, test::demo_model(spec), {}));
  }
  test::CommandResult tool(const std::string& args) {
    return test::run_command(kTool + " " + args);
  }
  test::TempDir dir_;
  std::filesystem::path file_ = dir_ / "in.data";
};

TEST_F(PmudataCli, InfoShowsEventsFeaturesAndRecords) {
  const auto r = tool("info '" + file_.string() + "'");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("event 1: event1 (ids: 101)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("HOSTNAME"), std::string::npos);
  EXPECT_NE(r.out.find("SAMPLE"), std::string::npos);
  const auto json = tool("info --json '" + file_.string() + "'");
  EXPECT_EQ(json.status, 0);
  EXPECT_NE(json.out.find("\"name\": \"event0\""), std::string::npos) << json.out;
}

TEST_F(PmudataCli, ConvertRoundTripsThroughProto) {
  for (const std::string ext : {".pb", ".pbtxt"}) {
    const auto proto = dir_ / ("p" + ext);
    const auto back = dir_ / "back.data";
    ASSERT_EQ(tool("convert '" + file_.string() + "' '" + proto.string() + "'").status, 0);
    ASSERT_EQ(tool("convert '" + proto.string() + "' '" + back.string() + "'").status, 0);
    EXPECT_EQ(test::file_bytes(file_), test::file_bytes(back)) << ext;
  }
  const auto piped = dir_ / "piped.data";
  ASSERT_EQ(tool("convert --to pipe '" + file_.string() + "' '" + piped.string() + "'").status, 0);
  const auto data = read_perf_data(piped);
  ASSERT_TRUE(data);
  EXPECT_EQ(data->mode, PerfDataMode::pipe);
}

TEST_F(PmudataCli, CheckAndExitCodes) {
  EXPECT_EQ(tool("check '" + file_.string() + "'").status, 0);
  auto bytes = test::file_bytes(file_);
  bytes.resize(300);
  const auto cut = dir_ / "cut.data";
  {
    std::ofstream out(cut, std::ios::binary);
    out.write(reinterpret_cast<const char*>(bytes.data()),
              static_cast<std::streamsize>(bytes.size()));
  }
  const auto r = tool("check '" + cut.string() + "'");
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("at byte offset"), std::string::npos) << r.err;
  EXPECT_EQ(tool("info '" + cut.string() + "'").status, 1);
  EXPECT_EQ(tool("info '" + (dir_ / "missing").string() + "'").status, 2);
  EXPECT_EQ(tool("frobnicate").status, 2);
}

}  // namespace
}  // namespace pmucat
