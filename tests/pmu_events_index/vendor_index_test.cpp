// Internal unit test of src/pmu_events_index (digest.h reseals the files it edits).
// The compiled vendor event index against the JSON it is built from: the same VendorModel for
// every model (our test tree, and the kernel's when PMUCAT_PMU_EVENTS_DIR is set), the same
// answer by name as by listing, and corrupt or truncated files refused with a located error.
#include "pmucat/vendor_index.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include "pmucat/diagnostic_ids.h"
#include "support/temp_tree.h"
#include "pmu_events_index/digest.h"

namespace {

namespace fs = std::filesystem;
using pmucat::VendorEvent;
using pmucat::VendorIndexModel;
using pmucat::VendorModel;

const fs::path kTestTree = PMUCAT_SOURCE_DIR "/tests/pmu_events/data/arch";

// A file's bytes edited by a test, with the digest made right again: what the structural checks
// behind the digest see of a file whose writer was wrong (or a fuzzer's).
std::string resealed(std::string bytes) {
  bytes.resize(bytes.size() - 8);
  std::uint64_t digest = pmucat::pmu_events_index::digest64(bytes);
  for (int i = 0; i < 8; ++i, digest >>= 8) bytes.push_back(static_cast<char>(digest & 0xff));
  return bytes;
}

std::string read_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// Every (arch, directory) the mapfiles of `root` name, in order.
std::vector<std::pair<std::string, std::string>> models_of(const fs::path& root) {
  std::vector<std::pair<std::string, std::string>> models;
  std::vector<std::string> archs;
  for (const auto& entry : fs::directory_iterator(root)) {
    if (fs::is_regular_file(entry.path() / "mapfile.csv")) {
      archs.push_back(entry.path().filename().string());
    }
  }
  std::sort(archs.begin(), archs.end());
  for (const std::string& arch : archs) {
    const fs::path path = root / arch / "mapfile.csv";
    const auto mapfile = pmucat::parse_mapfile(read_text(path), path.string(), arch);
    std::set<std::string> seen;
    for (const auto& row : mapfile.rows) {
      if (seen.insert(row.directory).second) models.emplace_back(arch, row.directory);
    }
  }
  return models;
}

// For every model of `json_root`: the index's model equals load_vendor_model's (locations made
// relative to the tree, as the index stores them), and named() gives, for each name, the
// model's events of that name in table order. Counts the events compared in `compared`.
void expect_index_matches_json(const fs::path& json_root, const fs::path& index_root,
                               pmucat::PerfRelease rules, std::size_t& compared,
                               std::size_t& compared_metrics, std::size_t sample_every = 1) {
  const auto models = models_of(json_root);
  EXPECT_FALSE(models.empty());
  for (const auto& [arch, directory] : models) {
    SCOPED_TRACE(arch + "/" + directory);
    auto json = pmucat::load_vendor_model(json_root / arch, directory, rules);
    auto index = pmucat::open_vendor_index_model(index_root, arch, directory);
    ASSERT_EQ(json.has_value(), index.has_value());
    if (!json) {
      pmucat::Diagnostic expected = json.error();
      const std::string prefix = json_root.string() + "/";
      if (expected.range.file.starts_with(prefix)) expected.range.file.erase(0, prefix.size());
      EXPECT_EQ(index.error(), expected);
      continue;
    }
    pmucat::relativize_vendor_model(*json, json_root);
    auto decoded = index->model();
    ASSERT_TRUE(decoded.has_value()) << pmucat::render(decoded.error());
    EXPECT_EQ(decoded->arch, json->arch);
    EXPECT_EQ(decoded->directory, json->directory);
    EXPECT_EQ(decoded->rules, rules);
    EXPECT_EQ(index->rules(), rules);
    EXPECT_EQ(decoded->metric_group_descriptions, json->metric_group_descriptions);
    EXPECT_EQ(decoded->counters, json->counters);
    auto descriptions = index->metric_group_descriptions();
    ASSERT_TRUE(descriptions.has_value());
    EXPECT_EQ(*descriptions, json->metric_group_descriptions);
    EXPECT_EQ(decoded->diagnostics, json->diagnostics);
    ASSERT_EQ(decoded->events.size(), json->events.size());
    for (std::size_t i = 0; i < json->events.size(); ++i) {
      ASSERT_EQ(decoded->events[i], json->events[i]) << "table position " << i;
    }
    EXPECT_EQ(index->diagnostics(), json->diagnostics);
    // The metrics, whole and decoded alone, in table order.
    ASSERT_EQ(decoded->metrics.size(), json->metrics.size());
    for (std::size_t i = 0; i < json->metrics.size(); ++i) {
      ASSERT_EQ(decoded->metrics[i], json->metrics[i]) << "metric table position " << i;
    }
    auto metrics = index->metrics();
    ASSERT_TRUE(metrics.has_value()) << pmucat::render(metrics.error());
    EXPECT_EQ(*metrics, json->metrics);
    compared_metrics += json->metrics.size();
    std::size_t nth = 0;
    std::set<std::string> names;
    for (const VendorEvent& event : json->events) names.insert(event.name);
    for (const std::string& name : names) {
      if (nth++ % sample_every != 0) continue;
      std::vector<VendorEvent> expected;
      for (const VendorEvent& event : json->events) {
        if (event.name == name) expected.push_back(event);
      }
      auto found = index->named(name);
      ASSERT_TRUE(found.has_value()) << name;
      EXPECT_EQ(*found, expected) << name;
    }
    auto none = index->named("no-such-event-in-any-model");
    ASSERT_TRUE(none.has_value());
    EXPECT_TRUE(none->empty());
    compared += json->events.size();
  }
  // Every architecture's system tables (`test` included, which has no mapfile).
  std::error_code error;
  for (fs::directory_iterator it(json_root, error), end; !error && it != end; it.increment(error)) {
    if (!it->is_directory()) continue;
    const std::string arch = it->path().filename().string();
    SCOPED_TRACE(arch + " system tables");
    pmucat::VendorModel json = pmucat::load_vendor_sys_tables(it->path(), rules);
    pmucat::relativize_vendor_model(json, json_root);
    auto file = pmucat::open_vendor_index_sys(index_root, arch);
    ASSERT_TRUE(file.has_value()) << pmucat::render(file.error());
    if (json.events.empty() && json.metrics.empty() && json.diagnostics.empty()) {
      EXPECT_FALSE(file->has_value());
      continue;
    }
    ASSERT_TRUE(file->has_value());
    auto decoded = (*file)->model();
    ASSERT_TRUE(decoded.has_value());
    for (VendorEvent& event : decoded->events) event.system_table = true;  // the file says it
    EXPECT_EQ(decoded->events, json.events);
    EXPECT_EQ(decoded->metrics, json.metrics);
    EXPECT_EQ(decoded->diagnostics, json.diagnostics);
    compared += json.events.size();
    compared_metrics += json.metrics.size();
  }
}

TEST(VendorIndex, TestTreeGivesTheJsonModels) {
  for (const pmucat::PerfRelease rules : pmucat::known_perf_releases()) {
    SCOPED_TRACE(std::string(pmucat::to_string(rules)) + " rules");
    pmucat::testing::TempTree out("index");
    auto summary = pmucat::write_vendor_index(kTestTree, out.path("index"), rules);
    ASSERT_TRUE(summary.has_value()) << pmucat::render(summary.error());
    EXPECT_TRUE(pmucat::is_vendor_index(out.path("index")));
    EXPECT_EQ(read_text(out.path("index/pmucat-index.version")),
              "pmucat-vendor-index " + std::to_string(pmucat::kVendorIndexVersion) + " rules " +
                  std::string(pmucat::to_string(rules)) + "\n");
    std::size_t compared = 0;
    std::size_t compared_metrics = 0;
    expect_index_matches_json(kTestTree, out.path("index"), rules, compared, compared_metrics);
    EXPECT_GT(compared, 0U);
    EXPECT_GT(compared_metrics, 0U);
  }
  pmucat::testing::TempTree out("index");
  auto summary =
      pmucat::write_vendor_index(kTestTree, out.path("index"), pmucat::PerfRelease::v6_1);
  ASSERT_TRUE(summary.has_value()) << pmucat::render(summary.error());
  EXPECT_FALSE(pmucat::is_vendor_index(kTestTree));
  EXPECT_EQ(read_text(out.path("index/x86/mapfile.csv")), read_text(kTestTree / "x86/mapfile.csv"));
  // The test tree's broken file and duplicates are kept as the model's diagnostics.
  auto index = pmucat::open_vendor_index_model(out.path("index"), "x86", "testlake");
  ASSERT_TRUE(index.has_value());
  EXPECT_FALSE(index->diagnostics().empty());
}

TEST(VendorIndex, ModelThatFailedToLoadFailsTheSameWay) {
  pmucat::testing::TempTree tree("json");
  tree.write("arch/x86/mapfile.csv",
             "Family-model,Version,Filename,EventType\nGenuineIntel-6-8F,v1,absent,core\n");
  auto summary = pmucat::write_vendor_index(tree.path("arch"), tree.path("index"));
  ASSERT_TRUE(summary.has_value());
  auto index = pmucat::open_vendor_index_model(tree.path("index"), "x86", "absent");
  ASSERT_FALSE(index.has_value());
  EXPECT_EQ(index.error().id, "vendor-json-unreadable");
  EXPECT_EQ(index.error().range.file, "x86/absent");
}

TEST(VendorIndex, KernelTreeGivesTheJsonModels) {
  // $PMUCAT_PMU_EVENTS_DIR, else the JSON tree the build compiled (empty when it had none).
  const char* env = std::getenv("PMUCAT_PMU_EVENTS_DIR");
  const std::string dir = env != nullptr && *env != '\0' ? env : PMUCAT_TEST_EVENTS_DIR;
  if (dir.empty()) {
    GTEST_SKIP() << "no events dir: the build had none and PMUCAT_PMU_EVENTS_DIR is unset "
                    "(point it at a kernel tree's tools/perf/pmu-events/arch)";
  }
  // Under each perf's rules (whichever kernel's tree it is: the rules only read it differently).
  for (const pmucat::PerfRelease rules : pmucat::known_perf_releases()) {
    SCOPED_TRACE(std::string(pmucat::to_string(rules)) + " rules");
    pmucat::testing::TempTree out("index");
    auto summary = pmucat::write_vendor_index(dir, out.path("index"), rules);
    ASSERT_TRUE(summary.has_value()) << pmucat::render(summary.error());
    // Every model and event compared; every 7th name of each model looked up by name (the
    // lookups of the test tree cover every name).
    const auto start = std::chrono::steady_clock::now();
    std::size_t compared = 0;
    std::size_t compared_metrics = 0;
    expect_index_matches_json(dir, out.path("index"), rules, compared, compared_metrics, 7);
    EXPECT_EQ(compared, summary->events);
    EXPECT_EQ(compared_metrics, summary->metrics);
    std::printf("%s rules: compared %zu events and %zu metrics of the kernel tree in %.1f s\n",
                std::string(pmucat::to_string(rules)).c_str(), compared, compared_metrics,
                std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
}

TEST(VendorIndex, FileNamesAreInjective) {
  EXPECT_EQ(pmucat::vendor_index_file_name("sapphirerapids"), "sapphirerapids.pmuidx");
  EXPECT_EQ(pmucat::vendor_index_file_name("arm/cortex-a53"), "arm%2Fcortex-a53.pmuidx");
  EXPECT_EQ(pmucat::vendor_index_file_name("arm%2Fcortex-a53"), "arm%252Fcortex-a53.pmuidx");
}

TEST(VendorIndex, RefusesToReplaceADirectoryThatIsNotAnIndex) {
  pmucat::testing::TempTree tree("json");
  tree.write("mine/notes.txt", "keep me\n");
  auto summary = pmucat::write_vendor_index(kTestTree, tree.path("mine"));
  ASSERT_FALSE(summary.has_value());
  EXPECT_EQ(summary.error().id, "vendor-index-unreadable");
  EXPECT_TRUE(fs::exists(tree.path("mine/notes.txt")));
}

VendorModel small_model() {
  VendorModel model;
  model.arch = "x86";
  model.directory = "tiny";
  model.rules = pmucat::PerfRelease::v6_12;
  model.metric_group_descriptions = {{"G1", "Group one"}, {std::string("G\0\xff", 3), ""}};
  pmucat::VendorCounterInfo counter;
  counter.unit = "core";
  counter.generic = "8";
  counter.fixed = "4";
  counter.location.file = "x86/tiny/counter.json";
  counter.location.line = 2;
  model.counters = {counter, counter};
  for (const std::string& name : {std::string("b.two"), std::string("a.one"), std::string("b.two"),
                                  std::string("c\n\0three", 8)}) {
    VendorEvent event;
    event.name = name;
    event.terms = "event=0x1";
    event.brief_description = std::string("any byte: \0\xff\"\\", 8);
    event.location.file = "x86/tiny/a.json";
    event.location.line = 3;
    event.rules = model.rules;  // the file's header says it once
    event.per_pkg = true;
    event.has_perf_description = true;
    model.events.push_back(event);
  }
  for (const std::string& name : {std::string("IPC"), std::string("m\0\xff", 3)}) {
    pmucat::VendorMetric metric;
    metric.name = name;
    metric.expr = "a / b";
    metric.group = "G1;G2";
    metric.threshold = "IPC > 1";
    metric.scale_unit = "100%";
    metric.brief_description = std::string("any byte: \0\xff", 12);
    metric.event_name = "e";
    metric.topic = "metrics";
    metric.location.file = "x86/tiny/m.json";
    metric.location.line = 9;
    metric.location.offset = 1ULL << 40U;
    metric.default_metricgroup_name = "TopdownL1";
    metric.rules = model.rules;
    metric.per_pkg = true;
    metric.system_table = true;
    model.metrics.push_back(metric);
  }
  pmucat::Diagnostic warning = pmucat::make_file_diagnostic(
      pmucat::Severity::warning, "vendor-event-duplicate", "x86/tiny/a.json", "twice");
  warning.notes.push_back(warning);
  warning.fixit = pmucat::FixIt{warning.range, "x"};
  model.diagnostics.push_back(warning);
  return model;
}

TEST(VendorIndex, RoundTripsAnyBytesAndFindsEveryNameInTableOrder) {
  const VendorModel model = small_model();
  auto index = VendorIndexModel::from_bytes(pmucat::encode_vendor_index_model(model), "tiny");
  ASSERT_TRUE(index.has_value()) << pmucat::render(index.error());
  auto decoded = index->model();
  ASSERT_TRUE(decoded.has_value());
  EXPECT_EQ(decoded->events, model.events);
  EXPECT_EQ(decoded->metrics, model.metrics);
  EXPECT_EQ(decoded->diagnostics, model.diagnostics);
  EXPECT_EQ(decoded->rules, model.rules);
  EXPECT_EQ(decoded->metric_group_descriptions, model.metric_group_descriptions);
  EXPECT_EQ(decoded->counters, model.counters);
  EXPECT_EQ(index->rules(), pmucat::PerfRelease::v6_12);
  auto descriptions = index->metric_group_descriptions();
  ASSERT_TRUE(descriptions.has_value());
  EXPECT_EQ(*descriptions, model.metric_group_descriptions);
  auto metrics = index->metrics();
  ASSERT_TRUE(metrics.has_value());
  EXPECT_EQ(*metrics, model.metrics);
  auto twos = index->named("b.two");
  ASSERT_TRUE(twos.has_value());
  EXPECT_EQ(twos->size(), 2U);
  auto odd = index->named(model.events[3].name);
  ASSERT_TRUE(odd.has_value());
  ASSERT_EQ(odd->size(), 1U);
  EXPECT_EQ(odd->front(), model.events[3]);
}

// The least size of a diagnostic bounds the declared count: it must not exceed what the writer
// produces, or a model with bare diagnostics and no events is refused (found by the fuzzer).
TEST(VendorIndex, ModelWithOnlyBareDiagnosticsRoundTrips) {
  VendorModel model;
  model.arch = "x86";
  model.directory = "d";
  model.diagnostics.resize(3);
  auto index = VendorIndexModel::from_bytes(pmucat::encode_vendor_index_model(model), "bare");
  ASSERT_TRUE(index.has_value()) << pmucat::render(index.error());
  auto decoded = index->model();
  ASSERT_TRUE(decoded.has_value());
  EXPECT_EQ(decoded->diagnostics, model.diagnostics);
  EXPECT_TRUE(decoded->events.empty());
}

TEST(VendorIndex, EveryTruncationIsALocatedError) {
  const std::string bytes = pmucat::encode_vendor_index_model(small_model());
  for (std::size_t size = 0; size < bytes.size(); ++size) {
    auto index = VendorIndexModel::from_bytes(bytes.substr(0, size), "tiny");
    std::optional<pmucat::Diagnostic> error;
    if (!index) {
      error = index.error();
    } else if (auto model = index->model(); !model) {
      error = model.error();
    }
    ASSERT_TRUE(error.has_value()) << "truncated to " << size << " bytes";
    EXPECT_EQ(error->id, "vendor-index-corrupt");
    EXPECT_EQ(error->range.file, "tiny");
    EXPECT_LE(error->range.offset, size);
  }
}

TEST(VendorIndex, DeclaredSizesAreNotTrusted) {
  std::string bytes = pmucat::encode_vendor_index_model(small_model());
  // The diagnostic count follows the magic, version, status, rules and three strings.
  const std::size_t count_at = 8 + 4 + 4 + 1 + (4 + 3) + (4 + 4) + 4;
  ASSERT_EQ(bytes[count_at], 1);
  bytes[count_at + 3] = '\x7f';  // 2^30-odd diagnostics in a few hundred bytes
  auto index = VendorIndexModel::from_bytes(resealed(bytes), "tiny");
  ASSERT_FALSE(index.has_value());
  EXPECT_EQ(index.error().id, "vendor-index-corrupt");
  EXPECT_EQ(index.error().range.offset, count_at);

  std::string other = pmucat::encode_vendor_index_model(small_model());
  other[8] = 9;  // another format version
  auto versioned = VendorIndexModel::from_bytes(other, "tiny");
  ASSERT_FALSE(versioned.has_value());
  EXPECT_NE(versioned.error().message.find("format version 9"), std::string::npos);

  std::string ruled = pmucat::encode_vendor_index_model(small_model());
  ruled[16] = 7;  // the rules byte: no perf release
  auto unruled = VendorIndexModel::from_bytes(resealed(ruled), "tiny");
  ASSERT_FALSE(unruled.has_value());
  EXPECT_EQ(unruled.error().range.offset, 16U);
  EXPECT_NE(unruled.error().message.find("rules 7"), std::string::npos);
}

TEST(VendorIndex, NameEntryPointingOutsideIsAnErrorNotACrash) {
  const VendorModel model = small_model();
  std::string bytes = pmucat::encode_vendor_index_model(model);
  auto index = VendorIndexModel::from_bytes(bytes, "tiny");
  ASSERT_TRUE(index.has_value());
  // Find the name section: right before the first record (the first record's name "b.two").
  const std::size_t first_record = bytes.find(std::string("\x05\0\0\0b.two", 9));
  ASSERT_NE(first_record, std::string::npos);
  const std::size_t names = first_record - 4 * 16;
  for (std::size_t entry = 0; entry < 4; ++entry) {
    std::string broken = bytes;
    broken[names + entry * 16 + 3] = '\x40';  // the name offset far past the end
    auto opened = VendorIndexModel::from_bytes(resealed(broken), "tiny");
    ASSERT_TRUE(opened.has_value());
    bool any_error = false;
    for (const VendorEvent& event : model.events) {
      auto found = opened->named(event.name);
      if (!found) {
        any_error = true;
        EXPECT_EQ(found.error().id, "vendor-index-corrupt");
      }
    }
    EXPECT_TRUE(any_error) << "entry " << entry;
  }
}

TEST(VendorIndex, OpenReportsMissingAndEmptyFiles) {
  pmucat::testing::TempTree tree("index");
  auto missing = VendorIndexModel::open(tree.path("nope.pmuidx"));
  ASSERT_FALSE(missing.has_value());
  EXPECT_EQ(missing.error().id, "vendor-index-unreadable");
  tree.write("empty.pmuidx", "");
  auto empty = VendorIndexModel::open(tree.path("empty.pmuidx"));
  ASSERT_FALSE(empty.has_value());
  EXPECT_EQ(empty.error().id, "vendor-index-corrupt");
  tree.write("ok.pmuidx", pmucat::encode_vendor_index_model(small_model()));
  auto ok = VendorIndexModel::open(tree.path("ok.pmuidx"));
  ASSERT_TRUE(ok.has_value());
  EXPECT_EQ(ok->size(), 4U);
}

}  // namespace
