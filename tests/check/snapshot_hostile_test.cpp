// pmusnap on hostile trees and hostile outputs: a capture is faithful, or its manifest says
// exactly how it is not, and pmucheck on the capture finds what it finds on the original.
// Trees are built in a scratch directory (FIFOs, a character device made with mknod there,
// sparse files, directories where files belong); nothing under /dev is touched.
#include <fmt/core.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <map>
#include <nlohmann/json.hpp>

#include "pmucat/snapshot.h"
#include "support/files.h"
#include "support/scratch_dir.h"
#include "support/tools.h"
#include "test_support.h"

PMUCAT_BEGIN_NAMESPACE
namespace snap {
namespace {

namespace fs = std::filesystem;
using pmucat::testing::read_text;
using pmucat::testing::run_command;
using pmucat::testing::ScratchDir;
using pmucat::testing::tool;
using pmucat::testing::write_text;

// Kills a pmusnap that blocks (the FIFO bug) so the test fails instead of hanging; 124 is
// timeout(1)'s status for "timed out". Generous: a capture of these trees takes milliseconds.
std::string watchdog(const std::string& command) {
  return "timeout -s KILL 20 " + command;
}
constexpr int kKilledByWatchdog = 137;

struct HostileTree {
  fs::path devices;
  bool has_device = false;  // mknod worked (we are root)
};

// One healthy PMU plus every entry pmusnap cannot copy byte for byte.
HostileTree make_hostile_tree(const fs::path& dir, bool with_fifo) {
  HostileTree tree;
  tree.devices = dir / "devices";
  fs::path cpu = tree.devices / "cpu";
  fs::create_directories(cpu / "events");
  fs::create_directories(cpu / "format");
  write_text(cpu / "type", "4\n");
  write_text(cpu / "format/event", "config:0-7\n");
  write_text(cpu / "events/cycles", "event=0x3c\n");
  write_text(cpu / "events/cycles.unit", "Joules\n");
  // 3 GiB that occupy no disk: a reader that copies "the first MiB" gets zeros and calls it done.
  write_text(cpu / "events/sparse", "");
  fs::resize_file(cpu / "events/sparse", std::uintmax_t{3} << 30);
  fs::create_directories(cpu / "events/adir");
  write_text(cpu / "events/adir/inner", "event=0x1\n");
  if (with_fifo) {
    EXPECT_EQ(::mkfifo((cpu / "events/pipe").c_str(), 0644), 0);
    EXPECT_EQ(::mkfifo((cpu / "cpumask").c_str(), 0644), 0);
  }
  // A character device like /dev/zero (1,5), made inside the scratch directory.
  tree.has_device = ::mknod((dir / "zero").c_str(), S_IFCHR | 0600, ::makedev(1, 5)) == 0;
  if (tree.has_device) fs::create_symlink("../../../zero", cpu / "events/zero");
  fs::create_symlink("../nowhere", cpu / "events/dangling");
  fs::path odd = tree.devices / "odd";
  fs::create_directories(odd / "type");  // a directory where the type file belongs
  fs::create_directories(odd / "events");
  write_text(odd / "events/x", "config=1\n");
  fs::create_symlink("../nowhere", tree.devices / "ghost");
  // Links the catalog takes for absent files, and a FIFO no tool reads.
  fs::path linky = tree.devices / "linky";
  fs::create_directories(linky / "interface");
  write_text(linky / "type", "7\n");
  fs::create_symlink("../nowhere", linky / "alias");
  fs::create_symlink("../nowhere", linky / "events");
  fs::create_symlink("loop", linky / "caps");
  fs::create_symlink("loop", linky / "loop");
  fs::create_symlink("../nowhere", tree.devices / "linky2");
  if (with_fifo) {
    EXPECT_EQ(::mkfifo((linky / "interface/pipe").c_str(), 0644), 0);
  }
  fs::path notype = tree.devices / "notype";
  fs::create_directories(notype);
  fs::create_symlink("../nowhere", notype / "type");
  return tree;
}

std::map<std::string, std::string> rules_by_path(const nlohmann::json& not_captured) {
  std::map<std::string, std::string> out;
  for (const auto& item : not_captured) {
    out[item["path"].get<std::string>()] =
        item["rule"].is_null() ? "" : item["rule"].get<std::string>();
  }
  return out;
}

std::map<std::string, std::string> expected_misses(const HostileTree& tree, bool with_fifo) {
  std::map<std::string, std::string> expected = {
      {"cpu/events/sparse", "file-too-large"},
      {"cpu/events/adir", "file-not-regular"},
      {"cpu/events/dangling", "file-unreadable"},
      {"odd/type", "file-not-regular"},
      {"ghost", "pmu-dir-unreadable"},
      {"linky2", "pmu-dir-unreadable"},
      {"linky/alias", ""},
      {"linky/events", ""},
      {"linky/caps", "file-unreadable"},
      {"notype/type", ""},
      {"linky/loop", ""},
  };
  if (with_fifo) expected["linky/interface/pipe"] = "";
  if (with_fifo) {
    expected["cpu/events/pipe"] = "file-not-regular";
    expected["cpu/cpumask"] = "file-not-regular";
  }
  if (tree.has_device) expected["cpu/events/zero"] = "file-not-regular";
  return expected;
}

// (rule, file) of every finding, files relative to the devices dir: comparable across trees.
std::set<std::pair<std::string, std::string>> findings_of(const fs::path& tree) {
  auto catalog = Catalog::open(tree);
  EXPECT_TRUE(catalog.has_value()) << tree;
  std::set<std::pair<std::string, std::string>> out;
  if (!catalog) return out;
  for (const check::Finding& finding : check::run(*catalog, {}).all_findings()) {
    out.emplace(finding.rule, finding.file);
  }
  return out;
}

// Entries of `dir` whose names start with '.': pmusnap's temporaries.
std::vector<std::string> hidden_entries(const fs::path& dir) {
  std::vector<std::string> out;
  for (const auto& entry : fs::directory_iterator(dir)) {
    std::string name = entry.path().filename().string();
    if (name.starts_with(".")) out.push_back(name);
  }
  return out;
}

class SnapshotHostile : public ::testing::Test {
 protected:
  void SetUp() override { fs::current_path(PMUCAT_SOURCE_DIR); }
};

TEST_F(SnapshotHostile, FifoDoesNotBlockAndEveryEntryNotCapturedIsListed) {
  const ScratchDir scratch("snap-hostile-cli");
  fs::path dir = scratch.path();
  HostileTree tree = make_hostile_tree(dir, true);
  fs::path out = dir / "capture";
  auto run = run_command(watchdog(tool("pmusnap") + " --json --sysfs " + tree.devices.string() +
                                  " " + out.string() + " 2>" + (dir / "stderr").string()));
  ASSERT_NE(run.status, kKilledByWatchdog) << "pmusnap blocked (on the FIFO)";
  EXPECT_EQ(run.status, 1) << "a partial capture is exit 1 without --allow-partial";
  auto json = nlohmann::json::parse(run.out, nullptr, false);
  ASSERT_FALSE(json.is_discarded()) << run.out;
  auto expected = expected_misses(tree, true);
  EXPECT_EQ(rules_by_path(json["not_captured"]), expected);
  auto manifest = nlohmann::json::parse(read_text(out / "pmusnap-manifest.json"));
  EXPECT_EQ(rules_by_path(manifest["not_captured"]), expected);
  std::string errors = read_text(dir / "stderr");
  for (const auto& [path, rule] : expected) {
    EXPECT_NE(errors.find(fmt::format("pmusnap: warning: {}: not captured: ", path)),
              std::string::npos)
        << path << "\n"
        << errors;
  }
  EXPECT_NE(errors.find("expected a regular file, found a FIFO [file-not-regular]"),
            std::string::npos)
      << errors;

  fs::path devices = out / "bus/event_source/devices";
  EXPECT_EQ(read_text(devices / "cpu/events/cycles"), "event=0x3c\n");
  EXPECT_EQ(fs::file_size(devices / "cpu/events/sparse"), 0u) << "an empty placeholder";
  EXPECT_TRUE(fs::is_regular_file(devices / "cpu/events/pipe")) << "never a FIFO in a capture";
  EXPECT_TRUE(fs::is_directory(devices / "cpu/events/adir"));
  EXPECT_TRUE(fs::is_empty(devices / "cpu/events/adir"));
  EXPECT_TRUE(fs::is_directory(devices / "odd/type"));

  auto partial =
      run_command(watchdog(tool("pmusnap") + " --allow-partial --sysfs " + tree.devices.string() +
                           " " + (dir / "c2").string() + " 2>/dev/null"));
  EXPECT_EQ(partial.status, 0);
}

TEST_F(SnapshotHostile, LibraryCaptureListsWhatItCouldNotCopy) {
  const ScratchDir scratch("snap-hostile-lib");
  fs::path dir = scratch.path();
  HostileTree tree = make_hostile_tree(dir, false);
  auto summary = capture(tree.devices, dir / "capture");
  ASSERT_TRUE(summary.has_value()) << render(summary.error());
  std::map<std::string, std::string> got;
  for (const NotCaptured& entry : summary->not_captured) got[entry.path] = entry.rule;
  EXPECT_EQ(got, expected_misses(tree, false));
  EXPECT_EQ(summary->unreadable.size(), summary->not_captured.size());
  std::string warnings = describe_not_captured(*summary);
  EXPECT_NE(warnings.find("cpu/events/sparse: not captured: file is larger than 1048576 bytes "
                          "(3221225472 bytes)"),
            std::string::npos)
      << warnings;
}

TEST_F(SnapshotHostile, PmucheckOnTheCaptureFindsWhatItFindsOnTheOriginal) {
  const ScratchDir scratch("snap-hostile-check");
  fs::path dir = scratch.path();
  HostileTree tree = make_hostile_tree(dir, true);
  auto original = findings_of(tree.devices);
  for (const char* form : {"capture", "capture.tar.gz"}) {
    SCOPED_TRACE(form);
    auto run =
        run_command(watchdog(tool("pmusnap") + " --allow-partial --sysfs " + tree.devices.string() +
                             " " + (dir / form).string() + " 2>/dev/null"));
    ASSERT_EQ(run.status, 0);
    auto opened = open_tree(dir / form);
    ASSERT_TRUE(opened.has_value()) << render(opened.error());
    std::set<std::pair<std::string, std::string>> captured;
    for (const check::Finding& finding : check::run(opened->catalog, {}).all_findings()) {
      captured.emplace(finding.rule, finding.file);
    }
    EXPECT_EQ(captured, original);
    for (const auto& [path, rule] : expected_misses(tree, true)) {
      if (rule.empty()) continue;  // nothing reads it: no finding, on either tree
      EXPECT_TRUE(captured.count({rule, path})) << rule << " " << path;
    }
  }
  // The CLI the same way: a capture preserves the bug it was taken for.
  auto check =
      run_command(tool("pmucheck") + " --format text --sysfs " + (dir / "capture.tar.gz").string());
  EXPECT_EQ(check.status, 1);
  EXPECT_NE(check.out.find("cpu/events/pipe: error: expected a regular file, found a FIFO"),
            std::string::npos)
      << check.out;
}

TEST_F(SnapshotHostile, ManifestProblemsAreFindings) {
  const ScratchDir scratch("snap-manifest");
  fs::path dir = scratch.path();
  auto summary = capture("fixtures/sysfs/broken/cha-umask/devices", dir / "capture");
  ASSERT_TRUE(summary.has_value()) << render(summary.error());
  fs::path manifest = dir / "capture/pmusnap-manifest.json";
  auto ids = [&] {
    auto catalog = Catalog::open(dir / "capture");
    EXPECT_TRUE(catalog.has_value());
    return check::testing::rule_ids(check::run(*catalog, {}));
  };
  EXPECT_FALSE(ids().count("capture-manifest-invalid"));
  write_text(manifest, "{not json");
  EXPECT_TRUE(ids().count("capture-manifest-invalid"));
  write_text(manifest, R"({"tool":"pmusnap","not_captured":[{"path":"../../etc/passwd"}]})");
  EXPECT_TRUE(ids().count("capture-manifest-invalid"));
  // A version-1 manifest: unreadable files were written empty and listed as such.
  std::string pmu = Catalog::open(dir / "capture")->pmus()[0].name();
  write_text(manifest, fmt::format(R"({{"tool":"pmusnap","unreadable":[{{"path":"{}/type",)"
                                   R"("error":"Permission denied"}}]}})",
                                   pmu));
  EXPECT_TRUE(ids().count("file-unreadable"));
  EXPECT_FALSE(ids().count("capture-manifest-invalid"));
}

TEST_F(SnapshotHostile, OnlyADirectoryOrATarGzIsWritten) {
  const ScratchDir scratch("snap-suffix");
  fs::path dir = scratch.path();
  for (const char* name : {"c.tar", "c.zip", "c.tar.bz2", "c.TAR"}) {
    auto run = run_command(tool("pmusnap") + " --sysfs fixtures/sysfs/broken/cha-umask/devices " +
                           (dir / name).string() + " 2>" + (dir / "err").string());
    EXPECT_EQ(run.status, 2) << name;
    EXPECT_NE(read_text(dir / "err").find("a directory or a .tar.gz"), std::string::npos) << name;
    EXPECT_FALSE(fs::exists(dir / name)) << name;
  }
}

TEST_F(SnapshotHostile, ExistingOutputsAreRefusedUnlessForcedAndNeverReplacedIfSpecial) {
  const ScratchDir scratch("snap-existing");
  fs::path dir = scratch.path();
  const std::string snap = tool("pmusnap") + " --sysfs fixtures/sysfs/broken/cha-umask/devices ";
  auto status_of = [&](const std::string& args) {
    return run_command(watchdog(snap + args + " 2>/dev/null")).status;
  };
  // A regular .tar.gz: refused, then replaced with --force (keeping its mode).
  fs::path tarball = dir / "c.tar.gz";
  write_text(tarball, "precious");
  fs::permissions(tarball, fs::perms(0640));
  EXPECT_EQ(status_of(tarball.string()), 2);
  EXPECT_EQ(read_text(tarball), "precious");
  EXPECT_EQ(status_of("--force " + tarball.string()), 0);
  EXPECT_NE(read_text(tarball), "precious");
  EXPECT_EQ(fs::status(tarball).permissions(), fs::perms(0640));
  EXPECT_TRUE(open_tree(tarball).has_value());
  // A symlink, a FIFO: never replaced, not even with --force; the FIFO is not opened.
  write_text(dir / "target", "kept");
  fs::create_symlink("target", dir / "link.tar.gz");
  EXPECT_EQ(status_of("--force " + (dir / "link.tar.gz").string()), 2);
  EXPECT_TRUE(fs::is_symlink(dir / "link.tar.gz"));
  EXPECT_EQ(read_text(dir / "target"), "kept");
  ASSERT_EQ(::mkfifo((dir / "fifo.tgz").c_str(), 0644), 0);
  EXPECT_EQ(status_of("--force " + (dir / "fifo.tgz").string()), 2);
  EXPECT_TRUE(fs::is_fifo(dir / "fifo.tgz"));
  // Directories: a non-empty one is refused; --force replaces only a previous capture.
  fs::create_directories(dir / "mine");
  write_text(dir / "mine/notes", "mine");
  EXPECT_EQ(status_of((dir / "mine").string()), 2);
  EXPECT_EQ(status_of("--force " + (dir / "mine").string()), 2);
  EXPECT_EQ(read_text(dir / "mine/notes"), "mine");
  EXPECT_EQ(status_of((dir / "cap").string()), 0);
  EXPECT_EQ(status_of((dir / "cap").string()), 2);
  EXPECT_EQ(status_of("--force " + (dir / "cap").string()), 0);
  EXPECT_TRUE(fs::exists(dir / "cap/pmusnap-manifest.json"));
  fs::create_directories(dir / "empty");
  EXPECT_EQ(status_of((dir / "empty").string()), 0) << "an empty directory holds nothing to lose";
  EXPECT_TRUE(hidden_entries(dir).empty()) << hidden_entries(dir)[0];
}

// --force deletes a directory only when it can prove the directory is a previous capture: the
// manifest lists every entry pmusnap wrote, and the directory holds nothing else. A user's
// folder that merely holds a file of the manifest's name (the issue's repro: a copy of one in
// Documents/) is refused with everything in it kept; so is a capture someone added to.
TEST_F(SnapshotHostile, ForceReplacesOnlyWhatThePreviousCaptureProvablyWrote) {
  const ScratchDir scratch("snap-force");
  fs::path dir = scratch.path();
  const std::string snap = tool("pmusnap") + " --sysfs fixtures/sysfs/broken/cha-umask/devices ";
  auto run = [&](const std::string& args) {
    return run_command(watchdog(snap + args + " 2>" + (dir / "err").string()));
  };
  ASSERT_EQ(run((dir / "cap").string()).status, 0);
  const std::string manifest = read_text(dir / "cap/pmusnap-manifest.json");
  const auto written = nlohmann::json::parse(manifest)["written"];
  ASSERT_TRUE(written.is_array());
  EXPECT_NE(std::find(written.begin(), written.end(), "bus/event_source/devices/"), written.end());

  // A user's folder holding a copy of a manifest beside their own files.
  fs::create_directories(dir / "Documents/taxes");
  write_text(dir / "Documents/pmusnap-manifest.json", manifest);
  write_text(dir / "Documents/thesis.tex", "years of work");
  write_text(dir / "Documents/taxes/2026.pdf", "receipts");
  EXPECT_EQ(run("--force " + (dir / "Documents").string()).status, 2);
  EXPECT_NE(read_text(dir / "err").find("nothing removed"), std::string::npos)
      << read_text(dir / "err");
  EXPECT_EQ(read_text(dir / "Documents/thesis.tex"), "years of work");
  EXPECT_EQ(read_text(dir / "Documents/taxes/2026.pdf"), "receipts");

  // A capture with a file added, a symlink added (never followed), a directory where a file was.
  write_text(dir / "cap/notes.txt", "mine");
  EXPECT_EQ(run("--force " + (dir / "cap").string()).status, 2);
  EXPECT_NE(read_text(dir / "err").find("'notes.txt'"), std::string::npos)
      << read_text(dir / "err");
  EXPECT_EQ(read_text(dir / "cap/notes.txt"), "mine");
  fs::remove(dir / "cap/notes.txt");
  write_text(dir / "outside", "kept");
  fs::create_symlink(dir / "outside", dir / "cap/bus/link");
  EXPECT_EQ(run("--force " + (dir / "cap").string()).status, 2);
  EXPECT_TRUE(fs::is_symlink(dir / "cap/bus/link"));
  EXPECT_EQ(read_text(dir / "outside"), "kept");
  fs::remove(dir / "cap/bus/link");
  // A link to the capture: refused (name the directory itself); the capture stays.
  fs::create_directory_symlink(dir / "cap", dir / "cap-link");
  EXPECT_EQ(run("--force " + (dir / "cap-link").string()).status, 2);
  EXPECT_TRUE(fs::exists(dir / "cap/pmusnap-manifest.json"));
  // A manifest from before version 5 lists nothing: no proof, no removal.
  auto older = nlohmann::json::parse(manifest);
  older.erase("written");
  older["manifest_version"] = 4;
  write_text(dir / "cap/pmusnap-manifest.json", older.dump());
  EXPECT_EQ(run("--force " + (dir / "cap").string()).status, 2);
  EXPECT_NE(read_text(dir / "err").find("before manifest version 5"), std::string::npos)
      << read_text(dir / "err");
  write_text(dir / "cap/pmusnap-manifest.json", manifest);
  // The capture itself, untouched: replaced, with a trailing slash too.
  EXPECT_EQ(run("--force " + (dir / "cap").string() + "/").status, 0) << read_text(dir / "err");
  EXPECT_TRUE(fs::exists(dir / "cap/pmusnap-manifest.json"));
  EXPECT_TRUE(hidden_entries(dir).empty()) << hidden_entries(dir)[0];
}

TEST_F(SnapshotHostile, TarFailuresAreDescribedAndLeaveNoTemporary) {
  const ScratchDir scratch("snap-tar-fails");
  fs::path dir = scratch.path();
  fs::create_directories(dir / "bin");
  fs::create_directories(dir / "out");
  auto fake_tar = [&](const std::string& body) {
    write_text(dir / "bin/tar", "#!/bin/sh\n" + body + "\n");
    fs::permissions(dir / "bin/tar", fs::perms(0755));
  };
  auto snap = [&] {
    return run_command("PATH='" + (dir / "bin").string() + "':\"$PATH\" " + tool("pmusnap") +
                       " --sysfs fixtures/sysfs/broken/cha-umask/devices " +
                       (dir / "out/c.tar.gz").string() + " 2>" + (dir / "err").string());
  };
  fake_tar("echo 'tar: simulated: No space left on device' >&2; exit 2");
  EXPECT_EQ(snap().status, 2);
  std::string errors = read_text(dir / "err");
  EXPECT_NE(errors.find("tar -czf exited with status 2: tar: simulated: No space left on device"),
            std::string::npos)
      << errors;
  EXPECT_EQ(errors.find("512"), std::string::npos) << errors;
  EXPECT_TRUE(fs::is_empty(dir / "out")) << hidden_entries(dir / "out")[0];
  fake_tar("kill -KILL $$");
  EXPECT_EQ(snap().status, 2);
  errors = read_text(dir / "err");
  EXPECT_NE(errors.find("tar -czf was killed by signal 9 (Killed) and printed nothing"),
            std::string::npos)
      << errors;
  EXPECT_TRUE(fs::is_empty(dir / "out"));
}

}  // namespace
}  // namespace snap
PMUCAT_END_NAMESPACE
