// The index cache (vendor_index_cache.h) over small JSON trees of our own: a miss compiles, a hit
// reads no JSON, a changed file is a new entry, a damaged entry or stamp is compiled again,
// racing builders agree on one entry, and a cache that cannot be written is an error value.
#include "pmucat/vendor_index_cache.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "pmucat/vendor_index.h"
#include "support/temp_tree.h"

namespace pmucat {
namespace {

namespace fs = std::filesystem;
using testing::TempTree;

constexpr std::string_view kPipeline = R"([
  {"EventCode": "0xc0", "EventName": "INST_RETIRED.ANY", "BriefDescription": "Instructions.",
   "UMask": "0x1"},
  {"EventCode": "0x3c", "EventName": "CYCLES", "BriefDescription": "Cycles."}
])";
constexpr std::string_view kMore = R"([
  {"EventCode": "0xc0", "EventName": "INST_RETIRED.ANY", "BriefDescription": "Instructions.",
   "UMask": "0x1"},
  {"EventCode": "0x3c", "EventName": "CYCLES", "BriefDescription": "Cycles."},
  {"EventCode": "0xd1", "EventName": "LOADS", "BriefDescription": "Loads."}
])";
constexpr std::string_view kTestSys = R"([
  {"ConfigCode": "0x2c", "EventName": "tsys.reads", "BriefDescription": "Test SoC reads.",
   "Unit": "tsys", "Compat": "0x01"}
])";

// A tree, and a cache that takes files however recently written (no settle time: the tests write
// their trees just before they open them).
struct CacheFixture {
  CacheFixture() {
    tree.write("json/x86/mapfile.csv",
               "Family-model,Version,Filename,EventType\nGenuineIntel-6-8F,v1,testlake,core\n");
    tree.write("json/x86/testlake/pipeline.json", kPipeline);
    tree.write("json/test/soc/sys/uncore.json", kTestSys);
  }
  fs::path json() const { return tree.path("json"); }
  VendorIndexCache cache() const { return VendorIndexCache(tree.path("cache"), {.settle{}}); }
  Expected<VendorIndexCache::Entry> open() const { return cache().open(json(), "x86", "testlake"); }
  // The names in the cache directory, sorted.
  std::vector<std::string> cache_entries() const {
    std::vector<std::string> names;
    for (const auto& entry : fs::directory_iterator(tree.path("cache"))) {
      names.push_back(entry.path().filename().string());
    }
    std::sort(names.begin(), names.end());
    return names;
  }
  TempTree tree{"index-cache"};
};

// The entry's model and system tables are what the JSON gives, locations included.
void expect_entry_is_the_json(const fs::path& root, const fs::path& json) {
  auto cached = open_vendor_index_model(root, "x86", "testlake");
  ASSERT_TRUE(cached.has_value()) << render(cached.error());
  auto direct = load_vendor_model(json / "x86", "testlake", kNewestPerfVersion);
  ASSERT_TRUE(direct.has_value());
  auto model = cached->model();
  ASSERT_TRUE(model.has_value());
  EXPECT_EQ(model->events, direct->events);
  EXPECT_EQ(model->metrics, direct->metrics);
  EXPECT_EQ(model->diagnostics, direct->diagnostics);
  auto sys = open_vendor_index_sys(root, "test");
  ASSERT_TRUE(sys.has_value() && sys->has_value());
  auto tables = (*sys)->model();
  ASSERT_TRUE(tables.has_value());
  VendorModel expected = load_vendor_sys_tables(json / "test", kNewestPerfVersion);
  for (VendorEvent& event : tables->events) event.system_table = true;
  EXPECT_EQ(tables->events, expected.events);
}

TEST(VendorIndexCache, MissCompilesThenAHitReadsNoJson) {
  CacheFixture f;
  auto first = f.open();
  ASSERT_TRUE(first.has_value()) << render(first.error());
  EXPECT_TRUE(first->compiled);
  EXPECT_TRUE(is_vendor_index(first->root));
  expect_entry_is_the_json(first->root, f.json());
  const std::vector<std::string> after_first = f.cache_entries();
  ASSERT_EQ(after_first.size(), 2U);  // one entry, one stamp
  EXPECT_EQ(std::count_if(after_first.begin(), after_first.end(),
                          [](const std::string& name) { return name.ends_with(".stamp"); }),
            1);

  auto second = f.open();
  ASSERT_TRUE(second.has_value()) << render(second.error());
  EXPECT_FALSE(second->compiled);
  EXPECT_EQ(second->root, first->root);
  EXPECT_EQ(f.cache_entries(), after_first);

  // Another model, rules or spelling of the tree is another stamp and entry.
  auto other_rules = f.cache().open(f.json(), "x86", "testlake", PerfVersion::v6_1);
  ASSERT_TRUE(other_rules.has_value());
  EXPECT_TRUE(other_rules->compiled);
  EXPECT_NE(other_rules->root, first->root);
  auto no_model = f.cache().open(f.json(), "x86", "");
  ASSERT_TRUE(no_model.has_value());
  EXPECT_FALSE(fs::exists(no_model->root / "x86" / vendor_index_file_name("testlake")));
  EXPECT_TRUE(fs::exists(no_model->root / "test" / kVendorIndexSysFile));
}

// Opens the fixture's entry, which must succeed; `compiled`: whether this open must compile it.
VendorIndexCache::Entry open_expecting(const CacheFixture& f, bool compiled) {
  auto entry = f.open();
  EXPECT_TRUE(entry.has_value()) << (entry ? std::string() : render(entry.error()));
  if (!entry) return {};
  EXPECT_EQ(entry->compiled, compiled);
  return std::move(*entry);
}

TEST(VendorIndexCache, AChangedJsonFileIsANewEntry) {
  CacheFixture f;
  const auto first = open_expecting(f, true);
  // A new size (and mtime, ctime).
  f.tree.write("json/x86/testlake/pipeline.json", kMore);
  const auto second = open_expecting(f, true);
  EXPECT_NE(second.root, first.root);
  EXPECT_FALSE(fs::exists(first.root));  // the superseded entry is removed
  expect_entry_is_the_json(second.root, f.json());
  EXPECT_EQ(f.cache_entries().size(), 2U);

  // The same size, an old mtime set back: the inode's ctime still moves.
  const auto mtime = fs::last_write_time(f.json() / "x86/testlake/pipeline.json");
  std::string same_size(kMore);
  same_size.replace(same_size.find("Loads."), 6, "Stores");
  f.tree.write("json/x86/testlake/pipeline.json", same_size);
  fs::last_write_time(f.json() / "x86/testlake/pipeline.json", mtime);
  expect_entry_is_the_json(open_expecting(f, true).root, f.json());

  // A new file in the model directory, and in a system table's.
  f.tree.write("json/x86/testlake/cache.json", kPipeline);
  open_expecting(f, true);
  f.tree.write("json/test/soc/sys/more.json", kTestSys);
  expect_entry_is_the_json(open_expecting(f, true).root, f.json());
  // A new `sys` directory anywhere under the architecture.
  f.tree.write("json/x86/board/sys/ddr.json", kTestSys);
  EXPECT_TRUE(fs::exists(open_expecting(f, true).root / "x86" / kVendorIndexSysFile));
  open_expecting(f, false);
}

TEST(VendorIndexCache, ADamagedEntryOrStampIsCompiledAgain) {
  CacheFixture f;
  auto first = f.open();
  ASSERT_TRUE(first.has_value());
  const fs::path model_file = first->root / "x86" / vendor_index_file_name("testlake");
  const std::string bytes = testing::read_text(model_file);

  const std::vector<std::string> damages = {bytes.substr(0, bytes.size() / 2), "garbage", "",
                                            bytes + "tail"};
  for (const std::string& damaged : damages) {
    testing::write_text(model_file, damaged);
    auto again = f.open();
    ASSERT_TRUE(again.has_value()) << render(again.error());
    EXPECT_TRUE(again->compiled) << damaged.size();
    EXPECT_EQ(again->root, first->root);  // the same fingerprint: the same name, replaced
    expect_entry_is_the_json(again->root, f.json());
  }
  fs::remove(first->root / "test" / kVendorIndexSysFile);
  auto without_tables = f.open();
  ASSERT_TRUE(without_tables.has_value());
  EXPECT_TRUE(without_tables->compiled);
  expect_entry_is_the_json(without_tables->root, f.json());

  // The stamp: garbage, cut short, or naming a path outside the cache.
  std::string stamp_name;
  for (const std::string& name : f.cache_entries()) {
    if (name.ends_with(".stamp")) stamp_name = name;
  }
  const fs::path stamp = f.tree.path("cache") / stamp_name;
  const std::string stamp_text = testing::read_text(stamp);
  std::string escaping = stamp_text;
  escaping.replace(escaping.find("entry ") + 6, 16, "../../../../etc.");
  for (const std::string& damaged :
       {std::string("garbage\n"), stamp_text.substr(0, stamp_text.size() - 3), escaping}) {
    testing::write_text(stamp, damaged);
    auto again = f.open();
    ASSERT_TRUE(again.has_value()) << render(again.error());
    EXPECT_TRUE(again->compiled);
    EXPECT_EQ(again->root, first->root);
    expect_entry_is_the_json(again->root, f.json());
  }
  EXPECT_EQ(f.cache_entries().size(), 2U);  // no temporaries left
}

TEST(VendorIndexCache, RacingBuildersShareOneEntry) {
  CacheFixture f;
  constexpr int kThreads = 6;
  std::vector<Expected<VendorIndexCache::Entry>> results(kThreads, unexpected(Diagnostic{}));
  std::vector<std::thread> threads;
  for (int i = 0; i < kThreads; ++i) {
    threads.emplace_back([&, i] { results[i] = f.open(); });
  }
  for (std::thread& thread : threads) thread.join();
  for (const auto& result : results) {
    ASSERT_TRUE(result.has_value()) << render(result.error());
    EXPECT_EQ(result->root, results.front()->root);
  }
  expect_entry_is_the_json(results.front()->root, f.json());
  EXPECT_EQ(f.cache_entries().size(), 2U);  // the losers' temporaries are gone
  auto hit = f.open();
  ASSERT_TRUE(hit.has_value());
  EXPECT_FALSE(hit->compiled);
}

TEST(VendorIndexCache, AnUnusableCacheIsAnErrorValue) {
  CacheFixture f;
  // Under a regular file, no directory can be made (whoever runs the test, root included).
  f.tree.write("file", "x");
  auto unwritable =
      VendorIndexCache(f.tree.path("file/cache"), {.settle{}}).open(f.json(), "x86", "testlake");
  ASSERT_FALSE(unwritable.has_value());
  EXPECT_EQ(unwritable.error().id, "vendor-index-unreadable");
  auto missing_tree = f.cache().open(f.tree.path("nope"), "x86", "testlake");
  EXPECT_FALSE(missing_tree.has_value());
  // The default settle time: a tree written just now is not published.
  auto racy = VendorIndexCache(f.tree.path("cache")).open(f.json(), "x86", "testlake");
  ASSERT_FALSE(racy.has_value());
  EXPECT_NE(racy.error().message.find("recently"), std::string::npos) << racy.error().message;
  EXPECT_FALSE(fs::exists(f.tree.path("cache")));
}

TEST(VendorIndexCache, Directory) {
  EXPECT_EQ(vendor_index_cache_dir("/x", "/home/u"), fs::path("/x/pmucat/vendor-index"));
  EXPECT_EQ(vendor_index_cache_dir("", "/home/u"), fs::path("/home/u/.cache/pmucat/vendor-index"));
  EXPECT_EQ(vendor_index_cache_dir("relative", "/home/u"),
            fs::path("/home/u/.cache/pmucat/vendor-index"));
  EXPECT_EQ(vendor_index_cache_dir("", ""), std::nullopt);
  EXPECT_EQ(vendor_index_cache_dir("", "relative"), std::nullopt);
}

// compile_vendor_index: an index to ship, put in place by a rename; only an earlier index is
// ever replaced.
TEST(CompileVendorIndex, ReplacesAnIndexAndNothingElse) {
  CacheFixture f;
  const fs::path out = f.tree.path("out");
  auto first = compile_vendor_index(f.json(), out);
  ASSERT_TRUE(first.has_value()) << render(first.error());
  EXPECT_EQ(first->models, 1U);
  EXPECT_TRUE(is_vendor_index(out));
  auto model = open_vendor_index_model(out, "x86", "testlake");
  ASSERT_TRUE(model.has_value());
  EXPECT_EQ(model->named("cycles")->front().location.file, "x86/testlake/pipeline.json");

  f.tree.write("json/x86/testlake/pipeline.json", kMore);
  auto second = compile_vendor_index(f.json(), out);
  ASSERT_TRUE(second.has_value());
  EXPECT_EQ(second->events, first->events + 1);
  EXPECT_EQ(open_vendor_index_model(out, "x86", "testlake")->size(), 3U);

  f.tree.mkdir("empty");
  EXPECT_TRUE(compile_vendor_index(f.json(), f.tree.path("empty")).has_value());

  f.tree.write("notes/a.txt", "mine");
  f.tree.write("plain", "mine");
  f.tree.symlink("out", "link");
  f.tree.fifo("fifo");
  for (const char* refused : {"notes", "plain", "link", "fifo"}) {
    auto result = compile_vendor_index(f.json(), f.tree.path(refused));
    ASSERT_FALSE(result.has_value()) << refused;
    EXPECT_EQ(result.error().id, "vendor-index-unreadable");
  }
  EXPECT_EQ(testing::read_text(f.tree.path("notes/a.txt")), "mine");
  EXPECT_EQ(testing::read_text(f.tree.path("plain")), "mine");
  EXPECT_TRUE(fs::is_symlink(f.tree.path("link")));
  EXPECT_TRUE(fs::is_fifo(f.tree.path("fifo")));
  // No temporaries beside the outputs.
  for (const auto& entry : fs::directory_iterator(f.tree.root())) {
    EXPECT_EQ(entry.path().filename().string().find(".tmp."), std::string::npos) << entry.path();
  }
}

}  // namespace
}  // namespace pmucat
