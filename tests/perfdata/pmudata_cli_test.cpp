// The pmudata tool end to end: info/check/convert output and exit codes (0 ok, 1 rejected,
// 2 usage/I-O). Skipped when the tool has not been built.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <fstream>

#include "model_builder.h"
#include "pmucat/perfdata.h"
#include "support/command.h"
#include "support/files.h"
#include "support/scratch_dir.h"

PMUCAT_BEGIN_NAMESPACE
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
  testing::CommandResult tool(const std::string& args) {
    return testing::run_command(kTool + " " + args);
  }
  testing::ScratchDir dir_;
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
    EXPECT_EQ(testing::read_bytes(file_), testing::read_bytes(back)) << ext;
  }
  const auto piped = dir_ / "piped.data";
  ASSERT_EQ(tool("convert --to pipe '" + file_.string() + "' '" + piped.string() + "'").status, 0);
  const auto data = read_perf_data(piped);
  ASSERT_TRUE(data);
  EXPECT_EQ(data->mode, PerfDataMode::pipe);
}

TEST_F(PmudataCli, CheckAndExitCodes) {
  EXPECT_EQ(tool("check '" + file_.string() + "'").status, 0);
  auto bytes = testing::read_bytes(file_);
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

std::string quoted(const std::filesystem::path& path) {
  return "'" + path.string() + "'";
}

void write_text(const std::filesystem::path& path, std::string_view text) {
  std::ofstream(path, std::ios::binary)
      .write(text.data(), static_cast<std::streamsize>(text.size()));
}

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define PMUCAT_TEST_UNDER_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define PMUCAT_TEST_UNDER_ASAN 1
#endif

// The shell prefix that caps the tool's memory: a declared size that gets allocated shows as a
// failed allocation (exit 2 or an abort), not as a slow test. AddressSanitizer reserves terabytes
// of address space for its shadow, so under it (the tools are built with the same flags as this
// test) its own per-allocation limit stands in for the address-space limit.
#ifdef PMUCAT_TEST_UNDER_ASAN
const std::string kMemoryCap =
    "export ASAN_OPTIONS=\"${ASAN_OPTIONS:-}:max_allocation_size_mb=1024\"; ";
#else
const std::string kMemoryCap = "ulimit -v 1048576; ";
#endif

// A .pb/.pbtxt declaring a 4 GiB attr size made `info` allocate 8.4 GB.
TEST_F(PmudataCli, DeclaredAttrSizeIsCheckedBeforeAllocating) {
  const auto text = dir_ / "x.pbtxt";
  ASSERT_EQ(tool("convert " + quoted(file_) + " " + quoted(text)).status, 0);
  std::string proto = testing::read_text(text);
  // The real size (quipper's `size` field says 96, its own struct's).
  const auto at = proto.find("pmucat_size: 128");
  ASSERT_NE(at, std::string::npos);
  proto.replace(at, 16, "pmucat_size: 4294967295");
  const auto bomb = dir_ / "bomb.pbtxt";
  write_text(bomb, proto);
  for (const std::string sub : {"info ", "convert --to pbtxt "}) {
    const std::string out = sub == "info " ? "" : " " + quoted(dir_ / "out.pbtxt");
    const auto r = testing::run_command(kMemoryCap + kTool + " " + sub + quoted(bomb) + out);
    EXPECT_EQ(r.status, 1) << sub << r.err;
    EXPECT_NE(r.err.find("file_attrs[0].attr.pmucat_size 4294967295"), std::string::npos) << r.err;
  }
  EXPECT_FALSE(std::filesystem::exists(dir_ / "out.pbtxt"));
}

// Endless streams through a FIFO: decided from the first bytes, or stopped by the stream cap.
// A new FIFO for each run: a writer of the run before, not yet gone, could otherwise be the one
// the reader meets, and close it with nothing written (seen under ASan in CI: "input of 0 bytes").
TEST_F(PmudataCli, EndlessStreamsAreRefusedEarly) {
  int fifos = 0;
  const auto new_fifo = [&] {
    const auto fifo = dir_ / ("fifo" + std::to_string(fifos++));
    EXPECT_EQ(::mkfifo(fifo.c_str(), 0600), 0) << fifo;
    return fifo;
  };
  const struct {
    std::string writer, expected;
  } cases[] = {
      {"cat /dev/zero", "neither perf.data"},
      {"yes", "32 MiB in-memory input limit"},
      {"{ printf 'PERFILE2\\020\\0\\0\\0\\0\\0\\0\\0'; cat /dev/zero; }", "record size 0"},
      {"{ head -c 4096 /dev/zero | tr '\\0' '\\012'; cat /dev/zero; }", "cannot be in a text"},
  };
  for (const auto& c : cases) {
    for (const std::string sub : {"info", "check"}) {
      const auto fifo = new_fifo();
      const auto r = testing::run_command(kMemoryCap + "(timeout 60 sh -c \"" + c.writer + " > " +
                                          quoted(fifo) + "\" 2>/dev/null &); " + kTool + " " + sub +
                                          " " + quoted(fifo));
      EXPECT_EQ(r.status, 1) << c.writer << ": " << r.err;
      EXPECT_NE(r.err.find(c.expected), std::string::npos) << c.writer << ": " << r.err;
    }
  }
  // The cap is the user's to set.
  const auto fifo = new_fifo();
  const auto r =
      testing::run_command("(timeout 60 sh -c \"yes > " + quoted(fifo) + "\" 2>/dev/null &); " +
                           kTool + " info --max-input-size 1M " + quoted(fifo));
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("1 MiB"), std::string::npos) << r.err;
}

// `check DIR` aborted on an uncaught exception (134), `info DIR` said "0 bytes" with 0,
// `convert DIR x.pb` wrote an empty file; a 0-byte file was a valid empty PerfDataProto.
// (perf record --threads directories are read: directory_test.cpp.)
TEST_F(PmudataCli, DirectoriesAndTinyFilesAreRefusedAlike) {
  write_text(dir_ / "empty", "");
  write_text(dir_ / "two", "\n\n");
  const struct {
    std::filesystem::path input;
    int status;
    std::string expected;
  } cases[] = {
      {dir_.path(), 2, "is a directory"},
      {dir_ / "empty", 1, "too short"},
      {dir_ / "two", 1, "too short"},
  };
  const auto out = dir_ / "out.pb";
  for (const auto& c : cases) {
    for (const std::string sub : {"info", "check", "convert"}) {
      const auto r =
          tool(sub + " " + quoted(c.input) + (sub == "convert" ? " " + quoted(out) : ""));
      EXPECT_EQ(r.status, c.status) << sub << " " << c.input << ": " << r.err;
      EXPECT_NE(r.err.find(c.expected), std::string::npos) << sub << ": " << r.err;
      EXPECT_FALSE(std::filesystem::exists(out)) << sub << " " << c.input;
    }
  }
}

// A binary proto that parses but cannot be converted was reported as "neither perf.data nor
// PerfDataProto" (the text parser's failure won); a header-only record could not be converted.
TEST_F(PmudataCli, ProtoErrorsComeFromTheLikelierEncoding) {
  // events { header { type: 70 size: 16 } }: a header promising a body that is not there.
  write_text(dir_ / "bad.pb", std::string("\x12\x06\x0a\x04\x08\x46\x18\x10", 8));
  auto r = tool("info " + quoted(dir_ / "bad.pb"));
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("events[0] (type 70)"), std::string::npos) << r.err;
  // The same record with a header-only size: nothing to give back but the header.
  write_text(dir_ / "header_only.pb", std::string("\x12\x06\x0a\x04\x08\x46\x18\x08", 8));
  r = tool("info " + quoted(dir_ / "header_only.pb"));
  EXPECT_EQ(r.status, 0) << r.err;
  write_text(dir_ / "bad.pbtxt", "file_attrs {\n  nonsense: 1\n}\n");
  r = tool("info " + quoted(dir_ / "bad.pbtxt"));
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("not a text-format PerfDataProto: 2:"), std::string::npos) << r.err;
}

}  // namespace
PMUCAT_END_NAMESPACE
