// OutputFile on every kind of target: regular files are replaced atomically (beside a symlink's
// target, keeping the mode), FIFOs, character devices and sockets are streamed into and never
// replaced, and no temporary survives success, failure or a terminating signal. Every target is
// built in a scratch directory; nothing here writes under /dev.
#include "pmucat/output_file.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstring>
#include <fstream>
#include <thread>

#include "perfdata/model_builder.h"
#include "pmucat/perfdata.h"
#include "support/command.h"
#include "support/files.h"
#include "support/scratch_dir.h"

PMUCAT_BEGIN_NAMESPACE
namespace {

namespace fs = std::filesystem;

std::vector<std::string> entries(const fs::path& dir) {
  std::vector<std::string> out;
  for (const auto& e : fs::directory_iterator(dir)) out.push_back(e.path().filename().string());
  std::sort(out.begin(), out.end());
  return out;
}

void put(const fs::path& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

mode_t mode_of(const fs::path& path) {
  struct stat info {};
  EXPECT_EQ(::lstat(path.c_str(), &info), 0) << path;
  return info.st_mode;
}

// Reads everything written into a FIFO (opened here, on another thread, as a reader would).
class FifoReader {
 public:
  explicit FifoReader(const fs::path& fifo)
      : thread_([this, fifo] {
          const int fd = ::open(fifo.c_str(), O_RDONLY | O_CLOEXEC);
          if (fd < 0) return;
          char buffer[65536];
          for (ssize_t n; (n = ::read(fd, buffer, sizeof buffer)) > 0;) bytes_.append(buffer, n);
          ::close(fd);
        }) {}
  std::string finish() {
    thread_.join();
    return bytes_;
  }

 private:
  std::string bytes_;
  std::thread thread_;
};

class OutputFileTest : public ::testing::TestWithParam<bool> {
 protected:
  OutputOptions options() const { return OutputOptions{.unnamed_temporary = GetParam()}; }
  testing::ScratchDir dir_;
};

INSTANTIATE_TEST_SUITE_P(Temporaries, OutputFileTest, ::testing::Values(true, false),
                         [](const auto& param) { return param.param ? "unnamed" : "named"; });

TEST_P(OutputFileTest, EmptyPathAndDirectoryAreErrors) {
  auto empty = OutputFile::open("", options());
  ASSERT_FALSE(empty);
  EXPECT_EQ(empty.error().id, "output-path-empty");
  fs::create_directory(dir_ / "d");
  fs::create_directory_symlink(dir_ / "d", dir_ / "link-to-d");
  for (const char* name : {"d", "link-to-d"}) {
    const auto error = write_output_file(dir_ / name, "x", options());
    ASSERT_TRUE(error) << name;
    EXPECT_EQ(error->id, "output-is-directory") << name;
  }
  EXPECT_TRUE(fs::is_directory(dir_ / "d"));
  EXPECT_TRUE(fs::is_empty(dir_ / "d"));
}

TEST_P(OutputFileTest, NewFileGetsTheUmaskModeAndNothingElseIsLeft) {
  const mode_t old_mask = ::umask(027);
  const auto error = write_output_file(dir_ / "new.txt", "hello\n", options());
  ::umask(old_mask);
  ASSERT_FALSE(error) << error->message;
  EXPECT_EQ(testing::read_text(dir_ / "new.txt"), "hello\n");
  EXPECT_EQ(mode_of(dir_ / "new.txt") & 07777, 0640u);  // 0666 & ~027, not mkstemp's 0600
  EXPECT_EQ(entries(dir_.path()), std::vector<std::string>{"new.txt"});
}

TEST_P(OutputFileTest, ReplacedFileKeepsItsMode) {
  for (const mode_t mode : {0644, 0755, 0640, 0444}) {
    const auto path = dir_ / "kept.txt";
    put(path, "old");
    ASSERT_EQ(::chmod(path.c_str(), mode), 0);
    ASSERT_FALSE(write_output_file(path, "new", options()));
    EXPECT_EQ(testing::read_text(path), "new");
    EXPECT_EQ(mode_of(path) & 07777, mode);
  }
  EXPECT_EQ(entries(dir_.path()), std::vector<std::string>{"kept.txt"});
}

TEST_P(OutputFileTest, SymlinkStaysALinkAndItsTargetIsReplaced) {
  fs::create_directories(dir_ / "a");
  fs::create_directories(dir_ / "b");
  put(dir_ / "b/target.txt", "old");
  ASSERT_EQ(::chmod((dir_ / "b/target.txt").c_str(), 0604), 0);
  // A chain: a/link -> ../b/hop (relative), b/hop -> target.txt (relative to b/).
  fs::create_symlink("../b/hop", dir_ / "a/link");
  fs::create_symlink("target.txt", dir_ / "b/hop");
  ASSERT_FALSE(write_output_file(dir_ / "a/link", "new", options()));
  EXPECT_TRUE(fs::is_symlink(dir_ / "a/link"));
  EXPECT_TRUE(fs::is_symlink(dir_ / "b/hop"));
  EXPECT_EQ(fs::read_symlink(dir_ / "a/link"), "../b/hop");
  EXPECT_EQ(testing::read_text(dir_ / "b/target.txt"), "new");
  EXPECT_EQ(mode_of(dir_ / "b/target.txt") & 07777, 0604u);
  EXPECT_EQ(entries(dir_ / "a"), std::vector<std::string>{"link"});
  EXPECT_EQ(entries(dir_ / "b"), (std::vector<std::string>{"hop", "target.txt"}));

  // A dangling link: its target is created, the link stays.
  fs::create_symlink("created.txt", dir_ / "dangling");
  ASSERT_FALSE(write_output_file(dir_ / "dangling", "made", options()));
  EXPECT_TRUE(fs::is_symlink(dir_ / "dangling"));
  EXPECT_EQ(testing::read_text(dir_ / "created.txt"), "made");
}

// A shared sticky directory (/tmp-like) holding a link someone else planted: following it would
// replace what it names with our privileges, which the kernel's protected_symlinks forbids. The
// rule holds whatever the sysctl says. Needs root, to give the link to `nobody`.
TEST_P(OutputFileTest, ForeignLinkInStickyDirectoryIsNotFollowed) {
  if (::geteuid() != 0) GTEST_SKIP() << "needs root to plant a link owned by nobody";
  fs::create_directory(dir_ / "shared");
  ASSERT_EQ(::chmod((dir_ / "shared").c_str(), 01777), 0);
  put(dir_ / "precious", "root's");
  fs::create_symlink(dir_ / "precious", dir_ / "shared/out");
  ASSERT_EQ(::lchown((dir_ / "shared/out").c_str(), 65534, 65534), 0);
  const auto error = write_output_file(dir_ / "shared/out", "attacker's choice", options());
  ASSERT_TRUE(error);
  EXPECT_EQ(error->id, "output-io");
  EXPECT_NE(error->message.find("protected_symlinks"), std::string::npos) << error->message;
  EXPECT_EQ(testing::read_text(dir_ / "precious"), "root's");
  EXPECT_TRUE(fs::is_symlink(dir_ / "shared/out"));
  EXPECT_EQ(entries(dir_ / "shared"), std::vector<std::string>{"out"});

  // A link of our own (or of the directory's owner) there is followed as anywhere else.
  ASSERT_EQ(::lchown((dir_ / "shared/out").c_str(), 0, 0), 0);
  ASSERT_FALSE(write_output_file(dir_ / "shared/out", "mine", options()));
  EXPECT_EQ(testing::read_text(dir_ / "precious"), "mine");
  // Outside a sticky world-writable directory, anyone's link is followed as the kernel would.
  ASSERT_EQ(::chmod((dir_ / "shared").c_str(), 0755), 0);
  ASSERT_EQ(::lchown((dir_ / "shared/out").c_str(), 65534, 65534), 0);
  ASSERT_FALSE(write_output_file(dir_ / "shared/out", "again", options()));
  EXPECT_EQ(testing::read_text(dir_ / "precious"), "again");
}

// The rename is relative to the directory opened at open(), and only over the file found then:
// a file swapped in under the name meanwhile (or one that appeared where there was none) is
// left as it is.
TEST_P(OutputFileTest, FileSwappedInMeanwhileIsNotReplaced) {
  put(dir_ / "out.txt", "old");
  auto output = OutputFile::open(dir_ / "out.txt", options());
  ASSERT_TRUE(output);
  ASSERT_FALSE(output->write(std::string_view("new")));
  put(dir_ / "other", "someone else's");
  fs::rename(dir_ / "other", dir_ / "out.txt");
  const auto error = output->commit();
  ASSERT_TRUE(error);
  EXPECT_EQ(error->id, "output-io");
  EXPECT_EQ(testing::read_text(dir_ / "out.txt"), "someone else's");

  auto fresh = OutputFile::open(dir_ / "fresh.txt", options());
  ASSERT_TRUE(fresh);
  ASSERT_FALSE(fresh->write(std::string_view("ours")));
  fs::create_symlink("/nonexistent-target", dir_ / "fresh.txt");
  ASSERT_TRUE(fresh->commit());
  EXPECT_TRUE(fs::is_symlink(dir_ / "fresh.txt"));
  EXPECT_FALSE(fs::exists(fs::path("/nonexistent-target")));
}

TEST_P(OutputFileTest, FifoIsStreamedIntoNotReplaced) {
  const auto fifo = dir_ / "fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  FifoReader reader(fifo);
  const std::string text(300000, 'z');  // more than a pipe buffer: the reader must drain it
  ASSERT_FALSE(write_output_file(fifo, text, options()));
  EXPECT_EQ(reader.finish(), text);
  EXPECT_TRUE(S_ISFIFO(mode_of(fifo)));
  EXPECT_EQ(entries(dir_.path()), std::vector<std::string>{"fifo"});
}

TEST_P(OutputFileTest, CharacterDeviceIsWrittenNotReplaced) {
  const auto node = dir_ / "null";  // /dev/null's numbers, in the scratch dir
  if (::mknod(node.c_str(), S_IFCHR | 0666, makedev(1, 3)) != 0) {
    GTEST_SKIP() << "mknod: " << std::strerror(errno);
  }
  auto output = OutputFile::open(node, options());
  ASSERT_TRUE(output);
  EXPECT_TRUE(output->streaming());
  ASSERT_FALSE(output->write(std::string_view("discarded")));
  ASSERT_FALSE(output->commit());
  const mode_t mode = mode_of(node);
  EXPECT_TRUE(S_ISCHR(mode));
  struct stat info {};
  ASSERT_EQ(::stat(node.c_str(), &info), 0);
  EXPECT_EQ(major(info.st_rdev), 1u);
  EXPECT_EQ(minor(info.st_rdev), 3u);
  EXPECT_EQ(entries(dir_.path()), std::vector<std::string>{"null"});
}

TEST_P(OutputFileTest, SocketIsConnectedToNotReplaced) {
  const auto path = dir_ / "sock";
  const int listener = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  ASSERT_GE(listener, 0);
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  ASSERT_LT(path.string().size(), sizeof address.sun_path);
  std::strcpy(address.sun_path, path.c_str());
  ASSERT_EQ(::bind(listener, reinterpret_cast<const sockaddr*>(&address), sizeof address), 0);
  ASSERT_EQ(::listen(listener, 1), 0);
  std::string received;
  std::thread server([&] {
    const int fd = ::accept(listener, nullptr, nullptr);
    char buffer[4096];
    for (ssize_t n; (n = ::read(fd, buffer, sizeof buffer)) > 0;) received.append(buffer, n);
    ::close(fd);
  });
  ASSERT_FALSE(write_output_file(path, "over the socket", options()));
  server.join();
  ::close(listener);
  EXPECT_EQ(received, "over the socket");
  EXPECT_TRUE(S_ISSOCK(mode_of(path)));
}

TEST_P(OutputFileTest, OwnDescriptorPathsAreStreams) {
  // A link to /proc/self/fd/N (what /dev/stdout is) writes into descriptor N itself.
  int fds[2];
  ASSERT_EQ(::pipe2(fds, O_CLOEXEC), 0);
  fs::create_symlink("/proc/self/fd/" + std::to_string(fds[1]), dir_ / "my-stdout");
  ASSERT_FALSE(write_output_file(dir_ / "my-stdout", "to the pipe", options()));
  ::close(fds[1]);
  char buffer[64] = {};
  EXPECT_EQ(::read(fds[0], buffer, sizeof buffer), 11);
  ::close(fds[0]);
  EXPECT_EQ(std::string(buffer), "to the pipe");
  EXPECT_TRUE(fs::is_symlink(dir_ / "my-stdout"));
}

TEST_P(OutputFileTest, DashIsStandardOutput) {
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    ::dup2(fds[1], STDOUT_FILENO);
    ::close(fds[0]);
    ::close(fds[1]);
    ::_exit(write_output_file("-", "on stdout", options()) ? 1 : 0);
  }
  ::close(fds[1]);
  std::string out;
  char buffer[64];
  for (ssize_t n; (n = ::read(fds[0], buffer, sizeof buffer)) > 0;) out.append(buffer, n);
  ::close(fds[0]);
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  EXPECT_EQ(out, "on stdout");
}

TEST_P(OutputFileTest, AbandonedOutputLeavesTargetAndNoTemporary) {
  const auto path = dir_ / "keep.txt";
  put(path, "original");
  {
    auto output = OutputFile::open(path, options());
    ASSERT_TRUE(output);
    ASSERT_FALSE(output->write(std::string_view("half of a new")));
    if (!GetParam()) {
      EXPECT_EQ(entries(dir_.path()).size(), 2u);  // the named temporary
    }
  }
  EXPECT_EQ(testing::read_text(path), "original");
  EXPECT_EQ(entries(dir_.path()), std::vector<std::string>{"keep.txt"});
}

// A child opens an output, writes into it and waits; the parent kills it with `signal_number`.
// Deterministic: the parent acts only after the child said it is mid-write, and the child can
// only end by the signal.
void expect_no_temporary_after(int signal_number, const fs::path& dir, OutputOptions options) {
  int ready[2], hold[2];
  ASSERT_EQ(::pipe(ready), 0);
  ASSERT_EQ(::pipe(hold), 0);
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    ::close(ready[0]);
    ::close(hold[1]);
    auto output = OutputFile::open(dir / "out.data", options);
    if (!output || output->write(std::string(100000, 'x'))) ::_exit(3);
    const char c = 'r';
    if (::write(ready[1], &c, 1) != 1) ::_exit(4);
    char wait;
    while (::read(hold[0], &wait, 1) != 0) {
    }
    ::_exit(5);  // only reached if the parent died
  }
  ::close(ready[1]);
  ::close(hold[0]);
  char c = 0;
  ASSERT_EQ(::read(ready[0], &c, 1), 1);
  // Mid-write: a named temporary is visible, an unnamed one is not.
  EXPECT_EQ(entries(dir).size(), options.unnamed_temporary ? 0u : 1u);
  ASSERT_EQ(::kill(child, signal_number), 0);
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  ::close(ready[0]);
  ::close(hold[1]);
  EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == signal_number) << status;
  EXPECT_EQ(entries(dir), std::vector<std::string>{}) << strsignal(signal_number);
}

TEST_P(OutputFileTest, TerminatingSignalsLeaveNoTemporary) {
  for (int signal_number : {SIGTERM, SIGINT, SIGHUP}) {
    expect_no_temporary_after(signal_number, dir_.path(), options());
  }
}

TEST(OutputFileUnnamed, EvenSigkillLeavesNoTemporary) {
  testing::ScratchDir dir;
  expect_no_temporary_after(SIGKILL, dir.path(), OutputOptions{});
}

// The descriptor this process has open on an unnamed or named temporary in `dir`.
std::optional<fs::path> open_temporary_in(const fs::path& dir) {
  for (const auto& fd : fs::directory_iterator("/proc/self/fd")) {
    std::error_code ec;
    const std::string target = fs::read_symlink(fd.path(), ec).string();
    if (!ec && target.starts_with(dir.string() + "/")) return fd.path();
  }
  return std::nullopt;
}

TEST(PerfDataOutput, TemporaryHeaderStaysZeroedUntilTheLastWrite) {
  testing::ScratchDir dir;
  test::ModelSpec spec;
  const PerfData model = test::demo_model(spec);
  auto writer = PerfDataWriter::create(dir / "big.data", model.events, model.features, {});
  ASSERT_TRUE(writer);
  // Past the writer's 1 MiB buffer, so bytes have reached the temporary.
  const Record& record = model.records.front();
  while (writer->bytes_written() < (std::uint64_t{2} << 20)) ASSERT_FALSE(writer->write(record));
  const std::uint64_t written = writer->records_written();
  const auto temporary = open_temporary_in(dir.path());
  ASSERT_TRUE(temporary);
  const std::vector<std::byte> partial = testing::read_bytes(*temporary);
  ASSERT_GT(partial.size(), 104u);
  EXPECT_TRUE(std::all_of(partial.begin(), partial.begin() + 104,
                          [](std::byte b) { return b == std::byte{0}; }));
  EXPECT_FALSE(parse_perf_data(partial, "partial"));
  ASSERT_FALSE(writer->finish());
  const auto done = read_perf_data(dir / "big.data");
  ASSERT_TRUE(done) << done.error().message;
  EXPECT_EQ(done->records.size(), written);
  EXPECT_EQ(entries(dir.path()), std::vector<std::string>{"big.data"});
}

TEST(PerfDataOutput, FifoGetsPipeModeOurReaderParses) {
  testing::ScratchDir dir;
  const auto fifo = dir / "perf.fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  test::ModelSpec spec;
  spec.events = 2;
  const PerfData model = test::demo_model(spec);
  FifoReader reader(fifo);
  ASSERT_FALSE(write_perf_data(fifo, model, options_like(model)));  // file mode asked
  const std::string bytes = reader.finish();
  const auto parsed = parse_perf_data(std::as_bytes(std::span(bytes.data(), bytes.size())), "fifo");
  ASSERT_TRUE(parsed) << parsed.error().message;
  EXPECT_EQ(parsed->mode, PerfDataMode::pipe);
  EXPECT_EQ(parsed->events.size(), 2u);
  EXPECT_EQ(parsed->records, model.records);
  EXPECT_TRUE(S_ISFIFO(mode_of(fifo)));
}

}  // namespace
PMUCAT_END_NAMESPACE
