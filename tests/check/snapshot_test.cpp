// pmusnap: a capture, read back with --sysfs, gives the same catalog.
#include "pmucat/snapshot.h"

#include <fmt/core.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "pmucat/catalog.h"
#include "pmucat/check.h"
#include "pmucat/diff.h"
#include "pmucat/vendor_events.h"
#include "support/files.h"
#include "support/scratch_dir.h"
#include "support/tools.h"
#include "test_support.h"

PMUCAT_BEGIN_NAMESPACE
namespace snap {
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

// An arm64 tree's MIDR files come along, so that tools choose each PMU's model by its CPUs on
// the capture as on the machine; other trees get none.
TEST_F(Snapshot, ArmMidrFilesAreCaptured) {
  const fs::path arm = "fixtures/sysfs/arm64-n1";
  if (!fs::exists(arm)) GTEST_SKIP() << arm << " missing";
  const ScratchDir scratch("snap-midr");
  ASSERT_TRUE(capture(arm, scratch / "arm").has_value());
  for (int cpu : {0, 7}) {
    const std::string relative =
        "devices/system/cpu/cpu" + std::to_string(cpu) + "/regs/identification/midr_el1";
    EXPECT_EQ(pmucat::testing::read_text(scratch / "arm" / relative),
              pmucat::testing::read_text(arm / relative))
        << relative;
  }
  EXPECT_EQ(arm64_midr_cpuid(scratch / "arm"), arm64_midr_cpuid(arm));
  ASSERT_TRUE(capture("fixtures/sysfs/intel-spr", scratch / "spr").has_value());
  EXPECT_FALSE(fs::exists(scratch / "spr/devices/system"));
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

TEST_F(Snapshot, HostFactsAreCapturedForExplain) {
  const ScratchDir scratch("snap-host");
  fs::path out = scratch / "capture";
  CaptureOptions options;
  options.host_root = "fixtures/host/perf-user";
  auto summary = capture("fixtures/sysfs/intel-spr/devices", out, options);
  ASSERT_TRUE(summary.has_value()) << render(summary.error());
  EXPECT_EQ(summary->host_facts, 4u);
  EXPECT_TRUE(summary->not_captured.empty());
  EXPECT_EQ(pmucat::testing::read_text(out / "proc/sys/kernel/perf_event_paranoid"), "1\n");
  EXPECT_EQ(pmucat::testing::read_text(out / "proc/sys/kernel/osrelease"), "5.10.0-28-amd64\n");
  EXPECT_FALSE(fs::exists(out / "proc/self/status"));  // the capturing process's: not the host's
  auto manifest = nlohmann::json::parse(pmucat::testing::read_text(out / "pmusnap-manifest.json"));
  EXPECT_EQ(manifest["host_facts"], 4u);
  // pmuencode --explain reads them back from the capture; the capabilities are unknown there.
  const auto result = pmucat::testing::run_tool_command("pmuencode --sysfs '" + out.string() +
                                                            "' --explain --host-root '" +
                                                            out.string() + "' -a cpu-clock",
                                                        "-");
  EXPECT_EQ(result.status, 0) << result.err;
  EXPECT_NE(result.out.find("perf_event_paranoid 1, capabilities unknown"), std::string::npos)
      << result.out;
  EXPECT_NE(result.out.find("[explain-paranoid-cpu-wide]"), std::string::npos) << result.out;
  // A host without an nmi_watchdog file (some architectures): left out, not a miss.
  const ScratchDir host("snap-host-root");
  pmucat::testing::write_text(host / "proc/sys/kernel/perf_event_paranoid", "2\n");
  options.host_root = host.path();
  options.force = true;
  summary = capture("fixtures/sysfs/intel-spr/devices", out, options);
  ASSERT_TRUE(summary.has_value()) << render(summary.error());
  EXPECT_EQ(summary->host_facts, 1u);
  EXPECT_TRUE(summary->not_captured.empty());
}

TEST_F(Snapshot, TracefsIdsAreCapturedWhereToolsFindThem) {
  const ScratchDir scratch("snap-tracefs");
  fs::path out = scratch / "capture";
  CaptureOptions options;
  options.tracefs = "fixtures/tracefs/basic";
  auto summary = capture("fixtures/sysfs/intel-spr/devices", out, options);
  ASSERT_TRUE(summary.has_value()) << render(summary.error());
  EXPECT_EQ(summary->tracepoints, 12u);
  EXPECT_EQ(pmucat::testing::read_text(out / "kernel/tracing/events/sched/sched_switch/id"),
            "316\n");
  EXPECT_FALSE(fs::exists(out / "kernel/tracing/events/sched/sched_switch/format"));
  auto manifest = nlohmann::json::parse(pmucat::testing::read_text(out / "pmusnap-manifest.json"));
  EXPECT_EQ(manifest["tracepoints"], 12u);
  EXPECT_EQ(manifest["tracefs"], "fixtures/tracefs/basic");
  // Every tool reading the capture finds the ids without --tracefs.
  const auto result = pmucat::testing::run_tool_command(
      "pmuencode --sysfs '" + out.string() + "' --perf 'sched:sched_sw*'", "-");
  EXPECT_EQ(result.status, 0) << result.err;
  EXPECT_EQ(result.out, "sched:sched_switch\n");
  // No tracefs at all: the capture fails, naming it.
  options.tracefs = (scratch / "nowhere").string();
  auto failed = capture("fixtures/sysfs/intel-spr/devices", scratch / "capture2", options);
  ASSERT_FALSE(failed.has_value());
  EXPECT_EQ(failed.error().id, "tracepoint-no-tracefs");
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

TEST_F(Snapshot, TheCpuidGivenIsRecordedAndReadBack) {
  const ScratchDir scratch("snap-cpuid");
  CaptureOptions options;
  options.cpuid = "GenuineIntel-6-8F-8";
  fs::path out = scratch / "with";
  ASSERT_TRUE(capture("fixtures/sysfs/intel-spr", out, options).has_value());
  auto manifest = nlohmann::json::parse(pmucat::testing::read_text(out / kManifestName));
  EXPECT_EQ(manifest["cpuid"], "GenuineIntel-6-8F-8");
  auto read = read_capture_manifest(out / "bus/event_source/devices");
  ASSERT_TRUE(read.has_value()) << render(read.error());
  EXPECT_EQ(read->cpuid, "GenuineIntel-6-8F-8");

  out = scratch / "without";
  ASSERT_TRUE(capture("fixtures/sysfs/intel-spr", out).has_value());
  manifest = nlohmann::json::parse(pmucat::testing::read_text(out / kManifestName));
  ASSERT_TRUE(manifest.contains("cpuid"));
  EXPECT_TRUE(manifest["cpuid"].is_null());
  read = read_capture_manifest(out / "bus/event_source/devices");
  ASSERT_TRUE(read.has_value()) << render(read.error());
  EXPECT_EQ(read->cpuid, std::nullopt);
}

// A capture root with `manifest` as its manifest.
fs::path capture_with_manifest(const ScratchDir& scratch, const std::string& name,
                               const std::string& manifest) {
  const fs::path devices = scratch / name / "bus/event_source/devices";
  fs::create_directories(devices);
  pmucat::testing::write_text(scratch / name / kManifestName, manifest);
  return devices;
}

TEST_F(Snapshot, OlderManifestsWithoutACpuidStillRead) {
  const ScratchDir scratch("snap-old-manifest");
  auto v2 = read_capture_manifest(capture_with_manifest(
      scratch, "v2",
      R"({"tool":"pmusnap","manifest_version":2,"not_captured":[{"path":"cpu/events/x",)"
      R"("rule":"file-unreadable","reason":"EIO"}]})"));
  ASSERT_TRUE(v2.has_value()) << render(v2.error());
  EXPECT_EQ(v2->cpuid, std::nullopt);
  ASSERT_EQ(v2->not_captured.size(), 1u);
  EXPECT_EQ(v2->not_captured[0].path, "cpu/events/x");
  auto v1 = read_capture_manifest(capture_with_manifest(
      scratch, "v1", R"({"tool":"pmusnap","unreadable":[{"path":"cpu/type","error":"EIO"}]})"));
  ASSERT_TRUE(v1.has_value()) << render(v1.error());
  EXPECT_EQ(v1->cpuid, std::nullopt);
  EXPECT_EQ(v1->not_captured.size(), 1u);
  // read_manifest, the older entry point, gives the same entries.
  auto entries = read_manifest(scratch / "v2/bus/event_source/devices");
  ASSERT_TRUE(entries.has_value());
  EXPECT_EQ(*entries, v2->not_captured);
}

TEST_F(Snapshot, ManifestCpuidMustBeAStringOrNull) {
  const ScratchDir scratch("snap-bad-cpuid");
  auto null_cpuid = read_capture_manifest(
      capture_with_manifest(scratch, "null", R"({"tool":"pmusnap","cpuid":null})"));
  ASSERT_TRUE(null_cpuid.has_value());
  EXPECT_EQ(null_cpuid->cpuid, std::nullopt);
  auto empty_cpuid = read_capture_manifest(
      capture_with_manifest(scratch, "empty", R"({"tool":"pmusnap","cpuid":""})"));
  ASSERT_TRUE(empty_cpuid.has_value());
  EXPECT_EQ(empty_cpuid->cpuid, std::nullopt) << "an empty identifier chooses no model";
  auto number = read_capture_manifest(
      capture_with_manifest(scratch, "number", R"({"tool":"pmusnap","cpuid":6})"));
  ASSERT_FALSE(number.has_value());
  EXPECT_NE(number.error().message.find("cpuid"), std::string::npos) << number.error().message;
}

// The tools use a capture's identifier unless --cpuid or $PMUCAT_CPUID names another.
TEST_F(Snapshot, ToolsChooseTheVendorModelTheCaptureRecorded) {
  const ScratchDir scratch("snap-cpuid-cli");
  const std::string capture_dir = (scratch / "spr").string();
  auto snap =
      run_command(tool("pmusnap") +
                  " --cpuid GenuineIntel-6-8F-8 --sysfs fixtures/sysfs/intel-spr " + capture_dir);
  ASSERT_EQ(snap.status, 0) << snap.out;
  const std::string pmuls = tool("pmuls") + " --sysfs " + capture_dir +
                            " --events-dir fixtures/pmu-events/arch --pmu cpu --topic cache";
  auto listed = run_command("env -u PMUCAT_CPUID " + pmuls);
  EXPECT_EQ(listed.status, 0) << listed.out;
  EXPECT_NE(listed.out.find("cpu/l1d.replacement/"), std::string::npos) << listed.out;
  // --cpuid and $PMUCAT_CPUID name another model (one no mapfile row matches): no topics.
  EXPECT_EQ(run_command(pmuls + " --cpuid GenuineIntel-6-55-4 2>/dev/null").status, 1);
  EXPECT_EQ(run_command("PMUCAT_CPUID=GenuineIntel-6-55-4 " + pmuls + " 2>/dev/null").status, 1);

  // A capture of a capture keeps the identifier; a fixture captured without one records null.
  const std::string copy_dir = (scratch / "copy").string();
  ASSERT_EQ(run_command("env -u PMUCAT_CPUID " + tool("pmusnap") + " --sysfs " + capture_dir + " " +
                        copy_dir)
                .status,
            0);
  auto copy = read_capture_manifest(fs::path(copy_dir) / "bus/event_source/devices");
  ASSERT_TRUE(copy.has_value());
  EXPECT_EQ(copy->cpuid, "GenuineIntel-6-8F-8");
  const std::string bare_dir = (scratch / "bare").string();
  ASSERT_EQ(run_command("env -u PMUCAT_CPUID " + tool("pmusnap") +
                        " --sysfs fixtures/sysfs/intel-spr " + bare_dir)
                .status,
            0);
  auto bare = read_capture_manifest(fs::path(bare_dir) / "bus/event_source/devices");
  ASSERT_TRUE(bare.has_value());
  EXPECT_EQ(bare->cpuid, std::nullopt);
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
}  // namespace snap
PMUCAT_END_NAMESPACE
