// The index cache (vendor_index_cache.h) over small JSON trees of our own: a miss compiles, a hit
// reads no JSON, a changed file is a new entry, a damaged entry or stamp is compiled again,
// racing builders agree on one entry, and a cache that cannot be written is an error value.
#include "pmucat/vendor_index_cache.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "pmucat/vendor_index.h"
#include "support/temp_tree.h"

PMUCAT_BEGIN_NAMESPACE
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
  auto direct = load_vendor_model(json / "x86", "testlake", kPmucatBaseRelease);
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
  VendorModel expected = load_vendor_sys_tables(json / "test", kPmucatBaseRelease);
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
  auto other_rules = f.cache().open(f.json(), "x86", "testlake", PerfRelease::v6_1);
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

// The entry's files, its stamp: what a damaged byte can be in.
struct EntryFiles {
  fs::path model;
  fs::path tables;
  fs::path stamp;
};

EntryFiles entry_files(const CacheFixture& f, const fs::path& root) {
  EntryFiles files{
      root / "x86" / vendor_index_file_name("testlake"), root / "test" / kVendorIndexSysFile, {}};
  for (const std::string& name : f.cache_entries()) {
    if (name.ends_with(".stamp")) files.stamp = f.tree.path("cache") / name;
  }
  return files;
}

// A nonzero mask for the byte at `at`: every bit flipped somewhere in a file.
char flip(char byte, std::size_t at) {
  return static_cast<char>(byte ^ static_cast<char>(at * 37 % 255 + 1));
}

// Every byte of the entry's files changed in turn: each change is refused (the digest), whatever
// it does to the structure, and so is never served. The bytes are checked in memory, as open()
// checks the mapped file (the property test in vendor_index_catalog_test.cpp damages the files
// themselves, end to end).
TEST(VendorIndexCache, EveryByteOfAnEntryFileChangedIsRefused) {
  CacheFixture f;
  const auto entry = open_expecting(f, true);
  const EntryFiles files = entry_files(f, entry.root);
  std::size_t refused = 0;
  for (const fs::path& file : {files.model, files.tables}) {
    const std::string intact = testing::read_text(file);
    ASSERT_GT(intact.size(), 100U) << file;
    ASSERT_TRUE(VendorIndexModel::from_bytes(intact, file.string()).has_value());
    for (std::size_t at = 0; at < intact.size(); ++at) {
      std::string damaged = intact;
      damaged[at] = flip(damaged[at], at);
      auto opened = VendorIndexModel::from_bytes(damaged, file.string());
      ASSERT_FALSE(opened.has_value()) << file << " byte " << at;
      EXPECT_EQ(opened.error().id, "vendor-index-corrupt");
      EXPECT_EQ(opened.error().range.file, file.string());
      ++refused;
    }
  }
  EXPECT_GT(refused, 300U);
  open_expecting(f, false);
}

// Bytes of the stamp changed (about forty, spread over the whole stamp, the digest line
// included): never a hit on a stamp that is not the one written, always an entry that is the
// JSON's, and a note that says why.
TEST(VendorIndexCache, ChangedStampBytesAreAMissWithANote) {
  CacheFixture f;
  const auto entry = open_expecting(f, true);
  const fs::path stamp = entry_files(f, entry.root).stamp;
  const std::string intact = testing::read_text(stamp);
  const std::size_t step = std::max<std::size_t>(1, intact.size() / 40);
  for (std::size_t at = 0; at < intact.size(); at += step + at % 3) {
    std::string damaged = intact;
    damaged[at] = flip(damaged[at], at);
    testing::write_text(stamp, damaged);
    auto again = f.open();
    ASSERT_TRUE(again.has_value()) << "byte " << at << ": " << render(again.error());
    ASSERT_TRUE(again->compiled) << "byte " << at;
    ASSERT_FALSE(again->notes.empty()) << "byte " << at;
    EXPECT_EQ(again->notes.front().severity, Severity::note);
    EXPECT_EQ(again->notes.front().id, "vendor-index-unreadable");
    EXPECT_EQ(again->root, entry.root);
  }
  expect_entry_is_the_json(entry.root, f.json());
  EXPECT_EQ(f.cache_entries().size(), 2U);
}

// What another user could have written is never used, replaced or removed: the cache directory,
// an entry or a stamp not owned by the effective user, or writable by others. Files of this
// user's that are writable by others are compiled again, privately.
TEST(VendorIndexCache, GroupOrWorldWritableFilesAreNotUsed) {
  CacheFixture f;
  const auto entry = open_expecting(f, true);
  const EntryFiles files = entry_files(f, entry.root);
  for (const fs::path& file : {files.model, files.tables}) {
    for (const fs::perms writable : {fs::perms::group_write, fs::perms::others_write}) {
      fs::permissions(file, writable, fs::perm_options::add);
      auto again = f.open();
      ASSERT_TRUE(again.has_value()) << render(again.error());
      EXPECT_TRUE(again->compiled);
      ASSERT_FALSE(again->notes.empty());
      EXPECT_NE(again->notes.front().message.find("writable by other users"), std::string::npos)
          << again->notes.front().message;
      EXPECT_EQ(fs::status(file).permissions() & fs::perms::all, fs::perms(0600));
    }
  }
  // The cache directory itself: not used, nothing written there.
  fs::permissions(f.tree.path("cache"), fs::perms::group_write, fs::perm_options::add);
  auto open_cache = f.open();
  ASSERT_FALSE(open_cache.has_value());
  EXPECT_NE(open_cache.error().message.find("writable by other users"), std::string::npos);
  fs::permissions(f.tree.path("cache"), fs::perms::group_write, fs::perm_options::remove);
  // Entries are written private whatever the umask.
  const mode_t umask_was = ::umask(0);
  f.tree.write("json/x86/testlake/more.json", kPipeline);
  auto under_open_umask = f.open();
  ::umask(umask_was);
  ASSERT_TRUE(under_open_umask.has_value()) << render(under_open_umask.error());
  EXPECT_EQ(fs::status(under_open_umask->root).permissions() & fs::perms::all, fs::perms(0700));
  open_expecting(f, false);
}

TEST(VendorIndexCache, EntriesOfAnotherUserAreNeitherUsedNorRemoved) {
  if (::geteuid() != 0) GTEST_SKIP() << "needs root to give files to another user";
  constexpr uid_t kNobody = 65534;
  CacheFixture f;
  const auto entry = open_expecting(f, true);
  const EntryFiles files = entry_files(f, entry.root);
  // The entry directory: passed over (a note), and left as it is; nothing is cached.
  ASSERT_EQ(::chown(entry.root.c_str(), kNobody, kNobody), 0);
  auto foreign_entry = f.open();
  ASSERT_FALSE(foreign_entry.has_value());
  EXPECT_NE(foreign_entry.error().message.find("owned by uid 65534"), std::string::npos)
      << foreign_entry.error().message;
  EXPECT_TRUE(fs::exists(files.model));
  ASSERT_EQ(::chown(entry.root.c_str(), 0, 0), 0);
  open_expecting(f, false);
  // A model file of another user's inside an entry of ours: compiled again.
  ASSERT_EQ(::chown(files.model.c_str(), kNobody, kNobody), 0);
  auto foreign_file = f.open();
  ASSERT_TRUE(foreign_file.has_value());
  EXPECT_TRUE(foreign_file->compiled);
  ASSERT_FALSE(foreign_file->notes.empty());
  EXPECT_NE(foreign_file->notes.front().message.find("owned by uid 65534"), std::string::npos);
  // The stamp, and the cache directory: not used, not replaced.
  ASSERT_EQ(::chown(files.stamp.c_str(), kNobody, kNobody), 0);
  EXPECT_FALSE(f.open().has_value());
  EXPECT_EQ(fs::status(files.stamp).type(), fs::file_type::regular);
  ASSERT_EQ(::chown(files.stamp.c_str(), 0, 0), 0);
  open_expecting(f, false);
  ASSERT_EQ(::chown(f.tree.path("cache").c_str(), kNobody, kNobody), 0);
  auto foreign_cache = f.open();
  ASSERT_FALSE(foreign_cache.has_value());
  EXPECT_NE(foreign_cache.error().message.find("owned by uid 65534"), std::string::npos);
}

// A FIFO, a symlink or a file far larger than an index file where an entry's file or the stamp
// should be: refused at once (never read, never blocked on), and the entry compiled again, or,
// for a stamp that cannot be replaced as this user's file, not cached.
TEST(VendorIndexCache, FifosLinksAndHugeFilesAreRefusedWithoutBlocking) {
  CacheFixture f;
  const auto entry = open_expecting(f, true);
  const EntryFiles files = entry_files(f, entry.root);
  auto expect_recompiled = [&](const std::string& why) {
    auto again = f.open();
    ASSERT_TRUE(again.has_value()) << render(again.error());
    EXPECT_TRUE(again->compiled);
    ASSERT_FALSE(again->notes.empty());
    EXPECT_NE(again->notes.front().message.find(why), std::string::npos)
        << again->notes.front().message;
  };
  fs::remove(files.model);
  f.tree.fifo(fs::relative(files.model, f.tree.root()).string());
  expect_recompiled("not a regular file");
  fs::remove(files.model);
  f.tree.symlink(files.tables.string(), fs::relative(files.model, f.tree.root()).string());
  expect_recompiled("symlink");
  // 3 GB of holes: refused by its size, not read.
  ASSERT_EQ(::truncate(files.model.c_str(), 3LL << 30), 0);
  expect_recompiled("more than the 64 MiB");

  const std::string stamp = testing::read_text(files.stamp);
  fs::remove(files.stamp);
  f.tree.fifo(fs::relative(files.stamp, f.tree.root()).string());
  auto fifo_stamp = f.open();
  ASSERT_FALSE(fifo_stamp.has_value());
  EXPECT_NE(fifo_stamp.error().message.find("not a regular file"), std::string::npos);
  EXPECT_TRUE(fs::is_fifo(files.stamp));
  fs::remove(files.stamp);
  testing::write_text(files.stamp, stamp);
  ASSERT_EQ(::truncate(files.stamp.c_str(), 3LL << 30), 0);
  auto huge_stamp = f.open();
  ASSERT_FALSE(huge_stamp.has_value());
  EXPECT_NE(huge_stamp.error().message.find("more than a stamp"), std::string::npos);
}

// A `sys` walk that meets a link back to a directory on its way is not walked through it: the
// loader says so by path, and the cache's fingerprint walks the same directories.
TEST(VendorIndexCache, DirectoryLoopsAreRefusedWithADiagnostic) {
  CacheFixture f;
  for (int i = 0; i < 10; ++i) f.tree.symlink(".", "json/x86/loop" + std::to_string(i));
  f.tree.symlink("..", "json/test/soc/up");
  VendorModel tables = load_vendor_sys_tables(f.json() / "x86", kPmucatBaseRelease);
  ASSERT_EQ(tables.diagnostics.size(), 10U);
  EXPECT_EQ(tables.diagnostics.front().range.file, (f.json() / "x86/loop0").string());
  EXPECT_NE(tables.diagnostics.front().message.find("loop"), std::string::npos);
  VendorModel test_tables = load_vendor_sys_tables(f.json() / "test", kPmucatBaseRelease);
  ASSERT_EQ(test_tables.diagnostics.size(), 1U);
  EXPECT_EQ(test_tables.events.size(), 1U);  // soc/sys still read
  auto first = f.open();
  ASSERT_TRUE(first.has_value()) << render(first.error());
  auto sys = open_vendor_index_sys(first->root, "x86");
  ASSERT_TRUE(sys.has_value() && sys->has_value());
  EXPECT_EQ((*sys)->diagnostics(), tables.diagnostics);  // kept by the entry
  open_expecting(f, false);
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

// `pmuls --compile-index idx/`: a trailing slash names the directory, as a shell's completion
// writes it; a name that is no directory's own ('.', '..') is refused with a reason.
TEST(CompileVendorIndex, ATrailingSlashNamesTheDirectory) {
  CacheFixture f;
  const std::string out = f.tree.path("out").string();
  for (const std::string& spelled : {out + "/", out + "//"}) {
    auto result = compile_vendor_index(f.json(), spelled);
    ASSERT_TRUE(result.has_value()) << spelled << ": " << render(result.error());
    EXPECT_TRUE(is_vendor_index(out));
  }
  for (const char* refused : {".", "..", "out/."}) {
    auto result = compile_vendor_index(f.json(), refused);
    ASSERT_FALSE(result.has_value()) << refused;
    EXPECT_NE(result.error().message.find("name the index directory"), std::string::npos);
  }
  for (const auto& entry : fs::directory_iterator(f.tree.root())) {
    EXPECT_EQ(entry.path().filename().string().find(".tmp."), std::string::npos) << entry.path();
  }
}

}  // namespace
PMUCAT_END_NAMESPACE
