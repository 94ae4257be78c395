// pmudata info/check/convert on a generated ~200 MB perf.data under an address-space limit
// (ulimit -v) well below the file's size: a path that reads the input whole, or keeps its
// records, fails here. Skipped under AddressSanitizer (it reserves terabytes of address space)
// and when pmudata has not been built. The files live in a scratch directory deleted after.
#include <gtest/gtest.h>

#include <fstream>

#include "big_file.h"
#include "pmucat/perfdata.h"
#include "support/command.h"
#include "support/scratch_dir.h"

#if defined(__SANITIZE_ADDRESS__)
#define PMUCAT_TEST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define PMUCAT_TEST_ASAN 1
#endif
#endif

PMUCAT_BEGIN_NAMESPACE
namespace {

const std::string kTool = PMUCAT_BINARY_DIR "/cli/pmudata/pmudata";
constexpr std::uint64_t kFileBytes = std::uint64_t{200} << 20;
// Address space for one pmudata run: shared libraries, a 1 MiB read window, the output
// buffers, never the input.
constexpr std::uint64_t kLimitKiB = 64 * 1024;

bool same_files(const std::filesystem::path& a, const std::filesystem::path& b) {
  std::ifstream fa(a, std::ios::binary), fb(b, std::ios::binary);
  std::vector<char> ba(1 << 20), bb(1 << 20);
  while (fa && fb) {
    fa.read(ba.data(), static_cast<std::streamsize>(ba.size()));
    fb.read(bb.data(), static_cast<std::streamsize>(bb.size()));
    if (fa.gcount() != fb.gcount()) return false;
    if (!std::equal(ba.begin(), ba.begin() + fa.gcount(), bb.begin())) return false;
  }
  return fa.eof() && fb.eof();
}

class StreamLimit : public ::testing::Test {
 protected:
  void SetUp() override {
#ifdef PMUCAT_TEST_ASAN
    GTEST_SKIP() << "AddressSanitizer reserves more address space than any limit allows";
#endif
    if (!std::filesystem::exists(kTool)) GTEST_SKIP() << "pmudata not built";
  }
  // pmudata ARGS with its address space limited.
  testing::CommandResult limited(const std::string& args) {
    return testing::run_command("ulimit -v " + std::to_string(kLimitKiB) + " && exec " + kTool +
                                " " + args);
  }
  testing::ScratchDir dir_;
};

TEST_F(StreamLimit, InfoCheckConvertStayBounded) {
  const auto data = dir_ / "big.data";
  ASSERT_FALSE(test::write_big_perf_data(data, kFileBytes, PerfDataMode::file));
  ASSERT_GT(std::filesystem::file_size(data), kLimitKiB * 1024);
  const std::string in = "'" + data.string() + "'";

  const auto info = limited("info --json " + in);
  ASSERT_EQ(info.status, 0) << info.err;
  EXPECT_NE(info.out.find("\"SAMPLE\": "), std::string::npos) << info.out;

  const auto check = limited("check " + in);
  EXPECT_EQ(check.status, 0) << check.err;

  const auto pb = dir_ / "big.pb";
  const auto to_pb = limited("convert " + in + " '" + pb.string() + "'");
  ASSERT_EQ(to_pb.status, 0) << to_pb.err;
  const auto pb_info = limited("info '" + pb.string() + "'");
  EXPECT_EQ(pb_info.status, 0) << pb_info.err;
  std::filesystem::remove(data);  // room for the round trip

  const auto back = dir_ / "back.data";
  const auto from_pb = limited("convert '" + pb.string() + "' '" + back.string() + "'");
  ASSERT_EQ(from_pb.status, 0) << from_pb.err;
  std::filesystem::remove(pb);

  const auto piped = dir_ / "piped.data";
  const auto to_pipe =
      limited("convert --to pipe '" + back.string() + "' '" + piped.string() + "'");
  ASSERT_EQ(to_pipe.status, 0) << to_pipe.err;
  const auto again = dir_ / "again.data";
  const auto from_pipe =
      limited("convert --to perf '" + piped.string() + "' '" + again.string() + "'");
  ASSERT_EQ(from_pipe.status, 0) << from_pipe.err;
  std::filesystem::remove(piped);
  EXPECT_TRUE(same_files(back, again));

  // .pbtxt is built in memory: refused with a message instead of growing.
  const auto text =
      limited("convert '" + back.string() + "' '" + (dir_ / "big.pbtxt").string() + "'");
  EXPECT_EQ(text.status, 1);
  EXPECT_NE(text.err.find("pbtxt"), std::string::npos) << text.err;
}

// The same model written small, streamed and read whole, gives the same bytes.
TEST(StreamEquivalence, ConvertMatchesInMemoryConversion) {
  if (!std::filesystem::exists(kTool)) GTEST_SKIP() << "pmudata not built";
  testing::ScratchDir dir;
  for (const auto mode : {PerfDataMode::file, PerfDataMode::pipe}) {
    const auto data = dir / "small.data";
    ASSERT_FALSE(test::write_big_perf_data(data, 200'000, mode));
    const auto whole = read_perf_data(data);
    ASSERT_TRUE(whole);
    for (const std::string ext : {".pb", ".data"}) {
      const auto out = dir / ("out" + ext);
      const auto r =
          testing::run_command(kTool + " convert '" + data.string() + "' '" + out.string() + "'");
      ASSERT_EQ(r.status, 0) << r.err;
      const auto expected = dir / ("expected" + ext);
      if (ext == ".pb") {
        // written by the in-memory path for the same model
        const auto text =
            testing::run_command(kTool + " convert --max-input-size 1G '" + data.string() + "' '" +
                                 (dir / "x.pbtxt").string() + "'");
        ASSERT_EQ(text.status, 0) << text.err;
        const auto from_text = testing::run_command(
            kTool + " convert '" + (dir / "x.pbtxt").string() + "' '" + expected.string() + "'");
        ASSERT_EQ(from_text.status, 0) << from_text.err;
      } else {
        ASSERT_FALSE(write_perf_data(expected, *whole, options_like(*whole)));
      }
      EXPECT_TRUE(same_files(out, expected)) << ext;
    }
  }
}

}  // namespace
PMUCAT_END_NAMESPACE
