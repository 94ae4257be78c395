// Every tool's output path on hostile targets (pmuencode -o, pmudata convert OUT, pmucheck -o
// and --write-baseline): symlinks stay links, FIFOs and character devices are written into,
// "-" is standard output, "" and directories are usage errors (exit 2), modes are kept. Targets
// are built in a scratch directory; nothing here writes under /dev.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <fstream>
#include <thread>

#include "perfdata/model_builder.h"
#include "pmucat/perfdata.h"
#include "pmucat/perfdata_records.h"
#include "support/files.h"
#include "support/scratch_dir.h"
#include "support/tools.h"

PMUCAT_BEGIN_NAMESPACE
namespace {

namespace fs = std::filesystem;

// PMUCAT_TEST_TOOLS: another build's cli/ directory, to run these against other binaries (an
// older build shows what each test catches).
std::string tool_path(const std::string& tool) {
  const char* other = std::getenv("PMUCAT_TEST_TOOLS");
  return (other != nullptr ? std::string(other) : std::string(PMUCAT_BINARY_DIR "/cli")) + "/" +
         tool + "/" + tool;
}
const std::string kEncode = tool_path("pmuencode");
const std::string kData = tool_path("pmudata");
const std::string kSnap = tool_path("pmusnap");
const std::string kCheck = tool_path("pmucheck");
const std::string kSysfs = PMUCAT_SOURCE_DIR "/fixtures/sysfs/intel-spr";

std::string quoted(const fs::path& path) {
  return "'" + path.string() + "'";
}

std::vector<std::string> entries(const fs::path& dir) {
  std::vector<std::string> out;
  for (const auto& e : fs::directory_iterator(dir)) out.push_back(e.path().filename().string());
  std::sort(out.begin(), out.end());
  return out;
}

Expected<PerfData> parse(const std::string& bytes, std::string_view name) {
  return parse_perf_data(std::as_bytes(std::span(bytes.data(), bytes.size())), name);
}

class OutputCli : public ::testing::Test {
 protected:
  void SetUp() override {
    for (const auto& tool : {kEncode, kData, kCheck}) {
      if (!fs::exists(tool)) GTEST_SKIP() << tool << " not built";
    }
    test::ModelSpec spec;
    spec.events = 2;
    ASSERT_FALSE(write_perf_data(input_, test::demo_model(spec), {}));
  }
  testing::CommandResult encode(const std::string& output, const std::string& extra = "") {
    // In the scratch directory: a tool that took "-" for a file name would leave it there.
    return testing::run_command("cd " + quoted(dir_.path()) + " && " + kEncode + " --sysfs " +
                                kSysfs + " " + extra + " -o " + output +
                                " cpu/event=0x3c/ cpu/event=0xc0,umask=0x1/");
  }
  testing::ScratchDir dir_;
  fs::path input_ = dir_ / "in.data";
};

TEST_F(OutputCli, SymlinkStaysALinkOnEveryTool) {
  fs::create_directory(dir_ / "real");
  const std::vector<std::pair<std::string, std::string>> commands = {
      {"enc.data", kEncode + " --sysfs " + kSysfs + " -o LINK cpu/event=0x3c/"},
      {"conv.pb", kData + " convert " + quoted(input_) + " LINK"},
      {"report.txt", kCheck + " --sysfs " + kSysfs + " --format ktap -o LINK"},
      {"baseline.txt",
       kCheck + " --sysfs " + kSysfs + " --write-baseline LINK -o " + quoted(dir_ / "ignored.txt")},
  };
  for (const auto& [name, command] : commands) {
    const fs::path target = dir_ / "real" / name;
    std::ofstream(target) << "stale";
    ASSERT_EQ(::chmod(target.c_str(), 0644), 0);
    const fs::path link = dir_ / ("link-" + name);
    fs::create_symlink(target, link);
    std::string line = command;
    line.replace(line.find("LINK"), 4, quoted(link));
    const auto r = testing::run_command(line);
    EXPECT_LE(r.status, 1) << line << "\n" << r.err;  // pmucheck: 1 = findings
    EXPECT_TRUE(fs::is_symlink(link)) << line;
    EXPECT_NE(testing::read_text(target), "stale") << line;
    struct stat info {};
    ASSERT_EQ(::stat(target.c_str(), &info), 0);
    EXPECT_EQ(info.st_mode & 07777, 0644u) << line;  // not the temporary's 0600
  }
  EXPECT_TRUE(read_perf_data(dir_ / "real/enc.data"));
  EXPECT_EQ(entries(dir_ / "real"),
            (std::vector<std::string>{"baseline.txt", "conv.pb", "enc.data", "report.txt"}));
}

// The repro: root runs `pmuencode -o` on a name in a shared sticky directory where
// `nobody` planted a link to a root-owned file. The file stays; the error names the rule.
TEST_F(OutputCli, ForeignLinkInStickyDirectoryIsNotFollowed) {
  if (::geteuid() != 0) GTEST_SKIP() << "needs root to plant a link owned by nobody";
  fs::create_directory(dir_ / "tmp");
  ASSERT_EQ(::chmod((dir_ / "tmp").c_str(), 01777), 0);
  std::ofstream(dir_ / "precious") << "root's";
  fs::create_symlink(dir_ / "precious", dir_ / "tmp/out.data");
  ASSERT_EQ(::lchown((dir_ / "tmp/out.data").c_str(), 65534, 65534), 0);
  const auto r = encode(quoted(dir_ / "tmp/out.data"));
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_NE(r.err.find("protected_symlinks"), std::string::npos) << r.err;
  EXPECT_EQ(testing::read_text(dir_ / "precious"), "root's");
  EXPECT_TRUE(fs::is_symlink(dir_ / "tmp/out.data"));
}

TEST_F(OutputCli, FifoGetsPipeModePerfData) {
  for (const std::string tool : {"pmuencode", "pmudata"}) {
    const auto fifo = dir_ / ("fifo-" + tool);
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    std::string bytes;
    std::thread reader([&] {
      const int fd = ::open(fifo.c_str(), O_RDONLY | O_CLOEXEC);
      char buffer[65536];
      for (ssize_t n; (n = ::read(fd, buffer, sizeof buffer)) > 0;) bytes.append(buffer, n);
      ::close(fd);
    });
    // Held on the FIFO itself, so the reader can be released even if a tool replaced the path.
    const int fifo_inode = ::open(fifo.c_str(), O_PATH | O_CLOEXEC);
    const auto r =
        tool == "pmuencode"
            ? encode(quoted(fifo))
            : testing::run_command(kData + " convert " + quoted(input_) + " " + quoted(fifo));
    // A reader still waiting for a writer gets one that closes at once (EOF); none waiting: ENXIO.
    const int release = ::open(("/proc/self/fd/" + std::to_string(fifo_inode)).c_str(),
                               O_WRONLY | O_NONBLOCK | O_CLOEXEC);
    if (release >= 0) ::close(release);
    ::close(fifo_inode);
    reader.join();
    EXPECT_EQ(r.status, 0) << r.err;
    const auto data = parse(bytes, tool);
    ASSERT_TRUE(data) << tool << ": " << data.error().message;
    EXPECT_EQ(data->mode, PerfDataMode::pipe) << tool;
    EXPECT_EQ(data->events.size(), 2u) << tool;
    struct stat info {};
    ASSERT_EQ(::lstat(fifo.c_str(), &info), 0);
    EXPECT_TRUE(S_ISFIFO(info.st_mode)) << tool;
  }
}

TEST_F(OutputCli, CharacterDeviceIsNotReplaced) {
  const auto node = dir_ / "null";
  if (::mknod(node.c_str(), S_IFCHR | 0666, makedev(1, 3)) != 0) GTEST_SKIP() << "no mknod";
  EXPECT_EQ(encode(quoted(node)).status, 0);
  EXPECT_EQ(testing::run_command(kData + " convert " + quoted(input_) + " " + quoted(node)).status,
            0);
  EXPECT_LE(testing::run_command(kCheck + " --sysfs " + kSysfs + " -o " + quoted(node)).status, 1);
  struct stat info {};
  ASSERT_EQ(::lstat(node.c_str(), &info), 0);
  EXPECT_TRUE(S_ISCHR(info.st_mode));
  EXPECT_EQ(info.st_rdev, makedev(1, 3));
  EXPECT_EQ(entries(dir_.path()), (std::vector<std::string>{"in.data", "null"}));
}

TEST_F(OutputCli, DashIsStandardOutput) {
  // Run in the scratch directory: a tool that took "-" for a file name would leave it there.
  const std::string in_scratch = "cd " + quoted(dir_.path()) + " && ";
  const auto encoded = testing::run_command(in_scratch + kEncode + " --sysfs " + kSysfs +
                                            " -o - cpu/event=0x3c/ " + "cpu/event=0xc0,umask=0x1/");
  ASSERT_EQ(encoded.status, 0) << encoded.err;
  const auto data = parse(encoded.out, "pmuencode -o -");
  ASSERT_TRUE(data) << data.error().message;
  EXPECT_EQ(data->mode, PerfDataMode::pipe);
  EXPECT_EQ(data->events.size(), 2u);

  const auto converted =
      testing::run_command(in_scratch + kData + " convert " + quoted(input_) + " -");
  ASSERT_EQ(converted.status, 0) << converted.err;
  const auto again = parse(converted.out, "pmudata convert IN -");
  ASSERT_TRUE(again) << again.error().message;
  EXPECT_EQ(again->mode, PerfDataMode::pipe);

  const auto checked =
      testing::run_command(in_scratch + kCheck + " --sysfs " + kSysfs + " --format ktap -o -");
  EXPECT_LE(checked.status, 1);
  EXPECT_TRUE(checked.out.starts_with("KTAP version")) << checked.out.substr(0, 80);
  EXPECT_EQ(entries(dir_.path()), std::vector<std::string>{"in.data"});
}

TEST_F(OutputCli, EmptyPathDirectoryAndUnwritableAreExit2) {
  fs::create_directory(dir_ / "d");
  const std::string missing_dir = quoted(dir_ / "no/such/dir/out.pb");
  for (const std::string& output : {std::string("''"), quoted(dir_ / "d")}) {
    EXPECT_EQ(encode(output).status, 2) << output;
    EXPECT_EQ(testing::run_command(kData + " convert " + quoted(input_) + " " + output).status, 2)
        << output;
    EXPECT_EQ(testing::run_command(kCheck + " --sysfs " + kSysfs + " -o " + output).status, 2)
        << output;
    EXPECT_EQ(
        testing::run_command(kCheck + " --sysfs " + kSysfs + " --write-baseline " + output).status,
        2)
        << output;
  }
  const auto r = testing::run_command(kData + " convert " + quoted(input_) + " " + missing_dir);
  EXPECT_EQ(r.status, 2) << r.err;             // an output I/O failure, not a rejected input
  EXPECT_EQ(encode("-", "--json").status, 2);  // both would go to standard output
  EXPECT_TRUE(fs::is_empty(dir_ / "d"));
  EXPECT_EQ(entries(dir_.path()), (std::vector<std::string>{"d", "in.data"}));
}

TEST_F(OutputCli, NewFilesGetTheUsualModeAndNoTemporaryRemains) {
  const auto encoded = dir_ / "new.data";
  const auto converted = dir_ / "new.pbtxt";
  ASSERT_EQ(testing::run_command("umask 022 && " + kEncode + " --sysfs " + kSysfs + " -o " +
                                 quoted(encoded) + " cpu/event=0x3c/")
                .status,
            0);
  ASSERT_EQ(testing::run_command("umask 022 && " + kData + " convert " + quoted(input_) + " " +
                                 quoted(converted))
                .status,
            0);
  for (const auto& path : {encoded, converted}) {
    struct stat info {};
    ASSERT_EQ(::stat(path.c_str(), &info), 0);
    EXPECT_EQ(info.st_mode & 07777, 0644u) << path;
  }
  EXPECT_EQ(entries(dir_.path()), (std::vector<std::string>{"in.data", "new.data", "new.pbtxt"}));
}

TEST_F(OutputCli, PmuencodeWritesOneSamplePerEventThatPerfShows) {
  const auto path = dir_ / "enc.data";
  ASSERT_EQ(encode(quoted(path)).status, 0);
  const auto data = read_perf_data(path);
  ASSERT_TRUE(data) << data.error().message;
  std::size_t samples = 0;
  for (const auto& r : data->records) samples += r.type == record_type::sample;
  EXPECT_EQ(samples, 2u);  // one per event
  for (const auto& r : data->records) {
    if (r.type != record_type::sample) continue;
    bool decoded = false;
    for (const auto& e : data->events) decoded = decoded || decode_sample(r.payload, e.attr);
    EXPECT_TRUE(decoded);
  }
  if (!testing::have_perf()) GTEST_SKIP() << "perf is not installed";
  const auto report = testing::run_command("perf report --stdio -i " + quoted(path));
  EXPECT_EQ(report.status, 0) << report.err;
  EXPECT_EQ(report.err, "");
  EXPECT_NE(report.out.find("of event 'cpu/event=0x3c/'"), std::string::npos) << report.out;
  EXPECT_NE(report.out.find("of event 'cpu/event=0xc0,umask=0x1/'"), std::string::npos)
      << report.out;
  const auto script = testing::run_command("perf script -i " + quoted(path));
  EXPECT_EQ(script.status, 0) << script.err;
  EXPECT_EQ(script.err, "");
  EXPECT_NE(script.out.find("cpu/event=0x3c/"), std::string::npos) << script.out;
  EXPECT_NE(script.out.find("cpu/event=0xc0,umask=0x1/"), std::string::npos) << script.out;
  // And in pipe mode from standard output.
  const auto piped =
      testing::run_command("cd " + quoted(dir_.path()) + " && " + kEncode + " --sysfs " + kSysfs +
                           " -o - cpu/event=0x3c/ | perf script -i -");
  EXPECT_EQ(piped.status, 0) << piped.err;
  EXPECT_NE(piped.out.find("cpu/event=0x3c/"), std::string::npos) << piped.out;
}

// A terminating signal in the middle of writing the output: strace delivers it when the tool
// makes its first write(2), writev(2) or pwrite(2) (deterministic, no timing). The old file stays
// as it was and nothing else appears beside it.
TEST_F(OutputCli, SignalMidWriteLeavesTheOldFileAndNoTemporary) {
  if (testing::run_command("strace -V").status != 0) GTEST_SKIP() << "strace is not installed";
  fs::create_directory(dir_ / "out");
  const std::vector<std::pair<std::string, std::string>> commands = {
      {"enc.data", kEncode + " --sysfs " + kSysfs + " -o OUT cpu/event=0x3c/"},
      {"conv.pb", kData + " convert " + quoted(input_) + " OUT"},
      {"conv.data", kData + " convert " + quoted(input_) + " OUT"},
      {"report.ktap", kCheck + " --sysfs " + kSysfs + " --format ktap -o OUT"},
  };
  for (const char* signal_name : {"SIGTERM", "SIGINT", "SIGHUP"}) {
    for (const auto& [name, command] : commands) {
      const fs::path out = dir_ / "out" / name;
      std::ofstream(out) << "old";
      std::string line = command;
      line.replace(line.find("OUT"), 3, quoted(out));
      const auto r = testing::run_command(
          "strace -f -qq -o " + quoted(dir_ / "strace.log") +
          " -e trace=write,writev,pwrite64 -e inject=write,writev,pwrite64:signal=" + signal_name +
          ":when=1 " + line);
      EXPECT_NE(r.status, 0) << signal_name << ": " << line;  // it died of the signal
      EXPECT_EQ(testing::read_text(out), "old") << signal_name << ": " << line;
    }
    EXPECT_EQ(entries(dir_ / "out"),
              (std::vector<std::string>{"conv.data", "conv.pb", "enc.data", "report.ktap"}))
        << signal_name;
  }
}

// pmusnap builds a staging directory (and, for a .tar.gz, a temporary archive) before renaming
// the capture into place. A terminating signal during that waits until the capture is complete,
// so nothing but the finished capture is left: strace delivers the signal at the capture's
// second mkdir(2) (staging exists) and at its wait for tar (the temporary archive exists).
TEST_F(OutputCli, SignalDuringPmusnapLeavesNoStagingOrTemporary) {
  if (testing::run_command("strace -V").status != 0) GTEST_SKIP() << "strace is not installed";
  if (!fs::exists(kSnap)) GTEST_SKIP() << kSnap << " not built";
  const fs::path tmp = dir_ / "tmp";
  const fs::path out_dir = dir_ / "snaps";
  fs::create_directory(tmp);
  fs::create_directory(out_dir);
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"copy", "mkdir,mkdirat:signal=SIGTERM:when=2"},
      {"copy.tar.gz", "wait4:signal=SIGINT:when=1"},
  };
  for (const auto& [name, inject] : cases) {
    const fs::path out = out_dir / name;
    const auto r = testing::run_command("TMPDIR=" + quoted(tmp) + " strace -qq -o " +
                                        quoted(dir_ / "strace.log") + " -e inject=" + inject + " " +
                                        kSnap + " --sysfs " + kSysfs + " " + quoted(out));
    EXPECT_NE(r.status, 0) << name << ": the signal was not delivered";
    EXPECT_TRUE(fs::exists(out)) << name << ": the capture was not completed before the signal";
  }
  EXPECT_EQ(entries(out_dir), (std::vector<std::string>{"copy", "copy.tar.gz"}));
  EXPECT_EQ(entries(tmp), std::vector<std::string>{});
}

}  // namespace
PMUCAT_END_NAMESPACE
