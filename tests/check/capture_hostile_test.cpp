// Hostile captures and hostile trees for pmusnap (docs/robustness.md, "Hostile captures and
// capture outputs"): a .tar.gz whose links lead out of it is refused whole, an unpack stops at
// its budget, a terminating signal leaves no unpacked directory behind, and a capture never
// copies what lies outside the tree through a link. Every capture and tree is built here, in a
// scratch directory; TMPDIR points into it, so "nothing left behind" is checked exactly.
#include <fmt/core.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <functional>
#include <nlohmann/json.hpp>
#include <set>
#include <thread>

#include "pmucat/snapshot.h"
#include "support/files.h"
#include "support/scratch_dir.h"
#include "support/tools.h"

PMUCAT_BEGIN_NAMESPACE
namespace snap {
namespace {

namespace fs = std::filesystem;
using pmucat::testing::read_text;
using pmucat::testing::run_command;
using pmucat::testing::ScratchDir;
using pmucat::testing::tool;
using pmucat::testing::write_text;

const std::string kSecret = "root:$6$hash-of-the-secret:19000:0:99999:7:::";

std::string quoted(const fs::path& path) {
  return "'" + path.string() + "'";
}

std::vector<std::string> entries(const fs::path& dir) {
  std::vector<std::string> out;
  for (const auto& e : fs::directory_iterator(dir)) out.push_back(e.path().filename().string());
  return out;
}

class CaptureHostile : public ::testing::Test {
 protected:
  void SetUp() override {
    fs::current_path(PMUCAT_SOURCE_DIR);
    fs::create_directories(tmp_);
    const char* old = std::getenv("TMPDIR");
    if (old != nullptr) old_tmpdir_ = old;
    ::setenv("TMPDIR", tmp_.c_str(), 1);
    write_text(secret_, kSecret + "\n");
  }
  void TearDown() override {
    if (old_tmpdir_) {
      ::setenv("TMPDIR", old_tmpdir_->c_str(), 1);
    } else {
      ::unsetenv("TMPDIR");
    }
  }
  // A healthy capture of a small fixture, unpacked as a directory under `name`, for a test to
  // make hostile and pack.
  fs::path capture_dir(const std::string& name) {
    const fs::path dir = scratch_ / name;
    const auto summary = capture("fixtures/sysfs/broken/cha-umask/devices", dir);
    EXPECT_TRUE(summary) << summary.error().message;
    return dir;
  }
  fs::path pack(const fs::path& dir) {
    const fs::path tarball = fs::path(dir.string() + ".tar.gz");
    const auto r = run_command("tar -czf " + quoted(tarball) + " -C " + quoted(dir) + " .");
    EXPECT_EQ(r.status, 0) << r.err;
    return tarball;
  }
  // The error Unpacked::open gives, with nothing left in TMPDIR.
  std::string refusal(const fs::path& tarball, const UnpackLimits& limits = {}) {
    auto unpacked = Unpacked::open(tarball, limits);
    EXPECT_FALSE(unpacked) << tarball;
    EXPECT_TRUE(entries(tmp_).empty()) << entries(tmp_)[0];
    return unpacked ? std::string() : unpacked.error().message;
  }

  ScratchDir scratch_{"capture-hostile"};
  fs::path tmp_ = scratch_ / "tmp";
  fs::path secret_ = scratch_ / "shadow";
  std::optional<std::string> old_tmpdir_;
};

// The repro: events/e -> /etc/shadow made pmudiff print the file and pmuls show a line
// of it; bus/event_source -> /sys silently read the live tree.
TEST_F(CaptureHostile, LinksOutOfTheCaptureRefuseIt) {
  const std::string events = "bus/event_source/devices/uncore_cha_55/events/";
  struct Case {
    std::string name;
    std::function<void(const fs::path&)> plant;
  };
  const std::vector<Case> cases = {
      {"absolute", [&](const fs::path& d) { fs::create_symlink(secret_, d / events / "e"); }},
      {"dotdot",
       [&](const fs::path& d) {
         fs::create_symlink("../../../../../../shadow", d / events / "e");
       }},
      {"tree",
       [&](const fs::path& d) {
         fs::rename(d / "bus/event_source", scratch_ / "elsewhere");
         fs::create_directory_symlink(scratch_ / "elsewhere", d / "bus/event_source");
       }},
      // Each link alone stays inside (b is the capture root, a is root/d/etc lexically), but
      // the kernel resolves b first and a's '..' then climbs out: no lexical check catches it.
      {"composed",
       [&](const fs::path& d) {
         fs::create_directories(d / "d");
         fs::create_directory_symlink("..", d / "d/b");
         fs::create_symlink("b/../shadow", d / "d/a");
       }},
  };
  for (const Case& c : cases) {
    const fs::path dir = capture_dir(c.name);
    c.plant(dir);
    const fs::path tarball = pack(dir);
    fs::remove_all(dir);
    const std::string message = refusal(tarball);
    EXPECT_NE(message.find("leads out of the capture"), std::string::npos) << c.name << message;
    for (const char* reader : {"pmudiff", "pmuls", "pmucheck"}) {
      const std::string args = std::string(reader) == "pmudiff"
                                   ? quoted(tarball) + " " + quoted(tarball)
                                   : "--sysfs " + quoted(tarball);
      const auto r = run_command(tool(reader) + " " + args);
      EXPECT_EQ(r.status, 2) << c.name << " " << reader << "\n" << r.err;
      EXPECT_EQ((r.out + r.err).find("hash-of-the-secret"), std::string::npos) << c.name;
      EXPECT_NE(r.err.find("leads out of the capture"), std::string::npos) << r.err;
    }
    EXPECT_TRUE(entries(tmp_).empty()) << c.name;
  }
}

TEST_F(CaptureHostile, LinksInsideTheCaptureAndOrdinaryCapturesRead) {
  const fs::path dir = capture_dir("inside");
  const std::string events = "bus/event_source/devices/uncore_cha_55/events/";
  const std::string first = fs::directory_iterator(dir / events)->path().filename().string();
  fs::create_symlink(first, dir / events / "alias_of_first");
  fs::create_symlink("../../nowhere", dir / events / "dangling");
  const fs::path tarball = pack(dir);
  fs::path root;
  {
    auto unpacked = Unpacked::open(tarball);
    ASSERT_TRUE(unpacked) << unpacked.error().message;
    EXPECT_TRUE(fs::is_symlink(unpacked->root() / events / "alias_of_first"));
    root = unpacked->root();
    auto tree = open_tree(tarball);
    ASSERT_TRUE(tree) << tree.error().message;
  }
  EXPECT_FALSE(fs::exists(root));
  EXPECT_TRUE(entries(tmp_).empty());
}

TEST_F(CaptureHostile, DevicesAndFifosRefuseTheCapture) {
  const fs::path dir = capture_dir("fifo");
  ASSERT_EQ(::mkfifo((dir / "bus/pipe").c_str(), 0644), 0);
  const std::string message = refusal(pack(dir));
  EXPECT_NE(message.find("bus/pipe: a FIFO"), std::string::npos) << message;
}

// The budget: bytes of the tar stream and entries, each checked as the stream goes by; the
// defaults (64 MiB, 100,000 entries) refuse a small archive that expands to more.
TEST_F(CaptureHostile, UnpackStopsAtItsBudgetAndLeavesNothing) {
  const fs::path tarball = pack(capture_dir("small"));
  ASSERT_TRUE(Unpacked::open(tarball));
  EXPECT_NE(refusal(tarball, UnpackLimits{.max_bytes = 4096}).find("more than 4096 bytes"),
            std::string::npos);
  EXPECT_NE(refusal(tarball, UnpackLimits{.max_entries = 3}).find("more than 3 entries"),
            std::string::npos);

  // 80 MiB of zeros: about 80 KB compressed.
  const fs::path bomb = scratch_ / "bomb";
  fs::create_directories(bomb / "bus/event_source/devices/cpu/events");
  write_text(bomb / "bus/event_source/devices/cpu/events/big", "");
  fs::resize_file(bomb / "bus/event_source/devices/cpu/events/big", std::uintmax_t{80} << 20);
  const fs::path bomb_tarball = pack(bomb);
  fs::remove_all(bomb);
  EXPECT_LT(fs::file_size(bomb_tarball), std::uintmax_t{1} << 20);
  const auto r = run_command(tool("pmuls") + " --sysfs " + quoted(bomb_tarball));
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_NE(r.err.find("unpacks to more than 67108864 bytes"), std::string::npos) << r.err;
  EXPECT_TRUE(entries(tmp_).empty()) << entries(tmp_)[0];
}

// Waits (bounded, as a watchdog: no timing is asserted) until `predicate` holds.
bool eventually(const std::function<bool()>& predicate) {
  for (int i = 0; i < 2000; ++i) {
    if (predicate()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return predicate();
}

// SIGTERM or SIGINT while a tool unpacks: a tar that never finishes (it has created a file in
// the unpack directory, then waits) makes the moment deterministic.
TEST_F(CaptureHostile, SignalDuringTheUnpackLeavesNoDirectory) {
  const fs::path tarball = pack(capture_dir("signal"));
  fs::create_directories(scratch_ / "bin");
  write_text(scratch_ / "bin/tar",
             "#!/bin/sh\n"
             "while [ \"$1\" != -C ]; do shift; done\n"
             "echo started > \"$2/started\"\n"
             "exec sleep 600\n");
  fs::permissions(scratch_ / "bin/tar", fs::perms(0755));
  for (int signal_number : {SIGTERM, SIGINT}) {
    const std::string command = "exec env PATH=" + quoted(scratch_ / "bin") + ":\"$PATH\" " +
                                tool("pmuls") + " --sysfs " + quoted(tarball) + " >/dev/null";
    const pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
      ::execl("/bin/sh", "sh", "-c", command.c_str(), static_cast<char*>(nullptr));
      ::_exit(127);
    }
    const bool started = eventually([&] {
      for (const auto& dir : fs::directory_iterator(tmp_)) {
        if (fs::exists(dir.path() / "started")) return true;
      }
      return false;
    });
    EXPECT_TRUE(started);
    ASSERT_EQ(::kill(child, signal_number), 0);
    int status = 0;
    ASSERT_EQ(::waitpid(child, &status, 0), child);
    EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == signal_number) << status;
    EXPECT_TRUE(entries(tmp_).empty()) << strsignal(signal_number);
  }
}

// After the unpack, while the capture is being read: the directory is removed by the signal.
TEST_F(CaptureHostile, SignalWhileTheCaptureIsOpenLeavesNoDirectory) {
  const fs::path tarball = pack(capture_dir("open"));
  int ready[2];
  ASSERT_EQ(::pipe(ready), 0);
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    ::close(ready[0]);
    auto unpacked = Unpacked::open(tarball);
    const char c = unpacked ? 'y' : 'n';
    if (::write(ready[1], &c, 1) != 1) ::_exit(3);
    for (;;) ::pause();
  }
  ::close(ready[1]);
  char c = 0;
  ASSERT_EQ(::read(ready[0], &c, 1), 1);
  ::close(ready[0]);
  EXPECT_EQ(c, 'y');
  EXPECT_EQ(entries(tmp_).size(), 1u);
  ASSERT_EQ(::kill(child, SIGTERM), 0);
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM) << status;
  EXPECT_TRUE(entries(tmp_).empty());
}

// The repro for pmusnap itself: a tree whose links lead to a file outside it, to a
// directory outside it and to `/` copied those; now each is listed as not copied, with a
// warning, and no byte of what lies outside is in the capture.
TEST_F(CaptureHostile, CaptureNeverCopiesWhatLiesOutsideTheTree) {
  const fs::path tree = scratch_ / "tree";
  const fs::path cpu = tree / "bus/event_source/devices/cpu";
  fs::create_directories(cpu / "events");
  fs::create_directories(cpu / "format");
  write_text(cpu / "type", "4\n");
  write_text(cpu / "format/event", "config:0-7\n");
  write_text(cpu / "events/cycles", "event=0x3c\n");
  fs::create_symlink(secret_, cpu / "events/shadow");
  fs::create_symlink("../../../../../shadow", cpu / "identifier");
  fs::create_directories(scratch_ / "outside-dir");
  write_text(scratch_ / "outside-dir/leak", kSecret);
  fs::create_directory_symlink(scratch_ / "outside-dir", cpu / "caps");
  fs::create_directory_symlink("/", tree / "bus/event_source/devices/rootpmu");
  // A link that stays inside the tree is copied as a link.
  fs::create_symlink("cycles", cpu / "events/cycles_again");
  const fs::path out = scratch_ / "cap";
  const auto r = run_command(tool("pmusnap") + " --sysfs " + quoted(tree) + " " + quoted(out));
  EXPECT_EQ(r.status, 1) << r.err;
  for (const char* entry : {"cpu/events/shadow", "cpu/identifier", "cpu/caps", "rootpmu"}) {
    EXPECT_NE(r.err.find(
                  fmt::format("{}: not captured: a symlink leads out of the captured tree", entry)),
              std::string::npos)
        << entry << "\n"
        << r.err;
  }
  const auto manifest = nlohmann::json::parse(read_text(out / "pmusnap-manifest.json"));
  std::set<std::string> outside;
  for (const auto& item : manifest["not_captured"]) {
    if (item["reason"].get<std::string>().find("out of the captured tree") != std::string::npos) {
      outside.insert(item["path"].get<std::string>());
    }
  }
  EXPECT_EQ(outside,
            (std::set<std::string>{"cpu/caps", "cpu/events/shadow", "cpu/identifier", "rootpmu"}));
  for (const auto& entry : fs::recursive_directory_iterator(out)) {
    if (!entry.is_regular_file()) continue;
    EXPECT_EQ(read_text(entry.path()).find("hash-of-the-secret"), std::string::npos)
        << entry.path();
  }
  EXPECT_EQ(read_text(out / "bus/event_source/devices/cpu/events/cycles_again"), "event=0x3c\n");
  EXPECT_TRUE(fs::is_empty(out / "bus/event_source/devices/rootpmu"));
}

// `pmusnap -`: the .tar.gz on standard output (it made a directory named `-`).
TEST_F(CaptureHostile, DashIsATarGzOnStandardOutput) {
  const std::string in_scratch = "cd " + quoted(scratch_.path()) + " && ";
  const auto r = run_command(in_scratch + tool("pmusnap") + " --sysfs " +
                             quoted(fs::path(PMUCAT_SOURCE_DIR) / "fixtures/sysfs/intel-spr") +
                             " - > out.tar.gz");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_FALSE(fs::exists(scratch_ / "-"));
  EXPECT_NE(r.err.find("captured in standard output"), std::string::npos) << r.err;
  auto tree = open_tree(scratch_ / "out.tar.gz");
  ASSERT_TRUE(tree) << tree.error().message;
  EXPECT_FALSE(tree->catalog.pmus().empty());
  const auto json = run_command(in_scratch + tool("pmusnap") + " --json - > /dev/null");
  EXPECT_EQ(json.status, 2);
  EXPECT_FALSE(fs::exists(scratch_ / "-"));
}

}  // namespace
}  // namespace snap
PMUCAT_END_NAMESPACE
