// pmusnap: a capture, read back with --sysfs, gives the same catalog.
#include "pmucat/snapshot.h"

#include <fmt/core.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "pmucat/catalog.h"
#include "pmucat/check.h"
#include "pmucat/diff.h"
#include "support/files.h"
#include "support/scratch_dir.h"
#include "support/tools.h"
#include "test_support.h"

namespace pmucat::snap {
namespace {

namespace fs = std::filesystem;
using pmucat::testing::run_command;
using pmucat::testing::ScratchDir;
using pmucat::testing::tool;

// Everything a tool can learn from a catalog, as text (paths left out: they differ by design).
std::string describe(const Catalog& catalog) {
  std::string out;
  for (const Pmu& pmu : catalog.pmus()) {
    const PmuAttributes& a = pmu.attributes();
    out += fmt::format("pmu {} type={} text={:?} cpumask={} cpus={} alias={} id={}\n", pmu.name(),
                       a.type ? std::to_string(*a.type) : "-", a.type_text,
                       a.cpumask ? a.cpumask->text : "-", a.cpus ? a.cpus->text : "-",
                       a.alias.value_or("-"), a.identifier.value_or("-"));
    for (const auto& [cap, value] : a.caps) out += fmt::format("  cap {}={}\n", cap, value);
    for (const Format& format : pmu.formats()) {
      out += fmt::format("  format {} {:?}\n", format.name, format.text);
    }
    for (const Event& event : pmu.events()) {
      out += fmt::format("  event {} {:?} unit={} scale={:?} per_pkg={} snapshot={}\n", event.name,
                         event.text, event.unit.value_or("-"), event.scale_text, event.per_pkg,
                         event.snapshot);
    }
  }
  return out;
}

Catalog open_catalog(const fs::path& path) {
  auto catalog = Catalog::open(path);
  EXPECT_TRUE(catalog.has_value()) << path;
  return std::move(*catalog);
}

class Snapshot : public ::testing::Test {
 protected:
  void SetUp() override { fs::current_path(PMUCAT_SOURCE_DIR); }
};

TEST_F(Snapshot, DirectoryCaptureReadsBackAsTheSameCatalog) {
  for (const char* tree : {"fixtures/sysfs/intel-spr", "fixtures/sysfs/broken/metadata/devices"}) {
    SCOPED_TRACE(tree);
    if (!fs::exists(tree)) GTEST_SKIP() << tree << " missing";
    const ScratchDir scratch("snap-dir");
    fs::path out = scratch / "capture";
    auto summary = capture(tree, out);
    ASSERT_TRUE(summary.has_value()) << render(summary.error());
    EXPECT_GT(summary->files, 0u);
    EXPECT_TRUE(summary->unreadable.empty());
    EXPECT_EQ(describe(open_catalog(out)), describe(open_catalog(tree)));
    EXPECT_TRUE(diff::compare(open_catalog(tree), open_catalog(out)).changes.empty());
    EXPECT_TRUE(fs::exists(out / "pmusnap-manifest.json"));
  }
}

TEST_F(Snapshot, TarballCaptureReadsBackThroughOpenTree) {
  const char* tree = "fixtures/sysfs/broken/terms/devices";
  const ScratchDir scratch("snap-tar");
  fs::path out = scratch / "capture.tar.gz";
  auto summary = capture(tree, out);
  ASSERT_TRUE(summary.has_value()) << render(summary.error());
  ASSERT_TRUE(fs::is_regular_file(out));
  auto opened = open_tree(out);
  ASSERT_TRUE(opened.has_value()) << render(opened.error());
  EXPECT_EQ(describe(opened->catalog), describe(open_catalog(tree)));
  fs::path unpacked = opened->unpacked->root();
  EXPECT_TRUE(fs::exists(unpacked));
  opened = unexpected(make_file_diagnostic(Severity::error, "", "", "done"));
  EXPECT_FALSE(fs::exists(unpacked)) << "the unpacked copy is removed with the tree";
}

TEST_F(Snapshot, UnreadableFilesAreRecordedAsSuch) {
  const ScratchDir scratch("snap-unreadable");
  fs::path out = scratch / "capture";
  auto summary = capture("fixtures/sysfs/broken/files/devices", out);
  ASSERT_TRUE(summary.has_value()) << render(summary.error());
  std::set<std::string> unreadable(summary->unreadable.begin(), summary->unreadable.end());
  EXPECT_TRUE(unreadable.count("filepmu/events/dangling"));
  EXPECT_TRUE(unreadable.count("ghostpmu"));
  auto manifest = nlohmann::json::parse(pmucat::testing::read_text(out / "pmusnap-manifest.json"));
  EXPECT_EQ(manifest["not_captured"].size(), summary->not_captured.size());
  EXPECT_EQ(manifest["manifest_version"], kManifestVersion);
  // Placeholders are plain empty files (tar, even run by a user, can read them); the manifest
  // is what says they stand for something else.
  EXPECT_EQ(fs::file_size(out / "bus/event_source/devices/filepmu/events/dangling"), 0u);
  // A 70,000-byte event is over the catalog's limit but captured as is: the capture shows the
  // same file-too-large, the bytes included.
  EXPECT_EQ(fs::file_size(out / "bus/event_source/devices/filepmu/events/huge"), 70000u);
  EXPECT_FALSE(unreadable.count("filepmu/events/huge"));
}

TEST_F(Snapshot, CliCapturesAndEveryToolReadsTheCapture) {
  const ScratchDir scratch("snap-cli");
  fs::path dir = scratch.path();
  auto snap = run_command(tool("pmusnap") + " --sysfs fixtures/sysfs/broken/cha-umask/devices " +
                          (dir / "c.tar.gz").string());
  ASSERT_EQ(snap.status, 0) << snap.out;
  EXPECT_NE(snap.out.find("1 PMUs"), std::string::npos) << snap.out;
  auto check =
      run_command(tool("pmucheck") + " --format text --sysfs " + (dir / "c.tar.gz").string());
  EXPECT_EQ(check.status, 1);
  EXPECT_NE(check.out.find("[event-value-overflow]"), std::string::npos) << check.out;
  EXPECT_EQ(run_command(tool("pmusnap") + " --sysfs /nonexistent " + (dir / "x").string() +
                        " 2>/dev/null")
                .status,
            2);
}

// A capture records no CPU identifier: `--cpuid` checks it against that model like the tree.
TEST_F(Snapshot, CaptureIsCheckedAgainstTheCpuidModel) {
  const ScratchDir scratch("snap-vendor");
  const fs::path capture = scratch.path() / "v.tar.gz";
  auto snap =
      run_command(tool("pmusnap") + " --sysfs tests/check/data/vendor/devices " + capture.string());
  ASSERT_EQ(snap.status, 0) << snap.out;
  const std::string vendor =
      " --events-dir tests/check/data/vendor/arch --cpuid GenuineIntel-6-8F-8 --format text";
  auto check = run_command(tool("pmucheck") + " --sysfs " + capture.string() + vendor);
  EXPECT_EQ(check.status, 1);
  for (const char* rule : {"[vendor-event-encoding-differs]", "[vendor-event-unencodable]",
                           "[vendor-unit-unmatched]", "[vendor-json-invalid]"}) {
    EXPECT_NE(check.out.find(rule), std::string::npos) << rule << "\n" << check.out;
  }
  const std::string summary = check.out.substr(check.out.rfind('\n', check.out.size() - 2) + 1);
  auto tree = run_command(tool("pmucheck") + " --sysfs tests/check/data/vendor/devices" + vendor);
  EXPECT_EQ(summary, tree.out.substr(tree.out.rfind('\n', tree.out.size() - 2) + 1));
}

}  // namespace
}  // namespace pmucat::snap
