// Internal unit test of fuzz/tree_codec.h: the fuzz targets' tree container.
// The fuzz tree container (fuzz/tree_codec.h): round trips, dropped records, and that a written
// tree never reaches outside its root or blocks on a FIFO.
#include "tree_codec.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <string>
#include <vector>

#include "pmucat/version.h"

PMUCAT_BEGIN_NAMESPACE
namespace fuzz {
namespace {

namespace fs = std::filesystem;

std::vector<TreeEntry> decode(const std::string& bytes) {
  return decode_tree({reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size()});
}

TEST(TreeCodec, EncodeThenDecodeGivesTheEntriesBack) {
  const std::vector<TreeEntry> entries = {
      {EntryKind::directory, "devices/cpu", ""},
      {EntryKind::file, "devices/cpu/type", "4\n"},
      {EntryKind::file_with_nuls, "devices/cpu/events/nul", std::string("a\0b", 3)},
      {EntryKind::symlink, "bus/event_source/devices/cpu", "../../../devices/cpu"},
      {EntryKind::fifo, "devices/cpu/format/fifo", ""},
  };
  EXPECT_EQ(decode(encode_tree(entries)), entries);
}

TEST(TreeCodec, AFileHoldingNulBytesIsEncodedAsAnNRecord) {
  const std::vector<TreeEntry> entries = {{EntryKind::file, "f", std::string("x\0y", 3)}};
  const std::string encoded = encode_tree(entries);
  EXPECT_EQ(encoded, std::string("nf\0x\x01y\0", 7));
  EXPECT_EQ(decode(encoded).front().content, std::string("x\0y", 3));
}

TEST(TreeCodec, RecordsWithAbsoluteOrClimbingPathsAreDropped) {
  const std::string bytes = std::string("f/etc/passwd\0x\0", 15) + std::string("fa/../b\0x\0", 10) +
                            std::string("f\0x\0", 4) + std::string("fok\0y\0", 6);
  const std::vector<TreeEntry> entries = decode(bytes);
  ASSERT_EQ(entries.size(), 1u);
  EXPECT_EQ(entries.front().path, "ok");
}

TEST(TreeCodec, AnyKindByteDecodesAndATruncatedRecordKeepsItsPath) {
  const std::vector<TreeEntry> entries = decode(std::string("\x08name", 5));
  ASSERT_EQ(entries.size(), 1u);
  EXPECT_EQ(entries.front().kind, EntryKind::fifo);  // 8 % 5 == 3
  EXPECT_EQ(entries.front().path, "name");
  EXPECT_EQ(entries.front().content, "");
}

TEST(TreeCodec, WrittenTreeHasTheFilesLinksAndFifos) {
  const ScratchDir dir;
  const std::vector<TreeEntry> entries = {
      {EntryKind::file, "devices/cpu/type", "4\n"},
      {EntryKind::symlink, "bus/event_source/devices/cpu", "../../../devices/cpu"},
      {EntryKind::fifo, "devices/cpu/events/p", ""},
  };
  EXPECT_EQ(write_tree(dir.path(), entries), 3u);
  EXPECT_TRUE(fs::is_regular_file(dir.path() / "bus/event_source/devices/cpu/type"));
  EXPECT_TRUE(fs::is_fifo(dir.path() / "devices/cpu/events/p"));
  EXPECT_EQ(read_tree(dir.path(), std::vector<std::string>{"devices/cpu/type"}),
            std::vector<TreeEntry>{entries.front()});
}

TEST(TreeCodec, LinksThatCouldLeaveTheRootAreNotCreated) {
  const ScratchDir dir;
  const std::vector<TreeEntry> entries = {
      {EntryKind::symlink, "up", ".."},
      {EntryKind::symlink, "a/b/abs", "/etc"},
      {EntryKind::symlink, "a/b/late-climb", "c/../../../.."},
      // `self` is the root itself, so `self/self/too-high` sits at depth 0, not 2.
      {EntryKind::symlink, "self", "."},
      {EntryKind::symlink, "self/self/too-high", "../../etc"},
      {EntryKind::symlink, "a/b/fine", "../../a"},
  };
  EXPECT_EQ(write_tree(dir.path(), entries), 2u);  // `self` and `fine`
  EXPECT_FALSE(fs::is_symlink(dir.path() / "up"));
  EXPECT_FALSE(fs::is_symlink(dir.path() / "a/b/abs"));
  EXPECT_FALSE(fs::is_symlink(dir.path() / "a/b/late-climb"));
  EXPECT_FALSE(fs::is_symlink(dir.path() / "too-high"));
  EXPECT_TRUE(fs::is_symlink(dir.path() / "a/b/fine"));
}

TEST(TreeCodec, WritingOverAFifoDoesNotWaitForAReader) {
  const ScratchDir dir;
  const std::vector<TreeEntry> entries = {{EntryKind::fifo, "p", ""}, {EntryKind::file, "p", "x"}};
  EXPECT_EQ(write_tree(dir.path(), entries), 1u);
  EXPECT_TRUE(fs::is_fifo(dir.path() / "p"));
}

TEST(TreeCodec, ScratchDirIsRemovedWithItsContents) {
  fs::path where;
  {
    const ScratchDir dir;
    where = dir.path();
    ASSERT_EQ(write_tree(where, std::vector<TreeEntry>{{EntryKind::file, "a/b/c", "x"}}), 1u);
  }
  EXPECT_FALSE(fs::exists(where));
}

}  // namespace
}  // namespace fuzz
PMUCAT_END_NAMESPACE
